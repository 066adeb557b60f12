//! The reads, each on a connection of the pool: rooms and their records, tournaments, tokens,
//! and the rooms retention may delete. A read of several queries takes them from one snapshot.

use std::collections::HashMap;

use deadpool_postgres::{Object, Pool, Transaction};
use fipsen_rules::Seed;
use tokio_postgres::{IsolationLevel, Row};

use super::Read;
use crate::storage::{DealEntry, RoomMeta, StorageError, StoredDeals, StoredRecord, StoredRoom, StoredTournament};

/// The columns of a room's creation row, as read.
const ROOM_COLUMNS: &str = "code, created_at, title, rules, options, master_seed, tournament";

/// Reads what `read` asks for and answers it.
pub(super) async fn answer(pool: Pool, read: Read) {
    match read {
        Read::Load { room, reply } => {
            let _ = reply.send(load(&pool, &room).await);
        }
        Read::LoadMeta { room, reply } => {
            let _ = reply.send(load_meta(&pool, &room).await);
        }
        Read::LoadRecords { room, from, to, reply } => {
            let _ = reply.send(load_records(&pool, &room, from, to).await);
        }
        Read::LoadDeals { room, from, count, reply } => {
            let _ = reply.send(load_deals(&pool, &room, from, count).await);
        }
        Read::ActiveRooms { reply } => {
            let _ = reply.send(active_rooms(&pool).await);
        }
        Read::FindTokens { hashes, reply } => {
            let _ = reply.send(find_tokens(&pool, &hashes).await);
        }
        Read::Closed { before_ms, reply } => {
            let _ = reply.send(closed_before(&pool, before_ms).await);
        }
        Read::LoadTournament { id, reply } => {
            let _ = reply.send(load_tournament(&pool, &id).await);
        }
        Read::ActiveTournaments { reply } => {
            let _ = reply.send(active_tournaments(&pool).await);
        }
    }
}

/// A read-only transaction that sees one snapshot for all its queries.
async fn snapshot(client: &mut Object) -> Result<Transaction<'_>, StorageError> {
    Ok(client.build_transaction().isolation_level(IsolationLevel::RepeatableRead).read_only(true).start().await?)
}

/// A stored number that cannot be negative.
fn unsigned(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

/// A stored number that fits 32 bits, or what was unreadable.
fn small(value: i64, what: impl FnOnce() -> String) -> Result<u32, StorageError> {
    u32::try_from(value).map_err(|_| StorageError::Corrupt(what()))
}

fn room_meta(row: &Row) -> Result<RoomMeta, StorageError> {
    let code: String = row.try_get(0)?;
    let corrupt = |what: &str| StorageError::Corrupt(format!("room {code}: {what}"));
    let rules: &str = row.try_get(3)?;
    let options: &str = row.try_get(4)?;
    let seed: &str = row.try_get(5)?;
    Ok(RoomMeta {
        rules: serde_json::from_str(rules).map_err(|_| corrupt("rules"))?,
        options: serde_json::from_str(options).map_err(|_| corrupt("options"))?,
        master: Seed::from_hex(seed).ok_or_else(|| corrupt("seed"))?,
        created_at: unsigned(row.try_get(1)?),
        title: row.try_get(2)?,
        tournament: row.try_get(6)?,
        code,
    })
}

fn record_row(row: &Row, room: &str) -> Result<StoredRecord, StorageError> {
    Ok(StoredRecord {
        index: u64::try_from(row.try_get::<_, i64>(3)?).unwrap_or(u64::MAX),
        seq_before: unsigned(row.try_get(0)?),
        json: row.try_get(1)?,
        format: small(row.try_get(2)?, || format!("room {room}: a record's format"))?,
    })
}

async fn load_meta(pool: &Pool, room: &str) -> Result<Option<RoomMeta>, StorageError> {
    let client = pool.get().await?;
    let meta = client.prepare_cached(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE code = $1")).await?;
    client.query_opt(&meta, &[&room]).await?.map(|row| room_meta(&row)).transpose()
}

async fn load(pool: &Pool, room: &str) -> Result<Option<StoredRoom>, StorageError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let meta = tx.prepare_cached(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE code = $1")).await?;
    let records =
        tx.prepare_cached("SELECT seq_before, record, format, idx FROM records WHERE room = $1 ORDER BY idx").await?;
    // Both queries sent at once.
    let (row, rows) =
        futures_util::future::try_join(tx.query_opt(&meta, &[&room]), tx.query(&records, &[&room])).await?;
    tx.commit().await?;
    let Some(row) = row else { return Ok(None) };
    let meta = room_meta(&row)?;
    let records = rows.iter().map(|row| record_row(row, room)).collect::<Result<Vec<_>, _>>()?;
    Ok(Some(StoredRoom { meta, records }))
}

async fn load_records(pool: &Pool, room: &str, from: u64, to: u64) -> Result<Vec<StoredRecord>, StorageError> {
    let client = pool.get().await?;
    let select = client
        .prepare_cached(
            "SELECT seq_before, record, format, idx FROM records WHERE room = $1 AND idx >= $2 AND idx < $3 ORDER BY idx",
        )
        .await?;
    let (from, to) = (i64::try_from(from).unwrap_or(i64::MAX), i64::try_from(to).unwrap_or(i64::MAX));
    let rows = client.query(&select, &[&room, &from, &to]).await?;
    rows.iter().map(|row| record_row(row, room)).collect()
}

fn deal_row(row: &Row, room: &str) -> Result<DealEntry, StorageError> {
    Ok(DealEntry {
        number: small(row.try_get(0)?, || format!("room {room}: a deal's number"))?,
        first: unsigned(row.try_get(1)?),
        last: unsigned(row.try_get(2)?),
        data: row.try_get(3)?,
    })
}

async fn load_deals(pool: &Pool, room: &str, from: u32, count: u32) -> Result<Option<StoredDeals>, StorageError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let meta = tx.prepare_cached(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE code = $1")).await?;
    let latest = tx
        .prepare_cached(
            "SELECT number, first_idx, last_idx, data FROM room_deals WHERE room = $1 ORDER BY number DESC LIMIT 1",
        )
        .await?;
    let deals = tx
        .prepare_cached(
            "SELECT number, first_idx, last_idx, data FROM room_deals WHERE room = $1 AND number >= $2 \
             AND number < $3 ORDER BY number",
        )
        .await?;
    let (from, to) = (i64::from(from), i64::from(from) + i64::from(count));
    let (row, last, rows) = futures_util::future::try_join3(
        tx.query_opt(&meta, &[&room]),
        tx.query_opt(&latest, &[&room]),
        tx.query(&deals, &[&room, &from, &to]),
    )
    .await?;
    tx.commit().await?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(StoredDeals {
        meta: room_meta(&row)?,
        latest: last.map(|row| deal_row(&row, room)).transpose()?,
        deals: rows.iter().map(|row| deal_row(row, room)).collect::<Result<Vec<_>, _>>()?,
    }))
}

async fn active_rooms(pool: &Pool) -> Result<Vec<String>, StorageError> {
    let client = pool.get().await?;
    let select = client.prepare_cached("SELECT code FROM rooms WHERE active ORDER BY created_at, seq").await?;
    let rows = client.query(&select, &[]).await?;
    rows.iter().map(|row| Ok(row.try_get(0)?)).collect()
}

/// The rooms and participants these token hashes belong to, in the order of the hashes.
async fn find_tokens(pool: &Pool, hashes: &[String]) -> Result<Vec<(String, u32)>, StorageError> {
    if hashes.is_empty() {
        return Ok(Vec::new());
    }
    let client = pool.get().await?;
    let select = client.prepare_cached("SELECT hash, room, participant FROM tokens WHERE hash = ANY($1)").await?;
    let rows = client.query(&select, &[&hashes]).await?;
    let mut found = HashMap::with_capacity(rows.len());
    for row in &rows {
        let hash: &str = row.try_get(0)?;
        let room: String = row.try_get(1)?;
        let participant = small(row.try_get(2)?, || format!("room {room}: a token's participant"))?;
        found.insert(hash, (room, participant));
    }
    Ok(hashes.iter().filter_map(|hash| found.get(hash.as_str()).cloned()).collect())
}

/// The rooms closed since before `before_ms`, but the tables of tournaments not yet finished.
async fn closed_before(pool: &Pool, before_ms: u64) -> Result<Vec<String>, StorageError> {
    let client = pool.get().await?;
    let select = client
        .prepare_cached(
            "SELECT code FROM rooms WHERE NOT active AND COALESCE(closed_at, created_at) < $1
             AND (tournament IS NULL OR (tournament::jsonb ->> 'tournament') COLLATE \"C\" NOT IN
                  (SELECT id FROM tournaments WHERE NOT finished))
             ORDER BY code",
        )
        .await?;
    let before = i64::try_from(before_ms).unwrap_or(i64::MAX);
    let rows = client.query(&select, &[&before]).await?;
    rows.iter().map(|row| Ok(row.try_get(0)?)).collect()
}

async fn load_tournament(pool: &Pool, id: &str) -> Result<Option<StoredTournament>, StorageError> {
    let mut client = pool.get().await?;
    let tx = snapshot(&mut client).await?;
    let tournament = tx.prepare_cached("SELECT created_at FROM tournaments WHERE id = $1").await?;
    let records =
        tx.prepare_cached("SELECT record, format FROM tournament_records WHERE tournament = $1 ORDER BY idx").await?;
    let (row, rows) =
        futures_util::future::try_join(tx.query_opt(&tournament, &[&id]), tx.query(&records, &[&id])).await?;
    tx.commit().await?;
    let Some(row) = row else { return Ok(None) };
    let mut stored = StoredTournament {
        id: id.to_string(),
        created_at: unsigned(row.try_get(0)?),
        records: Vec::new(),
        formats: Vec::new(),
    };
    for row in &rows {
        stored.records.push(row.try_get(0)?);
        stored.formats.push(small(row.try_get(1)?, || format!("tournament {id}: a record's format"))?);
    }
    Ok(Some(stored))
}

/// The ids of the tournaments not yet finished, oldest first.
async fn active_tournaments(pool: &Pool) -> Result<Vec<String>, StorageError> {
    let client = pool.get().await?;
    let select =
        client.prepare_cached("SELECT id FROM tournaments WHERE NOT finished ORDER BY created_at, seq").await?;
    let rows = client.query(&select, &[]).await?;
    rows.iter().map(|row| Ok(row.try_get(0)?)).collect()
}
