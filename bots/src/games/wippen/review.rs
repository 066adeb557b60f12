//! The review of a seat's moves in a finished game of Wippen: at each of his moves, the seat's
//! view at that moment rebuilt by replaying the game, and the moves the strong bot weighs there
//! (normal's best [`STRONG_CANDIDATES`](super::STRONG_CANDIDATES), the bot's own move and the
//! seat's), each played on over the strong bot's [`STRONG_SAMPLES`](super::STRONG_SAMPLES) deals of the cards the seat could not see, drawn from his
//! view alone. A move with the last card of a round, or with nothing else to weigh, is valued by
//! normal's one-ply score without sampling.

use fipsen_rules::Seat;
use fipsen_rules::wippen::{Building, BuildingId, Deal, DealView, Expr, Move, MoveRecord, Pile, PileRef, Position};

use super::{
    Bot, Candidate, Kind, LOOKAHEAD_PILES, SWEEP, SWEEP_WORTH, Weighed, Worth, bits_of, play, promote, table_after,
    worth,
};
use crate::games::decisions::{MoveDecision, MoveOption, MoveReview, mean_and_margin};
use crate::level::Level;

/// The review of `seat`'s moves in the finished `deal`, replayed from its seed (`None`: the
/// game is not over, the seat did not play in it, or the moves do not replay).
pub fn review(bot: &Bot, deal: &Deal, seat: Seat) -> Option<MoveReview> {
    if !deal.is_over() || seat.index() >= deal.hands().len() {
        return None;
    }
    let (start, _) = Deal::new(*deal.rules(), deal.number(), deal.dealer(), deal.seed());
    review_from(bot, start, deal.moves(), seat)
}

/// The review of `seat`'s moves among `moves`, played from `start` (`None`: a move is refused,
/// or the game is not over after them).
pub fn review_from(bot: &Bot, start: Deal, moves: &[MoveRecord], seat: Seat) -> Option<MoveReview> {
    let mut replay = start;
    let mut out = Vec::new();
    for (at, record) in moves.iter().enumerate() {
        if record.seat == seat {
            let view = replay.view(Some(seat));
            out.push(bot.review_move(&view, &record.mv, at as u32)?);
        }
        replay.apply(record.seat, record.mv.clone()).ok()?;
    }
    replay.is_over().then_some(MoveReview { seat, moves: out })
}

/// What tells two moves apart for the review: the hand card, discard (0), capture (1) or build
/// (2), the value built and the table piles used.
type Key = (fipsen_rules::Card, u8, u8, u64);

fn key_of(c: &Candidate) -> Key {
    match &c.kind {
        Kind::Discard => (c.card, 0, 0, 0),
        Kind::Capture(groups) => (c.card, 1, 0, groups.iter().fold(0, |a, &m| a | m)),
        Kind::Build(v, core, extras) => (c.card, 2, *v, extras.iter().fold(*core, |a, &m| a | m)),
    }
}

/// A move as a candidate: what it does to the table and what it takes, as the bot counts it
/// (`None`: it names a pile not on the table).
fn effect(pos: &Position, mv: &Move, worth: &Worth) -> Option<Candidate> {
    let table = pos.table;
    let card = mv.card();
    // Each group's table piles (the hand card, in a build, is no pile).
    let mut masks = Vec::new();
    let mut core = None;
    let mut leaves_cards = Vec::new();
    for (g, e) in mv.groups().iter().enumerate() {
        let mut mask = 0u64;
        for leaf in e.leaves() {
            let name = match leaf {
                Expr::Card(c) if *c == card => {
                    core = Some(g);
                    leaves_cards.push(card);
                    continue;
                }
                Expr::Card(c) => PileRef::Card(*c),
                Expr::Building(b) => PileRef::Building(*b),
                Expr::Op(..) => return None,
            };
            let i = table.iter().position(|p| p.name() == name)?;
            mask |= 1u64 << i;
            leaves_cards.extend(table[i].cards());
        }
        masks.push(mask);
    }
    let used = masks.iter().fold(0, |a, &m| a | m);
    let n = table.len();
    let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    Some(match mv {
        Move::Discard { .. } => Candidate {
            card,
            kind: Kind::Discard,
            gain: 0.0,
            captures: false,
            taken: Default::default(),
            after: table_after(table, 0, Some(Pile::Loose { card })),
            score: 0.0,
        },
        Move::Capture { .. } => {
            let sweep = if used == all { SWEEP } else { 0.0 };
            Candidate {
                card,
                kind: Kind::Capture(masks),
                gain: bits_of(used).map(|i| worth.pile(&table[i])).sum::<f64>() + sweep + worth.card(card),
                captures: true,
                taken: bits_of(used).flat_map(|i| table[i].cards()).chain([card]).collect(),
                after: table_after(table, used, None),
                score: 0.0,
            }
        }
        Move::Build { value, .. } => {
            let core = core?;
            let extras = masks.iter().enumerate().filter(|&(g, _)| g != core).map(|(_, &m)| m).collect();
            let next_id = table.iter().filter_map(|p| p.building().map(|b| b.id.0)).max().unwrap_or(0) + 1;
            let building = Building { id: BuildingId(next_id), value: *value, owner: pos.seat, cards: leaves_cards };
            Candidate {
                card,
                kind: Kind::Build(*value, masks[core], extras),
                gain: 0.0,
                captures: false,
                taken: Default::default(),
                after: table_after(table, used, Some(Pile::Building(building))),
                score: 0.0,
            }
        }
    })
}

/// A move weighed, with the value it was given.
struct Weighted {
    action: Move,
    cand: Candidate,
    values: Option<Vec<f64>>,
    score: f64,
}

impl Bot {
    /// The review of the seat's move `chosen` in `view` (his own view before it), the `at`-th
    /// move of the game (`None`: it is not his turn, or the move names a pile not on the table).
    /// A bot's move that takes and leaves what the seat's does is given as the seat's.
    pub(super) fn review_move(&self, view: &DealView, chosen: &Move, at: u32) -> Option<MoveDecision> {
        let seat = view.viewer?;
        let hand = view.hand?;
        let pos = Position { rules: &view.rules, table: &view.table, hand, seat };
        let worth = Worth::new(&view.captured);
        let chosen_cand = effect(&pos, chosen, &worth)?;
        let others_out = view.hand_sizes.iter().enumerate().all(|(s, &k)| s == seat.index() || k == 0);
        let last_card = view.stock == 0 && others_out && hand.len() == 1;
        let option = |w: &Weighted| -> MoveOption {
            let (value, margin) = match &w.values {
                Some(v) => mean_and_margin(v.iter().map(|&x| (1.0, x))),
                None => (w.score, 0.0),
            };
            let taken: Vec<_> = match &w.cand.kind {
                Kind::Capture(_) => {
                    std::iter::once(w.cand.card).chain(w.cand.taken.iter().filter(|&c| c != w.cand.card)).collect()
                }
                _ => Vec::new(),
            };
            let sweep = w.cand.captures && w.cand.after.is_empty() && (!last_card || view.rules.last_move_sweep);
            MoveOption {
                action: w.action.clone(),
                value,
                margin,
                worth: worth_of(&taken, sweep),
                taken,
                sweep,
                left: w.cand.after.iter().flat_map(Pile::cards).collect(),
            }
        };
        let decision = |mut weighed: Vec<Weighted>, samples: u32, bot: Move| -> MoveDecision {
            let mut options: Vec<MoveOption> = weighed.drain(..).map(|w| option(&w)).collect();
            options.sort_by(|a, b| b.value.total_cmp(&a.value));
            MoveDecision { at, samples, options, bot, chosen: chosen.clone() }
        };

        // A crowded table: every level plays by the easy rules; the moves are valued by what
        // they take at once.
        if view.table.len() > LOOKAHEAD_PILES {
            let bot = self.clone().choose(view)?;
            let bot = match effect(&pos, &bot, &worth) {
                Some(c) if key_of(&c) == key_of(&chosen_cand) => chosen.clone(),
                _ => bot,
            };
            let mut weighed =
                vec![Weighted { action: chosen.clone(), score: chosen_cand.gain, cand: chosen_cand, values: None }];
            if let Some(c) = effect(&pos, &bot, &worth).filter(|c| key_of(c) != key_of(&weighed[0].cand)) {
                weighed.push(Weighted { action: bot.clone(), score: c.gain, cand: c, values: None });
            }
            return Some(decision(weighed, 0, bot));
        }

        let w = Weighed::of(view, seat, hand);
        let top = w.top();
        let mut deals = None;
        let mut top_values: Vec<Vec<f64>> = Vec::new();
        // The bot's move: the strong one from the values of its candidates, as it plays.
        let bot = if self.level == Level::Strong && w.looks_ahead() {
            let d = w.sample(self.seed, view);
            top_values = top.iter().map(|&i| w.values(&w.cands[i], &d, &view.captured)).collect();
            deals = Some(d);
            let totals: Vec<f64> = top_values.iter().map(|v| v.iter().sum()).collect();
            let mut order = w.order.clone();
            promote(&mut order, &top, &totals);
            let raw = pos.raw();
            play(&w.cands, order, &pos, &raw)?
        } else {
            self.clone().choose(view)?
        };
        // The bot's move, where it does what the seat's does, is the seat's (they differ in
        // their arithmetic only).
        let bot = match effect(&pos, &bot, &worth) {
            Some(c) if key_of(&c) == key_of(&chosen_cand) => chosen.clone(),
            _ => bot,
        };
        // The moves weighed: normal's best, the bot's and the seat's.
        let mut weighed: Vec<Weighted> = Vec::new();
        let mut keys: Vec<Key> = Vec::new();
        for (k, &i) in top.iter().enumerate() {
            let cand = w.cands[i].clone();
            let key = key_of(&cand);
            let Some(action) = cand.to_move(&pos) else { continue };
            if keys.contains(&key) {
                continue;
            }
            keys.push(key);
            let values = top_values.get(k).cloned();
            weighed.push(Weighted { action, score: cand.score, cand, values });
        }
        for mv in [&bot, chosen] {
            let Some(mut cand) = effect(&pos, mv, &worth) else { continue };
            let key = key_of(&cand);
            if let Some(k) = keys.iter().position(|&x| x == key) {
                weighed[k].action = mv.clone();
                continue;
            }
            // A move among the other candidates keeps its one-ply score.
            let score = w.cands.iter().find(|c| key_of(c) == key).map_or_else(|| w.ctx.one_ply(&cand), |c| c.score);
            cand.score = score;
            keys.push(key);
            weighed.push(Weighted { action: mv.clone(), cand, values: None, score });
        }
        if w.ctx.last_of_round || weighed.len() < 2 {
            for x in &mut weighed {
                x.values = None;
            }
            return Some(decision(weighed, 0, bot));
        }
        let deals = deals.unwrap_or_else(|| w.sample(self.seed, view));
        for x in &mut weighed {
            if x.values.is_none() {
                x.values = Some(w.values(&x.cand, &deals, &view.captured));
            }
        }
        Some(decision(weighed, deals.len() as u32, bot))
    }
}

/// The worth of the cards taken as the easy bot counts them (one a card, more for ♦10, ♠2,
/// aces and spades), and a sweep's.
fn worth_of(taken: &[fipsen_rules::Card], sweep: bool) -> i32 {
    worth(taken.iter().copied().collect()) + if sweep { SWEEP_WORTH } else { 0 }
}
