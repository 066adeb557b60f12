//! A room that is a tournament's table: who sits at it when it opens ([`TableSeat`]), its tie to
//! its tournament, stored with the room ([`TableLink`]), and the deals it reports
//! ([`TableReport`]).

use fipsen_bots::Level;
use fipsen_rules::Seat;
use fipsen_tournament::{DealResult, TableId};
use serde::{Deserialize, Serialize};

use super::record::Record;

/// A room's tie to its tournament, stored with the room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableLink {
    /// The tournament's link code.
    pub tournament: String,
    /// The tournament's name.
    pub name: String,
    /// The table.
    pub table: TableId,
    /// The tournament's rounds.
    pub rounds: u32,
    /// The deals the table plays (that count).
    pub deals: u32,
    /// Whether the tournament plays duplicate deals.
    pub duplicate: bool,
}

/// A tournament table's deals that counted, each as the tournament records it.
#[derive(Debug, Clone)]
pub struct TableReport {
    /// The tournament's link code.
    pub tournament: String,
    /// Every deal that counted so far.
    pub results: Vec<DealResult>,
}

/// Who sits at a seat of a tournament table when its room opens.
#[derive(Debug, Clone)]
pub enum TableSeat {
    /// An entrant, who comes in with his tournament token.
    Person {
        /// His name.
        name: String,
        /// SHA-256 of his entrant token.
        token_hash: String,
    },
    /// A bot entrant.
    Bot {
        /// Its name.
        name: String,
    },
}

impl TableSeat {
    /// The records a tournament table starts with: everyone seated, then the start.
    pub fn records(seats: &[TableSeat]) -> Vec<Record> {
        let mut records: Vec<Record> = seats
            .iter()
            .enumerate()
            .map(|(i, seat)| match seat {
                TableSeat::Person { name, token_hash } => Record::Joined {
                    participant: i as u32,
                    name: name.clone(),
                    token_hash: token_hash.clone(),
                    seat: Some(Seat(i as u8)),
                },
                TableSeat::Bot { name } => Record::BotAdded {
                    participant: i as u32,
                    seat: Seat(i as u8),
                    level: Level::Normal,
                    name: name.clone(),
                },
            })
            .collect();
        records.push(Record::Started);
        records
    }
}
