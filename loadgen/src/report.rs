//! Reports as readable text.

use std::fmt::Write as _;

use crate::phase::PhaseReport;
use crate::run::Report;

/// The column names of [`phase_row`].
pub fn phase_header() -> String {
    format!(
        "{:<9} {:>8} {:>9} | {:>27} | {:>27} | {:>6} {:>6} | {:>5} {:>5} {:>5} {:>5} | {:>4} {:>4} {:>4}",
        "phase",
        "target/s",
        "moves/s",
        "scheduled→last p50/p99/p99.9",
        "sent→last p50/p99/p99.9",
        "late99",
        "max",
        "srv",
        "wait",
        "gen",
        "wait",
        "err",
        "lost",
        "disc"
    )
}

/// One phase as a row: rates, latencies (ms), the generator's lateness, CPU use and CPU waits
/// (cores), errors, lost events and disconnections.
pub fn phase_row(p: &PhaseReport) -> String {
    format!(
        "{:<9} {:>8.0} {:>9.1} | {:>8.3} {:>8.3} {:>9.3} | {:>8.3} {:>8.3} {:>9.3} | {:>6.3} {:>6.1} | {:>5.2} {:>5.2} \
         {:>5.2} {:>5.2} | {:>4} {:>4} {:>4}",
        p.label,
        p.target_moves_per_s,
        p.moves_per_s,
        p.from_scheduled.p50_ms,
        p.from_scheduled.p99_ms,
        p.from_scheduled.p999_ms,
        p.from_send.p50_ms,
        p.from_send.p99_ms,
        p.from_send.p999_ms,
        p.lateness.p99_ms,
        p.from_scheduled.max_ms,
        p.server_cpu,
        p.server_cpu_wait,
        p.generator_cpu,
        p.generator_cpu_wait,
        p.errors,
        p.lost_events,
        p.disconnects
    )
}

/// The whole report as a table (latencies in milliseconds).
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — {}: {} of {} tables ({} spectators each, {} connections) set up in {:.1} s",
        report.label,
        report.target,
        report.tables_open,
        report.tables,
        report.spectators,
        report.connections,
        report.setup_seconds
    );
    let m = &report.memory;
    let _ = writeln!(
        out,
        "server memory: {} KiB before, {} KiB after setup, {} KiB after holding: {:.2} KiB per connection",
        m.rss_before_kib, m.rss_after_setup_kib, m.rss_after_hold_kib, m.kib_per_connection
    );
    if !report.phases.is_empty() {
        let _ = writeln!(out, "{}", phase_header());
        for p in &report.phases {
            let _ = writeln!(out, "{}", phase_row(p));
        }
    }
    let t = &report.totals;
    let _ = writeln!(
        out,
        "totals: {} errors {:?}, {} disconnects, {} lost events, {} unresolved moves, {} series completed, \
         mean update frame {:.0} bytes, {} updates after leaving a room",
        t.error_total,
        t.errors,
        t.disconnects,
        t.lost_events,
        t.unresolved,
        t.series_completed,
        t.mean_update_bytes,
        t.stray_updates
    );
    let _ = writeln!(
        out,
        "generator: {:.1} CPU s, peak {} KiB; load average {:.2} at start, {:.2} at end",
        report.generator_cpu_s, report.generator_hwm_kib, report.loadavg_start[0], report.loadavg_end[0]
    );
    out
}
