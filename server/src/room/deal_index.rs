//! A deal's row in the room's deal index, made as the core applies the record that ends the deal
//! ([`Indexer`]), and read back ([`end_of`], [`ends_as_kept`]); `series_index.rs` says what the
//! index is for and reads it from storage.

use fipsen_rules::AnyGame;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::room::record::{Damaged, Record};
use crate::storage::{DealEntry, RoomMeta};

/// What a deal's row keeps beside its number and records ([`DealEntry::data`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Kept {
    /// The series as the deal left it, without the rows of earlier deals
    /// ([`AnyGame::state_json`]).
    pub(super) end: Value,
    /// The name at each seat when the deal ended.
    pub(super) players: Vec<Option<String>>,
    /// The participant at each seat when the deal ended.
    pub(super) seats: Vec<Option<u32>>,
}

/// A row's data, read.
///
/// # Errors
/// [`Damaged::Refused`] at the deal's last record: the row does not read.
pub(super) fn kept(entry: &DealEntry) -> Result<Kept, Damaged> {
    serde_json::from_str(&entry.data).map_err(|e| Damaged::Refused {
        index: entry.last,
        reason: format!("the deal index's row of deal {} does not read: {e}", entry.number),
    })
}

/// The series as deal `entry` left it (without the rows of earlier deals), read from its row.
///
/// # Errors
/// The row does not read, or is not a series of `meta`'s game.
pub fn end_of(meta: &RoomMeta, entry: &DealEntry) -> Result<AnyGame, Damaged> {
    AnyGame::from_state_json(meta.rules.game(), kept(entry)?.end).map_err(|e| Damaged::Refused {
        index: entry.last,
        reason: format!("the deal index's series after deal {} does not read: {e}", entry.number),
    })
}

/// Whether `end` (a series at the end of a deal, with the rows from `rows_from` on) is what
/// `entry` keeps.
pub fn ends_as_kept(end: &AnyGame, rows_from: usize, entry: &DealEntry) -> Result<bool, Damaged> {
    Ok(end.with_rows_from(rows_from).state_json() == kept(entry)?.end)
}

/// Follows a room's records as the core applies them and makes the row of each deal that ends
/// (kept until the room's task takes them to store).
#[derive(Debug, Default)]
pub struct Indexer {
    /// The record that dealt the deal being played, and the scoresheet's rows before it.
    dealt: Option<(u64, usize)>,
    /// The last deal whose row is made (or was stored before: a restore makes only the rows
    /// after it).
    done: u32,
    /// Rows made and not yet stored.
    pending: Vec<DealEntry>,
}

impl Indexer {
    /// An indexer that makes the rows of the deals after deal `done` (0: of every deal).
    pub fn after(done: u32) -> Indexer {
        Indexer { done, ..Indexer::default() }
    }

    /// Follows record number `index`, just applied: `series` is the series after it, and
    /// `seating` tells the name and the participant at each seat (asked only when a deal ended).
    pub fn follow(
        &mut self,
        index: u64,
        record: &Record,
        series: Option<&AnyGame>,
        seating: impl FnOnce() -> (Vec<Option<String>>, Vec<Option<u32>>),
    ) {
        let Some(series) = series else { return };
        if matches!(record, Record::Started | Record::NextDeal) {
            self.dealt = Some((index, series.rows()));
        }
        let number = series.deal_number();
        if !series.deal_over() || number <= self.done {
            return;
        }
        let Some((first, rows)) = self.dealt else { return };
        let (players, seats) = seating();
        let kept = Kept { end: series.with_rows_from(rows).state_json(), players, seats };
        let data = serde_json::to_string(&kept).unwrap_or_default();
        self.pending.push(DealEntry { number, first, last: index, data });
        self.done = number;
    }

    /// The rows made and not yet stored, taken to store.
    pub fn take(&mut self) -> Vec<DealEntry> {
        std::mem::take(&mut self.pending)
    }

    /// Rows taken that could not be stored, kept to try again with the next.
    pub fn put_back(&mut self, mut rows: Vec<DealEntry>) {
        rows.append(&mut self.pending);
        self.pending = rows;
    }
}
