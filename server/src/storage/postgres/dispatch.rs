//! The engine's main task: hands each operation, in the order they come, to the writer (writes)
//! or to a task of its own (reads), and stops the engine.

use std::sync::Arc;

use deadpool_postgres::Pool;
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::{Op, Reply, leases, queries, writer};
use crate::metrics::Metrics;

/// Answers operations until every handle is dropped or one asks for a shutdown; then finishes
/// what was handed over before (the writes committed, the reads answered), closes the
/// connections and answers the shutdowns.
pub(super) async fn run(pool: Pool, mut rx: mpsc::Receiver<Op>, metrics: Arc<Metrics>) {
    let (writes, queued) = mpsc::channel(writer::BATCH * 16);
    let writer = tokio::spawn(writer::run(pool.clone(), queued, metrics));
    let mut reads = JoinSet::new();
    let mut shutdowns: Vec<Reply<()>> = Vec::new();
    while let Some(op) = rx.recv().await {
        match op {
            // Waits while the writer's queue is full. A write the writer cannot take (it ended)
            // drops its reply: the caller sees `Closed`.
            Op::Write(write) => {
                let _ = writes.send(write).await;
            }
            Op::Read(read) => {
                reads.spawn(queries::answer(pool.clone(), read));
            }
            Op::Lease(op) => {
                reads.spawn(leases::answer(pool.clone(), op));
            }
            Op::Shutdown(reply) => {
                // What is queued already is still answered; nothing more is taken.
                rx.close();
                shutdowns.push(reply);
            }
        }
        while reads.try_join_next().is_some() {}
    }
    drop(writes);
    if let Err(e) = writer.await {
        tracing::error!(error = %e, "the storage writer ended abnormally");
    }
    while reads.join_next().await.is_some() {}
    pool.close();
    for reply in shutdowns {
        let _ = reply.send(Ok(()));
    }
}
