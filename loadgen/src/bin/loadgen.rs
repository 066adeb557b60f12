//! `loadgen`: drives a running Fipsen server (or the baseline) with N tables and measures it.
//! See `loadgen --help`, `scripts/bench/` and BENCHMARKS.md.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};
use fipsen_loadgen::run::{PhaseSpec, RunOptions, run};
use fipsen_loadgen::table::{SavedRoom, TableConfig};
use fipsen_loadgen::{analyses, bot_rooms, report, restore};
use fipsen_rules::GameId;

#[derive(Debug, Parser)]
#[command(name = "loadgen", version, about = "Load generator for the Fipsen server")]
struct Args {
    /// Worker threads of the generator's runtime.
    #[arg(long, global = true, default_value_t = 1)]
    threads: usize,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open N tables, hold them, then play at each rate in turn and report.
    Run(RunArgs),
    /// Fill the server's database: rooms of four players with a few moves each; saves tokens.
    Preload(PreloadArgs),
    /// After a restart: resume every saved room and check its game; times from --t0.
    RestoreCheck(RestoreArgs),
    /// Open rooms of bots only, each watched by its creator, and count their events.
    BotRooms(BotRoomsArgs),
    /// Rooms of bots whose every finished deal is replayed at once (each an analysis): the
    /// analysis load to run beside a table run.
    Analyses(AnalysesArgs),
}

#[derive(Debug, clap::Args)]
struct AnalysesArgs {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Clients, each with a room of bots.
    #[arg(long, default_value_t = 4)]
    clients: usize,
    /// The rooms' rules (JSON): by default Wippen at two seats over many games.
    #[arg(long, default_value = r#"{"game": "wippen", "sets": 100}"#)]
    rules: String,
    /// The bots' level (easy bots cost least beside the analyses).
    #[arg(long, default_value = "easy")]
    level: String,
    /// Seconds to run.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// Write the report as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct BotRoomsArgs {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Rooms.
    #[arg(long, default_value_t = 10)]
    rooms: usize,
    /// The rooms' rules (JSON).
    #[arg(long, default_value = r#"{"game": "tippen", "preset": "dreiblatt_1859", "players": 10}"#)]
    rules: String,
    /// The bots' pause before each move (the room's `bot_delay_ms`).
    #[arg(long, default_value_t = 0)]
    bot_delay_ms: u32,
    /// Seconds to watch.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// Write the report as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// A name for the report.
    #[arg(long, default_value = "fipsen")]
    label: String,
    /// Tables.
    #[arg(long, default_value_t = 20)]
    tables: usize,
    /// Spectator connections per table (besides the players).
    #[arg(long, default_value_t = 2)]
    spectators: usize,
    /// Move rates to measure, over all tables, moves per second (comma-separated; 0: none).
    #[arg(long, value_delimiter = ',', default_value = "100")]
    rates: Vec<f64>,
    /// Seconds per rate.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Seconds of warm-up at the first rate, not measured.
    #[arg(long, default_value_t = 0.0)]
    warmup: f64,
    /// Seconds to hold the tables idle after setup before measuring memory.
    #[arg(long, default_value_t = 0.0)]
    hold: f64,
    /// Stop rising once a rate's p99 (from the scheduled time) passes this many ms.
    #[arg(long)]
    stop_p99_ms: Option<f64>,
    /// Deals per series; a table whose series ends opens a new room.
    #[arg(long, default_value_t = 8)]
    deals: u32,
    /// The game the tables play (any game's code: `prisdorf`, `tippen`, `wippen`, …).
    #[arg(long, default_value = "prisdorf", value_parser = parse_game)]
    game: GameId,
    /// Seats at each table, for a game played at several sizes (default: the game's own).
    #[arg(long)]
    players: Option<u8>,
    /// Loopback source addresses (127.0.0.2, …) to spread connections over.
    #[arg(long, default_value_t = 8)]
    sources: usize,
    /// Tables set up at the same time.
    #[arg(long, default_value_t = 64)]
    setup_concurrency: usize,
    /// The server's process id, for its memory and CPU time.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Also check that every frame is a valid protocol message, and keep every spectator's
    /// state up to date too (costs generator CPU).
    #[arg(long)]
    strict: bool,
    /// Only connect and say hello: no rooms.
    #[arg(long)]
    hello_only: bool,
    /// Seed for the moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the report as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Exit with failure on any error, disconnection, lost event or unresolved move.
    #[arg(long)]
    fail_on_error: bool,
    /// Less progress output.
    #[arg(long)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
struct PreloadArgs {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Rooms to create.
    #[arg(long, default_value_t = 10_000)]
    rooms: usize,
    /// Moves to play in each room.
    #[arg(long, default_value_t = 8)]
    moves: usize,
    /// Tables of four working side by side.
    #[arg(long, default_value_t = 50)]
    groups: usize,
    /// Where to save the rooms' tokens and the host's last view (JSON).
    #[arg(long)]
    out: PathBuf,
    /// Seed for the moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Debug, clap::Args)]
struct RestoreArgs {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The file `preload` wrote.
    #[arg(long)]
    saved: PathBuf,
    /// Connections resuming rooms side by side.
    #[arg(long, default_value_t = 32)]
    connections: usize,
    /// When the server was started, seconds since 1970 (`date +%s.%N`); default: now.
    #[arg(long)]
    t0: Option<f64>,
    /// Seconds to wait for the server to accept connections.
    #[arg(long, default_value_t = 120.0)]
    patience: f64,
    /// Write the report as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

fn write_json<T: serde::Serialize>(path: Option<&PathBuf>, value: &T) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

async fn main_run(args: RunArgs) -> Result<bool, String> {
    let mut phases = Vec::new();
    if args.warmup > 0.0
        && let Some(&rate) = args.rates.first()
    {
        phases.push(PhaseSpec { rate, seconds: args.warmup, warmup: true });
    }
    phases.extend(args.rates.iter().filter(|r| **r > 0.0).map(|&rate| PhaseSpec {
        rate,
        seconds: args.seconds,
        warmup: false,
    }));
    let options = RunOptions {
        label: args.label,
        addr: args.addr,
        sources: args.sources,
        tables: args.tables,
        table: TableConfig {
            game: args.game,
            players: args.players,
            spectators: args.spectators,
            deals: Some(args.deals.max(1)),
            strict: args.strict,
            hello_only: args.hello_only,
            seed: args.seed,
            keep_last: false,
        },
        setup_concurrency: args.setup_concurrency,
        hold_seconds: args.hold,
        phases,
        stop_p99_ms: args.stop_p99_ms,
        server_pid: args.server_pid,
        verbose: !args.quiet,
    };
    let result = run(options).await;
    print!("{}", report::text(&result));
    write_json(args.json.as_ref(), &result)?;
    Ok(!args.fail_on_error || result.clean())
}

async fn main_preload(args: PreloadArgs) -> Result<bool, String> {
    let (saved, report) = restore::preload(args.addr, args.rooms, args.moves, args.groups, args.seed).await?;
    write_json(Some(&args.out), &saved)?;
    println!(
        "preloaded {} rooms in {:.1} s: {} moves at {:.0}/s (closed loop, p50 {:.2} ms, p99 {:.2} ms), {} errors",
        report.rooms,
        report.seconds,
        report.moves.resolved,
        report.moves.moves_per_s,
        report.moves.from_send.p50_ms,
        report.moves.from_send.p99_ms,
        report.errors
    );
    Ok(report.errors == 0)
}

async fn main_restore(args: RestoreArgs) -> Result<bool, String> {
    let t0 = args.t0.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
    });
    let text = std::fs::read_to_string(&args.saved).map_err(|e| format!("{}: {e}", args.saved.display()))?;
    let saved: Vec<SavedRoom> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", args.saved.display()))?;
    let report = restore::check(args.addr, saved, args.connections, t0, Duration::from_secs_f64(args.patience)).await;
    println!(
        "restore: {} of {} rooms restored with the same game ({} differ, {} failed); first connection {:.3} s, \
         first room {:.3} s, all rooms {:.3} s after the start; resume p50 {:.2} ms p99 {:.2} ms",
        report.restored,
        report.rooms,
        report.mismatched,
        report.failed,
        report.first_connection_s,
        report.first_room_s,
        report.all_rooms_s,
        report.resume.p50_ms,
        report.resume.p99_ms
    );
    if let Some(f) = &report.first_failure {
        println!("first failure: {f}");
    }
    write_json(args.json.as_ref(), &report)?;
    Ok(report.restored == report.rooms)
}

async fn main_bot_rooms(args: BotRoomsArgs) -> Result<bool, String> {
    let rules: serde_json::Value = serde_json::from_str(&args.rules).map_err(|e| format!("--rules: {e}"))?;
    // One source address: what one client can start.
    let target = fipsen_loadgen::net::Target::new(args.addr, 1);
    let report = bot_rooms::run(&target, args.rooms, rules, args.bot_delay_ms, args.seconds).await;
    println!(
        "bot rooms: {} started, {} events in {:.1} s ({:.0} a second)",
        report.rooms, report.events, report.seconds, report.events_per_s
    );
    if let Some(f) = &report.first_failure {
        println!("first failure: {f}");
    }
    write_json(args.json.as_ref(), &report)?;
    Ok(report.first_failure.is_none())
}

async fn main_analyses(args: AnalysesArgs) -> Result<bool, String> {
    let rules: serde_json::Value = serde_json::from_str(&args.rules).map_err(|e| format!("--rules: {e}"))?;
    // One source address a client: rooms of bots watched from one address share one pace.
    let target = fipsen_loadgen::net::Target::new(args.addr, args.clients);
    let report = analyses::run(&target, args.clients, rules, &args.level, args.seconds).await;
    let r = &report.replay;
    println!(
        "analyses: {} clients, {} replays in {:.1} s ({:.2} a second), replay p50 {:.0} ms p99 {:.0} ms max {:.0} ms, {} busy",
        report.clients, report.replays, report.seconds, report.replays_per_s, r.p50_ms, r.p99_ms, r.max_ms, report.busy
    );
    if let Some(f) = &report.first_failure {
        println!("first failure: {f}");
    }
    write_json(args.json.as_ref(), &report)?;
    Ok(report.first_failure.is_none())
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let runtime =
        match tokio::runtime::Builder::new_multi_thread().worker_threads(args.threads.max(1)).enable_all().build() {
            Ok(runtime) => runtime,
            Err(e) => {
                eprintln!("loadgen: cannot start the runtime: {e}");
                return std::process::ExitCode::FAILURE;
            }
        };
    let outcome = runtime.block_on(async move {
        match args.command {
            Command::Run(a) => main_run(a).await,
            Command::Preload(a) => main_preload(a).await,
            Command::RestoreCheck(a) => main_restore(a).await,
            Command::BotRooms(a) => main_bot_rooms(a).await,
            Command::Analyses(a) => main_analyses(a).await,
        }
    });
    match outcome {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("loadgen: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// A game by its code.
fn parse_game(code: &str) -> Result<GameId, String> {
    GameId::from_code(code).ok_or_else(|| {
        let known: Vec<&str> = GameId::ALL.iter().map(|g| g.code()).collect();
        format!("unknown game `{code}`; the games are {}", known.join(", "))
    })
}
