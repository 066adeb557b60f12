//! The bot: one seat's decisions from what that seat sees.

use fipsen_rules::{Action, Bid, CardSet, DealView, Phase, SeriesView, Suit};

use crate::cards::{packed, packed_index, suit_index, trump_mask};
use crate::evaluate::{BidContext, Estimate, GameTable, draw_layouts, game_table, game_value};
use crate::heuristic::{best_keep, best_natural, easy_card, strength, top_keeps};
use crate::inference::{Clue, clues, hand_strength, likelihood};
use crate::knowledge::{Knowledge, Layout, kieker_callers};
use crate::play::{best_card, durch_value, forced_card};
use crate::rng::{Hasher, Rng};
use crate::solver::{MAX_PLAYERS, Solver};
use crate::table::{base_position, first_leader, stakes};

pub use crate::level::{Config, Level};

/// A computer player for one seat. Its choices depend only on its level, its configuration,
/// its seed and the view it is shown: the same inputs always give the same action.
///
/// ```
/// use fipsen_bots::{Bot, Level};
/// use fipsen_rules::{RuleSet, Seat, Seed, Series};
///
/// let (mut series, _) = Series::new(RuleSet::prisdorf(), Seed::from_u64(1)).unwrap();
/// let seat = series.deal().turn().unwrap();
/// let mut bot = Bot::new(Level::Normal, 42);
/// let action = bot.choose(&series.view(Some(seat)).deal).expect("its turn");
/// series.apply(seat, action).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct Bot {
    level: Level,
    config: Config,
    seed: u64,
    solver: Solver,
    /// The deals behind the last bidding estimate, and what they were drawn for.
    table: Option<(u64, GameTable)>,
}

impl Bot {
    /// A bot of `level` with its default configuration.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot::with_config(level, Config::of(level), seed)
    }

    /// A bot with its own numbers (for measurements).
    pub fn with_config(level: Level, config: Config, seed: u64) -> Bot {
        Bot { level, config, seed, solver: Solver::new(), table: None }
    }

    /// The bot's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The bot's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The bot's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The bot's action in a series, or `None` if it may do nothing now.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Action> {
        if view.over { None } else { self.choose(&view.deal) }
    }

    /// The bot's action, or `None` if the viewer may do nothing now. A Siebener Fips is always
    /// announced as soon as it may be, even out of turn. Otherwise the bot acts only at its own
    /// turns: a Kieker it may give up out of turn too, but it weighs that at its own turns
    /// (after the pick-up, naming trumps, at its own lead), so out of turn it answers `None`.
    pub fn choose(&mut self, view: &DealView) -> Option<Action> {
        let prompt = &view.prompt;
        if prompt.siebener_fips {
            return Some(Action::SiebenerFips);
        }
        if prompt.is_empty() || view.viewer.is_none() || view.turn != view.viewer {
            return None;
        }
        let mut rng = Rng::new(decision_seed(self.seed, view));
        let action = match view.phase {
            Phase::Auction => self.auction(view),
            Phase::SkatOrHand => self.skat_or_hand(view),
            Phase::Discard => self.discard(view, &mut rng),
            Phase::Trumps => self.trumps(view, &mut rng),
            Phase::Kontra => self.kontra(view, &mut rng),
            Phase::Rekontra => self.rekontra(view, &mut rng),
            Phase::Play => self.play(view, &mut rng),
            Phase::DurchChoice => self.durch(view, &mut rng),
            Phase::Over => None,
        };
        // Whatever happens, answer with something the rules accept.
        action.filter(|a| allowed(view, a)).or_else(|| fallback(view))
    }

    /// The bidding estimate of the hand the viewer was dealt. The deals behind it are drawn
    /// and solved once per hand (they depend only on the hand, the seat, the dealer and the
    /// rules); with `infer`, they are weighed afresh by the auction at every call.
    pub fn estimates(&mut self, view: &DealView) -> Vec<Estimate> {
        let Some(k) = auction_knowledge(view) else { return Vec::new() };
        let mut h = Hasher::new(self.seed);
        h.word(packed(k.hand));
        h.word(u64::from(k.viewer));
        h.word(u64::from(view.dealer.0));
        h.word(u64::from(view.rules.min_bid) | u64::from(view.rules.players.count()) << 8);
        h.word(u64::from(view.rules.first_lead == fipsen_rules::FirstLead::Declarer));
        h.word(self.config.bid_samples as u64);
        h.word(packed(k.forbidden.iter().fold(0, |a, f| a | f)));
        let key = h.finish();
        let cached = matches!(&self.table, Some((c, _)) if *c == key);
        if !cached {
            let ctx =
                BidContext { first_leader: first_leader(view, k.viewer), min_bid: view.rules.min_bid, knowledge: k };
            let mut rng = Rng::new(key);
            let samples = self.config.bid_samples.max(8);
            let layouts = draw_layouts(&ctx.knowledge, samples, 0, &mut rng);
            self.table = Some((key, game_table(&ctx, &layouts, &mut rng, &mut self.solver)));
        }
        let Some((_, table)) = &self.table else { return Vec::new() };
        let clues = if self.config.infer { clues(view) } else { Vec::new() };
        if clues.is_empty() {
            return table.estimates();
        }
        let weights: Vec<f64> = table.hands.iter().map(|h| likelihood(&clues, h)).collect();
        table.weighted(&weights)
    }

    fn auction(&mut self, view: &DealView) -> Option<Action> {
        if self.level == Level::Easy {
            return Some(easy_auction(view));
        }
        let margin = self.config.margin;
        // Pass unless something is worth more than the margin; hold before bidding, and among
        // bids worth the same the lowest.
        let mut best = (Action::Pass, 0.0);
        for (action, value) in self.call_values(view) {
            if action != Action::Pass && value - margin > best.1 + 1e-9 {
                best = (action, value - margin);
            }
        }
        Some(best.0)
    }

    /// The expected score of every call the viewer may make in the auction: passing scores 0,
    /// holding or bidding the best game that call would owe him (should he win the auction).
    pub fn call_values(&mut self, view: &DealView) -> Vec<(Action, f64)> {
        let prompt = view.prompt.clone();
        let est = self.estimates(view);
        let mut out = Vec::new();
        if prompt.hold
            && let Some(standing) = view.standing
        {
            out.push((Action::Hold, hold_value(standing, &est)));
        }
        for &bid in &prompt.bids {
            out.push((Action::Bid { bid }, own_value(bid, &est)));
        }
        if prompt.pass {
            out.push((Action::Pass, 0.0));
        }
        out
    }

    fn skat_or_hand(&mut self, view: &DealView) -> Option<Action> {
        let prompt = &view.prompt;
        if !prompt.take_skat {
            return Some(Action::PlayHand);
        }
        if self.level == Level::Easy {
            return Some(Action::TakeSkat);
        }
        let contract = view.contract?;
        let est = self.estimates(view);
        let best = est
            .iter()
            .filter(|e| match e.game {
                Bid::Tricks { tricks, hand, ruten } => tricks == contract.tricks() && contract.allows(hand, ruten),
                Bid::Kieker => false,
            })
            .max_by(|a, b| a.score.total_cmp(&b.score))?;
        let hand = matches!(best.game, Bid::Tricks { hand: true, .. });
        Some(if hand { Action::PlayHand } else { Action::TakeSkat })
    }

    /// The suits the declarer may name once his hand is settled.
    fn allowed_suits(view: &DealView) -> Vec<Suit> {
        let (Some(contract), Some(game)) = (view.contract, view.game) else { return Vec::new() };
        Suit::ALL.into_iter().filter(|&s| contract.allows(game.hand, s == Suit::Diamonds)).collect()
    }

    fn discard(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let hand = view.hand?.bits();
        let count = usize::from(view.prompt.discard?);
        let keep_count = (hand.count_ones() as usize).checked_sub(count)?;
        let suits = Bot::allowed_suits(view);
        let kieker = view.contract.is_some_and(|c| c.is_kieker());
        if self.level == Level::Easy {
            let keep = suits
                .iter()
                .map(|&s| best_keep(hand, suit_index(s), keep_count))
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map_or(hand, |k| k.0);
            return Some(discard_action(hand, keep, count));
        }
        let mut candidates: Vec<(u64, Suit)> = Vec::new();
        for &s in &suits {
            for (keep, _) in top_keeps(hand, suit_index(s), keep_count, self.config.keep_candidates.max(1)) {
                candidates.push((keep, s));
            }
        }
        let (keep, _, score) = self.best_declaration(view, &candidates, rng)?;
        if kieker && view.prompt.give_up && score < -5.0 {
            return Some(Action::GiveUp);
        }
        Some(discard_action(hand, keep, count))
    }

    fn trumps(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let hand = view.hand?.bits();
        let suits = view.prompt.trumps.clone();
        if self.level == Level::Easy {
            let suit = suits.iter().copied().max_by(|&a, &b| {
                strength(hand, suit_index(a)).total_cmp(&strength(hand, suit_index(b))).then(b.cmp(&a))
            })?;
            return Some(Action::NameTrumps { suit });
        }
        let candidates: Vec<(u64, Suit)> = suits.iter().map(|&s| (hand, s)).collect();
        let (_, suit, score) = self.best_declaration(view, &candidates, rng)?;
        let kieker = view.contract.is_some_and(|c| c.is_kieker());
        if kieker && view.prompt.give_up && score < -5.0 {
            return Some(Action::GiveUp);
        }
        Some(Action::NameTrumps { suit })
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
        let k = Knowledge::from_view(view)?;
        let layouts = self.layouts(view, &k, self.config.decision_samples.max(4), rng);
        let mut best: Option<(u64, Suit, f64)> = None;
        for &(keep, suit) in candidates {
            let base = base_position(view, suit)?;
            let st = stakes(view, &game, suit);
            let (score, _) = game_value(&layouts, &base, keep, suit_index(suit), &st, &mut self.solver);
            if best.is_none_or(|b| score > b.2) {
                best = Some((keep, suit, score));
            }
        }
        best
    }

    /// Deals of the unseen cards to average over: drawn uniformly, or (with `infer`) weighted by
    /// the auction.
    fn layouts(&self, view: &DealView, k: &Knowledge, samples: usize, rng: &mut Rng) -> Vec<Layout> {
        let clues = if self.config.infer { clues(view) } else { Vec::new() };
        weighted_layouts(k, &clues, &played_by(view), samples, self.config.enumerate_limit, rng)
    }

    /// The declarer's expected score in the game as it stands, from the viewer's knowledge.
    fn game_expectation(&mut self, view: &DealView, rng: &mut Rng) -> Option<f64> {
        let game = view.game?;
        let suit = game.trumps?;
        let k = Knowledge::from_view(view)?;
        let layouts = self.layouts(view, &k, self.config.decision_samples.max(4), rng);
        let base = base_position(view, suit)?;
        let st = stakes(view, &game, suit);
        let declarer = usize::from(base.declarer);
        let mut total = 0.0;
        for layout in &layouts {
            let hand = layout.hands[declarer];
            let (v, _) = game_value(std::slice::from_ref(layout), &base, hand, suit_index(suit), &st, &mut self.solver);
            total += v;
        }
        Some(total / layouts.len().max(1) as f64)
    }

    fn kontra(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        if self.level == Level::Easy || !view.prompt.kontra {
            return Some(Action::Pass);
        }
        let ev = self.game_expectation(view, rng)?;
        // Kontra doubles the declarer's result: worth it when he is expected to lose.
        Some(if ev < 0.0 { Action::Kontra } else { Action::Pass })
    }

    fn rekontra(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        if self.level == Level::Easy || !view.prompt.rekontra {
            return Some(Action::Pass);
        }
        let ev = self.game_expectation(view, rng)?;
        Some(if ev > 0.0 { Action::Rekontra } else { Action::Pass })
    }

    fn play(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        if let Some(card) = forced_card(view) {
            return Some(Action::Play { card });
        }
        let game = view.game?;
        let hand = view.hand?.bits();
        if self.level == Level::Easy {
            let trumps = trump_mask(game.trumps?);
            let declarer = view.declarer?;
            let trick: Vec<(u8, bool)> = view
                .trick
                .iter()
                .map(|p| (p.card.index(), view.viewer != Some(declarer) && p.seat != declarer))
                .collect();
            let card = easy_card(hand, view.prompt.cards.bits(), &trick, trumps, view.viewer == Some(declarer));
            return Some(Action::Play { card: crate::cards::card(card) });
        }
        if view.prompt.give_up {
            // A Kieker declarer on lead may still give up.
            let ev = self.game_expectation(view, rng)?;
            if ev < -5.0 {
                return Some(Action::GiveUp);
            }
        }
        let k = Knowledge::from_view(view)?;
        let layouts = self.layouts(view, &k, self.config.play_samples.max(1), rng);
        let (card, _) = best_card(view, &layouts, &mut self.solver)?;
        Some(Action::Play { card })
    }

    fn durch(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        if self.level == Level::Easy {
            return Some(Action::Stop);
        }
        let k = Knowledge::from_view(view)?;
        let layouts = self.layouts(view, &k, self.config.decision_samples.max(4), rng);
        let (go_on, stop) = durch_value(view, &layouts, &mut self.solver)?;
        Some(if go_on > stop { Action::GoOn } else { Action::Stop })
    }
}

/// The cards each seat has played so far.
fn played_by(view: &DealView) -> [u64; MAX_PLAYERS] {
    let mut played = [0u64; MAX_PLAYERS];
    for p in view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()) {
        played[p.seat.index()] |= 1 << p.card.index();
    }
    played
}

/// Layouts drawn from `k`; with clues, four times as many are drawn and `samples` of them kept
/// with chances proportional to how well the hands (with the cards already `played`) fit the
/// clues. When at most `enumerate_limit` layouts exist, all are used (resampled by weight).
fn weighted_layouts(
    k: &Knowledge,
    clues: &[Clue],
    played: &[u64; MAX_PLAYERS],
    samples: usize,
    enumerate_limit: u64,
    rng: &mut Rng,
) -> Vec<Layout> {
    crate::inference::weighted_layouts(k, clues, played, samples, enumerate_limit, rng, hand_strength)
}

/// The bidder's knowledge of his dealt hand before anyone picked up (the auction so far adds
/// only who showed a hand without court cards).
pub fn auction_knowledge(view: &DealView) -> Option<Knowledge> {
    let viewer = view.viewer?.0;
    let hand = dealt_hand(view)?;
    let mut k = Knowledge::before_auction(view.rules.players, viewer, hand);
    let callers = kieker_callers(view);
    for s in 0..k.players {
        if s != viewer && callers & (1 << s) != 0 {
            k.forbidden[usize::from(s)] |= crate::cards::COURT;
        }
    }
    Some(k)
}

/// The hand the viewer was dealt, as far as his view tells: his hand in the auction; as a
/// declarer after the pick-up, his cards and discards without the skat; the Kieker's shown
/// hand; after the deal, the revealed hand.
pub fn dealt_hand(view: &DealView) -> Option<u64> {
    let viewer = view.viewer?;
    if let Some(reveal) = &view.reveal {
        return reveal.dealt.get(viewer.index()).map(|h| h.bits());
    }
    if view.declarer == Some(viewer) && view.contract.is_some_and(|c| c.is_kieker()) {
        return view.kieker_hand.map(|h| h.bits());
    }
    let hand = view.hand?.bits();
    let played: u64 = view
        .tricks
        .iter()
        .flat_map(|t| t.cards.iter())
        .chain(view.trick.iter())
        .filter(|p| p.seat == viewer)
        .fold(0, |m, p| m | 1 << p.card.index());
    let discards = view.discards.map_or(0, |d| d.bits());
    let skat = view.skat.map_or(0, |s| s.bits());
    Some((hand | played | discards) & !skat)
}

/// The best expected score of playing a game owed by one's own bid `bid`: the same tricks,
/// at least the doubles it names.
pub fn own_value(bid: Bid, est: &[Estimate]) -> f64 {
    best_of(est, |game| match (bid, game) {
        (Bid::Kieker, Bid::Kieker) => true,
        (Bid::Tricks { tricks, hand, ruten }, Bid::Tricks { tricks: t, hand: h, ruten: r }) => {
            t == tricks && (h || !hand) && (r || !ruten)
        }
        _ => false,
    })
}

/// The best expected score of a game owed by holding `standing`: the same tricks and at least
/// as many doubles, chosen freely.
pub fn hold_value(standing: Bid, est: &[Estimate]) -> f64 {
    best_of(est, |game| match (standing, game) {
        (Bid::Kieker, Bid::Kieker) => true,
        (Bid::Tricks { tricks, .. }, Bid::Tricks { tricks: t, .. }) => {
            t == tricks && game.doubles() >= standing.doubles()
        }
        _ => false,
    })
}

fn best_of(est: &[Estimate], fits: impl Fn(Bid) -> bool) -> f64 {
    est.iter().filter(|e| fits(e.game)).map(|e| e.score).fold(f64::NEG_INFINITY, f64::max)
}

/// The easy bot bids plain games up to the tricks it counts in its hand.
fn easy_auction(view: &DealView) -> Action {
    let hand = view.hand.map_or(0, |h| h.bits());
    let (_, _, s) = best_natural(hand, 5);
    let tricks = (s + 0.2).floor().clamp(0.0, 5.0) as u8;
    let prompt = &view.prompt;
    if prompt.hold
        && let Some(Bid::Tricks { tricks: t, .. }) = view.standing
        && t <= tricks
    {
        return Action::Hold;
    }
    prompt
        .bids
        .iter()
        .find(|b| matches!(b, Bid::Tricks { tricks: t, hand: false, ruten: false } if *t <= tricks))
        .map_or(Action::Pass, |&bid| Action::Bid { bid })
}

fn discard_action(hand: u64, keep: u64, count: usize) -> Action {
    let mut cards = hand & !keep;
    // Should the keep be off, lay away the lowest cards to make the count.
    while (cards.count_ones() as usize) < count {
        let rest = hand & !cards;
        if rest == 0 {
            break;
        }
        cards |= 1 << rest.trailing_zeros();
    }
    Action::Discard { cards: CardSet::from_bits(cards) }
}

/// A seed for one decision: the bot's seed and everything in the view that can change. Cards
/// are hashed [`packed`], as everywhere the bots hash them.
fn decision_seed(seed: u64, view: &DealView) -> u64 {
    let mut h = Hasher::new(seed);
    h.word(view.viewer.map_or(99, |s| u64::from(s.0)));
    h.word(u64::from(view.dealer.0));
    h.word(view.hand.map_or(0, |c| packed(c.bits())));
    h.word(view.phase as u64);
    for c in &view.calls {
        h.word(u64::from(c.seat.0) << 32 | call_code(c.call));
    }
    for p in view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()) {
        h.word(u64::from(p.seat.0) << 8 | u64::from(packed_index(p.card.index())));
    }
    h.finish()
}

fn call_code(call: fipsen_rules::Call) -> u64 {
    match call {
        fipsen_rules::Call::Pass => 0,
        fipsen_rules::Call::Hold => 1,
        fipsen_rules::Call::Bid { bid } => 2 + u64::from(bid.height()) * 4 + u64::from(bid.doubles()),
    }
}

/// Whether the prompt allows the action.
fn allowed(view: &DealView, action: &Action) -> bool {
    let p = &view.prompt;
    match *action {
        Action::Bid { bid } => p.bids.contains(&bid),
        Action::Hold => p.hold,
        Action::Pass => p.pass,
        Action::TakeSkat => p.take_skat,
        Action::PlayHand => p.play_hand,
        Action::Discard { cards } => {
            p.discard == Some(cards.len() as u8) && view.hand.is_some_and(|h| h.contains_all(cards))
        }
        Action::NameTrumps { suit } => p.trumps.contains(&suit),
        Action::Kontra => p.kontra,
        Action::Rekontra => p.rekontra,
        Action::GiveUp => p.give_up,
        Action::SiebenerFips => p.siebener_fips,
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
    if p.take_skat {
        return Some(Action::TakeSkat);
    }
    if p.play_hand {
        return Some(Action::PlayHand);
    }
    if let Some(n) = p.discard {
        let hand = view.hand?.bits();
        let lowest = crate::cards::Bits(hand).take(usize::from(n)).fold(0u64, |m, c| m | 1 << c);
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
    p.bids.first().map(|&bid| Action::Bid { bid })
}
