//! A process's memory and CPU time, from `/proc/<pid>/status` and `/proc/<pid>/stat`.

use serde::{Deserialize, Serialize};

/// `/proc` counts CPU time in clock ticks of `USER_HZ`, which is 100 on Linux.
const TICKS_PER_SEC: f64 = 100.0;

/// One reading of a process.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ProcSample {
    /// Resident memory, KiB.
    pub rss_kib: u64,
    /// Peak resident memory, KiB.
    pub hwm_kib: u64,
    /// User CPU time, seconds (all threads).
    pub user_s: f64,
    /// System CPU time, seconds (all threads).
    pub system_s: f64,
    /// Threads.
    pub threads: u64,
    /// Time the process's threads spent runnable but waiting for a CPU, seconds (from
    /// `/proc/<pid>/task/*/schedstat`): how much other work on the machine held it up.
    pub cpu_wait_s: f64,
}

impl ProcSample {
    /// Reads a process (`None`: this process). `None` if it cannot be read (gone, not Linux).
    pub fn read(pid: Option<u32>) -> Option<ProcSample> {
        let dir = match pid {
            Some(pid) => format!("/proc/{pid}"),
            None => "/proc/self".to_string(),
        };
        let status = std::fs::read_to_string(format!("{dir}/status")).ok()?;
        let stat = std::fs::read_to_string(format!("{dir}/stat")).ok()?;
        let mut sample = parse(&status, &stat)?;
        sample.cpu_wait_s = run_queue_wait(&dir);
        Some(sample)
    }

    /// CPU seconds, user and system.
    pub fn cpu_s(&self) -> f64 {
        self.user_s + self.system_s
    }
}

/// The sum over the process's threads of the time spent waiting on a run queue, seconds.
fn run_queue_wait(dir: &str) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("{dir}/task")) else { return 0.0 };
    let nanos: u64 = tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("schedstat")).ok())
        .filter_map(|text| schedstat_wait(&text))
        .sum();
    nanos as f64 / 1e9
}

/// The second field of a `schedstat` line: nanoseconds spent waiting on a run queue.
pub fn schedstat_wait(text: &str) -> Option<u64> {
    text.split_whitespace().nth(1)?.parse().ok()
}

/// Reads the text of `status` and `stat`.
pub fn parse(status: &str, stat: &str) -> Option<ProcSample> {
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
    };
    // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After the name: state is field 3, utime field 14, stime field 15 (1-based, see proc(5)).
    let ticks = |n: usize| fields.get(n - 3).and_then(|v| v.parse::<u64>().ok());
    Some(ProcSample {
        rss_kib: field("VmRSS:")?,
        hwm_kib: field("VmHWM:").unwrap_or(0),
        user_s: ticks(14)? as f64 / TICKS_PER_SEC,
        system_s: ticks(15)? as f64 / TICKS_PER_SEC,
        threads: field("Threads:").unwrap_or(0),
        cpu_wait_s: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_status_and_stat() {
        let status = "Name:\tfipsen-server\nVmHWM:\t   20480 kB\nVmRSS:\t   10240 kB\nThreads:\t3\n";
        let stat = "4242 (fipsen server) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0 1000 \
                    100000 2560 18446744073709551615";
        let sample = parse(status, stat).unwrap();
        assert_eq!(sample.rss_kib, 10240);
        assert_eq!(sample.hwm_kib, 20480);
        assert_eq!(sample.threads, 3);
        assert!((sample.user_s - 2.5).abs() < 1e-9);
        assert!((sample.system_s - 0.75).abs() < 1e-9);
        assert!((sample.cpu_s() - 3.25).abs() < 1e-9);
    }

    #[test]
    fn reads_the_run_queue_wait() {
        assert_eq!(schedstat_wait("228566907 532609176 794\n"), Some(532_609_176));
        assert_eq!(schedstat_wait("12"), None);
    }

    #[test]
    fn reads_this_process() {
        let me = ProcSample::read(None).expect("/proc/self is readable on Linux");
        assert!(me.rss_kib > 0);
        assert!(me.threads >= 1);
    }
}
