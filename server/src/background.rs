//! Work that can wait a moment: the reviews of finished deals, replays with the analysis of
//! their play, series pages. It runs on a few threads of its own at a lower scheduling priority
//! (on Linux the batch policy at nice [`NICE`], also in a server started under a real-time
//! policy), so that while a search runs for a second, the rooms' tasks, the bots' moves and the
//! storage writer get the cores first: one deal's analysis does not delay the moves of another
//! room. How many jobs run at once is bounded by the callers' turns (the registry's fair queue,
//! [`crate::fair`], where addresses take turns); jobs beyond the threads wait in a queue.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

use tracing::warn;

/// The nice value of the background threads (0 is the default; 19 the lowest priority).
pub const NICE: i32 = 10;

/// How many background threads there are: as many as jobs may run at once.
pub const THREADS: usize = CONCURRENT_REVIEWS;

/// How many reviews, replays and series pages are computed at the same time (a review takes a
/// background thread for up to a second or two); more wait their turn in their address's short
/// queue ((`fair.rs`)), and beyond it get `review/busy` or `server/busy`.
pub const CONCURRENT_REVIEWS: usize = 2;

type Job = Box<dyn FnOnce() + Send>;

/// The job ended without an answer: it panicked (logged), or the pool is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lost;

/// Runs `work` on a background thread; its result once done.
///
/// # Errors
/// [`Lost`] when the work panicked.
pub async fn run<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, Lost> {
    let (answer, result) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        // A panic drops `answer`: the caller gets `Lost`, and the thread goes on.
        if let Ok(value) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
            let _ = answer.send(value);
        } else {
            warn!("background work panicked");
        }
    });
    queue().lock().unwrap_or_else(|e| e.into_inner()).send(job).map_err(|_| Lost)?;
    result.await.map_err(|_| Lost)
}

/// The queue of the process's background threads, started on first use.
fn queue() -> &'static Mutex<Sender<Job>> {
    static QUEUE: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (jobs, waiting) = channel::<Job>();
        let waiting = Arc::new(Mutex::new(waiting));
        for n in 0..THREADS {
            let waiting = waiting.clone();
            let spawned = std::thread::Builder::new().name(format!("background-{n}")).spawn(move || serve(&waiting));
            if let Err(e) = spawned {
                warn!(error = %e, "cannot start a background thread");
            }
        }
        Mutex::new(jobs)
    })
}

/// One background thread: lowers its own priority, then runs jobs as they come.
fn serve(waiting: &Mutex<Receiver<Job>>) {
    lower_priority();
    loop {
        let next = waiting.lock().unwrap_or_else(|e| e.into_inner()).recv();
        match next {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// Puts the calling thread under the batch policy (for work that uses the CPU for long) at
/// nice [`NICE`]: on Linux, where both are the thread's own (elsewhere the calls may apply to
/// the whole process, so they are not made). This holds also for a server started under a
/// real-time policy, whose other threads keep it. The SQLite checkpoint thread lowers itself
/// the same way.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy};
        // The crate maps 0–99 onto nice 19 to −20: 22 is nice 10.
        let priority = ThreadPriority::Crossplatform(22u8.try_into().expect("22 is within 0–99"));
        let policy = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Batch);
        if let Err(e) =
            thread_priority::set_thread_priority_and_policy(thread_priority::thread_native_id(), priority, policy)
        {
            warn!(error = ?e, thread = ?std::thread::current().name(), "cannot lower a background thread's priority");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Work runs and answers; a panic is an error and the threads go on; they run niced.
    #[tokio::test]
    async fn work_runs_at_a_lower_priority_and_survives_a_panic() {
        #[cfg(target_os = "linux")]
        let before = rustix::process::getpriority_process(None).unwrap();
        assert_eq!(run(|| 6 * 7).await, Ok(42));
        for _ in 0..THREADS {
            assert_eq!(run(|| -> u8 { panic!("a failing job") }).await, Err(Lost));
        }
        assert_eq!(run(|| "still here").await, Ok("still here"));
        #[cfg(target_os = "linux")]
        {
            let (policy, background) = run(|| {
                (
                    thread_priority::thread_schedule_policy().unwrap(),
                    rustix::process::getpriority_process(None).unwrap(),
                )
            })
            .await
            .unwrap();
            assert_eq!(
                policy,
                thread_priority::ThreadSchedulePolicy::Normal(thread_priority::NormalThreadSchedulePolicy::Batch)
            );
            assert!(background >= NICE, "background threads run at nice {background}");
            let after = rustix::process::getpriority_process(None).unwrap();
            assert_eq!(after, before, "only the background threads are lowered");
        }
    }
}
