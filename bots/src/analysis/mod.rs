//! The card-by-card analysis of a finished deal's play, with every card open: for each card
//! played, the best result the player's side could still reach from the position before it,
//! the result after the card actually played, and the cards that would have kept the best.
//! A card whose value after falls below the value before "cost" the difference.
//!
//! The shape is the same for every game ([`Analysis`], [`CardAnalysis`]); what a value counts
//! ([`Unit`]) and how it was found ([`Method`]) depend on the game:
//!
//! * Prisdorf, Großenaspe, Anseggerfips, Duttfips ([`holstein`]): exact, the declarer against
//!   the defenders as one side, in the game's points (the declarer's score, or its negation for
//!   a defender), with the exact solver of [`crate::solver`].
//! * Thedinghausen and Tippen ([`tricks`]): every seat plays for himself, so "best play" is
//!   taken against all the others as one side: the tricks the player (in a Thedinghausen
//!   fipsen: the announcer, or the four against him) can be sure of. Exact within the budget.
//! * Wippen ([`wippen`]): a search of every legal simple move to a bounded number of plies,
//!   scored by the points the deal would give if it stopped there (a full look to the end of a
//!   48-card deal is out of reach); the plies searched are given with each move. The moves
//!   weighed are the simple ones (a discard, a capture of one group with the promised
//!   buildings, a build of one core) and the move played: a capture or build of several groups
//!   is valued when it was played, but never offered as the better move. The better moves are
//!   named whole ([`CardAnalysis::best_moves`]), not by their card alone.
//!
//! Every analysis runs within a [`Budget`] of search nodes, so that it takes a bounded time
//! and always gives the same answer for the same deal; cards it has no time for are left
//! without values and the analysis says it is not complete.

pub mod holstein;
pub mod tricks;
pub mod wippen;

use fipsen_rules::{Card, Seat};
use serde::{Deserialize, Serialize};

/// What the values of an analysis count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// The game's points, from the player's side.
    Points,
    /// Tricks the player's side takes in the deal (those already taken included).
    Tricks,
}

/// How the values of an analysis were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Best play of both sides to the end of the deal, every card known.
    Exact,
    /// Best play to the end of the deal with every card known, the other seats playing as one
    /// side against the player (for games where each seat plays for himself).
    AgainstAll,
    /// Best play of every seat for a bounded number of moves ([`CardAnalysis::horizon`]).
    Bounded,
}

/// One card played, analysed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardAnalysis {
    /// The move's place in the play of the deal, from 0.
    pub index: u16,
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// The best value the player's side could reach from the position before the card
    /// (`None`: not analysed within the budget).
    pub before: Option<i32>,
    /// The value after the card played.
    pub after: Option<i32>,
    /// The cards that keep the best value (the card played among them when it cost nothing).
    /// In Wippen one card can be played by a good move and a bad one: these are the hand cards
    /// of [`CardAnalysis::best_moves`].
    pub best: Vec<Card>,
    /// Wippen: the moves that keep the best value (a capture, a build or a discard, each
    /// whole), among those weighed ([`wippen`]); the move played is among them exactly when it
    /// cost nothing. Empty for the trick games, where a card is the whole move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best_moves: Vec<fipsen_rules::wippen::Move>,
    /// For a [`Method::Bounded`] search, the moves searched after this one.
    pub horizon: Option<u8>,
}

impl CardAnalysis {
    /// What the card cost: the best value less the value after it (0 for a best card; `None`
    /// when it was not analysed).
    pub fn cost(&self) -> Option<i32> {
        Some(self.before? - self.after?)
    }

    /// Whether the card lost something.
    pub fn lost(&self) -> bool {
        self.cost().is_some_and(|c| c > 0)
    }
}

/// The analysis of a deal's play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// What the values count.
    pub unit: Unit,
    /// How they were found.
    pub method: Method,
    /// Every card played, in order.
    pub cards: Vec<CardAnalysis>,
    /// Whether every card was analysed within the budget.
    pub complete: bool,
    /// Search nodes spent.
    pub nodes: u64,
}

impl Analysis {
    /// How many cards of each of `seats` seats lost something (for a series page).
    pub fn losses_by_seat(&self, seats: usize) -> Vec<u32> {
        let mut out = vec![0; seats];
        for c in self.cards.iter().filter(|c| c.lost()) {
            if let Some(n) = out.get_mut(c.seat.index()) {
                *n += 1;
            }
        }
        out
    }

    /// The cards that lost something.
    pub fn losses(&self) -> impl Iterator<Item = &CardAnalysis> {
        self.cards.iter().filter(|c| c.lost())
    }
}

/// How much search an analysis may spend on one deal, in nodes of the exact solver (a node of
/// a costlier search counts for more: [`wippen::NODE_COST`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Search nodes (positions visited) for the whole deal.
    pub nodes: u64,
}

impl Budget {
    /// The budget a server should use: at most some tens of milliseconds per deal of the
    /// trick games and about half a second per Wippen deal, on one core.
    pub const DEFAULT: Budget = Budget { nodes: 3_000_000 };

    /// A budget of `nodes` search nodes.
    pub const fn nodes(nodes: u64) -> Budget {
        Budget { nodes }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// A card's entry from the values of every card its player could play (higher: better for
/// his side); the card played must be among them.
pub(crate) fn entry(
    index: usize,
    seat: Seat,
    played: Card,
    values: &[(Card, i32)],
    horizon: Option<u8>,
) -> CardAnalysis {
    let before = values.iter().map(|v| v.1).max();
    let after = values.iter().find(|v| v.0 == played).map(|v| v.1);
    let mut best: Vec<Card> = values.iter().filter(|v| Some(v.1) == before).map(|v| v.0).collect();
    best.sort_by_key(|c| c.index());
    best.dedup();
    CardAnalysis { index: index as u16, seat, card: played, before, after, best, best_moves: Vec::new(), horizon }
}

/// A card's entry left without values (out of budget).
pub(crate) fn unanalysed(index: usize, seat: Seat, card: Card) -> CardAnalysis {
    CardAnalysis {
        index: index as u16,
        seat,
        card,
        before: None,
        after: None,
        best: Vec::new(),
        best_moves: Vec::new(),
        horizon: None,
    }
}
