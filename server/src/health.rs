//! `/healthz`: the server answers, and its storage can write.

use std::time::{Duration, Instant};

use tokio::sync::Mutex;
use tracing::warn;

use crate::storage::Storage;

/// A probe's answer is reused for this long.
const FRESH: Duration = Duration::from_secs(1);

/// A probe that takes longer counts as failed: a disk that hangs is as bad as one that refuses.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// The latest storage probe.
#[derive(Debug, Default)]
pub struct Health {
    last: Mutex<Option<(Instant, Result<(), String>)>>,
}

impl Health {
    /// Whether storage can write: a tiny write committed through the writer thread like any
    /// action (at most one a second, however often this is asked).
    ///
    /// # Errors
    /// Why storage cannot write, in a sentence.
    pub async fn check(&self, storage: &Storage) -> Result<(), String> {
        // Held across the probe on purpose: checks that come meanwhile wait for its answer
        // instead of each making a write of their own.
        let mut last = self.last.lock().await;
        if let Some((at, result)) = last.as_ref()
            && at.elapsed() < FRESH
        {
            return result.clone();
        }
        let result = match tokio::time::timeout(PROBE_TIMEOUT, storage.probe()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("storage cannot write: {e}")),
            Err(_) => Err(format!("storage did not complete a write within {} s", PROBE_TIMEOUT.as_secs())),
        };
        if let Err(reason) = &result {
            warn!(%reason, "unhealthy");
        }
        *last = Some((Instant::now(), result.clone()));
        result
    }
}
