//! Bots for Mecklenburg Fips (docs/rules/mecklenburg.md §B): **Anseggerfips** and **Duttfips**, the
//! 25-card pack whose only diamond is the Rutenas (♦A), four players of five cards and a Dutt
//! of five.
//!
//! One bot plays both games, read through their shared view: [`Knowledge`] from the tricks,
//! the declarer's own discards and the Dutt lying out of play; uniform sampling of the unseen
//! cards; the exact solver with the game's stakes (Ruten games doubled, `loss_factor`); card
//! play and the Durch choice by sampling ([`crate::play::best_card_at`]); rules of thumb for
//! this pack ([`crate::heuristic::strength_in`], where a Ruten game is a lone trump). A bid is
//! chosen by solving every game the bidder could play on sampled deals — each trump naming
//! with his dealt hand, or with the best five of his hand and the sampled Dutt when the Dutt
//! is exchanged. At strong the auction is read as well: a call says how strong the caller's
//! hand is, and a Ruten bid where the table wants the Rutenas says who holds it.
//!
//! ```
//! use fipsen_bots::Level;
//! use fipsen_bots::mecklenburg::Bot;
//! use fipsen_rules::Seed;
//! use fipsen_rules::mecklenburg::{AnseggerfipsRules, Duttfips, DuttfipsRules, Series};
//!
//! let (mut series, _) = Duttfips::new(DuttfipsRules::duttfips(), Seed::from_u64(1)).unwrap();
//! let seat = series.deal().turn().unwrap();
//! let mut bot = Bot::new(Level::Normal, 42);
//! let action = bot.choose_in_series(&series.view(Some(seat))).expect("its turn");
//! series.apply(seat, action).unwrap();
//!
//! let (series, _) = Series::new(AnseggerfipsRules::anseggerfips(), Seed::from_u64(2)).unwrap();
//! let seat = series.deal().turn().unwrap();
//! assert!(Bot::new(Level::Strong, 7).choose_in_series(&series.view(Some(seat))).is_some());
//! ```

use fipsen_rules::mecklenburg::{Action, Bid, Call, Deal, DealView, DuttUse, Game, Outcome, Phase, Rules, SeriesView};
use fipsen_rules::{Card, CardSet, FirstLead, Pack, Seat, Seed, Suit};

use crate::cards::{Bits, PackMasks, card, highest, packed, packed_index, suit_index};
use crate::evaluate::{draw_layouts, game_value_at};
use crate::games::decisions::{Choice, Decision, DecisionKind, DecisionReview, effective_size, mean_and_margin};
use crate::heuristic::{best_keep_in, easy_card, strength_in, top_keeps_in};
use crate::inference::{Clue, Evidence, weighted_layouts};
use crate::knowledge::{Knowledge, Layout, Seen};
pub use crate::level::{Config, Level};
use crate::play::{best_card_at, durch_value_at};
use crate::rng::{Hasher, Rng};
use crate::solver::{MAX_PLAYERS, Position, Solver, Stakes};
use crate::table::play_position;

/// The pack: clubs, spades and hearts ace to seven, and the Rutenas.
pub const PACK: PackMasks = PackMasks::of(Pack::P25_A);

/// The suit number of Ruten (diamonds: the Rutenas alone).
const RUTEN: usize = 3;

/// The Rutenas as a mask.
const RUTENAS: u64 = PACK.suits[RUTEN];

/// The four players.
const PLAYERS: u8 = 4;

/// The strength of a dealt hand for its best trumps (a suit or Ruten), as the auction
/// inference reads a call.
pub fn hand_strength(hand: u64) -> f64 {
    (0..4).map(|s| strength_in(&PACK, hand, s)).fold(f64::MIN, f64::max)
}

/// The declarer's score for a game with target `target` (5: a Fips), a Ruten game if `ruten`,
/// when he takes `taken` tricks under best play; with `durch` he goes on for Durch whenever
/// he can take all five. A lost game costs `loss_factor` times its value.
pub fn game_score(target: u8, ruten: bool, taken: u8, loss_factor: u8, durch: bool) -> i32 {
    let value = i32::from(target) * if ruten { 2 } else { 1 };
    let loss = -i32::from(loss_factor);
    if target >= 5 {
        if taken >= 5 { 2 * value } else { loss * 2 * value }
    } else if durch && taken >= 5 {
        2 * value
    } else if taken >= target {
        value
    } else {
        loss * value
    }
}

/// The game the contract `bid` becomes with trumps `suit` (diamonds: its Ruten game).
pub fn game_with(bid: Bid, suit: Suit) -> Game {
    let bid = if suit == Suit::Diamonds { bid.with_ruten() } else { bid };
    Game { bid, trumps: Some(suit), durch: bid.target() == 5 }
}

/// The solver's stakes of `game` after the tricks taken so far, at a table that lets a
/// declarer go on for Durch if `durch_open` (the option `durch`).
pub fn stakes(game: &Game, won: u8, lost: u8, loss_factor: u8, durch_open: bool) -> Stakes {
    Stakes {
        tricks: game.bid.target(),
        durch: game.durch,
        value: game.value(),
        won,
        lost,
        loss_factor: i32::from(loss_factor),
        durch_open,
    }
}

/// Who leads the first trick when `declarer` plays.
fn first_leader(rules: &Rules, forehand: Seat, declarer: u8) -> u8 {
    match rules.first_lead() {
        FirstLead::Forehand => forehand.0,
        FirstLead::Declarer => declarer,
    }
}

/// The seat known to hold the Rutenas (or to have held it when dealt, for a declarer who took
/// the Dutt), if the table wants the Rutenas for a Ruten game and someone bid or named one.
pub fn rutenas_holder(view: &DealView) -> Option<u8> {
    if !view.rules.ruten_needs_rutenas() {
        return None;
    }
    let bidder = view.calls.iter().find_map(|r| match r.call {
        Call::Bid { bid } if bid.is_ruten() => Some(r.seat.0),
        _ => None,
    });
    let named = view.game.filter(|g| g.bid.is_ruten()).and(view.declarer).map(|s| s.0);
    named.or(bidder)
}

/// What the viewer of `view` knows of the unseen cards; `None` for a spectator. His own
/// discards are known out of play; the Dutt lying aside and another declarer's discards are
/// unseen and out of play.
pub fn knowledge(view: &DealView) -> Option<Knowledge> {
    let viewer = view.viewer?.0;
    let hand = view.hand?.bits();
    let mut k = Knowledge::from_seen(&Seen {
        pack: &PACK,
        players: PLAYERS,
        viewer,
        hand,
        hand_sizes: &view.hand_sizes,
        tricks: &view.tricks,
        trick: &view.trick,
    });
    k.pool &= !view.discards.map_or(0, |d| d.bits());
    Some(k)
}

/// The bidder's knowledge of his dealt hand in the auction.
fn auction_knowledge(view: &DealView) -> Option<Knowledge> {
    let viewer = view.viewer?.0;
    let hand = view.hand?.bits();
    Some(Knowledge::dealt(&PACK, PLAYERS, viewer, hand))
}

/// The height of a bid in tricks for the auction inference: a Ruten bid counts a little more.
fn tricks_worth(bid: Bid) -> f64 {
    f64::from(bid.target()) + if bid.is_ruten() { 0.4 } else { 0.0 }
}

/// The clues in the auction of `view` about every seat but the viewer's: a bid says its
/// caller's hand is ready for it, a pass that it was not ready for the next bid. Duttfips
/// hands are judged before the Dutt, which changes them too much to say anything: no clues.
pub fn clues(view: &DealView) -> Vec<Clue> {
    if view.rules.dutt() == DuttUse::Exchange {
        return Vec::new();
    }
    let viewer = view.viewer.map(|s| s.0);
    let mut out = Vec::new();
    let mut standing: Option<Bid> = None;
    let min = f64::from(view.rules.min_bid());
    for record in &view.calls {
        let seat = record.seat.0;
        let evidence = match record.call {
            Call::Bid { bid } => {
                standing = Some(bid);
                Evidence::AtLeast(tricks_worth(bid))
            }
            Call::Hold => Evidence::AtLeast(standing.map_or(min, tricks_worth)),
            Call::Pass => Evidence::Below(standing.map_or(min, |b| tricks_worth(b) + 0.4)),
        };
        if Some(seat) != viewer {
            out.push(Clue { seat, evidence });
        }
    }
    out
}

/// A game the bidder could play, with its estimated chance of winning and expected score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The bid.
    pub game: Bid,
    /// The chance of winning it.
    pub win: f64,
    /// The expected score for the bidder.
    pub score: f64,
    /// The margin of that expected score over the sampled deals (1.96 standard errors).
    pub margin: f64,
}

/// Tricks taken by the bidder in one sampled deal for each trump naming (`None`: the naming
/// is not open to him), with how he would judge each naming before the play.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Row {
    taken: [Option<u8>; 4],
    strength: [f64; 4],
}

/// Every sampled deal solved for every trump naming, kept so that the deals can be weighed
/// again as the auction tells more.
#[derive(Debug, Clone, PartialEq)]
pub struct GameTable {
    rules: Rules,
    exchange: bool,
    /// The bidder holds the Rutenas as dealt.
    has_rutenas: bool,
    /// The deals' hands (the bidder's own included).
    pub hands: Vec<[u64; MAX_PLAYERS]>,
    rows: Vec<Row>,
}

impl GameTable {
    /// The namings open to the declarer of `bid` in deal `row`.
    fn namings(&self, bid: Bid, row: &Row) -> impl Iterator<Item = usize> {
        let ruten_only = bid.is_ruten();
        let unbid = self.rules.ruten_unbid();
        let taken = row.taken;
        (0..4).filter(move |&s| taken[s].is_some() && if ruten_only { s == RUTEN } else { s != RUTEN || unbid })
    }

    fn score(&self, bid: Bid, naming: usize, taken: u8) -> i32 {
        let ruten = bid.is_ruten() || naming == RUTEN;
        game_score(bid.target(), ruten, taken, self.rules.loss_factor(), self.rules.durch())
    }

    /// The naming the declarer picks in deal `row` after the exchange, seeing his ten cards
    /// only: the best expected score by the rules of thumb.
    fn pick(&self, bid: Bid, row: &Row) -> Option<usize> {
        let lf = f64::from(self.rules.loss_factor());
        let target = f64::from(bid.target());
        self.namings(bid, row)
            .map(|s| {
                let value = target * if bid.is_ruten() || s == RUTEN { 2.0 } else { 1.0 };
                let p = 1.0 / (1.0 + (-(row.strength[s] - target + 0.3) / 0.4).exp());
                (s, p * value - (1.0 - p) * lf * value)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(s, _)| s)
    }

    /// The estimate of `bid` with deal `i` weighed by `weights[i]`; `None` if no naming is
    /// open to him for it.
    fn estimate(&self, bid: Bid, weights: &[f64]) -> Option<Estimate> {
        let total: f64 = weights.iter().sum();
        let total = if total > 0.0 { total } else { 1.0 };
        let of = |values: Vec<i32>| {
            let win: f64 = values.iter().zip(weights).filter(|(v, _)| **v > 0).map(|(_, &w)| w).sum();
            let (score, margin) = mean_and_margin(weights.iter().zip(&values).map(|(&w, &v)| (w, f64::from(v))));
            Estimate { game: bid, win: win / total, score, margin }
        };
        if self.exchange {
            let mut any = false;
            let values = self
                .rows
                .iter()
                .map(|row| match self.pick(bid, row) {
                    Some(s) => {
                        any = true;
                        self.score(bid, s, row.taken[s].unwrap_or(0))
                    }
                    // With no naming open (the Rutenas needed and not found) the bid is lost.
                    None => game_score(bid.target(), true, 0, self.rules.loss_factor(), false),
                })
                .collect();
            let e = of(values);
            return any.then_some(e);
        }
        // The Dutt unused: the naming is chosen knowing nothing more, the best on average.
        let mut best: Option<Estimate> = None;
        for s in 0..4 {
            if !self.rows.first().is_some_and(|r| self.namings(bid, r).any(|n| n == s)) {
                continue;
            }
            let e = of(self.rows.iter().map(|row| self.score(bid, s, row.taken[s].unwrap_or(0))).collect());
            if best.is_none_or(|b| e.score > b.score) {
                best = Some(e);
            }
        }
        best
    }

    /// The estimates of every bid of the game with deal `i` weighed by `weights[i]`.
    pub fn weighted(&self, weights: &[f64]) -> Vec<Estimate> {
        let min = self.rules.min_bid();
        Bid::all(self.rules.variant())
            .iter()
            .filter(|b| !matches!(b, Bid::Tricks { tricks, .. } if *tricks < min))
            .filter(|b| !(b.is_ruten() && self.rules.ruten_needs_rutenas() && !self.has_rutenas))
            .filter_map(|&b| self.estimate(b, weights))
            .collect()
    }

    /// The estimates with every deal weighed alike.
    pub fn estimates(&self) -> Vec<Estimate> {
        self.weighted(&vec![1.0; self.rows.len()])
    }
}

/// The five of ten cards a declarer keeps for trump suit number `suit` after taking the Dutt,
/// with their strength, as the bidding estimate reckons it: the best five of the seven
/// best-looking cards (trumps first, then the other cards, each from the highest rank down).
fn exchange_keep(cards: u64, suit: usize) -> (u64, f64) {
    let mut ranked: Vec<u8> = Bits(cards).collect();
    let trumps = PACK.suits[suit];
    ranked.sort_by_key(|&c| (std::cmp::Reverse(trumps & (1 << c) != 0), std::cmp::Reverse(c & 15), c));
    let pool = ranked.iter().take(7).fold(0u64, |m, &c| m | 1 << c);
    best_keep_in(&PACK, pool, suit, 5)
}

/// Every deal of `layouts` solved for every trump naming open to the bidder: with his dealt
/// hand, or (the Dutt exchanged) with the five of his hand and the sampled Dutt that look best
/// for that naming by the rules of thumb.
fn game_table(k: &Knowledge, rules: &Rules, first_leader: u8, layouts: &[Layout], solver: &mut Solver) -> GameTable {
    let me = k.viewer;
    let hand = k.hand;
    let exchange = rules.dutt() == DuttUse::Exchange;
    let needs = rules.ruten_needs_rutenas();
    let thresholds = [1u8, 2, 3, 4, 5];
    let mut table =
        GameTable { rules: *rules, exchange, has_rutenas: hand & RUTENAS != 0, hands: Vec::new(), rows: Vec::new() };
    for layout in layouts {
        let mut pos = Position {
            players: PLAYERS,
            hands: layout.hands,
            declarer: me,
            trumps: 0,
            leader: first_leader,
            trick: [0; MAX_PLAYERS],
            trick_len: 0,
        };
        let mut row = Row { taken: [None; 4], strength: [f64::MIN; 4] };
        for s in 0..4 {
            let (keep, strength) =
                if exchange { exchange_keep(hand | layout.out, s) } else { (hand, strength_in(&PACK, hand, s)) };
            if s == RUTEN && needs && keep & RUTENAS == 0 {
                continue;
            }
            pos.hands[usize::from(me)] = keep;
            pos.trumps = PACK.suits[s];
            row.taken[s] = Some(solver.reaches(&pos, &thresholds) as u8);
            row.strength[s] = strength;
        }
        table.hands.push(layout.hands);
        table.rows.push(row);
    }
    table
}

/// A computer player for one seat of Anseggerfips or Duttfips. Its choices depend only on its
/// level, configuration, seed and the view it is shown.
#[derive(Debug, Clone)]
pub struct Bot {
    level: Level,
    config: Config,
    seed: u64,
    solver: Solver,
    /// The deals behind the last bidding estimate, and what they were drawn for.
    table: Option<(u64, GameTable)>,
    /// What the deals of the last bidding estimate were worth as equally weighted deals
    /// ([`effective_size`]) when the auction weighed them; `None` when each counted the same.
    weighted: Option<f64>,
}

impl Bot {
    /// A bot of `level` with its default configuration.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot::with_config(level, Config::of(level), seed)
    }

    /// A bot with its own numbers (for measurements).
    pub fn with_config(level: Level, config: Config, seed: u64) -> Bot {
        Bot { level, config, seed, solver: Solver::new(), table: None, weighted: None }
    }

    /// The bot's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The bot's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The bot's action in a series of either game, or `None` if it may do nothing now.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Action> {
        if view.over { None } else { self.choose(&view.deal) }
    }

    /// The bot's action, or `None` if the viewer may do nothing now (these games have nothing
    /// out of turn). Always one the prompt offers.
    pub fn choose(&mut self, view: &DealView) -> Option<Action> {
        if view.prompt.is_empty() || view.viewer.is_none() || view.turn != view.viewer {
            return None;
        }
        let mut rng = Rng::new(decision_seed(self.seed, view));
        let action = match view.phase {
            Phase::Auction => self.auction(view),
            Phase::Discard => self.discard(view, &mut rng),
            Phase::Trumps => self.trumps(view, &mut rng),
            Phase::Play => self.play(view, &mut rng),
            Phase::DurchChoice => self.durch(view, &mut rng),
            Phase::Over => None,
        };
        action.filter(|a| allowed(view, a)).or_else(|| fallback(view))
    }

    /// The bidding estimate of the hand the viewer was dealt: drawn and solved once per hand;
    /// at strong weighed afresh by the auction at every call.
    pub fn estimates(&mut self, view: &DealView) -> Vec<Estimate> {
        let Some(k) = auction_knowledge(view) else { return Vec::new() };
        let mut h = Hasher::new(self.seed);
        h.word(packed(k.hand));
        h.word(u64::from(k.viewer));
        h.word(u64::from(view.dealer.0));
        h.word(rules_word(&view.rules));
        let samples = bid_samples(&view.rules, self.config.bid_samples);
        h.word(samples as u64);
        let key = h.finish();
        if !matches!(&self.table, Some((c, _)) if *c == key) {
            let mut rng = Rng::new(key);
            let layouts = draw_layouts(&k, samples, 0, &mut rng);
            let leader = first_leader(&view.rules, view.forehand, k.viewer);
            self.table = Some((key, game_table(&k, &view.rules, leader, &layouts, &mut self.solver)));
        }
        self.weighted = None;
        let Some((_, table)) = &self.table else { return Vec::new() };
        let clues = if self.config.infer { clues(view) } else { Vec::new() };
        let holder = if self.config.infer { rutenas_holder(view).filter(|&s| s != k.viewer) } else { None };
        if clues.is_empty() && holder.is_none() {
            return table.estimates();
        }
        let weights: Vec<f64> = table
            .hands
            .iter()
            .map(|h| {
                let fits = holder.is_none_or(|s| h[usize::from(s)] & RUTENAS != 0);
                if fits { crate::inference::likelihood_with(&clues, h, hand_strength) } else { 0.0 }
            })
            .collect();
        if weights.iter().sum::<f64>() <= 0.0 {
            return table.estimates();
        }
        self.weighted = Some(effective_size(weights.iter().copied()));
        table.weighted(&weights)
    }

    /// The expected score of every call the viewer may make: passing scores 0, holding or
    /// bidding the game that call would owe him (should he win the auction).
    pub fn call_values(&mut self, view: &DealView) -> Vec<(Action, f64)> {
        self.call_choices(view).into_iter().map(|c| (c.action, c.value)).collect()
    }

    /// [`Bot::call_values`] with the margin of each value.
    pub fn call_choices(&mut self, view: &DealView) -> Vec<Choice<Action>> {
        let est = self.estimates(view);
        let value = |action: Action, bid: Bid| {
            est.iter().find(|e| e.game == bid).map_or(Choice { action, value: f64::NEG_INFINITY, margin: 0.0 }, |e| {
                Choice { action, value: e.score, margin: e.margin }
            })
        };
        let mut out = Vec::new();
        if view.prompt.hold
            && let Some(standing) = view.standing
        {
            out.push(value(Action::Hold, standing));
        }
        for &bid in &view.prompt.bids {
            out.push(value(Action::Bid { bid }, bid));
        }
        if view.prompt.pass {
            out.push(Choice { action: Action::Pass, value: 0.0, margin: 0.0 });
        }
        out
    }

    /// How many deals the last bidding estimate sampled.
    pub fn bid_sample_count(&self) -> usize {
        self.table.as_ref().map_or(0, |t| t.1.hands.len())
    }

    /// What the deals of the last bidding estimate were worth as equally weighted deals, when
    /// the auction weighed them (the size its margins are those of); `None` when each deal
    /// counted the same.
    pub fn bid_effective_size(&self) -> Option<f64> {
        self.weighted
    }

    fn auction(&mut self, view: &DealView) -> Option<Action> {
        if self.level == Level::Easy {
            return Some(easy_auction(view));
        }
        let margin = self.config.margin;
        let mut best: Option<(Action, f64)> = None;
        for (action, value) in self.call_values(view) {
            let value = if action == Action::Pass { value } else { value - margin };
            if best.is_none_or(|b| value > b.1 + 1e-9) {
                best = Some((action, value));
            }
        }
        best.map(|b| b.0)
    }

    /// Layouts of the unseen cards for a decision: drawn uniformly, at strong weighed by the
    /// auction and kept only where the Rutenas lies with the seat known to hold it.
    fn layouts(&self, view: &DealView, k: &Knowledge, samples: usize, rng: &mut Rng) -> Vec<Layout> {
        let infer = self.config.infer;
        let clues = if infer { clues(view) } else { Vec::new() };
        let mut played = [0u64; MAX_PLAYERS];
        for p in view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()) {
            played[p.seat.index()] |= 1 << p.card.index();
        }
        let holder =
            if infer { rutenas_holder(view).filter(|&s| s != k.viewer && k.pool & RUTENAS != 0) } else { None };
        let Some(holder) = holder else {
            return weighted_layouts(k, &clues, &played, samples, self.config.enumerate_limit, rng, hand_strength);
        };
        let drawn = weighted_layouts(k, &clues, &played, samples * 3, self.config.enumerate_limit, rng, hand_strength);
        let fitting: Vec<Layout> =
            drawn.iter().filter(|l| l.hands[usize::from(holder)] & RUTENAS != 0).take(samples).copied().collect();
        if fitting.is_empty() { drawn.into_iter().take(samples).collect() } else { fitting }
    }

    /// The position of the play with trumps `suit` (hands empty).
    fn base(view: &DealView, suit: Suit) -> Option<Position> {
        let declarer = view.declarer?.0;
        let first = first_leader(&view.rules, view.forehand, declarer);
        Some(play_position(PLAYERS, declarer, PACK.suits[suit_index(suit)], first, &view.tricks, &view.trick))
    }

    /// The best (hand kept, trumps) for the declarer, averaged over sampled deals, with its
    /// expected score.
    fn best_declaration(
        &mut self,
        view: &DealView,
        candidates: &[(u64, Suit)],
        rng: &mut Rng,
    ) -> Option<(u64, Suit, f64)> {
        let bid = view.contract?.bid;
        let k = knowledge(view)?;
        let layouts = self.layouts(view, &k, self.config.decision_samples.max(4), rng);
        let lf = view.rules.loss_factor();
        let mut best: Option<(u64, Suit, f64)> = None;
        for &(keep, suit) in candidates {
            let base = Bot::base(view, suit)?;
            let st = stakes(&game_with(bid, suit), 0, 0, lf, view.rules.durch());
            let (score, _) = game_value_at(&layouts, &base, keep, &st, &mut self.solver);
            if best.is_none_or(|b| score > b.2) {
                best = Some((keep, suit, score));
            }
        }
        best
    }

    /// The trump suits the declarer could play his contract with once his cards are settled:
    /// Ruten alone for a Ruten contract; otherwise the three suits, and Ruten where the table
    /// lets him name it.
    fn namings(view: &DealView) -> Vec<Suit> {
        let ruten = view.contract.is_some_and(|c| c.bid.is_ruten());
        if ruten {
            vec![Suit::Diamonds]
        } else if view.rules.ruten_unbid() {
            Suit::ALL.to_vec()
        } else {
            vec![Suit::Clubs, Suit::Spades, Suit::Hearts]
        }
    }

    fn discard(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let hand = view.hand?.bits();
        let count = usize::from(view.prompt.discard?);
        let keep_count = (hand.count_ones() as usize).checked_sub(count)?;
        let needs = view.rules.ruten_needs_rutenas();
        // A Ruten naming wants the Rutenas kept where the table asks for it.
        let fits = |keep: u64, s: Suit| s != Suit::Diamonds || !needs || keep & RUTENAS != 0;
        let namings = Bot::namings(view);
        if self.level == Level::Easy {
            let target = view.contract.map_or(3, |c| c.bid.target());
            let keep = namings
                .iter()
                .map(|&s| {
                    let (keep, strength) = best_keep_in(&PACK, hand, suit_index(s), keep_count);
                    // A Ruten game doubles the stakes: only with a hand that clearly makes it.
                    let bonus = if s == Suit::Diamonds && namings.len() > 1 {
                        if strength >= f64::from(target) + 0.3 { 0.5 } else { -1.0 }
                    } else {
                        0.0
                    };
                    (keep, strength + bonus, fits(keep, s))
                })
                .filter(|k| k.2)
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map_or(hand, |k| k.0);
            return Some(discard_action(hand, keep, count));
        }
        let per_suit = self.config.keep_candidates.max(1);
        let mut candidates: Vec<(u64, Suit)> = Vec::new();
        for &s in &namings {
            for (keep, _) in top_keeps_in(&PACK, hand, suit_index(s), keep_count, per_suit) {
                if fits(keep, s) {
                    candidates.push((keep, s));
                }
            }
        }
        let (keep, _, _) = self.best_declaration(view, &candidates, rng)?;
        Some(discard_action(hand, keep, count))
    }

    fn trumps(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let hand = view.hand?.bits();
        let suits = view.prompt.trumps.clone();
        if self.level == Level::Easy {
            let target = f64::from(view.contract.map_or(3, |c| c.bid.target()));
            let best_suit = suits.iter().copied().filter(|&s| s != Suit::Diamonds).max_by(|&a, &b| {
                let (x, y) = (strength_in(&PACK, hand, suit_index(a)), strength_in(&PACK, hand, suit_index(b)));
                x.total_cmp(&y).then(b.cmp(&a))
            });
            let ruten = suits.contains(&Suit::Diamonds) && strength_in(&PACK, hand, RUTEN) >= target + 0.3;
            return match best_suit {
                Some(_) if ruten => Some(Action::NameTrumps { suit: Suit::Diamonds }),
                Some(suit) => Some(Action::NameTrumps { suit }),
                None => suits.first().map(|&suit| Action::NameTrumps { suit }),
            };
        }
        let candidates: Vec<(u64, Suit)> = suits.iter().map(|&s| (hand, s)).collect();
        let (_, suit, _) = self.best_declaration(view, &candidates, rng)?;
        Some(Action::NameTrumps { suit })
    }

    fn play(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let legal = view.prompt.cards;
        if legal.len() == 1 {
            return legal.lowest().map(|card| Action::Play { card });
        }
        let game = view.game?;
        let suit = game.trumps?;
        let declarer = view.declarer?;
        let me = view.viewer?;
        let hand = view.hand?.bits();
        if self.level == Level::Easy {
            let trick: Vec<(u8, bool)> =
                view.trick.iter().map(|p| (p.card.index(), me != declarer && p.seat != declarer)).collect();
            let trumps = PACK.suits[suit_index(suit)];
            let c = easy_card(hand, legal.bits(), &trick, trumps, me == declarer);
            return Some(Action::Play { card: card(c) });
        }
        let k = knowledge(view)?;
        let layouts = self.layouts(view, &k, self.config.play_samples.max(1), rng);
        let base = Bot::base(view, suit)?;
        let taken = view.tricks_taken;
        let st = stakes(&game, taken.declarer, taken.opponents, view.rules.loss_factor(), view.rules.durch());
        let (card, _) = best_card_at(&base, &st, legal, me == declarer, &layouts, &mut self.solver);
        Some(Action::Play { card })
    }

    fn durch(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        if self.level == Level::Easy {
            return Some(Action::Stop);
        }
        let game = view.game?;
        let base = Bot::base(view, game.trumps?)?;
        let k = knowledge(view)?;
        let layouts = self.layouts(view, &k, self.config.decision_samples.max(4), rng);
        let value = f64::from(game.value());
        let lf = f64::from(view.rules.loss_factor());
        let (go_on, stop) = durch_value_at(&base, value, lf, view.tricks_taken.declarer, &layouts, &mut self.solver);
        Some(if go_on > stop { Action::GoOn } else { Action::Stop })
    }
}

/// Deals sampled for a bidding estimate: with the Dutt exchanged every deal needs a keep
/// searched for each naming, so half as many (at least eight) keep a call within tens of
/// milliseconds.
fn bid_samples(rules: &Rules, samples: usize) -> usize {
    let samples = if rules.dutt() == DuttUse::Exchange { samples / 2 } else { samples };
    samples.max(8)
}

/// The easy bot's call. Anseggerfips: the highest bid whose tricks it counts in its hand by
/// the rules of thumb (a Ruten bid counted with the Rutenas as the only trump), a Fips with a
/// hand that counts all five. Duttfips: counting on the Dutt for about one trick more, the
/// lowest contract it may still name if it counts enough for it; forehand names the lowest
/// unless he counts more.
fn easy_auction(view: &DealView) -> Action {
    let hand = view.hand.map_or(0, |h| h.bits());
    let exchange = view.rules.dutt() == DuttUse::Exchange;
    let extra = if exchange { 1.0 } else { 0.0 };
    let suit_strength = (0..3).map(|s| strength_in(&PACK, hand, s)).fold(f64::MIN, f64::max) + extra;
    let ruten_strength = strength_in(&PACK, hand, RUTEN) + extra;
    let ready = |bid: Bid| {
        let need = f64::from(bid.target()) + if bid.target() >= 5 { 0.2 } else { -0.2 };
        if bid.is_ruten() { hand & RUTENAS != 0 && ruten_strength >= need + 0.3 } else { suit_strength >= need }
    };
    let prompt = &view.prompt;
    if prompt.hold
        && let Some(standing) = view.standing
        && ready(standing)
    {
        return Action::Hold;
    }
    let choice = if exchange {
        prompt.bids.iter().copied().find(|&b| ready(b))
    } else {
        prompt.bids.iter().rev().copied().find(|&b| ready(b))
    };
    match choice {
        Some(bid) => Action::Bid { bid },
        None if prompt.pass => Action::Pass,
        None => prompt.bids.first().map_or(Action::Pass, |&bid| Action::Bid { bid }),
    }
}

fn discard_action(hand: u64, keep: u64, count: usize) -> Action {
    let mut cards = hand & !keep;
    while (cards.count_ones() as usize) < count {
        let rest = hand & !cards;
        if rest == 0 {
            break;
        }
        cards |= 1 << rest.trailing_zeros();
    }
    while (cards.count_ones() as usize) > count {
        cards &= !(1u64 << highest(cards));
    }
    Action::Discard { cards: CardSet::from_bits(cards) }
}

/// The options that change a bidding estimate, as one word.
fn rules_word(rules: &Rules) -> u64 {
    let flags = [
        rules.variant() == fipsen_rules::mecklenburg::Variant::Duttfips,
        rules.dutt() == DuttUse::Exchange,
        rules.ruten_needs_rutenas(),
        rules.ruten_unbid(),
        rules.durch(),
        rules.first_lead() == FirstLead::Declarer,
    ];
    let bits = flags.iter().enumerate().fold(0u64, |a, (i, &f)| a | u64::from(f) << i);
    bits | u64::from(rules.min_bid()) << 8 | u64::from(rules.loss_factor()) << 16
}

/// A seed for one decision: the bot's seed and everything in the view that can change.
fn decision_seed(seed: u64, view: &DealView) -> u64 {
    let mut h = Hasher::new(seed);
    h.word(view.viewer.map_or(99, |s| u64::from(s.0)));
    h.word(u64::from(view.dealer.0));
    h.word(view.hand.map_or(0, |c| packed(c.bits())));
    h.word(view.phase as u64);
    for c in &view.calls {
        let code = match c.call {
            Call::Pass => 0,
            Call::Hold => 1,
            Call::Bid { bid } => 2 + u64::from(bid.height()),
        };
        h.word(u64::from(c.seat.0) << 32 | code);
    }
    for p in view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()) {
        h.word(u64::from(p.seat.0) << 8 | u64::from(packed_index(p.card.index())));
    }
    h.finish()
}

/// Whether the prompt allows the action.
fn allowed(view: &DealView, action: &Action) -> bool {
    let p = &view.prompt;
    match *action {
        Action::Bid { bid } => p.bids.contains(&bid),
        Action::Hold => p.hold,
        Action::Pass => p.pass,
        Action::Discard { cards } => {
            p.discard == Some(cards.len() as u8) && view.hand.is_some_and(|h| h.contains_all(cards))
        }
        Action::NameTrumps { suit } => p.trumps.contains(&suit),
        Action::Play { card } => p.cards.contains(card),
        Action::Stop => p.stop,
        Action::GoOn => p.go_on,
    }
}

/// Something legal, should a decision fail.
fn fallback(view: &DealView) -> Option<Action> {
    let p = &view.prompt;
    if p.pass {
        return Some(Action::Pass);
    }
    if let Some(n) = p.discard {
        let hand = view.hand?.bits();
        let lowest = Bits(hand).take(usize::from(n)).fold(0u64, |m, c| m | 1 << c);
        return Some(Action::Discard { cards: CardSet::from_bits(lowest) });
    }
    if let Some(&suit) = p.trumps.first() {
        return Some(Action::NameTrumps { suit });
    }
    if let Some(card) = p.cards.lowest() {
        return Some(Action::Play { card });
    }
    if p.stop {
        return Some(Action::Stop);
    }
    if p.hold {
        return Some(Action::Hold);
    }
    p.bids.first().map(|&bid| Action::Bid { bid })
}

/// How one deal between bots went.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// Every seat's score.
    pub scores: Vec<i32>,
    /// How it ended.
    pub outcome: Outcome,
    /// Every action taken, in order.
    pub actions: Vec<(Seat, Action)>,
}

/// Plays one deal of Anseggerfips or Duttfips (by `rules`) to its end with a bot in every
/// seat, each asked only with its own view (see [`crate::arena::play_deal`]).
///
/// # Panics
/// If a bot answers with an action the rules refuse, or gives no answer when it must act:
/// both are bugs.
pub fn play_deal(
    rules: impl Into<Rules>,
    dealer: Seat,
    seed: Seed,
    players: &[crate::arena::Player],
    bot_seed: u64,
) -> Played {
    let (deal, _) = Deal::new(rules, 1, dealer, seed);
    play_from(deal, players, bot_seed)
}

/// [`play_deal`] from a deal already dealt.
///
/// # Panics
/// As [`play_deal`].
pub fn play_from(mut deal: Deal, players: &[crate::arena::Player], bot_seed: u64) -> Played {
    let n = deal.players();
    let mut bots: Vec<Bot> = (0..n)
        .map(|s| {
            let mut h = Hasher::new(bot_seed);
            h.word(u64::from(s));
            let p = players[usize::from(s)];
            Bot::with_config(p.level, p.config, h.finish())
        })
        .collect();
    let mut actions = Vec::new();
    while !deal.is_over() {
        let seat = deal.turn().expect("a deal that is not over has a turn");
        let view = deal.view(Some(seat));
        let action = bots[seat.index()].choose(&view).expect("the bot must act");
        if let Err(e) = deal.apply(seat, action) {
            panic!("bot at seat {seat} chose {action:?}, refused: {e} ({})", e.code());
        }
        actions.push((seat, action));
    }
    let outcome = deal.outcome().expect("over");
    let mut scores = vec![0; usize::from(n)];
    if let Some((seat, points)) = outcome.score(deal.rules().loss_factor()) {
        scores[seat.index()] = points;
    }
    Played { scores, outcome, actions }
}

// ---------------------------------------------------------------------------------------------
// The review.

/// The suits of `suits` that `keep` holds a card of (all of them if it holds none): the
/// trumps worth weighing for a discard that keeps `keep`.
fn held_suits(suits: &[Suit], keep: u64) -> Vec<Suit> {
    let held: Vec<Suit> = suits.iter().copied().filter(|&s| keep & PACK.suits[suit_index(s)] != 0).collect();
    if held.is_empty() { suits.to_vec() } else { held }
}

/// How many of the rules of thumb's best keeps for each trump suit a discard's review values
/// beside the declarer's discard and the bot's.
const REVIEW_KEEPS: usize = 2;

/// The pack order that deals `view`'s revealed hands and Dutt again ([`Deal::from_pack`]).
fn pack_of(view: &DealView) -> Option<Vec<Card>> {
    let reveal = view.reveal.as_ref()?;
    let mut pack = vec![None; 25];
    for i in 0..4 {
        let seat = (usize::from(view.forehand.0) + i) % 4;
        let cards: Vec<Card> = reveal.dealt.get(seat)?.iter().collect();
        if cards.len() != 5 {
            return None;
        }
        for (k, &c) in cards.iter().enumerate() {
            pack[if k < 3 { 3 * i + k } else { 12 + 2 * i + k - 3 }] = Some(c);
        }
    }
    for (k, c) in reveal.dutt.iter().enumerate() {
        *pack.get_mut(20 + k)? = Some(c);
    }
    pack.into_iter().collect()
}

/// The review of `seat`'s decisions in the finished `deal` by `bot`: at each call, every call
/// he could make valued from his own view at that moment (the bidding estimate over deals of
/// the cards he could not see, drawn from his hand and the auction only), and the bot's call
/// there; then, for the declarer, the five cards he laid away after taking the Dutt and the
/// trumps he named, each valued over deals drawn from what he knew at that moment. `None` if
/// the deal is not over.
pub fn review(bot: &mut Bot, deal: &Deal, seat: Seat) -> Option<DecisionReview<Action>> {
    if !deal.is_over() {
        return None;
    }
    let view = deal.view(Some(seat));
    view.viewer?;
    let (mut replay, _) = Deal::from_pack(*deal.rules(), deal.number(), view.dealer, &pack_of(&view)?)?;
    let mut decisions = Vec::new();
    for record in &view.calls {
        let action = match record.call {
            Call::Bid { bid } => Action::Bid { bid },
            Call::Hold => Action::Hold,
            Call::Pass => Action::Pass,
        };
        if record.seat == seat {
            let at = replay.view(Some(seat));
            let options = bot.call_choices(&at);
            let (samples, effective) = (bot.bid_sample_count() as u32, bot.bid_effective_size());
            let choice = bot.choose(&at)?;
            decisions.push(Decision {
                decision: DecisionKind::Call,
                samples,
                effective,
                options,
                bot: choice,
                chosen: action,
            });
        }
        replay.apply(record.seat, action).ok()?;
    }
    // The declarer's own decisions after the auction, in the order taken: the five cards laid
    // away after taking the Dutt, then trumps (a Ruten contract's trump is forced, not chosen).
    loop {
        let at = replay.view(Some(seat));
        if at.turn != Some(seat) || !matches!(at.phase, Phase::Discard | Phase::Trumps) {
            break;
        }
        let chosen = match at.phase {
            Phase::Discard => Action::Discard { cards: view.discards? },
            _ => Action::NameTrumps { suit: view.game?.trumps? },
        };
        decisions.push(bot.declarer_decision(&at, chosen)?);
        replay.apply(seat, chosen).ok()?;
    }
    Some(DecisionReview { seat, decisions })
}

impl Bot {
    /// The declarer's expected score with `keep` in his hand and trumps `suit` over `layouts`
    /// (the play solved with every hand open, as [`game_value_at`] averages it), with its
    /// margin.
    fn declaration_value(&mut self, view: &DealView, layouts: &[Layout], keep: u64, suit: Suit) -> Option<(f64, f64)> {
        let bid = view.contract?.bid;
        let mut pos = Bot::base(view, suit)?;
        let st = stakes(&game_with(bid, suit), 0, 0, view.rules.loss_factor(), view.rules.durch());
        let me = usize::from(pos.declarer);
        let mut scores = Vec::with_capacity(layouts.len());
        for layout in layouts {
            pos.hands = layout.hands;
            pos.hands[me] = keep;
            scores.push(f64::from(self.solver.solve(&pos, &st).0));
        }
        Some(mean_and_margin(scores.iter().map(|&x| (1.0, x))))
    }

    /// The declarer's decision in `view` (laying the five cards away, or naming trumps) and
    /// `chosen`, what he did there: the options valued over deals of the cards he could not
    /// see, drawn from his view alone as the bot's own choice draws them (the same deals for
    /// every option), and the bot's choice.
    ///
    /// A discard is valued with the trumps best for the cards it keeps among the suits it keeps
    /// a card of (he names them after, knowing no more; Ruten by choice only where the kept
    /// cards allow it); its options are his discard, the bot's, and the rules of thumb's two
    /// best keeps for each naming.
    fn declarer_decision(&mut self, view: &DealView, chosen: Action) -> Option<Decision<Action>> {
        let hand = view.hand?.bits();
        let bot = self.choose(view)?;
        let k = knowledge(view)?;
        let mut rng = Rng::new(decision_seed(self.seed, view));
        let layouts = self.layouts(view, &k, self.config.decision_samples.max(4), &mut rng);
        let mut options: Vec<Choice<Action>> = Vec::new();
        let kind = if view.phase == Phase::Discard {
            let count = usize::from(view.prompt.discard?);
            let keep_count = (hand.count_ones() as usize).checked_sub(count)?;
            let needs = view.rules.ruten_needs_rutenas();
            let fits = |keep: u64, s: Suit| s != Suit::Diamonds || !needs || keep & RUTENAS != 0;
            let namings = Bot::namings(view);
            let forced = view.contract.is_some_and(|c| c.bid.is_ruten());
            let mut actions = vec![chosen, bot];
            for &s in &namings {
                for (keep, _) in top_keeps_in(&PACK, hand, suit_index(s), keep_count, REVIEW_KEEPS) {
                    if forced || fits(keep, s) {
                        actions.push(discard_action(hand, keep, count));
                    }
                }
            }
            for action in actions {
                let Action::Discard { cards } = action else { return None };
                if options.iter().any(|o| o.action == action) {
                    continue;
                }
                let keep = hand & !cards.bits();
                let mut best: Option<(f64, f64)> = None;
                // A Ruten contract's trump is forced whatever is kept; a naming is by choice.
                let fitting: Vec<Suit> = namings.iter().copied().filter(|&s| forced || fits(keep, s)).collect();
                for &s in held_suits(&fitting, keep).iter() {
                    let v = self.declaration_value(view, &layouts, keep, s)?;
                    if best.is_none_or(|b| v.0 > b.0) {
                        best = Some(v);
                    }
                }
                let (value, margin) = best?;
                options.push(Choice { action, value, margin });
            }
            DecisionKind::Discard
        } else {
            for &suit in &view.prompt.trumps {
                let (value, margin) = self.declaration_value(view, &layouts, hand, suit)?;
                options.push(Choice { action: Action::NameTrumps { suit }, value, margin });
            }
            DecisionKind::Trumps
        };
        Some(Decision { decision: kind, samples: layouts.len() as u32, effective: None, options, bot, chosen })
    }
}

// ---------------------------------------------------------------------------------------------
// The one interface.

impl crate::games::GameBot for Bot {
    type View = SeriesView;
    type Action = Action;
    type Deal = Deal;
    type Review = DecisionReview<Action>;

    fn new(level: Level, seed: u64) -> Bot {
        Bot::new(level, seed)
    }

    fn choose(&mut self, view: &SeriesView) -> Option<Action> {
        self.choose_in_series(view)
    }

    /// Each of the seat's calls in the auction (bids with or without Ruten, a Fips, holds and
    /// passes), then the declarer's discard after the Dutt and his trumps, valued over deals
    /// sampled from what he knew.
    fn review(&mut self, deal: &Deal, seat: Seat) -> Option<DecisionReview<Action>> {
        review(self, deal, seat)
    }

    /// Exact, the declarer against the defenders, in the game's points.
    fn analyse(deal: &Deal, budget: crate::analysis::Budget) -> Option<crate::analysis::Analysis> {
        use crate::analysis::holstein::{OpenPlay, analyse};
        let view = deal.view(None);
        let (reveal, game, declarer) = (view.reveal.as_ref()?, view.game?, view.declarer?);
        let suit = game.trumps?;
        let mut open = OpenPlay::from_tricks(
            PLAYERS,
            declarer.0,
            PACK.suits[suit_index(suit)],
            &view.tricks,
            &view.trick,
            &reveal.hands,
        );
        open.target = game.bid.target();
        open.durch_from_start = game.bid.target() >= 5;
        open.went_on = game.durch && !open.durch_from_start;
        let (lf, durch_open) = (view.rules.loss_factor(), view.rules.durch());
        let from_start = open.durch_from_start;
        analyse(
            &open,
            |on, won, lost| {
                stakes(&Game { durch: if from_start { game.durch } else { on }, ..game }, won, lost, lf, durch_open)
            },
            budget,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(codes: &str) -> u64 {
        crate::cards::mask_of(codes.split_whitespace().map(|c| c.parse::<Card>().unwrap().index()))
    }

    #[test]
    fn scores_follow_the_table_of_the_rules() {
        // docs/rules/mecklenburg.md §B5, loss factor 2, Durch open.
        assert_eq!(game_score(2, false, 2, 2, true), 2);
        assert_eq!(game_score(2, true, 3, 2, true), 4);
        assert_eq!(game_score(3, false, 5, 2, true), 6);
        assert_eq!(game_score(3, false, 5, 2, false), 3);
        assert_eq!(game_score(4, false, 3, 2, true), -8);
        assert_eq!(game_score(4, true, 3, 2, true), -16);
        assert_eq!(game_score(5, false, 5, 2, true), 10);
        assert_eq!(game_score(5, true, 4, 2, true), -40);
        assert_eq!(game_score(3, true, 3, 2, true), 6);
        assert_eq!(game_score(5, false, 4, 2, true), -20);
        // The solver's stakes give the same numbers.
        let st = stakes(&game_with(Bid::Dutt, Suit::Diamonds), 0, 0, 2, true);
        assert_eq!((st.score(3), st.score(2)), (6, -12));
        let st = stakes(&game_with(Bid::Fips, Suit::Hearts), 0, 0, 2, true);
        assert_eq!((st.score(5), st.score(4)), (10, -20));
        let st = stakes(&game_with(Bid::tricks(3), Suit::Clubs), 0, 0, 1, true);
        assert_eq!((st.score(5), st.score(3), st.score(2)), (6, 3, -3));
        // Without the table's Durch, every trick is worth no more than the count.
        let st = stakes(&game_with(Bid::tricks(3), Suit::Clubs), 0, 0, 1, false);
        assert_eq!((st.score(5), st.score(3), st.score(2)), (3, 3, -3));
    }

    #[test]
    fn the_rutenas_is_a_lone_trump() {
        assert_eq!(RUTENAS.count_ones(), 1);
        assert_eq!(PACK.cards.count_ones(), 25);
        assert!(PACK.lone(RUTEN));
        // The Rutenas and the three side aces: four sure tricks in a Ruten game.
        let hand = mask("DA CA SA HA C7");
        assert!(strength_in(&PACK, hand, RUTEN) > 3.5);
        assert!(hand_strength(mask("C7 S8 H9 C8 S9")) < 1.0);
    }
}
