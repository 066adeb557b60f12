//! The reads: rooms and their records, tournaments, tokens, and the rooms retention may delete.

use std::collections::HashMap;

use fipsen_rules::Seed;
use rusqlite::{Connection, OptionalExtension};

use crate::storage::{DealEntry, RoomMeta, StorageError, StoredDeals, StoredRecord, StoredRoom, StoredTournament};

/// The columns of a room's creation row, as read.
const ROOM_COLUMNS: &str = "code, created_at, title, rules, options, master_seed, tournament";

type RoomRow = (String, i64, String, String, String, String, Option<String>);

fn room_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RoomRow> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?))
}

fn room_meta((code, created_at, title, rules, options, seed, tournament): RoomRow) -> Result<RoomMeta, StorageError> {
    let corrupt = |what: &str| StorageError::Corrupt(format!("room {code}: {what}"));
    Ok(RoomMeta {
        rules: serde_json::from_str(&rules).map_err(|_| corrupt("rules"))?,
        options: serde_json::from_str(&options).map_err(|_| corrupt("options"))?,
        master: Seed::from_hex(&seed).ok_or_else(|| corrupt("seed"))?,
        created_at: u64::try_from(created_at).unwrap_or(0),
        title,
        code: code.clone(),
        tournament,
    })
}

pub(super) fn load_tournament(conn: &Connection, id: &str) -> Result<Option<StoredTournament>, StorageError> {
    let created_at = conn
        .prepare_cached("SELECT created_at FROM tournaments WHERE id = ?1")?
        .query_row([id], |row| row.get::<_, i64>(0))
        .optional()?;
    let Some(created_at) = created_at else { return Ok(None) };
    let mut stmt =
        conn.prepare_cached("SELECT record, format FROM tournament_records WHERE tournament = ?1 ORDER BY idx")?;
    let (records, formats) = stmt
        .query_map([id], |row| Ok((row.get::<_, String>(0)?, row.get::<_, u32>(1)?)))?
        .collect::<Result<(Vec<_>, Vec<_>), _>>()?;
    Ok(Some(StoredTournament {
        id: id.to_string(),
        created_at: u64::try_from(created_at).unwrap_or(0),
        records,
        formats,
    }))
}

fn record_row(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<StoredRecord> {
    Ok(StoredRecord {
        index: u64::try_from(row.get::<_, i64>(first + 3)?).unwrap_or(u64::MAX),
        seq_before: u64::try_from(row.get::<_, i64>(first)?).unwrap_or(0),
        json: row.get(first + 1)?,
        format: row.get(first + 2)?,
    })
}

pub(super) fn load_meta(conn: &Connection, room: &str) -> Result<Option<RoomMeta>, StorageError> {
    let row = conn
        .prepare_cached(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE code = ?1"))?
        .query_row([room], room_row)
        .optional()?;
    row.map(room_meta).transpose()
}

pub(super) fn load(conn: &Connection, room: &str) -> Result<Option<StoredRoom>, StorageError> {
    let row = conn
        .prepare_cached(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE code = ?1"))?
        .query_row([room], room_row)
        .optional()?;
    let Some(row) = row else { return Ok(None) };
    let meta = room_meta(row)?;
    let mut stmt =
        conn.prepare_cached("SELECT seq_before, record, format, idx FROM records WHERE room = ?1 ORDER BY idx")?;
    let records = stmt.query_map([room], |row| record_row(row, 0))?.collect::<Result<Vec<_>, _>>()?;
    Ok(Some(StoredRoom { meta, records }))
}

/// A room's records numbered from `from` up to (not including) `to`.
pub(super) fn load_records(
    conn: &Connection,
    room: &str,
    from: u64,
    to: u64,
) -> Result<Vec<StoredRecord>, StorageError> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq_before, record, format, idx FROM records WHERE room = ?1 AND idx >= ?2 AND idx < ?3 ORDER BY idx",
    )?;
    let (from, to) = (i64::try_from(from).unwrap_or(i64::MAX), i64::try_from(to).unwrap_or(i64::MAX));
    let records = stmt.query_map(rusqlite::params![room, from, to], |row| record_row(row, 0))?;
    Ok(records.collect::<Result<Vec<_>, _>>()?)
}

fn deal_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<DealEntry> {
    Ok(DealEntry {
        number: u32::try_from(row.get::<_, i64>(0)?).unwrap_or(u32::MAX),
        first: u64::try_from(row.get::<_, i64>(1)?).unwrap_or(u64::MAX),
        last: u64::try_from(row.get::<_, i64>(2)?).unwrap_or(u64::MAX),
        data: row.get(3)?,
    })
}

/// A room's creation row, its last indexed deal, and the indexed deals `from` to
/// `from + count - 1`.
pub(super) fn load_deals(
    conn: &Connection,
    room: &str,
    from: u32,
    count: u32,
) -> Result<Option<StoredDeals>, StorageError> {
    let Some(meta) = load_meta(conn, room)? else { return Ok(None) };
    let latest = conn
        .prepare_cached(
            "SELECT number, first_idx, last_idx, data FROM room_deals WHERE room = ?1 ORDER BY number DESC LIMIT 1",
        )?
        .query_row([room], deal_row)
        .optional()?;
    let mut stmt = conn.prepare_cached(
        "SELECT number, first_idx, last_idx, data FROM room_deals WHERE room = ?1 AND number >= ?2 AND number < ?3 \
         ORDER BY number",
    )?;
    let to = i64::from(from) + i64::from(count);
    let deals = stmt.query_map(rusqlite::params![room, i64::from(from), to], deal_row)?;
    Ok(Some(StoredDeals { meta, latest, deals: deals.collect::<Result<Vec<_>, _>>()? }))
}

/// Every active room with its records, oldest room first, in two queries. A room whose creation
/// row cannot be read is left out here (its code is still listed), so that loading it on its own
/// reports the error.
pub(super) fn load_active(conn: &Connection) -> Result<(Vec<String>, HashMap<String, StoredRoom>), StorageError> {
    let mut stmt = conn.prepare(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE active = 1 ORDER BY created_at"))?;
    let rows = stmt.query_map([], room_row)?.collect::<Result<Vec<_>, _>>()?;
    let codes: Vec<String> = rows.iter().map(|row| row.0.clone()).collect();
    let mut rooms: HashMap<String, StoredRoom> = rows
        .into_iter()
        .filter_map(|row| room_meta(row).ok())
        .map(|meta| (meta.code.clone(), StoredRoom { meta, records: Vec::new() }))
        .collect();
    let mut stmt = conn.prepare(
        "SELECT r.room, r.seq_before, r.record, r.format, r.idx FROM records r JOIN rooms m ON m.code = r.room \
         WHERE m.active = 1 ORDER BY r.room, r.idx",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let code = row.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
        if let Some(room) = rooms.get_mut(code) {
            room.records.push(record_row(row, 1)?);
        }
    }
    Ok((codes, rooms))
}

/// The rooms and participants these token hashes belong to, in the order of the hashes.
pub(super) fn find_tokens(conn: &Connection, hashes: &[String]) -> Result<Vec<(String, u32)>, StorageError> {
    let mut stmt = conn.prepare_cached("SELECT room, participant FROM tokens WHERE hash = ?1")?;
    let mut found = Vec::new();
    for hash in hashes {
        let row = stmt.query_row([hash], |row| Ok((row.get::<_, String>(0)?, row.get::<_, u32>(1)?))).optional()?;
        found.extend(row);
    }
    Ok(found)
}

/// The ids of the tournaments not yet finished, oldest first.
pub(super) fn active_tournaments(conn: &Connection) -> Result<Vec<String>, StorageError> {
    let mut stmt = conn.prepare_cached("SELECT id FROM tournaments WHERE finished = 0 ORDER BY created_at")?;
    let ids = stmt.query_map([], |row| row.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
    Ok(ids)
}

/// The rooms closed since before `before_ms`, but the tables of tournaments not yet finished.
pub(super) fn closed_before(conn: &Connection, before_ms: u64) -> Result<Vec<String>, StorageError> {
    let mut stmt = conn.prepare_cached(
        "SELECT code FROM rooms WHERE active = 0 AND COALESCE(closed_at, created_at) < ?1
         AND (tournament IS NULL OR json_extract(tournament, '$.tournament') NOT IN
              (SELECT id FROM tournaments WHERE finished = 0))
         ORDER BY code",
    )?;
    let before = i64::try_from(before_ms).unwrap_or(i64::MAX);
    let codes = stmt.query_map([before], |row| row.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
    Ok(codes)
}
