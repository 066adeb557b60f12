//! Room leases for cluster mode: claimed, renewed, released and looked up, each one statement on
//! a pooled connection (atomic by itself), timed by the database's clock (`clock_timestamp()`),
//! never the servers'. The fence on every room write is checked in `writer.rs`.

use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::Pool;

use super::Reply;
use crate::storage::{Claim, Fence, Lease, StorageError};

/// A lease operation.
pub(super) enum LeaseOp {
    Claim { room: Arc<str>, node: Arc<str>, ttl: Duration, reply: Reply<Claim> },
    Renew { node: Arc<str>, ttl: Duration, reply: Reply<Vec<(String, u64)>> },
    Release { room: Arc<str>, fence: Fence, reply: Reply<()> },
    Owner { room: String, reply: Reply<Option<Lease>> },
    Unowned { limit: u32, reply: Reply<Vec<String>> },
}

/// Carries out `op` and answers it.
pub(super) async fn answer(pool: Pool, op: LeaseOp) {
    match op {
        LeaseOp::Claim { room, node, ttl, reply } => {
            let _ = reply.send(claim(&pool, room, node, ttl).await);
        }
        LeaseOp::Renew { node, ttl, reply } => {
            let _ = reply.send(renew(&pool, &node, ttl).await);
        }
        LeaseOp::Release { room, fence, reply } => {
            let _ = reply.send(release(&pool, &room, &fence).await);
        }
        LeaseOp::Owner { room, reply } => {
            let _ = reply.send(owner(&pool, &room).await);
        }
        LeaseOp::Unowned { limit, reply } => {
            let _ = reply.send(unowned(&pool, limit).await);
        }
    }
}

fn seconds(ttl: Duration) -> f64 {
    ttl.as_secs_f64()
}

fn epoch(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

/// Takes the lease when it is free, run out, or the claimant's own, with the next epoch; else
/// reads who holds it.
async fn claim(pool: &Pool, room: Arc<str>, node: Arc<str>, ttl: Duration) -> Result<Claim, StorageError> {
    let client = pool.get().await?;
    let upsert = client
        .prepare_cached(
            "INSERT INTO room_leases AS l (room, holder, epoch, expires_at) \
             VALUES ($1, $2, 1, clock_timestamp() + make_interval(secs => $3)) \
             ON CONFLICT (room) DO UPDATE \
             SET holder = EXCLUDED.holder, epoch = l.epoch + 1, expires_at = EXCLUDED.expires_at \
             WHERE l.expires_at <= clock_timestamp() OR l.holder = EXCLUDED.holder \
             RETURNING epoch",
        )
        .await?;
    if let Some(row) = client.query_opt(&upsert, &[&room.as_ref(), &node.as_ref(), &seconds(ttl)]).await? {
        return Ok(Claim::Granted(Fence { node, epoch: epoch(row.try_get(0)?) }));
    }
    let select = client.prepare_cached("SELECT holder, epoch FROM room_leases WHERE room = $1").await?;
    let row = client.query_one(&select, &[&room.as_ref()]).await?;
    let holder: String = row.try_get(0)?;
    Ok(Claim::Held(Fence { node: holder.into(), epoch: epoch(row.try_get(1)?) }))
}

async fn renew(pool: &Pool, node: &str, ttl: Duration) -> Result<Vec<(String, u64)>, StorageError> {
    let client = pool.get().await?;
    let update = client
        .prepare_cached(
            "UPDATE room_leases SET expires_at = clock_timestamp() + make_interval(secs => $2) \
             WHERE holder = $1 AND room IN (SELECT room FROM room_leases \
                 WHERE holder = $1 AND expires_at > clock_timestamp() ORDER BY room FOR UPDATE) \
             RETURNING room, epoch",
        )
        .await?;
    let rows = client.query(&update, &[&node, &seconds(ttl)]).await?;
    rows.iter().map(|row| Ok((row.try_get(0)?, epoch(row.try_get(1)?)))).collect()
}

async fn release(pool: &Pool, room: &str, fence: &Fence) -> Result<(), StorageError> {
    let client = pool.get().await?;
    let update = client
        .prepare_cached(
            "UPDATE room_leases SET expires_at = LEAST(expires_at, clock_timestamp()) \
             WHERE room = $1 AND holder = $2 AND epoch = $3",
        )
        .await?;
    let epoch = i64::try_from(fence.epoch).unwrap_or(i64::MAX);
    client.execute(&update, &[&room, &fence.node.as_ref(), &epoch]).await?;
    Ok(())
}

async fn owner(pool: &Pool, room: &str) -> Result<Option<Lease>, StorageError> {
    let client = pool.get().await?;
    let select = client
        .prepare_cached("SELECT holder, epoch, expires_at > clock_timestamp() FROM room_leases WHERE room = $1")
        .await?;
    let Some(row) = client.query_opt(&select, &[&room]).await? else { return Ok(None) };
    let holder: String = row.try_get(0)?;
    Ok(Some(Lease { fence: Fence { node: holder.into(), epoch: epoch(row.try_get(1)?) }, live: row.try_get(2)? }))
}

async fn unowned(pool: &Pool, limit: u32) -> Result<Vec<String>, StorageError> {
    let client = pool.get().await?;
    let select = client
        .prepare_cached(
            "SELECT r.code FROM rooms r LEFT JOIN room_leases l ON l.room = r.code \
             WHERE r.active AND (l.room IS NULL OR l.expires_at <= clock_timestamp()) \
             ORDER BY r.seq LIMIT $1",
        )
        .await?;
    let rows = client.query(&select, &[&i64::from(limit)]).await?;
    rows.iter().map(|row| Ok(row.try_get(0)?)).collect()
}
