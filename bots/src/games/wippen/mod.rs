//! Bots for Wippen (docs/rules/wippen.md §E), the fishing game, at three levels:
//!
//! * **Easy** is greedy: it captures the most valuable cards it can (♦10, ♠2, aces and spades
//!   first, a sweep above all), else makes the build holding the most, else discards its lowest
//!   card that scores nothing. It never looks at what its move leaves on the table.
//! * **Normal** weighs every move by one ply: what it captures now, minus what the next players
//!   are expected to capture from the table it leaves (for each value, the best capture a card
//!   of that value makes there, times the chance that the unseen cards put one in their hands:
//!   sweeps given away, ♦10, ♠2 and aces laid open), plus part of what its own remaining cards
//!   can capture there next turn (so a build it can keep, or a pile it can take back, counts).
//!   Card values follow the score lines still open (a "most cards" or "most spades" line already
//!   decided makes plain cards or spades worth nothing more).
//! * **Strong** looks ahead over the unseen cards: it takes normal's best
//!   [`STRONG_CANDIDATES`] moves and [`STRONG_SAMPLES`] deals of the other hands drawn from the
//!   cards it cannot see (the other hands and the stock together: only its own view is read),
//!   plays each candidate on in each deal for [`ROLLOUT_PLIES`] moves (or to the end of the
//!   round of hand cards) with every seat moving by the normal rules and its drawn hand, counts
//!   the points each seat took meanwhile and what the seat to move then can expect from the
//!   table, and plays the candidate with the best average of its points less the others'. The
//!   same deals serve every candidate, so their comparison is not blurred by the draw. With
//!   the last card of a round of hand cards, or a single candidate, it plays as normal does.
//!
//! Tables of more than [`LOOKAHEAD_PILES`] piles are played by the easy rules at every level, so
//! a move stays cheap whatever the table. Every answer is a legal move; the same level, seed and
//! view give the same answer.
//!
//! The review of a finished game ([`review`]) replays it and weighs each of a seat's moves as
//! the strong bot would from the seat's view at that moment: normal's best candidates, the bot's
//! move and the seat's, each valued over the strong bot's own sampled deals of the unseen cards.

pub mod arena;
mod review;

pub use review::{review, review_from};

// ---------------------------------------------------------------------------------------------
// The one interface.

impl crate::games::GameBot for Bot {
    type View = SeriesView;
    type Action = Move;
    type Deal = fipsen_rules::wippen::Deal;
    type Review = MoveReview;

    fn new(level: Level, seed: u64) -> Bot {
        Bot::new(level, seed)
    }

    fn choose(&mut self, view: &SeriesView) -> Option<Move> {
        self.choose_in_series(view)
    }

    /// Each of the seat's moves against the moves the strong bot weighs, valued over deals of
    /// the cards he could not see ([`review`]).
    fn review(&mut self, deal: &Self::Deal, seat: Seat) -> Option<MoveReview> {
        review(self, deal, seat)
    }

    /// Each move against every simple move its player had, searched a bounded number of moves
    /// ahead with every card open ([`crate::analysis::wippen`]).
    fn analyse(deal: &Self::Deal, budget: crate::analysis::Budget) -> Option<crate::analysis::Analysis> {
        crate::analysis::wippen::analyse(deal, budget)
    }

    /// A deal's search is the costliest of the games (about 0.7 s at the default budget).
    const COSTLY_ANALYSIS: bool = true;

    /// A quarter of the default: the analysis looks fewer moves ahead, and a deal takes a
    /// fraction of a second.
    fn analysis_budget() -> crate::analysis::Budget {
        crate::analysis::Budget::nodes(crate::analysis::Budget::DEFAULT.nodes / 4)
    }
}

#[cfg(test)]
mod tests;

use fipsen_rules::wippen::{
    Building, BuildingId, DealView, Expr, Move, Pile, Position, RawCard, Rules, SeriesView, value,
};
use fipsen_rules::{Card, CardSet, Rank, Seat, Suit};

use crate::games::decisions::MoveReview;
use crate::level::Level;
use crate::rng::{Hasher, Rng};

/// Above this many table piles every level plays by the easy rules: the sets of piles to weigh
/// grow with the fourth power of the table.
pub const LOOKAHEAD_PILES: usize = 21;
/// Candidates (normal's best) the strong bot looks ahead from.
pub const STRONG_CANDIDATES: usize = 5;
/// Deals of the other hands drawn per strong decision (shared by every candidate).
pub const STRONG_SAMPLES: usize = 16;
/// Moves played on after a candidate in each of the strong bot's sampled deals.
pub const ROLLOUT_PLIES: usize = 6;
/// Build cores weighed per hand card and value (the richest first).
const CORES_PER_VALUE: usize = 3;
/// Steps spent at most looking for a sweep among overlapping groups.
const COVER_BUDGET: u32 = 400;

/// What a captured plain card is worth while "most cards" is open, in points.
const CARD: f64 = 0.15;
/// What a spade adds while "most spades" is open.
const SPADE: f64 = 0.3;
/// A sweep.
const SWEEP: f64 = 1.0;

/// What a sweep is worth to the greedy bot, beside the cards it takes.
const SWEEP_WORTH: i32 = 8;

/// A Wippen bot.
#[derive(Debug, Clone)]
pub struct Bot {
    level: Level,
    seed: u64,
}

/// What capturing a card is worth to the greedy bot.
fn card_worth(card: Card) -> i32 {
    let mut w = 1;
    if card == Card::new(Suit::Diamonds, Rank::Ten) {
        w += 6;
    }
    if card == Card::new(Suit::Spades, Rank::Two) {
        w += 4;
    }
    if card.rank() == Rank::Ace {
        w += 3;
    }
    if card.suit() == Suit::Spades {
        w += 1;
    }
    w
}

/// The cards of a set worth the most to capture, for tests.
pub fn worth(cards: CardSet) -> i32 {
    cards.iter().map(card_worth).sum()
}

impl Bot {
    /// A bot of `level`; `seed` drives the strong bot's samples.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot { level, seed }
    }

    /// The bot's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The bot's move for the viewer of `view`, if the view offers one.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Move> {
        if view.over {
            return None;
        }
        self.choose(&view.deal)
    }

    /// The bot's move for the viewer of a game's view, if it is his turn.
    pub fn choose(&mut self, deal: &DealView) -> Option<Move> {
        if deal.prompt.is_empty() {
            return None;
        }
        let seat = deal.viewer?;
        let hand = deal.hand?;
        let pos = Position { rules: &deal.rules, table: &deal.table, hand, seat };
        let raw = pos.raw();
        if self.level == Level::Easy || deal.table.len() > LOOKAHEAD_PILES {
            return greedy(&pos, &raw).or_else(|| pos.simple_moves().into_iter().next());
        }
        let weighed = Weighed::of(deal, seat, hand);
        let mut order = weighed.order.clone();
        if self.level == Level::Strong && weighed.looks_ahead() {
            let deals = weighed.sample(self.seed, deal);
            let top = weighed.top();
            let totals: Vec<f64> =
                top.iter().map(|&i| weighed.values(&weighed.cands[i], &deals, &deal.captured).iter().sum()).collect();
            promote(&mut order, &top, &totals);
        }
        play(&weighed.cands, order, &pos, &raw)
    }
}

/// The move of the first candidate in `order` that converts to one, else the easy bot's, else
/// the first simple move.
fn play(cands: &[Candidate], order: Vec<usize>, pos: &Position, raw: &[RawCard]) -> Option<Move> {
    order
        .into_iter()
        .find_map(|i| cands[i].to_move(pos))
        .or_else(|| greedy(pos, raw))
        .or_else(|| pos.simple_moves().into_iter().next())
}

/// Puts first in `order` the candidate of `top` with the best total (the first of equals).
fn promote(order: &mut Vec<usize>, top: &[usize], totals: &[f64]) {
    let mut best: Option<(f64, usize)> = None;
    for (&i, &total) in top.iter().zip(totals) {
        if best.is_none_or(|(b, _)| total > b) {
            best = Some((total, i));
        }
    }
    if let Some((_, i)) = best {
        order.retain(|&j| j != i);
        order.insert(0, i);
    }
}

/// One decision weighed from the viewer's view alone: what the seat knows, the moves worth
/// weighing, and their ranking by normal's one-ply score, best first. The strong bot's
/// look-ahead and the review read their values from here.
struct Weighed {
    ctx: Context,
    cands: Vec<Candidate>,
    order: Vec<usize>,
    sizes: Vec<usize>,
    stock: usize,
}

impl Weighed {
    /// The decision of `seat`, holding `hand`, in `deal` (his own view).
    fn of(deal: &DealView, seat: Seat, hand: CardSet) -> Weighed {
        let sizes: Vec<usize> = deal.hand_sizes.iter().map(|&k| usize::from(k)).collect();
        let seen = Seen {
            rules: deal.rules,
            table: &deal.table,
            sizes: &sizes,
            stock: usize::from(deal.stock),
            captured: &deal.captured,
            last_capturer: deal.last_capturer,
        };
        let ctx = Context::new(&seen, seat, hand);
        let (cands, order) = ctx.ranked(&deal.table);
        Weighed { ctx, cands, order, sizes, stock: usize::from(deal.stock) }
    }

    /// Whether the strong bot looks ahead here: not with the last card of a round, nor with a
    /// single candidate.
    fn looks_ahead(&self) -> bool {
        !self.ctx.last_of_round && self.order.len() > 1
    }

    /// The candidates the strong bot looks ahead from: normal's best [`STRONG_CANDIDATES`].
    fn top(&self) -> Vec<usize> {
        self.order.iter().take(STRONG_CANDIDATES).copied().collect()
    }

    /// The [`STRONG_SAMPLES`] deals of the other hands the strong bot draws from the unseen
    /// cards, seeded by `seed` and the view alone.
    fn sample(&self, seed: u64, deal: &DealView) -> Vec<Vec<CardSet>> {
        let mut rng = Rng::new(decision_seed(seed, deal));
        (0..STRONG_SAMPLES).map(|_| self.ctx.deal_others(&self.sizes, &mut rng)).collect()
    }

    /// A candidate's value on each of `deals`: its rollout, the seat's points less the others'.
    fn values(&self, c: &Candidate, deals: &[Vec<CardSet>], captured: &[CardSet]) -> Vec<f64> {
        deals.iter().map(|others| self.ctx.rollout(c, others, self.stock, captured)).collect()
    }
}

/// The easy bot's move: the most valuable capture, else the richest build, else the discard of
/// least worth.
fn greedy(pos: &Position, raw: &[RawCard]) -> Option<Move> {
    let table = pos.table;
    let all: u64 = if table.len() >= 64 { u64::MAX } else { (1u64 << table.len()) - 1 };
    let each: Vec<i32> = table.iter().map(|p| p.cards().into_iter().map(card_worth).sum()).collect();
    let pile_worth = |mask: u64| -> i32 { bits_of(mask).map(|i| each[i]).sum() };
    // The best capture: greedy packing of disjoint groups, the promised buildings first.
    let mut best: Option<(i32, Card, Vec<u64>)> = None;
    for rc in raw {
        if rc.capture.is_empty() {
            continue;
        }
        let mut groups = rc.capture.clone();
        groups.sort_by_cached_key(|&m| -pile_worth(m));
        let mut used = rc.must_include;
        let mut chosen: Vec<u64> = bits(rc.must_include).collect();
        for m in groups {
            if m & used == 0 {
                used |= m;
                chosen.push(m);
            }
        }
        if used == 0 {
            continue;
        }
        let mut score = pile_worth(used) + card_worth(rc.card);
        if used == all {
            score += SWEEP_WORTH;
        }
        if best.as_ref().is_none_or(|(s, ..)| score > *s) {
            best = Some((score, rc.card, chosen));
        }
    }
    if let Some((_, card, groups)) = best
        && let Some(mv) = capture_move(pos, card, &groups)
    {
        return Some(mv);
    }
    // A build of one core: the one holding the most.
    let mut best_build: Option<(i32, Card, u8, u64)> = None;
    for rc in raw {
        for b in &rc.builds {
            for &core in &b.cores {
                if core == 0 {
                    continue;
                }
                let score = pile_worth(core) + i32::from(b.value);
                if best_build.is_none_or(|(s, ..)| score > s) {
                    best_build = Some((score, rc.card, b.value, core));
                }
            }
        }
    }
    if let Some((_, card, v, core)) = best_build
        && let Some(mv) = build_move(pos, card, v, core, &[])
    {
        return Some(mv);
    }
    // The discard of least worth.
    raw.iter()
        .filter(|rc| rc.discard)
        .min_by_key(|rc| (card_worth(rc.card), value(rc.card)))
        .map(|rc| Move::Discard { card: rc.card })
}

/// The single bits of a mask, lowest first.
fn bits(mask: u64) -> impl Iterator<Item = u64> {
    (0..64).map(|i| 1u64 << i).filter(move |b| mask & b != 0)
}

/// A capture of the groups' piles with `card` (a single building is its own group).
fn capture_move(pos: &Position, card: Card, groups: &[u64]) -> Option<Move> {
    let w = value(card);
    let exprs = groups.iter().map(|&m| pos.witness(m, None, w)).collect::<Option<Vec<Expr>>>()?;
    Some(Move::Capture { card, groups: exprs })
}

/// A build of `card` with the core (table piles joined to the card; none: the card alone) and
/// the extras, to `v`.
fn build_move(pos: &Position, card: Card, v: u8, core: u64, extras: &[u64]) -> Option<Move> {
    if core == 0 && extras.is_empty() {
        return None;
    }
    let mut groups = vec![if core == 0 { Expr::Card(card) } else { pos.witness(core, Some(card), v)? }];
    for &e in extras {
        groups.push(pos.witness(e, None, v)?);
    }
    Some(Move::Build { card, value: v, groups })
}

/// A seed for one decision: the bot's seed and what in the view changes from move to move.
fn decision_seed(seed: u64, deal: &DealView) -> u64 {
    let mut h = Hasher::new(seed);
    h.word(deal.viewer.map_or(99, |s| u64::from(s.0)));
    h.word(u64::from(deal.number));
    h.word(deal.moves.len() as u64);
    h.word(deal.hand.map_or(0, |c| c.bits()));
    for p in &deal.table {
        for c in p.cards() {
            h.word(u64::from(c.index()));
        }
    }
    h.finish()
}

/// What each card is worth to capture now, in points, by the score lines still open.
#[derive(Debug, Clone)]
struct Worth {
    of: [f64; 64],
}

/// Whether a "most" line is settled: the leader is ahead by more than the cards left.
fn settled(counts: &[usize], left: usize) -> bool {
    let mut c = counts.to_vec();
    c.sort_unstable_by(|a, b| b.cmp(a));
    c.len() < 2 || c[0] - c[1] > left
}

impl Worth {
    fn new(captured: &[CardSet]) -> Worth {
        let cards: Vec<usize> = captured.iter().map(|c| c.len()).collect();
        let spades: Vec<usize> = captured.iter().map(|c| c.of_suit(Suit::Spades).len()).collect();
        let plain = if settled(&cards, 52 - cards.iter().sum::<usize>()) { 0.0 } else { CARD };
        let spade = if settled(&spades, 13 - spades.iter().sum::<usize>()) { 0.0 } else { SPADE };
        let mut of = [0.0; 64];
        for c in CardSet::ALL.iter() {
            let mut w = plain;
            if c.suit() == Suit::Spades {
                w += spade;
            }
            if c.rank() == Rank::Ace {
                w += 1.0;
            }
            if c == Card::new(Suit::Diamonds, Rank::Ten) {
                w += 2.0;
            }
            if c == Card::new(Suit::Spades, Rank::Two) {
                w += 1.0;
            }
            of[usize::from(c.index())] = w;
        }
        Worth { of }
    }

    fn card(&self, c: Card) -> f64 {
        self.of[usize::from(c.index())]
    }

    fn pile(&self, p: &Pile) -> f64 {
        match p {
            Pile::Loose { card } => self.card(*card),
            Pile::Building(b) => b.cards.iter().map(|&c| self.card(c)).sum(),
        }
    }
}

/// What a move does, as sets of table piles.
#[derive(Debug, Clone)]
enum Kind {
    Discard,
    /// The groups captured (a promised building alone is a group).
    Capture(Vec<u64>),
    /// The value, the core (piles joined to the hand card) and the extras.
    Build(u8, u64, Vec<u64>),
}

/// A candidate move with its effect.
#[derive(Debug, Clone)]
struct Candidate {
    card: Card,
    kind: Kind,
    /// Points captured now (the hand card, the piles, a sweep).
    gain: f64,
    /// Whether it captures.
    captures: bool,
    /// The cards it captures (the hand card too).
    taken: CardSet,
    /// The table after it.
    after: Vec<Pile>,
    /// Its one-ply score.
    score: f64,
}

impl Candidate {
    fn to_move(&self, pos: &Position) -> Option<Move> {
        match &self.kind {
            Kind::Discard => Some(Move::Discard { card: self.card }),
            Kind::Capture(groups) => capture_move(pos, self.card, groups),
            Kind::Build(v, core, extras) => build_move(pos, self.card, *v, *core, extras),
        }
    }
}

/// A table analysed: its piles' worth and every group of piles with the values it makes,
/// richest first.
struct Analysed {
    worth: Vec<f64>,
    all: u64,
    sets: Vec<(u64, u16, f64)>,
}

impl Analysed {
    fn new(pos: &Position, worth: &Worth) -> Analysed {
        let pile_worth: Vec<f64> = pos.table.iter().map(|p| worth.pile(p)).collect();
        let mut sets: Vec<(u64, u16, f64)> =
            pos.group_values().into_iter().map(|(m, v)| (m, v, bits_of(m).map(|i| pile_worth[i]).sum())).collect();
        sets.sort_by(|a, b| b.2.total_cmp(&a.2));
        let n = pos.table.len();
        Analysed { worth: pile_worth, all: if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }, sets }
    }

    fn mask_worth(&self, mask: u64) -> f64 {
        bits_of(mask).map(|i| self.worth[i]).sum()
    }

    /// The richest capture of a card of value `v` leaving the piles `avoid` aside (taken
    /// already), starting from the piles `start`: its points (piles and a sweep, without the
    /// hand card), the piles it takes and its groups when asked for. None: nothing to capture.
    fn capture(&self, v: u8, avoid: u64, start: u64, groups: Option<&mut Vec<u64>>) -> Option<(f64, u64)> {
        let bit = 1u16 << v;
        let avail = self.all & !avoid;
        let mut used = start;
        let mut union = start;
        let mut chosen: Vec<u64> = bits(start).collect();
        let mut eligible: Vec<u64> = Vec::new();
        for &(m, vals, _) in &self.sets {
            if vals & bit == 0 || m & avoid != 0 {
                continue;
            }
            union |= m;
            eligible.push(m);
            if m & used == 0 {
                used |= m;
                chosen.push(m);
            }
        }
        if used == 0 {
            return None;
        }
        let mut gain = self.mask_worth(used);
        if used == avail {
            gain += SWEEP;
        } else if union == avail && avail.count_ones() <= 24 {
            // The groups could cover the table: look for the sweep.
            let mut budget = COVER_BUDGET;
            let mut cover = Vec::new();
            if cover_of(&eligible, avail, start, &mut cover, &mut budget) {
                let sweep = self.mask_worth(avail) + SWEEP;
                if sweep > gain {
                    gain = sweep;
                    used = avail;
                    chosen = bits(start).chain(cover).collect();
                }
            }
        }
        if let Some(out) = groups {
            *out = chosen;
        }
        Some((gain, used))
    }
}

/// The indices of a mask's bits.
fn bits_of(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |i| mask & (1u64 << i) != 0)
}

/// Disjoint groups covering `target` beyond `used`, by the lowest pile still open, within the
/// budget.
fn cover_of(groups: &[u64], target: u64, used: u64, out: &mut Vec<u64>, budget: &mut u32) -> bool {
    let open = target & !used;
    if open == 0 {
        return true;
    }
    let low = open & open.wrapping_neg();
    for &g in groups {
        if g & low == 0 || g & used != 0 {
            continue;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        out.push(g);
        if cover_of(groups, target, used | g, out, budget) {
            return true;
        }
        out.pop();
    }
    false
}

/// The table after taking the piles `used` and laying `new` down.
fn table_after(table: &[Pile], used: u64, new: Option<Pile>) -> Vec<Pile> {
    let mut out: Vec<Pile> =
        table.iter().enumerate().filter(|(i, _)| used & (1u64 << i) == 0).map(|(_, p)| p.clone()).collect();
    out.extend(new);
    out
}

/// Every move worth weighing: per hand card the discard, its richest capture, and its builds
/// (for each value the richest cores, alone and with every extra that fits).
fn candidates(pos: &Position, raw: &[RawCard], worth: &Worth, seat: Seat) -> Vec<Candidate> {
    let table = pos.table;
    let an = Analysed::new(pos, worth);
    let next_id = table.iter().filter_map(|p| p.building().map(|b| b.id.0)).max().unwrap_or(0) + 1;
    let mut out = Vec::new();
    for rc in raw {
        let card = rc.card;
        let w = value(card);
        if rc.discard {
            out.push(Candidate {
                card,
                kind: Kind::Discard,
                gain: 0.0,
                captures: false,
                taken: CardSet::EMPTY,
                after: table_after(table, 0, Some(Pile::Loose { card })),
                score: 0.0,
            });
        }
        if !rc.capture.is_empty() || rc.must_include != 0 {
            let mut groups = Vec::new();
            // Only the groups the listing offers this card: the same as the table's of value w.
            if let Some((gain, used)) = an.capture(w, 0, rc.must_include, Some(&mut groups)) {
                out.push(Candidate {
                    card,
                    kind: Kind::Capture(groups),
                    gain: gain + worth.card(card),
                    captures: true,
                    taken: bits_of(used).flat_map(|i| table[i].cards()).chain([card]).collect(),
                    after: table_after(table, used, None),
                    score: 0.0,
                });
            }
        }
        for b in &rc.builds {
            let v = b.value;
            let mut cores: Vec<(f64, u64)> = b.cores.iter().map(|&c| (an.mask_worth(c), c)).collect();
            cores.sort_by(|a, b| b.0.total_cmp(&a.0));
            cores.truncate(CORES_PER_VALUE);
            for (_, core) in cores {
                // The extras that fit beside the core, richest first.
                let mut used = core;
                let mut extras = Vec::new();
                for &e in &b.extras {
                    if e & used == 0 {
                        used |= e;
                        extras.push(e);
                    }
                }
                let mut variants = vec![(used, extras)];
                if core != 0 && used != core {
                    variants.push((core, Vec::new()));
                }
                for (used, extras) in variants {
                    if used == 0 {
                        continue;
                    }
                    let mut cards = vec![card];
                    cards.extend(bits_of(used).flat_map(|i| table[i].cards()));
                    let building = Building { id: BuildingId(next_id), value: v, owner: seat, cards };
                    out.push(Candidate {
                        card,
                        kind: Kind::Build(v, core, extras),
                        gain: 0.0,
                        captures: false,
                        taken: CardSet::EMPTY,
                        after: table_after(table, used, Some(Pile::Building(building))),
                        score: 0.0,
                    });
                }
            }
        }
    }
    out
}

/// What a seat knows when it weighs its moves: the bot's own view, or a seat of a sampled game
/// in the strong bot's look-ahead.
struct Context {
    rules: Rules,
    seat: Seat,
    players: usize,
    hand: CardSet,
    worth: Worth,
    last_capturer: Option<Seat>,
    /// The cards the seat cannot see: the other hands and the stock.
    unseen: Vec<Card>,
    /// Unseen cards of each value.
    unseen_of: [usize; 14],
    /// Cards the other players will hold before the seat's next turn.
    others_cards: usize,
    /// The seat's move ends the round of hand cards.
    last_of_round: bool,
    /// The seat's move ends the game.
    ends_game: bool,
    /// The share of its next capture the seat counts.
    follow: f64,
}

/// A game as far as a seat sees it: the table, each hand's size, the stock's, the captured cards.
struct Seen<'a> {
    rules: Rules,
    table: &'a [Pile],
    sizes: &'a [usize],
    stock: usize,
    captured: &'a [CardSet],
    last_capturer: Option<Seat>,
}

impl Context {
    fn new(seen: &Seen, seat: Seat, hand: CardSet) -> Context {
        let n = seen.sizes.len();
        let mut visible = hand;
        for p in seen.table {
            for c in p.cards() {
                visible.insert(c);
            }
        }
        for c in seen.captured {
            visible = visible.union(*c);
        }
        let unseen: Vec<Card> = CardSet::ALL.difference(visible).iter().collect();
        let mut unseen_of = [0usize; 14];
        for &c in &unseen {
            unseen_of[usize::from(value(c))] += 1;
        }
        let others: usize = (0..n).filter(|&s| s != seat.index()).map(|s| seen.sizes[s]).sum();
        let last_of_round = others == 0 && hand.len() == 1;
        let others_cards = if last_of_round { 4 * (n - 1) } else { others };
        Context {
            rules: seen.rules,
            seat,
            players: n,
            hand,
            worth: Worth::new(seen.captured),
            last_capturer: seen.last_capturer,
            unseen,
            unseen_of,
            others_cards: others_cards.min(52),
            last_of_round,
            ends_game: last_of_round && seen.stock == 0,
            follow: if n == 2 { 0.5 } else { 0.3 },
        }
    }

    /// The chance that `k` cards drawn from the unseen ones hold at least one of `c` given cards.
    fn chance_of(&self, c: usize, k: usize) -> f64 {
        let u = self.unseen.len();
        if c == 0 || k == 0 || u == 0 {
            return 0.0;
        }
        // 1 − C(u − c, k) / C(u, k)
        let mut none = 1.0;
        for i in 0..k.min(u) {
            let free = u.saturating_sub(c).saturating_sub(i);
            none *= free as f64 / (u - i) as f64;
            if none == 0.0 {
                break;
            }
        }
        1.0 - none
    }

    /// What `k` unseen cards are expected to capture on an analysed table at best: values by
    /// what they take, each reached when the cards hold the value and no richer one.
    fn exposure(&self, an: &Analysed, k: usize) -> f64 {
        let mut by_value: Vec<(f64, usize)> = (1..=13u8)
            .filter_map(|v| an.capture(v, 0, 0, None).map(|(g, _)| (g, self.unseen_of[usize::from(v)])))
            .collect();
        by_value.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut still = 1.0;
        let mut exposed = 0.0;
        for (g, count) in by_value {
            let p = self.chance_of(count, k);
            exposed += still * p * g;
            still *= 1.0 - p;
        }
        exposed
    }

    /// The seat's remaining cards after playing `card`.
    fn rest(&self, card: Card) -> CardSet {
        let mut h = self.hand;
        h.remove(card);
        h
    }

    /// The one-ply score of a candidate.
    fn one_ply(&self, c: &Candidate) -> f64 {
        if self.ends_game {
            // The piles left go to the last capturer.
            let left: f64 = c.after.iter().map(|p| self.worth.pile(p)).sum();
            let to = if c.captures { Some(self.seat) } else { self.last_capturer };
            return c.gain
                + match to {
                    Some(s) if s == self.seat => left,
                    Some(_) => -left,
                    None => 0.0,
                };
        }
        let pos = Position { rules: &self.rules, table: &c.after, hand: CardSet::EMPTY, seat: self.seat };
        let an = Analysed::new(&pos, &self.worth);
        let exposed = self.exposure(&an, self.others_cards);
        let next = own_best(&an, &self.worth, self.rest(c.card), 0);
        c.gain - exposed + self.follow * next
    }

    /// The seat's candidates on `table`, ranked by their one-ply score, best first (ties keep
    /// the listing's order).
    fn ranked(&self, table: &[Pile]) -> (Vec<Candidate>, Vec<usize>) {
        let pos = Position { rules: &self.rules, table, hand: self.hand, seat: self.seat };
        let raw = pos.raw();
        let mut cands = candidates(&pos, &raw, &self.worth, self.seat);
        for c in &mut cands {
            c.score = self.one_ply(c);
        }
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by(|&a, &b| cands[b].score.total_cmp(&cands[a].score).then(a.cmp(&b)));
        (cands, order)
    }

    /// Hands for the other seats drawn from the unseen cards, `sizes` cards each.
    fn deal_others(&self, sizes: &[usize], rng: &mut Rng) -> Vec<CardSet> {
        let mut pool = self.unseen.clone();
        rng.shuffle(&mut pool);
        let mut next = 0;
        (0..self.players)
            .map(|s| {
                if s == self.seat.index() {
                    return CardSet::EMPTY;
                }
                let k = sizes[s].min(pool.len() - next);
                let hand: CardSet = pool[next..next + k].iter().copied().collect();
                next += k;
                hand
            })
            .collect()
    }

    /// The strong score of a candidate on one sampled deal of the other hands: the game played
    /// on by every seat with the normal rules for [`ROLLOUT_PLIES`] moves or to the end of the
    /// round, the points each seat took meanwhile, and what the seat to move then can expect
    /// from the table; the bot's points less the others' average.
    fn rollout(&self, c: &Candidate, others: &[CardSet], stock: usize, captured: &[CardSet]) -> f64 {
        let n = self.players;
        let me = self.seat.index();
        let mut hands = others.to_vec();
        hands[me] = self.rest(c.card);
        let mut captured = captured.to_vec();
        let mut points = vec![0.0; n];
        let mut last = self.last_capturer;
        points[me] = c.gain;
        if c.captures {
            captured[me] = captured[me].union(c.taken);
            last = Some(self.seat);
        }
        let mut table = c.after.clone();
        let mut turn = self.seat.next(n as u8);
        for _ in 0..ROLLOUT_PLIES {
            let hand = hands[turn.index()];
            if hand.is_empty() {
                break;
            }
            let sizes: Vec<usize> = hands.iter().map(|h| h.len()).collect();
            let seen = Seen {
                rules: self.rules,
                table: &table,
                sizes: &sizes,
                stock,
                captured: &captured,
                last_capturer: last,
            };
            let ctx = Context::new(&seen, turn, hand);
            let (cands, order) = ctx.ranked(&table);
            let Some(&i) = order.first() else { break };
            let m = &cands[i];
            hands[turn.index()].remove(m.card);
            points[turn.index()] += m.gain;
            if m.captures {
                captured[turn.index()] = captured[turn.index()].union(m.taken);
                last = Some(turn);
            }
            table = m.after.clone();
            turn = turn.next(n as u8);
        }
        // What the seat to move can expect from the table left.
        let pos = Position { rules: &self.rules, table: &table, hand: CardSet::EMPTY, seat: turn };
        let an = Analysed::new(&pos, &self.worth);
        if hands.iter().all(|h| h.is_empty()) {
            if stock == 0 {
                if let Some(s) = last {
                    points[s.index()] += table.iter().map(|p| self.worth.pile(p)).sum::<f64>();
                }
            } else {
                points[turn.index()] += self.follow * self.exposure(&an, 4);
            }
        } else {
            points[turn.index()] += self.follow * own_best(&an, &self.worth, hands[turn.index()], 0);
        }
        let others: f64 = (0..n).filter(|&s| s != me).map(|s| points[s]).sum();
        points[me] - others / (n - 1) as f64
    }
}

/// The best capture of `cards` on an analysed table, the piles `avoid` aside.
fn own_best(an: &Analysed, worth: &Worth, cards: CardSet, avoid: u64) -> f64 {
    cards
        .iter()
        .filter_map(|c| an.capture(value(c), avoid, 0, None).map(|(g, _)| g + worth.card(c)))
        .fold(0.0, f64::max)
}
