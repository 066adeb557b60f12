//! Estimates by sampling: what a hand is worth as each contract, and what a declared game is
//! worth from one seat's knowledge.

use fipsen_rules::{Bid, Players};

use crate::cards::{COURT, SUIT_MASKS};
use crate::heuristic::{best_keep, best_natural};
use crate::knowledge::{Knowledge, Layout, Sampler};
use crate::rng::Rng;
use crate::solver::{MAX_PLAYERS, Position, Solver, Stakes};

pub use fipsen_rules::review::Estimate;

/// A Kieker's kept hand must look at least this strong (see [`crate::heuristic::strength`])
/// for the estimate to play it rather than give it up.
const KIEKER_PLAY_STRENGTH: f64 = 4.6;

/// The declarer's score for a game of `tricks` with `doubles` (Hand, Ruten; Durch comes on
/// top for a 5) when he takes `taken` tricks under best play (going on for Durch if he can).
pub fn game_score(tricks: u8, doubles: u32, taken: u8) -> i32 {
    let value = i32::from(tricks) << doubles;
    if tricks >= 5 {
        let value = value * 2;
        if taken >= 5 { value } else { -2 * value }
    } else if taken >= 5 {
        2 * value
    } else if taken >= tricks {
        value
    } else {
        -2 * value
    }
}

/// Draws the layouts to average over: all of them when there are at most `enumerate_limit`,
/// otherwise `samples` drawn uniformly. Falls back to ignoring inferred voids if the knowledge
/// admits no layout at all (which would be a bug upstream).
pub fn draw_layouts(k: &Knowledge, samples: usize, enumerate_limit: u64, rng: &mut Rng) -> Vec<Layout> {
    let sampler = Sampler::new(k).or_else(|| Sampler::new(&Knowledge { forbidden: [0; MAX_PLAYERS], ..k.clone() }));
    let Some(sampler) = sampler else { return Vec::new() };
    let mut out = Vec::new();
    if sampler.count() <= enumerate_limit {
        sampler.for_each(&mut |l| out.push(*l));
    } else {
        out.extend((0..samples).map(|_| sampler.sample(rng)));
    }
    out
}

/// Splits the cards out of play into a skat (2 cards, at random) and the stock (or talon).
pub fn skat_and_stock(out: u64, rng: &mut Rng) -> (u64, u64) {
    let mut cards: Vec<u8> = crate::cards::Bits(out).collect();
    rng.shuffle(&mut cards);
    let skat = cards.iter().take(2).fold(0u64, |m, &c| m | 1 << c);
    (skat, out & !skat)
}

/// What a bidding estimate starts from.
#[derive(Debug, Clone)]
pub struct BidContext {
    /// The bidder's knowledge before anyone picks up: his dealt hand, the others unseen.
    pub knowledge: Knowledge,
    /// Who would lead the first trick if he declared.
    pub first_leader: u8,
    /// The table's lowest bid.
    pub min_bid: u8,
}

impl BidContext {
    fn players(&self) -> Players {
        if self.knowledge.players == 3 { Players::Three } else { Players::Four }
    }

    /// Whether the hand may bid a Kieker (no court card).
    pub fn kieker_eligible(&self) -> bool {
        self.knowledge.hand & COURT == 0
    }
}

/// The scores of every game the bidder could play, deal by deal: the raw material of an
/// estimate, kept so that the deals can be weighed again as the auction tells more.
#[derive(Debug, Clone, PartialEq)]
pub struct GameTable {
    min_bid: u8,
    kieker: bool,
    /// The deals' hands (the bidder's own included), to weigh them later.
    pub hands: Vec<[u64; MAX_PLAYERS]>,
    /// Per deal: for each trick count from `min_bid`, Hand in each suit (4), skat natural,
    /// skat Ruten; then the Kieker.
    scores: Vec<Vec<i32>>,
}

impl GameTable {
    fn columns(min_bid: u8) -> usize {
        usize::from(6 - min_bid) * 6 + 1
    }

    /// The estimates with every deal weighed alike.
    pub fn estimates(&self) -> Vec<Estimate> {
        self.weighted(&vec![1.0; self.scores.len()])
    }

    /// The estimates with deal `i` weighed by `weights[i]`.
    pub fn weighted(&self, weights: &[f64]) -> Vec<Estimate> {
        let cols = GameTable::columns(self.min_bid);
        let mut score = vec![0.0f64; cols];
        let mut wins = vec![0.0f64; cols];
        let mut total = 0.0;
        for (row, &w) in self.scores.iter().zip(weights) {
            total += w;
            for (i, &v) in row.iter().enumerate() {
                score[i] += w * f64::from(v);
                if v > 0 {
                    wins[i] += w;
                }
            }
        }
        let total = if total > 0.0 { total } else { 1.0 };
        let at = |i: usize| (wins[i] / total, score[i] / total);
        let mut out = Vec::new();
        for k in 0..usize::from(6 - self.min_bid) {
            let tricks = self.min_bid + k as u8;
            let base = k * 6;
            // Hand: the natural suit best on average (named before anything more is known).
            let hand = (0..3).map(|s| at(base + s)).max_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((0.0, 0.0));
            for (hand_game, ruten, (win, score)) in [
                (false, false, at(base + 4)),
                (true, false, hand),
                (false, true, at(base + 5)),
                (true, true, at(base + 3)),
            ] {
                out.push(Estimate { game: Bid::Tricks { tricks, hand: hand_game, ruten }, win, score });
            }
        }
        if self.kieker {
            let (win, score) = at(cols - 1);
            out.push(Estimate { game: Bid::Kieker, win, score });
        }
        out
    }
}

/// For every game the bidder could play (tricks `min_bid..=5` with or without Hand and Ruten,
/// and a Kieker if his hand allows it), the estimated chance of winning and expected score.
///
/// Each sample deals the unseen cards; every game is then solved with all cards known. Choices
/// the declarer makes without seeing the others' cards are made without them here too: Hand
/// trumps are the suit best on average over all samples; after taking the skat the discards
/// and trumps come from [`best_natural`] / [`best_keep`] on his own seven cards.
///
/// `layouts` are the deals to average over (drawn from `ctx.knowledge`); the cards out of play
/// in each are split at random into skat and stock.
pub fn estimate_games(ctx: &BidContext, layouts: &[Layout], rng: &mut Rng, solver: &mut Solver) -> Vec<Estimate> {
    game_table(ctx, layouts, rng, solver).estimates()
}

/// The per-deal scores behind [`estimate_games`].
pub fn game_table(ctx: &BidContext, layouts: &[Layout], rng: &mut Rng, solver: &mut Solver) -> GameTable {
    let me = ctx.knowledge.viewer;
    let hand = ctx.knowledge.hand;
    let min = ctx.min_bid.clamp(2, 5);
    let counts = usize::from(6 - min);
    let thresholds: Vec<u8> = (min..=5).collect();
    let kieker = ctx.kieker_eligible();
    let cols = GameTable::columns(min);
    let taken = |reached: usize| if reached == 0 { min - 1 } else { min + reached as u8 - 1 };
    let mut table = GameTable { min_bid: min, kieker, hands: Vec::new(), scores: Vec::new() };
    for layout in layouts {
        let mut row = vec![0i32; cols];
        let (skat, stock) = skat_and_stock(layout.out, rng);
        let mut pos = Position {
            players: ctx.knowledge.players,
            hands: layout.hands,
            declarer: me,
            trumps: 0,
            leader: ctx.first_leader,
            trick: [0; MAX_PLAYERS],
            trick_len: 0,
        };
        for suit in 0..4 {
            pos.trumps = SUIT_MASKS[suit];
            let t = taken(solver.reaches(&pos, &thresholds));
            for k in 0..counts {
                row[k * 6 + suit] = game_score(min + k as u8, 1 + u32::from(suit == 3), t);
            }
        }
        let seven = hand | skat;
        let (suit, keep, _) = best_natural(seven, 5);
        pos.hands[usize::from(me)] = keep;
        pos.trumps = SUIT_MASKS[suit];
        let t = taken(solver.reaches(&pos, &thresholds));
        for k in 0..counts {
            row[k * 6 + 4] = game_score(min + k as u8, 0, t);
        }
        let (keep, _) = best_keep(seven, 3, 5);
        pos.hands[usize::from(me)] = keep;
        pos.trumps = SUIT_MASKS[3];
        let t = taken(solver.reaches(&pos, &thresholds));
        for k in 0..counts {
            row[k * 6 + 5] = game_score(min + k as u8, 1, t);
        }
        if kieker {
            let ten = match ctx.players() {
                Players::Four => hand | skat | stock,
                Players::Three => skat | stock,
            };
            row[cols - 1] = kieker_sample(&mut pos, me, ten, solver);
        }
        table.hands.push(layout.hands);
        table.scores.push(row);
    }
    table
}

/// One sampled Kieker: keep the five strongest cards, Ruten if strong enough, else the best
/// natural suit, else give up.
fn kieker_sample(pos: &mut Position, me: u8, ten: u64, solver: &mut Solver) -> i32 {
    let (ruten_keep, ruten_strength) = best_keep(ten, 3, 5);
    let (suit, natural_keep, natural_strength) = best_natural(ten, 5);
    let (keep, suit, value) = if ruten_strength >= KIEKER_PLAY_STRENGTH {
        (ruten_keep, 3, 20)
    } else if natural_strength >= KIEKER_PLAY_STRENGTH {
        (natural_keep, suit, 10)
    } else {
        return -5;
    };
    pos.hands[usize::from(me)] = keep;
    pos.trumps = SUIT_MASKS[suit];
    if solver.at_least(pos, 5) { value } else { -2 * value }
}

/// The declarer's expected score and chance of winning with `hand` and `trumps` (suit number),
/// averaged over `layouts` (whose declarer hand is replaced by `hand`).
pub fn game_value(
    layouts: &[Layout],
    base: &Position,
    hand: u64,
    trumps: usize,
    stakes: &Stakes,
    solver: &mut Solver,
) -> (f64, f64) {
    let mut pos = *base;
    pos.trumps = SUIT_MASKS[trumps];
    game_value_at(layouts, &pos, hand, stakes, solver)
}

/// [`game_value`] with the trumps of `base` as they are.
pub fn game_value_at(
    layouts: &[Layout],
    base: &Position,
    hand: u64,
    stakes: &Stakes,
    solver: &mut Solver,
) -> (f64, f64) {
    if layouts.is_empty() {
        return (0.0, 0.0);
    }
    let mut score = 0.0;
    let mut wins = 0.0;
    let mut pos = *base;
    for layout in layouts {
        pos.hands = layout.hands;
        pos.hands[usize::from(base.declarer)] = hand;
        let (v, _) = solver.solve(&pos, stakes);
        score += f64::from(v);
        if v > 0 {
            wins += 1.0;
        }
    }
    let n = layouts.len() as f64;
    (score / n, wins / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::Card;

    fn mask(cards: &[&str]) -> u64 {
        cards.iter().map(|s| 1u64 << s.parse::<Card>().unwrap().index()).fold(0, |a, b| a | b)
    }

    #[test]
    fn game_scores_follow_the_table() {
        assert_eq!(game_score(2, 0, 2), 2);
        assert_eq!(game_score(2, 0, 1), -4);
        assert_eq!(game_score(3, 0, 5), 6);
        assert_eq!(game_score(3, 2, 3), 12);
        assert_eq!(game_score(5, 0, 5), 10);
        assert_eq!(game_score(5, 2, 4), -80);
    }

    #[test]
    fn a_top_hand_is_a_sure_five_and_a_poor_hand_loses() {
        let mut rng = Rng::new(1);
        let mut solver = Solver::new();
        let top = mask(&["CA", "CK", "CQ", "CJ", "C10"]);
        let ctx =
            BidContext { knowledge: Knowledge::before_auction(Players::Four, 0, top), first_leader: 0, min_bid: 2 };
        let layouts = draw_layouts(&ctx.knowledge, 20, 0, &mut rng);
        let est = estimate_games(&ctx, &layouts, &mut rng, &mut solver);
        let five_hand = est.iter().find(|e| e.game == Bid::Tricks { tricks: 5, hand: true, ruten: false }).unwrap();
        assert_eq!(five_hand.win, 1.0);
        assert_eq!(five_hand.score, 20.0);
        let poor = mask(&["C7", "S8", "S9", "H7", "H8"]);
        let ctx = BidContext { knowledge: Knowledge::before_auction(Players::Four, 0, poor), ..ctx };
        let layouts = draw_layouts(&ctx.knowledge, 20, 0, &mut rng);
        let est = estimate_games(&ctx, &layouts, &mut rng, &mut solver);
        assert!(est.iter().all(|e| e.score < 0.0), "{est:?}");
        assert!(est.iter().any(|e| e.game == Bid::Kieker), "no court card: a Kieker is possible");
    }
}
