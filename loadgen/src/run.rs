//! A run: open the tables, hold them idle for a while, then play through the phases (one
//! rate each), measuring each; stop early once a phase's p99 passes a threshold (for finding
//! saturation).

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use tokio::sync::{Semaphore, mpsc, watch};

use crate::counters::{CounterSnapshot, Counters};
use crate::net::Target;
use crate::phase::{Phase, PhaseReport};
use crate::procfs::ProcSample;
use crate::table::{Control, Table, TableConfig};

/// One rate to measure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhaseSpec {
    /// Moves per second over all tables.
    pub rate: f64,
    /// How long.
    pub seconds: f64,
    /// Warm-up phases are run but left out of the verdicts.
    pub warmup: bool,
}

/// What to run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// A name for the report (`fipsen`, `baseline`).
    pub label: String,
    /// The server.
    pub addr: std::net::SocketAddr,
    /// Loopback source addresses to spread connections over.
    pub sources: usize,
    /// Tables.
    pub tables: usize,
    /// How tables are set up.
    pub table: TableConfig,
    /// Tables set up at the same time.
    pub setup_concurrency: usize,
    /// Seconds to hold the tables idle after setup (memory is read before and after).
    pub hold_seconds: f64,
    /// The phases, in order.
    pub phases: Vec<PhaseSpec>,
    /// Stop after the first measured phase whose p99 (from the scheduled time) passes this.
    pub stop_p99_ms: Option<f64>,
    /// The server's process, for memory and CPU time (`None`: not read; 0: this process).
    pub server_pid: Option<u32>,
    /// Print progress to stderr.
    pub verbose: bool,
}

/// Memory of the server around setting up the tables.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct MemoryReport {
    /// Before the first connection, KiB.
    pub rss_before_kib: u64,
    /// With every table set up, KiB.
    pub rss_after_setup_kib: u64,
    /// After holding the tables idle, KiB.
    pub rss_after_hold_kib: u64,
    /// Growth per connection (after holding), KiB.
    pub kib_per_connection: f64,
    /// The server's threads after setup.
    pub threads: u64,
}

/// Everything a run measured.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Report {
    /// The run's name.
    pub label: String,
    /// The server's address.
    pub target: String,
    /// When the run started, seconds since 1970.
    pub started_at: u64,
    /// Tables asked for.
    pub tables: usize,
    /// Tables set up.
    pub tables_open: usize,
    /// Spectators per table.
    pub spectators: usize,
    /// Connections open after setup.
    pub connections: usize,
    /// Seconds to set every table up.
    pub setup_seconds: f64,
    /// Tables that could not be set up.
    pub setup_failures: usize,
    /// The first setup failure, if any.
    pub first_failure: Option<String>,
    /// The server's memory.
    pub memory: MemoryReport,
    /// One entry per phase run.
    pub phases: Vec<PhaseReport>,
    /// Totals over the whole run.
    pub totals: CounterSnapshot,
    /// The generator's CPU seconds over the whole run.
    pub generator_cpu_s: f64,
    /// The generator's peak memory, KiB.
    pub generator_hwm_kib: u64,
    /// The machine's load average (1, 5, 15 minutes) at the start and at the end.
    pub loadavg_start: [f64; 3],
    /// At the end.
    pub loadavg_end: [f64; 3],
}

impl Report {
    /// Whether the run saw no error, no disconnection, no lost event and no unresolved move.
    pub fn clean(&self) -> bool {
        self.setup_failures == 0
            && self.totals.error_total == 0
            && self.totals.disconnects == 0
            && self.totals.lost_events == 0
            && self.totals.unresolved == 0
            && self.totals.stray_updates == 0
    }

    /// The fastest measured phase whose p99 from the scheduled time stayed within `limit_ms`
    /// and that reached at least 95% of its rate.
    pub fn best_within(&self, limit_ms: f64) -> Option<&PhaseReport> {
        self.phases
            .iter()
            .filter(|p| {
                p.label != "warmup"
                    && p.from_scheduled.p99_ms <= limit_ms
                    && p.moves_per_s >= 0.95 * p.target_moves_per_s
            })
            .max_by(|a, b| a.moves_per_s.total_cmp(&b.moves_per_s))
    }
}

/// The machine's load average.
pub fn loadavg() -> [f64; 3] {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut out = [0.0; 3];
    for (slot, value) in out.iter_mut().zip(text.split_whitespace()) {
        *slot = value.parse().unwrap_or(0.0);
    }
    out
}

fn server_sample(pid: Option<u32>) -> Option<ProcSample> {
    match pid {
        None => None,
        Some(0) => ProcSample::read(None),
        Some(pid) => ProcSample::read(Some(pid)),
    }
}

/// Runs the tables and phases and returns what was measured.
pub async fn run(options: RunOptions) -> Report {
    let started = Instant::now();
    let generator_start = ProcSample::read(None).unwrap_or_default();
    let counters = Arc::new(Counters::default());
    let target = Arc::new(Target::new(options.addr, options.sources));
    let config = Arc::new(options.table.clone());
    let mut report = Report {
        label: options.label.clone(),
        target: target.url.clone(),
        started_at: SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        tables: options.tables,
        spectators: options.table.spectators,
        loadavg_start: loadavg(),
        ..Report::default()
    };
    let before = server_sample(options.server_pid).unwrap_or_default();
    report.memory.rss_before_kib = before.rss_kib;

    // Set up every table, a few at a time.
    let (control_tx, control_rx) = watch::channel(Control::Hold);
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel::<Result<usize, String>>();
    let setup = Arc::new(Semaphore::new(options.setup_concurrency.max(1)));
    let mut tasks = Vec::with_capacity(options.tables);
    for index in 0..options.tables {
        let (target, config, counters, setup) = (target.clone(), config.clone(), counters.clone(), setup.clone());
        let (ready, control) = (ready_tx.clone(), control_rx.clone());
        tasks.push(tokio::spawn(async move {
            let permit = setup.acquire_owned().await;
            let opened = Table::open(index, &target, config, counters).await;
            drop(permit);
            match opened {
                Ok(table) => {
                    let _ = ready.send(Ok(index));
                    table.serve(control).await;
                }
                Err(e) => {
                    let _ = ready.send(Err(e));
                }
            }
        }));
    }
    drop(ready_tx);
    let mut answered = 0;
    while answered < options.tables {
        match ready_rx.recv().await {
            Some(Ok(_)) => report.tables_open += 1,
            Some(Err(e)) => {
                report.setup_failures += 1;
                report.first_failure.get_or_insert(e);
            }
            None => break,
        }
        answered += 1;
        if options.verbose && answered % 500 == 0 {
            eprintln!("{}: {answered} of {} tables set up", options.label, options.tables);
        }
    }
    report.setup_seconds = started.elapsed().as_secs_f64();
    let seats = options.table.rules().map_or(4, |rules| rules.seats());
    report.connections = report.tables_open * (seats + options.table.spectators);
    if options.verbose {
        eprintln!(
            "{}: {} tables ({} connections) set up in {:.1} s, {} failed",
            options.label, report.tables_open, report.connections, report.setup_seconds, report.setup_failures
        );
    }
    let after_setup = server_sample(options.server_pid).unwrap_or_default();
    report.memory.rss_after_setup_kib = after_setup.rss_kib;
    report.memory.threads = after_setup.threads;
    if options.hold_seconds > 0.0 {
        tokio::time::sleep(Duration::from_secs_f64(options.hold_seconds)).await;
    }
    let after_hold = server_sample(options.server_pid).unwrap_or_default();
    report.memory.rss_after_hold_kib = after_hold.rss_kib;
    if report.connections > 0 && after_hold.rss_kib > 0 {
        report.memory.kib_per_connection =
            (after_hold.rss_kib as f64 - before.rss_kib as f64) / report.connections as f64;
    }

    // The phases.
    let tables = options.tables;
    let mut over_in_a_row = 0;
    if options.verbose && !options.phases.is_empty() {
        eprintln!("{}: {}", options.label, crate::report::phase_header());
    }
    for spec in &options.phases {
        if report.tables_open == 0 {
            break;
        }
        let label = if spec.warmup { "warmup".to_string() } else { format!("{}/s", spec.rate) };
        let start = Instant::now() + Duration::from_millis(50);
        let phase = Arc::new(Phase::new(&label, spec.rate, spec.seconds, tables, start));
        let counts_before = counters.snapshot();
        let server_before = server_sample(options.server_pid);
        let me_before = ProcSample::read(None);
        let ticker = phase.spawn_ticker();
        let _ = control_tx.send(Control::Run(phase.clone()));
        tokio::time::sleep_until(tokio::time::Instant::from_std(phase.end)).await;
        let _ = control_tx.send(Control::Hold);
        let server_after = server_sample(options.server_pid);
        let me_after = ProcSample::read(None);
        // Let the last moves of the phase arrive.
        tokio::time::sleep(Duration::from_millis(200)).await;
        phase.stop();
        let _ = tokio::task::spawn_blocking(move || ticker.join()).await;
        let counts_after = counters.snapshot();
        let mut figures = phase.report();
        let elapsed = phase.end.saturating_duration_since(start).as_secs_f64().max(1e-9);
        if let (Some(a), Some(b)) = (server_before, server_after) {
            figures.server_cpu = (b.cpu_s() - a.cpu_s()) / elapsed;
            figures.server_cpu_wait = (b.cpu_wait_s - a.cpu_wait_s) / elapsed;
            figures.server_rss_kib = b.rss_kib;
        }
        if let (Some(a), Some(b)) = (me_before, me_after) {
            figures.generator_cpu = (b.cpu_s() - a.cpu_s()) / elapsed;
            figures.generator_cpu_wait = (b.cpu_wait_s - a.cpu_wait_s) / elapsed;
        }
        figures.errors = counts_after.error_total - counts_before.error_total;
        figures.disconnects = counts_after.disconnects - counts_before.disconnects;
        figures.lost_events = counts_after.lost_events - counts_before.lost_events;
        figures.loadavg = loadavg()[0];
        if spec.warmup {
            figures.label = "warmup".into();
        }
        if options.verbose {
            eprintln!("{}: {}", options.label, crate::report::phase_row(&figures));
        }
        // Saturation: stop after two measured rates in a row over the limit (one may be a
        // neighbour's burst), or at once when the rate asked for is clearly not reached.
        let over = !spec.warmup && options.stop_p99_ms.is_some_and(|limit| figures.from_scheduled.p99_ms > limit);
        let short = !spec.warmup && figures.moves_per_s < 0.9 * spec.rate;
        over_in_a_row = if over { over_in_a_row + 1 } else { 0 };
        report.phases.push(figures);
        if options.stop_p99_ms.is_some() && (over_in_a_row >= 2 || (over && short)) {
            break;
        }
    }

    let _ = control_tx.send(Control::Stop);
    for task in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(30), task).await;
    }
    report.totals = counters.snapshot();
    let generator_end = ProcSample::read(None).unwrap_or_default();
    report.generator_cpu_s = generator_end.cpu_s() - generator_start.cpu_s();
    report.generator_hwm_kib = generator_end.hwm_kib;
    report.loadavg_end = loadavg();
    report
}
