//! What happened in a game of Wippen, and what each viewer may be told of it (§E12).

use serde::{Deserialize, Serialize};

use super::expr::Move;
use super::series::ScoreRow;
use super::table::Building;
use crate::card::{Card, CardSet};
use crate::seat::Seat;

/// One thing that happened. [`Event::for_viewer`] empties the hands a viewer may not see;
/// everything else is public.
///
/// ```json
/// {"event": "dealt", "number": 1, "round": 1, "dealer": 1, "hands": [["C3", "D5", "H10", "SK"], null],
///  "table": ["S3", "D2", "C4", "H9"], "stock": 40}
/// {"event": "moved", "seat": 0, "move": {"kind": "capture", "card": "H10", "groups": [{"op": "+",
///  "l": {"op": "*", "l": {"card": "S3"}, "r": {"card": "D2"}}, "r": {"card": "C4"}}]},
///  "taken": ["H10", "S3", "D2", "C4"], "building": null, "sweep": false}
/// {"event": "leftover", "seat": 1, "cards": ["D10", "C7"]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenEvent"))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Cards were dealt: each seat sees only its own hand; table cards are face up.
    Dealt {
        /// The game's number in the match, from 1.
        number: u32,
        /// The deal's number within the game, from 1.
        round: u8,
        /// The dealer.
        dealer: Seat,
        /// Each seat's hand now; `null` where the viewer may not see it.
        hands: Vec<Option<CardSet>>,
        /// The cards dealt face up to the table (first deal only).
        table: Vec<Card>,
        /// Cards left in the stock.
        stock: u8,
    },
    /// A seat moved.
    Moved {
        /// Who moved.
        seat: Seat,
        /// The move, with its groups.
        #[serde(rename = "move")]
        mv: Move,
        /// The cards a capture took, the hand card first.
        taken: Vec<Card>,
        /// The building a build made.
        building: Option<Building>,
        /// Whether the capture emptied the table (a sweep).
        sweep: bool,
    },
    /// The game is over: the piles left went to the last capturer (nobody if nobody captured).
    Leftover {
        /// Who took them.
        seat: Option<Seat>,
        /// Their cards.
        cards: Vec<Card>,
    },
    /// The game was scored: its row of the scoresheet.
    Scored {
        /// The row.
        row: ScoreRow,
    },
    /// The match is over.
    MatchOver {
        /// Each seat's total.
        totals: Vec<i32>,
        /// The seats with the highest total.
        winners: Vec<Seat>,
    },
}

impl Event {
    /// The event as `viewer` may see it (`None`: a spectator): other seats' hands emptied.
    #[must_use]
    pub fn for_viewer(&self, viewer: Option<Seat>) -> Event {
        match self {
            Event::Dealt { number, round, dealer, hands, table, stock } => Event::Dealt {
                number: *number,
                round: *round,
                dealer: *dealer,
                hands: hands
                    .iter()
                    .enumerate()
                    .map(|(i, h)| if viewer.is_some_and(|v| v.index() == i) { *h } else { None })
                    .collect(),
                table: table.clone(),
                stock: *stock,
            },
            other => other.clone(),
        }
    }
}
