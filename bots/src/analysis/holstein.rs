//! The analysis of the play of the Holstein-family games (Prisdorf, Großenaspe, Anseggerfips,
//! Duttfips): the declarer against the defenders as one side, every card known, solved exactly
//! by [`Solver`] in the game's points.

use fipsen_rules::{Card, CardSet, Play, TrickView};

use super::{Analysis, Budget, Method, Unit, entry, unanalysed};
use crate::cards::card;
use crate::solver::{MAX_PLAYERS, Position, Solver, Stakes};

/// A finished deal's play as the analysis reads it.
#[derive(Debug, Clone)]
pub struct OpenPlay {
    /// The seats at the table.
    pub players: u8,
    /// The declarer.
    pub declarer: u8,
    /// The trump cards.
    pub trumps: u64,
    /// Each seat's hand when the first card was led.
    pub hands: [u64; MAX_PLAYERS],
    /// The cards played, in order.
    pub plays: Vec<Play>,
    /// The tricks the contract needs.
    pub target: u8,
    /// Whether every trick is needed from the first card (a 5, a Kieker, a Fips).
    pub durch_from_start: bool,
    /// Whether the declarer went on for Durch when he reached his count without a loss.
    pub went_on: bool,
}

impl OpenPlay {
    /// The play of a finished deal from what its spectators see once it is over: the finished
    /// tricks, the trick being played, and the cards never played (`left`, each seat's).
    pub fn from_tricks(
        players: u8,
        declarer: u8,
        trumps: u64,
        tricks: &[TrickView],
        trick: &[Play],
        left: &[CardSet],
    ) -> OpenPlay {
        let plays: Vec<Play> = tricks.iter().flat_map(|t| t.cards.iter()).chain(trick.iter()).copied().collect();
        OpenPlay {
            players,
            declarer,
            trumps,
            hands: hands_at_start(players, &plays, left),
            plays,
            target: 0,
            durch_from_start: false,
            went_on: false,
        }
    }
}

/// Each seat's hand before the first card: the cards it played and the cards it kept.
pub fn hands_at_start(players: u8, plays: &[Play], left: &[CardSet]) -> [u64; MAX_PLAYERS] {
    let mut hands = [0u64; MAX_PLAYERS];
    for s in 0..usize::from(players).min(MAX_PLAYERS) {
        hands[s] = left.get(s).map_or(0, |h| h.bits());
    }
    for p in plays {
        if let Some(h) = hands.get_mut(p.seat.index()) {
            *h |= 1 << p.card.index();
        }
    }
    hands
}

/// The analysis of `open`'s play. `stakes(durch, won, lost)` gives the declarer's stakes once
/// he has taken `won` tricks and lost `lost`, with every trick needed if `durch`.
pub fn analyse(open: &OpenPlay, stakes: impl Fn(bool, u8, u8) -> Stakes, budget: Budget) -> Option<Analysis> {
    let first = open.plays.first()?;
    let mut pos = Position {
        players: open.players,
        hands: open.hands,
        declarer: open.declarer,
        trumps: open.trumps,
        leader: first.seat.0,
        trick: [0; MAX_PLAYERS],
        trick_len: 0,
    };
    let mut solver = Solver::new();
    let mut cards = Vec::with_capacity(open.plays.len());
    let mut complete = true;
    let (mut won, mut lost) = (0u8, 0u8);
    let mut on = open.durch_from_start;
    let mut values = Vec::new();
    for (i, p) in open.plays.iter().enumerate() {
        if pos.turn() != p.seat.0 || pos.playable() & (1 << p.card.index()) == 0 {
            // Not a play of these hands (a deal read wrongly): no analysis rather than a wrong one.
            return None;
        }
        if solver.nodes >= budget.nodes {
            complete = false;
            cards.push(unanalysed(i, p.seat, p.card));
        } else {
            let st = stakes(on, won, lost);
            values.clear();
            solver.card_values(&pos, &st, &mut values);
            let sign = if p.seat.0 == open.declarer { 1 } else { -1 };
            let side: Vec<(Card, i32)> = values.iter().map(|&(c, v)| (card(c), sign * v)).collect();
            cards.push(entry(i, p.seat, p.card, &side, None));
        }
        let (next, winner) = pos.play(p.card.index());
        pos = next;
        if let Some(w) = winner {
            if w == open.declarer {
                won += 1;
            } else {
                lost += 1;
            }
            // The Durch choice comes when he reaches his count without a loss.
            if !on && lost == 0 && won == open.target && won < 5 {
                on = open.went_on;
            }
        }
    }
    Some(Analysis { unit: Unit::Points, method: Method::Exact, cards, complete, nodes: solver.nodes })
}
