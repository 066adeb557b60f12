//! The analysis of a Wippen deal, every card open (the hands and the order of the stock): each
//! move against every legal simple move its player had (a discard, a capture of one group with
//! the promised buildings, a build of one core: [`Deal::legal_actions`]; not the captures and
//! builds of several groups, which are valued only when played), searched a bounded number of moves
//! ahead by every seat's best play (the others as one side against the player), and scored by
//! the points the deal would give if it ended there: the player's points less the best of the
//! others'. The search deepens one move at a time while the move's share of the budget lasts;
//! the depth reached is given with each move ([`super::CardAnalysis::horizon`]). A line that
//! reaches the end of the deal is scored by the deal's outcome. Each node of this search
//! counts as [`NODE_COST`] nodes of the budget.

use fipsen_rules::Seat;
use fipsen_rules::wippen::{Deal, Move, MoveRecord, score};

use super::{Analysis, Budget, CardAnalysis, Method, Unit, unanalysed};

/// The deepest search tried after a move (a round of hand cards of two players).
pub const MAX_DEPTH: u8 = 8;

/// What one node of this search (a move applied to a copy of the deal, the next moves listed)
/// costs in the nodes of a [`Budget`], which counts the exact solver's (about a hundred times
/// cheaper).
pub const NODE_COST: u64 = 100;

/// The analysis of finished deal `finished`, replayed from its seed.
pub fn analyse(finished: &Deal, budget: Budget) -> Option<Analysis> {
    let (start, _) = Deal::new(*finished.rules(), finished.number(), finished.dealer(), finished.seed());
    analyse_from(start, finished.moves(), budget)
}

/// The analysis of `moves` played from `start`. `None` if a move does not fit the deal.
pub fn analyse_from(start: Deal, moves: &[MoveRecord], budget: Budget) -> Option<Analysis> {
    let per_move = budget.nodes / NODE_COST / moves.len().max(1) as u64;
    let mut deal = start;
    let mut cards = Vec::with_capacity(moves.len());
    let mut nodes = 0u64;
    let mut complete = true;
    for (i, record) in moves.iter().enumerate() {
        let seat = record.seat;
        if deal.turn() != Some(seat) {
            return None;
        }
        let mut candidates = deal.legal_actions(seat);
        if !candidates.contains(&record.mv) {
            candidates.push(record.mv.clone());
        }
        let mut search = Bounded { me: seat, nodes: 0, limit: per_move, deeper: false };
        let mut found: Option<(Vec<(Move, i32)>, u8)> = None;
        for depth in 0..=MAX_DEPTH {
            search.deeper = false;
            let Some(values) = search.values(&deal, &candidates, depth) else { break };
            found = Some((values, depth));
            if !search.deeper {
                // Every line ended before the horizon: deeper searches change nothing.
                break;
            }
        }
        nodes += search.nodes * NODE_COST;
        let card = record.mv.card();
        match found {
            Some((values, depth)) => {
                let before = values.iter().map(|v| v.1).max();
                let after = values.iter().find(|v| v.0 == record.mv).map(|v| v.1);
                // The moves that keep the best, whole: one card may be played by a good move and
                // a bad one, so the card alone would name the card of a costly move as better.
                let best_moves: Vec<Move> =
                    values.iter().filter(|v| Some(v.1) == before).map(|v| v.0.clone()).collect();
                let mut best: Vec<_> = best_moves.iter().map(Move::card).collect();
                best.sort_by_key(|c| c.index());
                best.dedup();
                cards.push(CardAnalysis {
                    index: i as u16,
                    seat,
                    card,
                    before,
                    after,
                    best,
                    best_moves,
                    horizon: Some(depth),
                });
            }
            None => {
                complete = false;
                cards.push(unanalysed(i, seat, card));
            }
        }
        deal.apply(seat, record.mv.clone()).ok()?;
    }
    Some(Analysis { unit: Unit::Points, method: Method::Bounded, cards, complete, nodes })
}

/// A search to a fixed depth for one player, within a number of nodes.
struct Bounded {
    me: Seat,
    nodes: u64,
    limit: u64,
    /// Some line reached the horizon before the end of the deal.
    deeper: bool,
}

impl Bounded {
    /// The value of each candidate of the player to move in `deal`, searched `depth` moves
    /// further; `None` when the budget runs out.
    fn values(&mut self, deal: &Deal, candidates: &[Move], depth: u8) -> Option<Vec<(Move, i32)>> {
        let mut out = Vec::with_capacity(candidates.len());
        for m in candidates {
            let mut next = deal.clone();
            self.nodes += 1;
            if next.apply(self.me, m.clone()).is_err() {
                continue;
            }
            out.push((m.clone(), self.value(&next, depth, i32::MIN, i32::MAX)?));
        }
        Some(out)
    }

    /// The player's value of `deal` with `depth` moves still to search, in the window
    /// (`alpha`, `beta`).
    fn value(&mut self, deal: &Deal, depth: u8, mut alpha: i32, mut beta: i32) -> Option<i32> {
        if self.nodes >= self.limit {
            return None;
        }
        let Some(turn) = deal.turn() else { return Some(self.points(deal)) };
        if depth == 0 {
            self.deeper = true;
            return Some(self.points(deal));
        }
        let mine = turn == self.me;
        let mut best = if mine { i32::MIN } else { i32::MAX };
        for m in deal.legal_actions(turn) {
            let mut next = deal.clone();
            self.nodes += 1;
            if next.apply(turn, m).is_err() {
                continue;
            }
            let v = self.value(&next, depth - 1, alpha, beta)?;
            if mine {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        if best == i32::MIN || best == i32::MAX { Some(self.points(deal)) } else { Some(best) }
    }

    /// The player's points less the best of the others', as the deal stands (its outcome once
    /// it is over).
    fn points(&self, deal: &Deal) -> i32 {
        let points = match deal.outcome() {
            Some(o) => o.points.clone(),
            None => score(deal.captured(), deal.sweeps()).points,
        };
        let me = self.me.index();
        let mine = points.get(me).copied().unwrap_or(0);
        let others = points.iter().enumerate().filter(|&(i, _)| i != me).map(|(_, &p)| p).max().unwrap_or(0);
        mine - others
    }
}
