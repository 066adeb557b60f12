//! Short runs of the generator against the real server (started in-process on a free port with
//! a temporary database) and against the baseline, failing on any error, disconnection, lost
//! event or unresolved move — so that the tool keeps working as the server changes. No figure
//! is asserted: speed is measured by the benchmarks (BENCHMARKS.md), never here.
#![allow(clippy::unwrap_used)]

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use fipsen_loadgen::baseline::{self, BaselineConfig};
use fipsen_loadgen::counters::Counters;
use fipsen_loadgen::net::Target;
use fipsen_loadgen::phase::Phase;
use fipsen_loadgen::report;
use fipsen_loadgen::restore;
use fipsen_loadgen::run::{PhaseSpec, Report, RunOptions, run};
use fipsen_loadgen::table::{Table, TableConfig};
use fipsen_rules::GameId;
use fipsen_server::config::Config;

/// The real server in this process, on its own runtime and thread.
struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    fn start(db: &Path) -> Server {
        for _attempt in 0..10 {
            // A free port: bind, read it, let it go (retried if someone takes it meanwhile).
            let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
            let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
            let mut config = Config::parse_from(["fipsen-server"]);
            config.addr = addr;
            config.db = db.to_path_buf();
            // The per-connection rate limit protects the server from abuse; the generator's
            // players may send faster than people do.
            config.rate_per_sec = 1000;
            config.rate_burst = 1000;
            config.rooms_per_address = 0;
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let thread = std::thread::spawn(move || {
                let runtime =
                    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
                let _ = runtime.block_on(fipsen_server::run(config, async move {
                    let _ = stopped.await;
                }));
            });
            let deadline = Instant::now() + Duration::from_secs(30);
            while Instant::now() < deadline && !thread.is_finished() {
                if TcpStream::connect(addr).is_ok() {
                    return Server { addr, stop: Some(stop), thread: Some(thread) };
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = thread.join();
        }
        panic!("the server did not start");
    }

    fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn options(label: &str, addr: SocketAddr, tables: usize, rate: f64, seconds: f64, strict: bool) -> RunOptions {
    RunOptions {
        label: label.into(),
        addr,
        sources: 4,
        tables,
        table: TableConfig {
            game: GameId::Prisdorf,
            players: None,
            spectators: 2,
            deals: Some(1),
            strict,
            hello_only: false,
            seed: 42,
            keep_last: false,
        },
        setup_concurrency: 8,
        hold_seconds: 0.0,
        phases: vec![PhaseSpec { rate, seconds, warmup: false }],
        stop_p99_ms: None,
        server_pid: Some(0),
        verbose: false,
    }
}

fn assert_clean(report: &Report) {
    let text = report::text(report);
    assert_eq!(report.tables_open, report.tables, "{text}");
    assert!(report.clean(), "errors, disconnections or lost events:\n{text}");
    let phase = &report.phases[0];
    assert!(phase.resolved > 0, "no move went through:\n{text}");
    // Every move sent was acknowledged and reached every connection at its table.
    assert_eq!(phase.sent, phase.acked, "{text}");
    assert_eq!(phase.sent, phase.resolved, "{text}");
    assert_eq!(phase.refused, 0, "{text}");
}

/// About 20 tables (4 players and 2 spectators each) for 10 seconds against the real server,
/// one-deal series so that tables also finish series and open new rooms.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_tables_for_ten_seconds_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("smoke.sqlite3"));
    let report = run(options("fipsen", server.addr, 20, 200.0, 10.0, true)).await;
    assert_clean(&report);
    assert_eq!(report.connections, 120);
    assert!(report.totals.updates_in > 0);
}

/// The same traffic drives the baseline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_baseline_answers_the_same_traffic() {
    let addr = baseline::start(
        "127.0.0.1:0".parse().unwrap(),
        BaselineConfig { update_bytes: 1500, ..BaselineConfig::default() },
    )
    .await
    .unwrap();
    let report = run(options("baseline", addr, 20, 200.0, 3.0, false)).await;
    assert_clean(&report);
    // Its updates are padded to the size asked for.
    assert!((report.totals.mean_update_bytes - 1500.0).abs() < 1.0, "{}", report::text(&report));
}

/// A table whose series ends opens a new room and plays on there, in every game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_series_leads_to_a_new_room() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("rooms.sqlite3"));
    let target = Target::new(server.addr, 2);
    for &game in GameId::ALL {
        let counters = Arc::new(Counters::default());
        let config = Arc::new(TableConfig {
            game,
            players: None,
            spectators: 1,
            deals: Some(1),
            strict: true,
            hello_only: false,
            seed: 9,
            keep_last: false,
        });
        let phase = Arc::new(Phase::new("closed", 1.0, 0.0, 1, Instant::now()));
        let mut table = Table::open(0, &target, config, counters.clone()).await.unwrap();
        let first_room = table.saved().room;
        let made = table.play(1000, &phase).await.unwrap();
        assert!(table.series_over(), "a one-deal series ends within 1000 moves");
        assert!(made > 0);
        table.new_room().await.unwrap();
        assert_ne!(table.saved().room, first_room);
        assert!(!table.series_over());
        assert_eq!(table.play(3, &phase).await.unwrap(), 3);
        assert_eq!(counters.error_total(), 0, "{:?}", counters.snapshot().errors);
        // `left` is the last frame of the old room: nothing of it arrives afterwards.
        assert_eq!(counters.snapshot().stray_updates, 0, "{game:?}");
    }
}

/// Rooms filled through the protocol come back after a restart with the same game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn preloaded_rooms_are_found_again_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("restore.sqlite3");
    let mut server = Server::start(&db);
    let (saved, preload) = restore::preload(server.addr, 6, 5, 3, 5).await.unwrap();
    assert_eq!(saved.len(), 6);
    assert_eq!(preload.errors, 0);
    assert!(saved.iter().all(|s| s.tokens.len() == 4 && s.host_frame.is_some()));
    server.stop();
    let server = Server::start(&db);
    let t0 = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64();
    let report = restore::check(server.addr, saved, 2, t0, Duration::from_secs(30)).await;
    assert_eq!(report.restored, 6, "{report:?}");
    assert_eq!((report.mismatched, report.failed), (0, 0), "{report:?}");
}
