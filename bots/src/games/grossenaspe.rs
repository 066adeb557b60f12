//! Bots for Großenaspe Fipsen (docs/rules/grossenaspe.md §A): the 32-card pack, clubs as "Gute", bids from
//! one trick, the Kieker with skat and talon, the Fips without the skat.
//!
//! The same machinery as Prisdorf's bots, read through this game's view: [`Knowledge`] from
//! the tricks and what the seat saw of skat, talon, discards and a Kieker's laid-aside hand;
//! uniform sampling of the unseen cards ([`crate::knowledge::Sampler`]); the exact solver with
//! the game's stakes (its values and `loss_factor`); card play by sampling
//! ([`crate::play::best_card_at`]); rules of thumb for the 32-card pack
//! ([`crate::heuristic::strength_in`]); and, at strong, the auction read as in
//! [`crate::inference`].
//!
//! ```
//! use fipsen_bots::Level;
//! use fipsen_bots::grossenaspe::Bot;
//! use fipsen_rules::Seed;
//! use fipsen_rules::grossenaspe::{Rules, Series};
//!
//! let (mut series, _) = Series::new(Rules::grossenaspe(), Seed::from_u64(1)).unwrap();
//! let seat = series.deal().turn().unwrap();
//! let mut bot = Bot::new(Level::Normal, 42);
//! let action = bot.choose_in_series(&series.view(Some(seat))).expect("its turn");
//! series.apply(seat, action).unwrap();
//! ```

use fipsen_rules::grossenaspe::{Action, Bid, Call, Deal, DealView, Game, Outcome, Phase, Rules, SeriesView};
use fipsen_rules::{Card, CardSet, FirstLead, Seat, Seed, Suit};

use crate::cards::{Bits, PackMasks, card, highest, packed, packed_index, suit_index};
use crate::evaluate::{draw_layouts, game_value_at, skat_and_stock};
use crate::games::decisions::{Choice, Decision, DecisionKind, DecisionReview, effective_size, mean_and_margin};
use crate::heuristic::{best_keep_in, easy_card, strength_in, top_keeps_in};
use crate::inference::{Clue, Evidence, weighted_layouts};
use crate::knowledge::{Knowledge, Layout, Seen};
pub use crate::level::{Config, Level};
use crate::play::{best_card_at, durch_value_at};
use crate::rng::{Hasher, Rng};
use crate::solver::{MAX_PLAYERS, Position, Solver, Stakes};
use crate::table::play_position;

/// The pack.
const PACK: PackMasks = PackMasks::P32;

/// A Kieker's kept hand must look at least this strong for the estimate to play it rather than
/// fold it.
const KIEKER_PLAY_STRENGTH: f64 = 4.6;

/// The strength of a dealt hand for its best trumps, as the auction inference reads a call.
pub fn hand_strength(hand: u64) -> f64 {
    (0..4).map(|s| strength_in(&PACK, hand, s)).fold(f64::MIN, f64::max)
}

/// The declarer's score for a bid of `tricks` (with clubs trumps if `clubs`) when he takes
/// `taken` tricks under best play, going on for Durch whenever he can take all five; a lost
/// game costs `loss_factor` times its value.
pub fn trick_score(tricks: u8, clubs: bool, taken: u8, loss_factor: u8) -> i32 {
    let value = i32::from(tricks) * if clubs { 2 } else { 1 };
    let loss = -i32::from(loss_factor);
    if tricks >= 5 {
        if taken >= 5 { 2 * value } else { loss * 2 * value }
    } else if taken >= 5 {
        2 * value
    } else if taken >= tricks {
        value
    } else {
        loss * value
    }
}

/// The stakes of `game` with trumps `suit` after the tricks taken so far.
pub fn stakes(game: &Game, suit: Suit, won: u8, lost: u8, loss_factor: u8) -> Stakes {
    let game = Game { trumps: Some(suit), ..*game };
    Stakes {
        tricks: game.bid.target(),
        durch: game.durch,
        value: game.value(),
        won,
        lost,
        loss_factor: i32::from(loss_factor),
        durch_open: true,
    }
}

/// Who leads the first trick when `declarer` plays.
fn first_leader(rules: &Rules, forehand: Seat, declarer: u8) -> u8 {
    match rules.first_lead {
        FirstLead::Forehand => forehand.0,
        FirstLead::Declarer => declarer,
    }
}

/// The seats that, by a Kieker bid or hold, showed they were dealt no court card.
pub fn kieker_callers(view: &DealView) -> u8 {
    let mut seats = 0u8;
    let mut standing: Option<Bid> = None;
    for record in &view.calls {
        match record.call {
            Call::Bid { bid } => {
                standing = Some(bid);
                if bid == Bid::Kieker {
                    seats |= 1 << record.seat.0;
                }
            }
            Call::Hold if standing == Some(Bid::Kieker) => seats |= 1 << record.seat.0,
            Call::Hold | Call::Pass => {}
        }
    }
    seats
}

/// What the viewer of `view` knows of the unseen cards; `None` for a spectator.
///
/// Out of play and known to him: his own discards, and a Kieker's laid-aside hand if he is
/// the Kieker or the opponent it was shown to. Unseen and out of play: the skat (until taken,
/// and all deal long in a Fips), the talon (unless a Kieker took it), the declarer's discards
/// and a laid-aside hand not shown to him. A player who bid or held a Kieker was dealt no
/// court card, and still holds only dealt cards unless he declared and picked something up.
pub fn knowledge(view: &DealView) -> Option<Knowledge> {
    let viewer = view.viewer?.0;
    let hand = view.hand?.bits();
    let players = view.rules.players;
    let mut k = Knowledge::from_seen(&Seen {
        pack: &PACK,
        players,
        viewer,
        hand,
        hand_sizes: &view.hand_sizes,
        tricks: &view.tricks,
        trick: &view.trick,
    });
    let known_out = view.discards.map_or(0, |d| d.bits()) | view.kieker_hand.map_or(0, |h| h.bits());
    k.pool &= !known_out;
    let callers = kieker_callers(view);
    let declarer = view.declarer.map(|s| s.0);
    let fips = view.contract.is_some_and(|c| c.bid == Bid::Fips);
    for s in 0..players {
        let picked_up = declarer == Some(s) && !fips;
        if s != viewer && callers & (1 << s) != 0 && !picked_up {
            k.forbidden[usize::from(s)] |= PACK.court;
        }
    }
    Some(k)
}

/// The bidder's knowledge of his dealt hand in the auction (the calls add only who showed a
/// hand without court cards).
fn auction_knowledge(view: &DealView) -> Option<Knowledge> {
    let viewer = view.viewer?.0;
    let hand = view.hand?.bits();
    let mut k = Knowledge::dealt(&PACK, view.rules.players, viewer, hand);
    let callers = kieker_callers(view);
    for s in 0..k.players {
        if s != viewer && callers & (1 << s) != 0 {
            k.forbidden[usize::from(s)] |= PACK.court;
        }
    }
    Some(k)
}

/// The height of a bid in tricks for the auction inference: a Gute counts a little more.
fn tricks_worth(bid: Bid) -> Option<f64> {
    match bid {
        Bid::Tricks { tricks, gute } => Some(f64::from(tricks) + if gute { 0.4 } else { 0.0 }),
        // A Kieker hand is weak in court cards by rule; its strength says little.
        Bid::Kieker => None,
        Bid::Fips => Some(5.4),
    }
}

/// The clues in the auction of `view` about every seat but the viewer's (see
/// [`crate::inference::clues`], the same reading of Prisdorf's duels).
pub fn clues(view: &DealView) -> Vec<Clue> {
    let viewer = view.viewer.map(|s| s.0);
    let mut out = Vec::new();
    let mut standing: Option<Bid> = None;
    let mut holder: Option<u8> = None;
    for (i, record) in view.calls.iter().enumerate() {
        let seat = record.seat.0;
        let evidence = match record.call {
            Call::Bid { bid } => {
                standing = Some(bid);
                if holder.is_none() {
                    holder = Some(seat);
                }
                tricks_worth(bid).map(Evidence::AtLeast)
            }
            Call::Hold => standing.and_then(tricks_worth).map(Evidence::AtLeast),
            Call::Pass => {
                let e = match standing {
                    None => Some(Evidence::Below(f64::from(view.rules.min_bid))),
                    Some(b) if holder == Some(seat) => tricks_worth(b).map(Evidence::Below),
                    Some(b) => tricks_worth(b).map(|t| Evidence::Below(t + 0.4)),
                };
                if holder == Some(seat) {
                    holder = view.calls[..i]
                        .iter()
                        .rev()
                        .find(|r| r.seat.0 != seat && matches!(r.call, Call::Bid { .. }))
                        .map(|r| r.seat.0);
                }
                e
            }
        };
        if let Some(evidence) = evidence
            && Some(seat) != viewer
        {
            out.push(Clue { seat, evidence });
        }
    }
    out
}

/// A game the bidder could play, with its estimated chance of winning and expected score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The game: a bid (a plain number bid with the trumps chosen after the pick-up).
    pub game: Bid,
    /// The chance of winning it (a folded Kieker counts as not won).
    pub win: f64,
    /// The expected score for the bidder.
    pub score: f64,
    /// The margin of that expected score over the sampled deals (1.96 standard errors).
    pub margin: f64,
}

/// The scores of every game the bidder could play, deal by deal, kept so that the deals can
/// be weighed again as the auction tells more.
#[derive(Debug, Clone, PartialEq)]
pub struct GameTable {
    min_bid: u8,
    kieker: bool,
    /// The deals' hands (the bidder's own included).
    pub hands: Vec<[u64; MAX_PLAYERS]>,
    /// Per deal: for each trick count from `min_bid`, plain and Gute; then a Fips in each
    /// suit; then the Kieker.
    scores: Vec<Vec<i32>>,
}

impl GameTable {
    fn columns(min_bid: u8) -> usize {
        usize::from(6 - min_bid) * 2 + 5
    }

    /// The estimates with deal `i` weighed by `weights[i]`.
    pub fn weighted(&self, weights: &[f64]) -> Vec<Estimate> {
        let at = |i: usize| {
            let values = self.scores.iter().zip(weights).map(move |(row, &w)| (w, f64::from(row[i])));
            let total: f64 = weights.iter().sum();
            let wins: f64 = self.scores.iter().zip(weights).filter(|(row, _)| row[i] > 0).map(|(_, &w)| w).sum();
            let (score, margin) = mean_and_margin(values);
            (if total > 0.0 { wins / total } else { 0.0 }, score, margin)
        };
        let cols = GameTable::columns(self.min_bid);
        let mut out = Vec::new();
        let counts = usize::from(6 - self.min_bid);
        for k in 0..counts {
            let tricks = self.min_bid + k as u8;
            for (gute, i) in [(false, 2 * k), (true, 2 * k + 1)] {
                let (win, score, margin) = at(i);
                out.push(Estimate { game: Bid::Tricks { tricks, gute }, win, score, margin });
            }
        }
        // A Fips names the suit best on average (before anything more is known).
        let (win, score, margin) =
            (0..4).map(|s| at(2 * counts + s)).max_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((0.0, 0.0, 0.0));
        out.push(Estimate { game: Bid::Fips, win, score, margin });
        if self.kieker {
            let (win, score, margin) = at(cols - 1);
            out.push(Estimate { game: Bid::Kieker, win, score, margin });
        }
        out
    }

    /// The estimates with every deal weighed alike.
    pub fn estimates(&self) -> Vec<Estimate> {
        self.weighted(&vec![1.0; self.scores.len()])
    }
}

/// The cards a Kieker keeps from `cards` for trumps `suit`, with their strength. With many
/// cards (three players: seventeen) the search is narrowed to the ten best-looking first.
fn kieker_keep(cards: u64, suit: usize) -> (u64, f64) {
    let mut pool = cards;
    if pool.count_ones() > 10 {
        // Trumps first, then the other cards, each from the highest rank down.
        let mut ranked: Vec<u8> = Bits(cards).collect();
        let trumps = PACK.suits[suit];
        ranked.sort_by_key(|&c| (std::cmp::Reverse(trumps & (1 << c) != 0), std::cmp::Reverse(c & 15), c));
        pool = ranked.iter().take(10).fold(0, |m, &c| m | 1 << c);
    }
    best_keep_in(&PACK, pool, suit, 5)
}

/// The best Kieker keep over every trump suit: (suit, keep, strength).
fn kieker_best(cards: u64) -> (usize, u64, f64) {
    let mut best = (0, cards, f64::MIN);
    for suit in 0..4 {
        let (keep, s) = kieker_keep(cards, suit);
        if s > best.2 {
            best = (suit, keep, s);
        }
    }
    best
}

/// The best keep of five from `cards` over every trump suit by the rules of thumb, a clubs
/// game counting for a little more (it scores double): (suit, keep, strength).
fn natural_keep(cards: u64) -> (usize, u64, f64) {
    let mut best = (0, cards, f64::MIN);
    for suit in 0..4 {
        let (keep, s) = best_keep_in(&PACK, cards, suit, 5);
        let s = if suit == 0 { s + 0.15 } else { s };
        if s > best.2 {
            best = (suit, keep, s);
        }
    }
    best
}

/// Every deal of `layouts` solved as every game the bidder could play.
///
/// Choices the declarer makes without seeing the others' cards are made without them here too:
/// the Fips trumps are the suit best on average over all deals (see [`GameTable::weighted`]);
/// after the pick-up the discards and trumps come from the rules of thumb on his own cards.
fn game_table(
    k: &Knowledge,
    rules: &Rules,
    first_leader: u8,
    layouts: &[Layout],
    rng: &mut Rng,
    solver: &mut Solver,
) -> GameTable {
    let me = k.viewer;
    let hand = k.hand;
    let min = rules.min_bid.clamp(1, 5);
    let counts = usize::from(6 - min);
    let thresholds: Vec<u8> = (min..=5).collect();
    let kieker = hand & PACK.court == 0;
    let cols = GameTable::columns(min);
    let taken = |reached: usize| if reached == 0 { min - 1 } else { min + reached as u8 - 1 };
    let lf = rules.loss_factor;
    let mut table = GameTable { min_bid: min, kieker, hands: Vec::new(), scores: Vec::new() };
    for layout in layouts {
        let mut row = vec![0i32; cols];
        let (skat, talon) = skat_and_stock(layout.out, rng);
        let mut pos = Position {
            players: k.players,
            hands: layout.hands,
            declarer: me,
            trumps: 0,
            leader: first_leader,
            trick: [0; MAX_PLAYERS],
            trick_len: 0,
        };
        for suit in 0..4 {
            pos.trumps = PACK.suits[suit];
            let won = solver.at_least(&pos, 5);
            let value = 20 * if won { 1 } else { -i32::from(lf) };
            row[2 * counts + suit] = value;
        }
        let seven = hand | skat;
        let (suit, keep, _) = natural_keep(seven);
        pos.hands[usize::from(me)] = keep;
        pos.trumps = PACK.suits[suit];
        let t = taken(solver.reaches(&pos, &thresholds));
        for i in 0..counts {
            row[2 * i] = trick_score(min + i as u8, suit == 0, t, lf);
        }
        let t = if suit == 0 {
            t
        } else {
            let (keep, _) = best_keep_in(&PACK, seven, 0, 5);
            pos.hands[usize::from(me)] = keep;
            pos.trumps = PACK.suits[0];
            taken(solver.reaches(&pos, &thresholds))
        };
        for i in 0..counts {
            row[2 * i + 1] = trick_score(min + i as u8, true, t, lf);
        }
        if kieker {
            let (suit, keep, s) = kieker_best(skat | talon);
            row[cols - 1] = if s < KIEKER_PLAY_STRENGTH {
                -5
            } else {
                pos.hands[usize::from(me)] = keep;
                pos.trumps = PACK.suits[suit];
                if solver.at_least(&pos, 5) { 10 } else { -10 * i32::from(lf) }
            };
        }
        table.hands.push(layout.hands);
        table.scores.push(row);
    }
    table
}

/// A computer player for one seat of Großenaspe Fipsen. Its choices depend only on its level,
/// configuration, seed and the view it is shown.
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

    /// The bot's action in a series, or `None` if it may do nothing now.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Action> {
        if view.over { None } else { self.choose(&view.deal) }
    }

    /// The bot's action, or `None` if the viewer may do nothing now (this game has nothing out
    /// of turn). Always one the prompt offers.
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
        h.word(u64::from(view.rules.min_bid) | u64::from(view.rules.players) << 8);
        h.word(u64::from(view.rules.first_lead == FirstLead::Declarer) | u64::from(view.rules.loss_factor) << 8);
        let samples = scaled(view, self.config.bid_samples).max(8);
        h.word(samples as u64);
        h.word(packed(k.forbidden.iter().fold(0, |a, f| a | f)));
        let key = h.finish();
        if !matches!(&self.table, Some((c, _)) if *c == key) {
            let mut rng = Rng::new(key);
            let layouts = draw_layouts(&k, samples, 0, &mut rng);
            let leader = first_leader(&view.rules, view.forehand, k.viewer);
            self.table = Some((key, game_table(&k, &view.rules, leader, &layouts, &mut rng, &mut self.solver)));
        }
        self.weighted = None;
        let Some((_, table)) = &self.table else { return Vec::new() };
        let clues = if self.config.infer { clues(view) } else { Vec::new() };
        if clues.is_empty() {
            return table.estimates();
        }
        let weights: Vec<f64> =
            table.hands.iter().map(|h| crate::inference::likelihood_with(&clues, h, hand_strength)).collect();
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
        let mut best = (Action::Pass, 0.0);
        for (action, value) in self.call_values(view) {
            if action != Action::Pass && value - margin > best.1 + 1e-9 {
                best = (action, value - margin);
            }
        }
        Some(best.0)
    }

    /// Layouts of the unseen cards for a decision: drawn uniformly, or at strong weighed by
    /// the auction.
    fn layouts(&self, view: &DealView, k: &Knowledge, samples: usize, rng: &mut Rng) -> Vec<Layout> {
        let clues = if self.config.infer { clues(view) } else { Vec::new() };
        let mut played = [0u64; MAX_PLAYERS];
        for p in view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()) {
            played[p.seat.index()] |= 1 << p.card.index();
        }
        weighted_layouts(k, &clues, &played, samples, self.config.enumerate_limit, rng, hand_strength)
    }

    /// The position of the play with trumps `suit` (hands empty).
    fn base(view: &DealView, suit: Suit) -> Option<Position> {
        let declarer = view.declarer?.0;
        let first = first_leader(&view.rules, view.forehand, declarer);
        Some(play_position(
            view.rules.players,
            declarer,
            PACK.suits[suit_index(suit)],
            first,
            &view.tricks,
            &view.trick,
        ))
    }

    /// The best (hand kept, trumps) for the declarer, averaged over sampled deals, with its
    /// expected score.
    fn best_declaration(
        &mut self,
        view: &DealView,
        candidates: &[(u64, Suit)],
        rng: &mut Rng,
    ) -> Option<(u64, Suit, f64)> {
        let game = view.game?;
        let k = knowledge(view)?;
        let layouts = self.layouts(view, &k, scaled(view, self.config.decision_samples).max(4), rng);
        let mut best: Option<(u64, Suit, f64)> = None;
        for &(keep, suit) in candidates {
            let base = Bot::base(view, suit)?;
            let st = stakes(&game, suit, 0, 0, view.rules.loss_factor);
            let (score, _) = game_value_at(&layouts, &base, keep, &st, &mut self.solver);
            if best.is_none_or(|b| score > b.2) {
                best = Some((keep, suit, score));
            }
        }
        best
    }

    /// The suits the declarer may name for his contract: clubs only for a Gute bid.
    fn suits(view: &DealView) -> Vec<Suit> {
        match view.contract.map(|c| c.bid) {
            Some(Bid::Tricks { gute: true, .. }) => vec![Suit::Clubs],
            _ => Suit::ALL.to_vec(),
        }
    }

    fn discard(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let hand = view.hand?.bits();
        let count = usize::from(view.prompt.discard?);
        let keep_count = (hand.count_ones() as usize).checked_sub(count)?;
        let suits = Bot::suits(view);
        let kieker = view.contract.is_some_and(|c| c.bid == Bid::Kieker);
        if self.level == Level::Easy {
            let keep = suits
                .iter()
                .map(|&s| best_keep_in(&PACK, hand, suit_index(s), keep_count))
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map_or(hand, |k| k.0);
            return Some(discard_action(hand, keep, count));
        }
        let per_suit = self.config.keep_candidates.max(1) + usize::from(kieker);
        let mut candidates: Vec<(u64, Suit)> = Vec::new();
        for &s in &suits {
            for (keep, _) in top_keeps_in(&PACK, hand, suit_index(s), keep_count, per_suit) {
                candidates.push((keep, s));
            }
        }
        let (keep, _, _) = self.best_declaration(view, &candidates, rng)?;
        Some(discard_action(hand, keep, count))
    }

    fn trumps(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let hand = view.hand?.bits();
        let suits = view.prompt.trumps.clone();
        if self.level == Level::Easy {
            let suit = suits.iter().copied().max_by(|&a, &b| {
                let (x, y) = (strength_in(&PACK, hand, suit_index(a)), strength_in(&PACK, hand, suit_index(b)));
                x.total_cmp(&y).then(b.cmp(&a))
            })?;
            if view.prompt.fold && strength_in(&PACK, hand, suit_index(suit)) < KIEKER_PLAY_STRENGTH {
                return Some(Action::Fold);
            }
            return Some(Action::NameTrumps { suit });
        }
        let candidates: Vec<(u64, Suit)> = suits.iter().map(|&s| (hand, s)).collect();
        let (_, suit, score) = self.best_declaration(view, &candidates, rng)?;
        if view.prompt.fold && score < -5.0 {
            return Some(Action::Fold);
        }
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
        let layouts = self.layouts(view, &k, scaled(view, self.config.play_samples).max(1), rng);
        let base = Bot::base(view, suit)?;
        let taken = view.tricks_taken;
        let st = stakes(&game, suit, taken.declarer, taken.opponents, view.rules.loss_factor);
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
        let layouts = self.layouts(view, &k, scaled(view, self.config.decision_samples).max(4), rng);
        let value = f64::from(game.value());
        let lf = f64::from(view.rules.loss_factor);
        let (go_on, stop) = durch_value_at(&base, value, lf, view.tricks_taken.declarer, &layouts, &mut self.solver);
        Some(if go_on > stop { Action::GoOn } else { Action::Stop })
    }
}

/// A number of sampled deals for the table size: with five players each deal has more hidden
/// hands and takes the solver longer, so fewer are drawn to keep a decision within tens of
/// milliseconds.
fn scaled(view: &DealView, samples: usize) -> usize {
    if view.rules.players >= 5 { samples * 2 / 5 } else { samples }
}

/// The easy bot bids plain games up to the tricks it counts in its hand, a Fips with a hand
/// that counts all five in some suit.
fn easy_auction(view: &DealView) -> Action {
    let hand = view.hand.map_or(0, |h| h.bits());
    let s = hand_strength(hand);
    let tricks = (s + 0.2).floor().clamp(0.0, 5.0) as u8;
    let prompt = &view.prompt;
    if s >= 5.2 && prompt.bids.contains(&Bid::Fips) {
        return Action::Bid { bid: Bid::Fips };
    }
    if prompt.hold
        && let Some(Bid::Tricks { tricks: t, gute }) = view.standing
        && t <= tricks
        && (!gute || strength_in(&PACK, hand, 0) + 0.2 >= f64::from(t))
    {
        return Action::Hold;
    }
    prompt
        .bids
        .iter()
        .find(|b| matches!(b, Bid::Tricks { tricks: t, gute: false } if *t <= tricks))
        .map_or(Action::Pass, |&bid| Action::Bid { bid })
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
        Action::Fold => p.fold,
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

/// Plays one deal of Großenaspe to its end with a bot in every seat, each asked only with its
/// own view (see [`crate::arena::play_deal`]).
///
/// # Panics
/// If a bot answers with an action the rules refuse, or gives no answer when it must act:
/// both are bugs.
pub fn play_deal(rules: Rules, dealer: Seat, seed: Seed, players: &[crate::arena::Player], bot_seed: u64) -> Played {
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
    if let Some((seat, points)) = outcome.score(deal.rules().loss_factor) {
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

/// The pack order that deals `view`'s revealed hands, skat and talon again
/// ([`Deal::from_pack`]).
fn pack_of(view: &DealView) -> Option<Vec<Card>> {
    let reveal = view.reveal.as_ref()?;
    let n = usize::from(view.rules.players);
    let mut pack = vec![None; 32];
    for i in 0..n {
        let seat = (usize::from(view.forehand.0) + i) % n;
        let cards: Vec<Card> = reveal.dealt.get(seat)?.iter().collect();
        if cards.len() != 5 {
            return None;
        }
        for (k, &c) in cards.iter().enumerate() {
            let at = if k < 3 { 3 * i + k } else { 3 * n + 2 + 2 * i + k - 3 };
            pack[at] = Some(c);
        }
    }
    for (k, c) in reveal.skat.iter().enumerate() {
        *pack.get_mut(3 * n + k)? = Some(c);
    }
    for (k, c) in reveal.talon.iter().enumerate() {
        *pack.get_mut(5 * n + 2 + k)? = Some(c);
    }
    pack.into_iter().collect()
}

/// The review of `seat`'s decisions in the finished `deal` by `bot`: at each call, every call
/// he could make valued from his own view at that moment (the bidding estimate over deals of
/// the cards he could not see, drawn from his hand and the auction only), and the bot's call
/// there; then, for the declarer, the cards he laid away and the trumps he named (or his
/// fold), each valued over deals drawn from what he knew at that moment. `None` if the deal is
/// not over.
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
    // The declarer's own decisions after the auction, in the order taken: the cards laid away,
    // then trumps or a Kieker's fold (a Gute's clubs and nothing else are forced, not chosen).
    loop {
        let at = replay.view(Some(seat));
        if at.turn != Some(seat) || !matches!(at.phase, Phase::Discard | Phase::Trumps) {
            break;
        }
        let chosen = match at.phase {
            Phase::Discard => Action::Discard { cards: view.discards? },
            _ if matches!(view.outcome, Some(Outcome::Folded { .. })) => Action::Fold,
            _ => Action::NameTrumps { suit: view.game?.trumps? },
        };
        decisions.push(bot.declarer_decision(&at, chosen)?);
        replay.apply(seat, chosen).ok()?;
    }
    Some(DecisionReview { seat, decisions })
}

impl Bot {
    /// The declarer's score in each of `layouts` with `keep` in his hand and trumps `suit`,
    /// the play solved with every hand open (as [`game_value_at`] averages it).
    fn declaration_scores(&mut self, view: &DealView, layouts: &[Layout], keep: u64, suit: Suit) -> Option<Vec<f64>> {
        let game = view.game?;
        let mut pos = Bot::base(view, suit)?;
        let st = stakes(&game, suit, 0, 0, view.rules.loss_factor);
        let me = usize::from(pos.declarer);
        let mut out = Vec::with_capacity(layouts.len());
        for layout in layouts {
            pos.hands = layout.hands;
            pos.hands[me] = keep;
            out.push(f64::from(self.solver.solve(&pos, &st).0));
        }
        Some(out)
    }

    /// The declarer's expected score with `keep` and trumps `suit` over `layouts`, with its
    /// margin.
    fn declaration_value(&mut self, view: &DealView, layouts: &[Layout], keep: u64, suit: Suit) -> Option<(f64, f64)> {
        let scores = self.declaration_scores(view, layouts, keep, suit)?;
        Some(mean_and_margin(scores.iter().map(|&x| (1.0, x))))
    }

    /// The declarer's decision in `view` (laying cards away, or naming trumps or folding) and
    /// `chosen`, what he did there: the options valued over deals of the cards he could not
    /// see, drawn from his view alone as the bot's own choice draws them (the same deals for
    /// every option), and the bot's choice.
    ///
    /// A discard is valued with the trumps best for the cards it keeps among the suits it keeps
    /// a card of (he names them after, knowing no more), or a Kieker's fold if that is worth
    /// more; its options are his discard, the bot's, and the rules of thumb's two best keeps
    /// for each suit he may name.
    fn declarer_decision(&mut self, view: &DealView, chosen: Action) -> Option<Decision<Action>> {
        let hand = view.hand?.bits();
        let declarer = view.declarer?;
        let game = view.game?;
        let bot = self.choose(view)?;
        let k = knowledge(view)?;
        let mut rng = Rng::new(decision_seed(self.seed, view));
        let layouts = self.layouts(view, &k, scaled(view, self.config.decision_samples).max(4), &mut rng);
        let fold = Outcome::Folded { declarer, game }.score(view.rules.loss_factor).map_or(-5, |s| s.1);
        let mut options = Vec::new();
        let kind = if view.phase == Phase::Discard {
            let count = usize::from(view.prompt.discard?);
            let keep_count = (hand.count_ones() as usize).checked_sub(count)?;
            let suits = Bot::suits(view);
            let mut actions = vec![chosen, bot];
            for &s in &suits {
                for (keep, _) in top_keeps_in(&PACK, hand, suit_index(s), keep_count, REVIEW_KEEPS) {
                    actions.push(discard_action(hand, keep, count));
                }
            }
            let kieker = view.contract.is_some_and(|c| c.bid == Bid::Kieker);
            for action in actions {
                let Action::Discard { cards } = action else { return None };
                if options.iter().any(|o: &Choice<Action>| o.action == action) {
                    continue;
                }
                let keep = hand & !cards.bits();
                let mut best = if kieker { (f64::from(fold), 0.0) } else { (f64::NEG_INFINITY, 0.0) };
                for &s in held_suits(&suits, keep).iter() {
                    let v = self.declaration_value(view, &layouts, keep, s)?;
                    if v.0 > best.0 {
                        best = v;
                    }
                }
                options.push(Choice { action, value: best.0, margin: best.1 });
            }
            DecisionKind::Discard
        } else {
            for &suit in &view.prompt.trumps {
                let (value, margin) = self.declaration_value(view, &layouts, hand, suit)?;
                options.push(Choice { action: Action::NameTrumps { suit }, value, margin });
            }
            if view.prompt.fold {
                options.push(Choice { action: Action::Fold, value: f64::from(fold), margin: 0.0 });
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

    /// Each of the seat's calls in the auction (bids with or without Gute, a Fips, a Kieker,
    /// holds and passes), then the declarer's discard and trumps (or a Kieker's fold), valued
    /// over deals sampled from what he knew.
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
            view.rules.players,
            declarer.0,
            PACK.suits[suit_index(suit)],
            &view.tricks,
            &view.trick,
            &reveal.hands,
        );
        open.target = game.bid.target();
        open.durch_from_start = game.bid.target() >= 5;
        open.went_on = game.durch && !open.durch_from_start;
        let lf = view.rules.loss_factor;
        let from_start = open.durch_from_start;
        analyse(
            &open,
            |on, won, lost| {
                stakes(&Game { durch: if from_start { game.durch } else { on }, ..game }, suit, won, lost, lf)
            },
            budget,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_table_of_the_rules() {
        // docs/rules/grossenaspe.md §A7, loss factor 2 unless said.
        assert_eq!(trick_score(1, false, 1, 2), 1);
        assert_eq!(trick_score(1, false, 0, 2), -2);
        assert_eq!(trick_score(3, true, 3, 2), 6);
        assert_eq!(trick_score(2, false, 5, 2), 4);
        assert_eq!(trick_score(4, false, 3, 2), -8);
        assert_eq!(trick_score(5, false, 5, 2), 10);
        assert_eq!(trick_score(5, true, 4, 2), -40);
        assert_eq!(trick_score(3, true, 2, 1), -6);
        // The solver's stakes give the same numbers, and a Kieker and a Fips their flat values.
        let game = |bid: Bid| Game { bid, trumps: None, durch: bid.target() == 5 };
        let st = stakes(&game(Bid::gute(3)), Suit::Clubs, 0, 0, 2);
        assert_eq!((st.score(3), st.score(5), st.score(2)), (6, 12, -12));
        let st = stakes(&game(Bid::Kieker), Suit::Hearts, 0, 0, 2);
        assert_eq!((st.score(5), st.score(4)), (10, -20));
        let st = stakes(&game(Bid::Fips), Suit::Clubs, 0, 0, 1);
        assert_eq!((st.score(5), st.score(4)), (20, -20));
    }

    #[test]
    fn strength_reads_the_32_card_pack() {
        let mask =
            |codes: &str| crate::cards::mask_of(codes.split_whitespace().map(|c| c.parse::<Card>().unwrap().index()));
        // Diamonds is a full suit here: the top diamonds are as strong as the top clubs.
        let diamonds = mask("DA DK DQ DJ D10");
        let clubs = mask("CA CK CQ CJ C10");
        assert_eq!(strength_in(&PACK, diamonds, 3), strength_in(&PACK, clubs, 0));
        assert!(hand_strength(diamonds) > 4.5);
        assert!(hand_strength(mask("C7 S8 H9 D7 D8")) < 1.0);
        let (suit, keep, _) = kieker_best(mask("DA DK DQ DJ D10 C7 C8 S7 S8 H7 H8 H9"));
        assert_eq!((suit, keep), (3, diamonds));
    }
}
