//! The seats at a table and the cards they play: what every game of the platform counts in.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Suit};

/// A seat at the table, numbered clockwise from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat to the left (clockwise) at a table of `players`.
    pub const fn next(self, players: u8) -> Seat {
        Seat((self.0 + 1) % players)
    }

    /// The seat's number as an index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One card played: by whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Play {
    /// The seat that played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// The winner of a full trick: the highest trump, else the highest card of the suit led.
pub fn trick_winner(trick: &[Play], trumps: Suit) -> Seat {
    // Every card of the trump suit is a trump, however many of them the pack holds (in Ruten
    // Prisdorf's pack holds one).
    let trump_cards = trumps.all_cards();
    let mut best = trick[0];
    for play in &trick[1..] {
        let (c, b) = (play.card, best.card);
        let beats = match (trump_cards.contains(c), trump_cards.contains(b)) {
            (true, false) => true,
            (false, true) => false,
            _ => c.suit() == b.suit() && c > b,
        };
        if beats {
            best = *play;
        }
    }
    best.seat
}
