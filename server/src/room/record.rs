//! The records of a room's log: every input that changed the room, as stored. Replaying them in
//! order rebuilds the room ([`super::core::Core::restore`]).

use fipsen_bots::Level;
use fipsen_protocol::ChatLine;
use fipsen_rules::{GameAction, Seat};
use serde::{Deserialize, Serialize};

use crate::storage::{ROOM_RECORD_FORMAT, StoredRecord, StoredRoom};

/// An input that changed the room, as stored. Replaying them in order rebuilds the room.
///
/// A game action is a [`GameAction`]; as read from storage it is JSON (`Record<Value>`) until
/// [`Record::read_action`] reads it as an action of the room's game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub enum Record<A = GameAction> {
    /// A player joined (and sat down, if a seat was free).
    Joined {
        /// His number.
        participant: u32,
        /// His name.
        name: String,
        /// SHA-256 of his seat token.
        token_hash: String,
        /// The seat he took.
        seat: Option<Seat>,
    },
    /// A player took a seat (leaving his old one, or taking over an open seat).
    Seated {
        /// Who.
        participant: u32,
        /// Where.
        seat: Seat,
    },
    /// A player left his seat before the start.
    LeftSeat {
        /// Who.
        participant: u32,
    },
    /// The series started.
    Started,
    /// Listed in the lobby or not.
    Public {
        /// Listed.
        public: bool,
    },
    /// A game action.
    Act {
        /// Who sent it.
        participant: u32,
        /// For which seat.
        seat: Seat,
        /// The client's id.
        id: u64,
        /// The action.
        action: A,
    },
    /// The next deal was dealt.
    NextDeal,
    /// A chat line.
    Chat {
        /// The line.
        line: ChatLine,
    },
    /// The host seated a bot (a participant of its own, without a token).
    BotAdded {
        /// The bot's participant number.
        participant: u32,
        /// Its seat.
        seat: Seat,
        /// Its level.
        level: Level,
        /// Its name.
        name: String,
    },
    /// The host took the bot at this seat off it.
    BotRemoved {
        /// The seat.
        seat: Seat,
    },
    /// The host was gone past his grace period: another player is host now.
    HostChanged {
        /// The new host.
        participant: u32,
    },
    /// A seated player agreed (or no longer agrees) that the series be deleted.
    DeleteVote {
        /// Who.
        participant: u32,
        /// Agrees or not.
        agree: bool,
    },
    /// The host offered to play again: this new room holds the same rules and seats.
    Rematch {
        /// The new room's invite code.
        room: String,
    },
    /// A bot's game action, for a bot's seat or for an absent player's.
    BotAct {
        /// The seat it acted for.
        seat: Seat,
        /// The action.
        action: A,
    },
}

/// Why a stored room cannot be rebuilt as it was acknowledged: a record this build cannot read
/// (of a format it does not know, written by a newer build, or not parseable), a record missing
/// from the log, a record stored after a different sequence number than the rebuild reaches, a
/// record the rules refuse, or a creation row (rules, options, seed, tournament) that cannot be
/// read. A room with any of these is not restored: it would come back different.
///
/// The text names the record or the field, never a card or an action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Damaged {
    /// A record cannot be read.
    #[error("record {index} cannot be read: {reason}")]
    Unreadable {
        /// The record's number in the room's log, from 0.
        index: u64,
        /// Why.
        reason: String,
    },
    /// The log skips a record: record `index` is not stored, the next one stored is `found`.
    #[error("record {index} is missing from the log (the next record stored is {found})")]
    Missing {
        /// The number of the record not found.
        index: u64,
        /// The number of the record found in its place.
        found: u64,
    },
    /// A record was stored when the room's events had reached `stored`, but the rebuild is
    /// already past it: an earlier record made more events than it did when it was played.
    #[error("record {index} was stored after event {stored}, but the rebuild reaches event {rebuilt} before it")]
    Sequence {
        /// The record's number.
        index: u64,
        /// The sequence number stored with it.
        stored: u64,
        /// The sequence number the rebuild reached before it.
        rebuilt: u64,
    },
    /// The rules (or the room) refuse a record that was accepted when it was played: the log
    /// is damaged, or the rules changed since.
    #[error("record {index} is refused: {reason}")]
    Refused {
        /// The record's number.
        index: u64,
        /// Why (an error code, or what the record needed that the room lacked).
        reason: String,
    },
    /// The room's creation row cannot be read, or reads as something no room was created with.
    #[error("the room's {field} cannot be read: {reason}")]
    Creation {
        /// Which field (`rules`, `options`, `seed`, `tournament`).
        field: &'static str,
        /// Why.
        reason: String,
    },
}

impl Damaged {
    /// The number of the record at fault, if a record is.
    pub fn record(&self) -> Option<u64> {
        match self {
            Damaged::Unreadable { index, .. }
            | Damaged::Missing { index, .. }
            | Damaged::Sequence { index, .. }
            | Damaged::Refused { index, .. } => Some(*index),
            Damaged::Creation { .. } => None,
        }
    }
}

/// A record as read back from storage, with its number in the log and the room's sequence
/// number before it was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRecord {
    /// Its number in the room's log, from 0.
    pub index: u64,
    /// The room's sequence number before it was applied.
    pub seq_before: u64,
    /// The record.
    pub record: Record,
}

impl Record {
    /// Reads stored record number `index` of a room of `game`.
    ///
    /// # Errors
    /// The record is of a format other than [`ROOM_RECORD_FORMAT`], or does not parse.
    pub fn read_stored(stored: &StoredRecord, index: u64, game: fipsen_rules::GameId) -> Result<Record, Damaged> {
        if stored.format != ROOM_RECORD_FORMAT {
            return Err(Damaged::Unreadable {
                index,
                reason: format!("format {} (this build reads format {ROOM_RECORD_FORMAT})", stored.format),
            });
        }
        serde_json::from_str::<Record<serde_json::Value>>(&stored.json)
            .and_then(|r| r.read_action(game))
            .map_err(|e| Damaged::Unreadable { index, reason: e.to_string() })
    }

    /// Every record of a stored room, read, in order; the first that cannot be read, or a
    /// number missing from the log, stops the reading.
    ///
    /// # Errors
    /// A record cannot be read (see [`Record::read_stored`]), or one is missing.
    pub fn read_all(stored: &StoredRoom) -> Result<Vec<ReadRecord>, Damaged> {
        let game = stored.meta.rules.game();
        let mut read = Vec::with_capacity(stored.records.len());
        for (expected, record) in (0u64..).zip(&stored.records) {
            if record.index != expected {
                return Err(Damaged::Missing { index: expected, found: record.index });
            }
            let index = record.index;
            read.push(ReadRecord {
                index,
                seq_before: record.seq_before,
                record: Record::read_stored(record, index, game)?,
            });
        }
        Ok(read)
    }
}

impl Record<serde_json::Value> {
    /// The record with its action (if any) read as an action of `game`.
    ///
    /// # Errors
    /// The stored action is not one of that game.
    pub fn read_action(self, game: fipsen_rules::GameId) -> Result<Record, serde_json::Error> {
        let action = |value| GameAction::from_json(game, value);
        Ok(match self {
            Record::Act { participant, seat, id, action: value } => {
                Record::Act { participant, seat, id, action: action(value)? }
            }
            Record::BotAct { seat, action: value } => Record::BotAct { seat, action: action(value)? },
            Record::Joined { participant, name, token_hash, seat } => {
                Record::Joined { participant, name, token_hash, seat }
            }
            Record::Seated { participant, seat } => Record::Seated { participant, seat },
            Record::LeftSeat { participant } => Record::LeftSeat { participant },
            Record::Started => Record::Started,
            Record::Public { public } => Record::Public { public },
            Record::NextDeal => Record::NextDeal,
            Record::Chat { line } => Record::Chat { line },
            Record::BotAdded { participant, seat, level, name } => Record::BotAdded { participant, seat, level, name },
            Record::BotRemoved { seat } => Record::BotRemoved { seat },
            Record::HostChanged { participant } => Record::HostChanged { participant },
            Record::DeleteVote { participant, agree } => Record::DeleteVote { participant, agree },
            Record::Rematch { room } => Record::Rematch { room },
        })
    }
}
