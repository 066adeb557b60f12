//! Bots for Tippen / Dreiblatt: the dealer's choices, play or pass, the exchange and the cards.
//!
//! * **Easy** follows simple rules with some randomness: it plays with a trump or an ace,
//!   throws its low plain cards, and now and then plays a random legal card.
//! * **Normal** estimates by rules of thumb: each card's chance of a trick against the
//!   players expected, hence the expected tricks and the chance of none, weighed in counters
//!   (tricks × share against the bête) before it plays or passes; it exchanges the cards worth
//!   less than a fresh one, leads sure winners, takes tricks as cheaply as is safe.
//! * **Strong** samples the hidden cards consistent with what it has seen (the voids and
//!   duties the play revealed, the cards known to lie in a hand), tries each answer the prompt
//!   offers on every sample and plays the deal out with the normal rules of thumb for every
//!   seat, and takes the answer with the best average counters for itself. As dealer it keeps
//!   the deal rather than shove it on.
//!
//! [`review`] values every answer of a seat's decisions before the play in a finished deal the
//! same way, from what the seat knew at each.
//!
//! Every answer is one the prompt offers; the same level, seed and view give the same answer.

pub mod arena;
mod review;
mod sim;

use fipsen_rules::tippen::{Action, Choice, DealView, Phase, SeriesView, Sniffing};
use fipsen_rules::{Card, CardSet, Rank, Suit};

use crate::level::Level;
use crate::rng::{Hasher, Rng};
use sim::{Params, Sim, SimPhase};

pub use review::review;

/// Samples per answer at the strong level.
const PLAY_SAMPLES: usize = 96;
const DECIDE_SAMPLES: usize = 240;
const DEALER_SAMPLES: usize = 320;
/// Hands drawn for a seat until one agrees with its answer to play or pass.
const ANSWER_TRIES: usize = 16;

/// A Tippen bot of one level.
#[derive(Debug, Clone)]
pub struct Bot {
    level: Level,
    seed: u64,
}

impl Bot {
    /// A bot of `level`, whose choices follow from `seed` and the view alone.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot { level, seed }
    }

    /// The bot's action in a series, or `None` once it is over.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Action> {
        if view.over { None } else { self.choose(&view.deal) }
    }

    /// The bot's action, or `None` if the viewer may do nothing now. Always one the prompt
    /// offers.
    pub fn choose(&mut self, view: &DealView) -> Option<Action> {
        let p = &view.prompt;
        let me = view.viewer?;
        if view.turn != Some(me) || p.is_empty() {
            return None;
        }
        let mut rng = Rng::new(self.view_hash(view));
        let action = match self.level {
            Level::Easy => easy(view, &mut rng),
            Level::Normal => normal(view),
            Level::Strong => strong(view, &mut rng).or_else(|| normal(view)),
        };
        action.filter(|&a| offered(view, a)).or_else(|| fallback(view))
    }

    /// Every answer the strong level weighs at `view` (the viewer's turn), each with the
    /// viewer's expected counters from there to the end of the deal over the deals it samples
    /// of the cards he cannot see, and the margin of that mean; with the number of deals
    /// sampled (0 for a single answer, not sampled). The sampling is seeded from the bot's seed
    /// and the view alone, as the strong level's own choice there is, which is the answer of
    /// best value; but for the dealer's shove, valued here (either dealer knocking or sniffing
    /// by the rules of thumb) while the strong level always keeps the deal. `None` if the viewer
    /// may do nothing now.
    pub fn answer_values(&self, view: &DealView) -> Option<(Vec<crate::games::decisions::Choice<Action>>, u32)> {
        let me = view.viewer?;
        if view.turn != Some(me) || view.prompt.is_empty() {
            return None;
        }
        let mut rng = Rng::new(self.view_hash(view));
        let (options, payoffs) = rollouts(view, &mut rng)?;
        let samples = payoffs.first().map_or(0, Vec::len) as u32;
        let choices = options
            .into_iter()
            .zip(&payoffs)
            .map(|(action, p)| {
                let (value, margin) = crate::games::decisions::mean_and_margin(p.iter().map(|&x| (1.0, f64::from(x))));
                crate::games::decisions::Choice { action, value, margin }
            })
            .collect();
        Some((choices, samples))
    }

    fn view_hash(&self, view: &DealView) -> u64 {
        let mut h = Hasher::new(self.seed);
        h.word(u64::from(view.number));
        h.word(view.viewer.map_or(99, |s| u64::from(s.0)));
        h.word(view.phase as u64);
        h.word(view.hand.map_or(0, CardSet::bits));
        h.word(view.tricks.len() as u64);
        h.word(view.trick.iter().fold(0, |a, p| a * 64 + u64::from(p.card.index())));
        h.word(view.decisions.len() as u64 * 16 + view.exchanges.len() as u64);
        h.word(view.pot as u64);
        h.finish()
    }
}

/// Whether the prompt offers `action`.
fn offered(view: &DealView, action: Action) -> bool {
    let p = &view.prompt;
    let hand = view.hand.unwrap_or_default();
    match action {
        Action::Shove => p.shove,
        Action::Deal => p.deal,
        Action::Knock => p.knock,
        Action::NoKnock => p.no_knock,
        Action::Sniff => p.sniff,
        Action::NoSniff => p.no_sniff,
        Action::Discard { cards } => p.discard == Some(cards.len() as u8) && hand.contains_all(cards),
        Action::Join => p.join,
        Action::Rob => p.rob,
        Action::Pass => p.pass,
        Action::DropOut => p.drop_out,
        Action::Keep => p.keep,
        Action::Exchange { cards } => {
            !cards.is_empty() && p.exchange.is_some_and(|m| cards.len() <= usize::from(m)) && hand.contains_all(cards)
        }
        Action::Play { card } => p.cards.contains(card),
    }
}

/// The first answer the prompt offers, in a fixed order.
fn fallback(view: &DealView) -> Option<Action> {
    let p = &view.prompt;
    let hand = view.hand.unwrap_or_default();
    Some(if p.deal {
        Action::Deal
    } else if p.no_knock {
        Action::NoKnock
    } else if p.no_sniff {
        Action::NoSniff
    } else if p.discard.is_some() {
        Action::Discard { cards: hand.lowest()?.set() }
    } else if p.join {
        Action::Join
    } else if p.keep {
        Action::Keep
    } else if let Some(card) = p.cards.lowest() {
        Action::Play { card }
    } else if p.pass {
        Action::Pass
    } else if p.drop_out {
        Action::DropOut
    } else {
        Action::Shove
    })
}

/// Every card played so far.
fn played_cards(view: &DealView) -> CardSet {
    let mut set = CardSet::EMPTY;
    for t in &view.tricks {
        t.cards.iter().for_each(|p| set.insert(p.card));
    }
    view.trick.iter().for_each(|p| set.insert(p.card));
    set
}

/// The cards the viewer has not seen: not in his hand, his discards, played or face up.
fn unseen(view: &DealView) -> CardSet {
    let mut known = view.hand.unwrap_or_default().union(view.discards.unwrap_or_default()).union(played_cards(view));
    if let Some(c) = view.table_card {
        known.insert(c);
    }
    view.rules.pack().cards().difference(known)
}

/// The seats asked to decide, in turn, and those who play unasked (§D4), as masks.
fn decision_order(view: &DealView) -> (Vec<usize>, u16) {
    let n = usize::from(view.rules.players);
    let dealer = view.dealer.index();
    let dealer_plays = view.knocked || view.sniffed == Some(Sniffing::Grupp);
    let mut queue = Vec::new();
    let mut forced = 0u16;
    for i in 1..=n {
        let s = (dealer + i) % n;
        if s == dealer && dealer_plays {
            forced |= 1 << s;
        } else if !view.everyone_must_play
            || view.rules.robbing
            || (s == dealer && view.sniffed == Some(Sniffing::Alvensleben))
        {
            queue.push(s);
        } else {
            forced |= 1 << s;
        }
    }
    (queue, forced)
}

/// At a decision: how many others play already (or must), and how many decide after the viewer.
fn decision_counts(view: &DealView, me: usize) -> (f64, f64) {
    let (queue, forced) = decision_order(view);
    let joined = view.decisions.iter().filter(|d| matches!(d.choice, Choice::Join | Choice::Rob)).count();
    let forced_others = (forced & !(1u16 << me)).count_ones() as usize;
    let pos = queue.iter().position(|&s| s == me).unwrap_or(queue.len().saturating_sub(1));
    ((joined + forced_others) as f64, (queue.len() - pos - 1) as f64)
}

fn the_trumps(view: &DealView) -> Suit {
    view.trumps.or(view.trump_card.map(Card::suit)).unwrap_or(Suit::Clubs)
}

// ---------------------------------------------------------------------------------------------
// Easy

fn easy(view: &DealView, rng: &mut Rng) -> Option<Action> {
    let p = &view.prompt;
    let hand = view.hand.unwrap_or_default();
    let trumps = the_trumps(view);
    if p.deal {
        return Some(if p.shove && rng.unit() < 0.25 { Action::Shove } else { Action::Deal });
    }
    if p.no_knock {
        return Some(Action::NoKnock);
    }
    if p.no_sniff {
        return Some(Action::NoSniff);
    }
    if p.discard.is_some() {
        return Some(Action::Discard { cards: hand.iter().min_by_key(|c| c.rank())?.set() });
    }
    if p.join {
        if p.rob {
            return Some(Action::Rob);
        }
        let good = hand.iter().any(|c| c.rank() == Rank::Ace || (c.suit() == trumps && c.rank() >= Rank::Queen));
        let join = !p.pass || rng.unit() < if good { 0.85 } else { 0.3 };
        return Some(if join || !p.drop_out && !p.pass { Action::Join } else { pass_or_drop(view) });
    }
    if p.keep {
        let limit = usize::from(p.exchange.unwrap_or(0));
        let low: CardSet = hand.iter().filter(|c| c.suit() != trumps && c.rank() < Rank::King).take(limit).collect();
        return Some(if low.is_empty() { Action::Keep } else { Action::Exchange { cards: low } });
    }
    if !p.cards.is_empty() {
        let cards: Vec<Card> = p.cards.iter().collect();
        if rng.unit() < 0.35 {
            return Some(Action::Play { card: cards[rng.index(cards.len())] });
        }
        let trick: Vec<Card> = view.trick.iter().map(|p| p.card).collect();
        let after = view.active.len().saturating_sub(trick.len() + 1);
        return Some(Action::Play { card: sim::play_choice(trumps, p.cards, unseen(view), &trick, after) });
    }
    None
}

fn pass_or_drop(view: &DealView) -> Action {
    if view.prompt.pass { Action::Pass } else { Action::DropOut }
}

// ---------------------------------------------------------------------------------------------
// Normal

fn normal(view: &DealView) -> Option<Action> {
    let p = &view.prompt;
    let params = Params::of(&view.rules);
    let me = view.viewer?.index();
    let hand = view.hand.unwrap_or_default();
    let trumps = the_trumps(view);
    let s = params.share(view.played_for);
    if p.deal {
        return Some(Action::Deal);
    }
    if p.knock {
        return Some(if s >= params.stake { Action::Knock } else { Action::NoKnock });
    }
    if p.sniff {
        let high = hand.iter().filter(|c| c.rank() >= Rank::King).count();
        let sniff = match view.rules.sniffing {
            Sniffing::Alvensleben => view.everyone_must_play || hand.iter().any(|c| c.rank() == Rank::Ace),
            _ => high >= 2 && s >= params.stake,
        };
        return Some(if sniff { Action::Sniff } else { Action::NoSniff });
    }
    if p.discard.is_some() {
        return Some(Action::Discard { cards: sim::discard_choice(trumps, hand)?.set() });
    }
    if p.join {
        let rob = p.rob && view.table_card.is_some_and(|c| c.rank() > Rank::Seven);
        let mut held = hand;
        if rob && let Some(card) = view.table_card {
            held.remove(Card::new(trumps, Rank::Seven));
            held.insert(card);
        }
        let (joined, after) = decision_counts(view, me);
        let dealer_terms = if me == view.dealer.index() { (view.knocked, view.sniffed) } else { (false, None) };
        let value = sim::join_value(&params, trumps, held, unseen(view), joined, after, view.played_for, dealer_terms);
        let join = if p.drop_out {
            value > -f64::from(params.stake)
        } else if !p.pass {
            true
        } else {
            (joined == 0.0 && after == 0.0) || value > 0.0
        };
        return Some(match (join, rob) {
            (true, true) => Action::Rob,
            (true, false) => Action::Join,
            (false, _) => pass_or_drop(view),
        });
    }
    if p.keep {
        let opponents = view.active.len().saturating_sub(1) as f64;
        let limit = p.exchange.unwrap_or(0);
        let cards = sim::exchange_choice(&params, trumps, hand, unseen(view), opponents, limit);
        return Some(if cards.is_empty() { Action::Keep } else { Action::Exchange { cards } });
    }
    if !p.cards.is_empty() {
        let trick: Vec<Card> = view.trick.iter().map(|p| p.card).collect();
        let after = view.active.len().saturating_sub(trick.len() + 1);
        return Some(Action::Play { card: sim::play_choice(trumps, p.cards, unseen(view), &trick, after) });
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Strong

/// The answers the prompt offers (every exchange up to its limit).
fn candidates(view: &DealView) -> Vec<Action> {
    let p = &view.prompt;
    let hand = view.hand.unwrap_or_default();
    let mut out = Vec::new();
    if p.discard.is_some() {
        out.extend(hand.iter().map(|c| Action::Discard { cards: c.set() }));
    }
    for (ok, a) in [(p.join, Action::Join), (p.rob, Action::Rob), (p.pass, Action::Pass), (p.drop_out, Action::DropOut)]
    {
        if ok {
            out.push(a);
        }
    }
    if p.keep {
        out.push(Action::Keep);
        let cards: Vec<Card> = hand.iter().collect();
        let limit = usize::from(p.exchange.unwrap_or(0));
        for mask in 1u32..(1 << cards.len()) {
            if mask.count_ones() as usize <= limit {
                let set = cards.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, &c)| c).collect();
                out.push(Action::Exchange { cards: set });
            }
        }
    }
    out.extend(p.cards.iter().map(|card| Action::Play { card }));
    out
}

fn strong(view: &DealView, rng: &mut Rng) -> Option<Action> {
    // The dealer keeps the deal: shoving by the sampled values below lost counters against
    // the normal level in the arena (the model leaves out what the deal is worth to its dealer
    // beyond this deal's rollouts).
    if view.prompt.deal {
        return Some(Action::Deal);
    }
    let (options, payoffs) = rollouts(view, rng)?;
    if options.len() <= 1 {
        return options.first().copied();
    }
    let totals: Vec<i64> = payoffs.iter().map(|p| p.iter().map(|&x| i64::from(x)).sum()).collect();
    let best = (0..options.len()).max_by_key(|&i| (totals[i], std::cmp::Reverse(i)))?;
    Some(options[best])
}

/// The answers the strong level weighs at `view` (and deal or shove, which it values for the
/// review but does not choose by), and the viewer's counters from there to the end of the
/// deal with each (his ante not counted) in every sampled deal: `payoffs[i][j]` is answer `i`
/// in deal `j`, the same deals for every answer. A single answer is not sampled. The first
/// answer is preferred on a tie.
pub(crate) fn rollouts(view: &DealView, rng: &mut Rng) -> Option<(Vec<Action>, Vec<Vec<i32>>)> {
    let p = &view.prompt;
    let me = view.viewer?.index();
    if p.deal {
        if !p.shove {
            return Some((vec![Action::Deal], vec![Vec::new()]));
        }
        return shove_rollouts(view, me, rng);
    }
    if p.knock || p.sniff {
        return dealer_rollouts(view, me, rng);
    }
    let options = candidates(view);
    if options.len() <= 1 {
        let none = vec![Vec::new(); options.len()];
        return Some((options, none));
    }
    let samples = match view.phase {
        Phase::Decide => DECIDE_SAMPLES,
        _ => PLAY_SAMPLES,
    };
    let knowledge = Knowledge::of(view, me);
    let mut payoffs: Vec<Vec<i32>> = options.iter().map(|_| Vec::with_capacity(samples)).collect();
    for _ in 0..samples {
        let base = knowledge.sample(view, me, rng)?;
        for (i, &a) in options.iter().enumerate() {
            let mut sim = base.clone();
            sim.apply(me, a);
            sim.run();
            payoffs[i].push(sim.payoff(me));
        }
    }
    Some((options, payoffs))
}

/// Deal or shove, both tried on the same sampled packs: the dealer keeping the deal, or the
/// next seat anteing and dealing; either dealer knocks or sniffs by the rules of thumb
/// ([`dealer_takes`]).
fn shove_rollouts(view: &DealView, me: usize, rng: &mut Rng) -> Option<(Vec<Action>, Vec<Vec<i32>>)> {
    let params = Params::of(&view.rules);
    let n = usize::from(view.rules.players);
    let h = usize::from(params.hand);
    let total = view.pot + view.reserve;
    let room = i32::try_from(view.rules.max_pot).unwrap_or(i32::MAX).saturating_sub(total).max(0);
    let played_for =
        |total: i32| view.rules.max_bete.map_or(total, |m| total.min(i32::try_from(m).unwrap_or(i32::MAX)));
    let next = (me + 1) % n;
    let mut payoffs: Vec<Vec<i32>> = (0..2).map(|_| Vec::with_capacity(DEALER_SAMPLES)).collect();
    for _ in 0..DEALER_SAMPLES {
        let mut pool: Vec<Card> = params.pack.iter().collect();
        rng.shuffle(&mut pool);
        for (i, (dealer, total)) in [(me, total), (next, total + params.stake.min(room))].into_iter().enumerate() {
            let mut sim = base_sim(view, &params);
            sim.dealer = dealer;
            sim.played_for = played_for(total);
            let mut cards = pool.iter().copied();
            for k in 1..=n {
                sim.hands[(dealer + k) % n] = cards.by_ref().take(h).collect();
            }
            let trump = cards.next()?;
            sim.talon = cards.collect();
            sim.trumps = trump.suit();
            sim.forced = 0;
            if dealer_takes(view, &params, sim.hands[dealer], sim.played_for) {
                sim.hands[dealer].insert(trump);
                sim.knocked = view.rules.knocking;
                sim.sniffed = (!view.rules.knocking).then_some(view.rules.sniffing);
                sim.phase = SimPhase::Discard;
            } else {
                sim.seen = trump.set();
                sim.robbable = params.robbing.then_some(trump);
                sim.begin_decisions();
            }
            sim.run();
            payoffs[i].push(sim.payoff(me));
        }
    }
    Some((vec![Action::Deal, Action::Shove], payoffs))
}

/// Whether a dealer of `view`'s table holding `hand` knocks (where the table allows it) or
/// sniffs (where it allows that instead) by the normal level's rules of thumb, the deal played
/// for `played_for`: a share of a trick worth the stake, and for a sniff two cards of king or
/// higher too.
fn dealer_takes(view: &DealView, params: &Params, hand: CardSet, played_for: i32) -> bool {
    let worth = params.share(played_for) >= params.stake;
    if view.rules.knocking {
        return worth;
    }
    match view.rules.sniffing {
        Sniffing::Off | Sniffing::Alvensleben => false,
        Sniffing::Grupp => worth && hand.iter().filter(|c| c.rank() >= Rank::King).count() >= 2,
    }
}

/// Knock or not, sniff or not: both answers tried on sampled deals (declining first).
fn dealer_rollouts(view: &DealView, me: usize, rng: &mut Rng) -> Option<(Vec<Action>, Vec<Vec<i32>>)> {
    let p = &view.prompt;
    let knock = p.knock;
    let params = Params::of(&view.rules);
    let n = usize::from(view.rules.players);
    let mut take = Vec::with_capacity(DEALER_SAMPLES);
    let mut leave = Vec::with_capacity(DEALER_SAMPLES);
    for _ in 0..DEALER_SAMPLES {
        let mut pool: Vec<Card> = if knock {
            params.pack.iter().collect()
        } else {
            params.pack.difference(view.hand.unwrap_or_default()).iter().collect()
        };
        rng.shuffle(&mut pool);
        let mut base = base_sim(view, &params);
        let mut next = 0;
        let mut draw = |k: usize| {
            let end = (next + k).min(pool.len());
            let set: CardSet = pool[next..end].iter().copied().collect();
            next = end;
            set
        };
        base.hands[me] = if knock { draw(usize::from(params.hand)) } else { view.hand.unwrap_or_default() };
        let trump = draw(1).iter().next()?;
        for s in 0..n {
            if s != me {
                base.hands[s] = draw(usize::from(view.hand_sizes[s]));
            }
        }
        base.talon = draw(usize::from(view.talon)).iter().collect();
        rng.shuffle(&mut base.talon);
        base.trumps = trump.suit();
        let mut taken = base.clone();
        taken.hands[me].insert(trump);
        if knock {
            taken.knocked = true;
        } else {
            taken.sniffed = Some(view.rules.sniffing);
        }
        taken.phase = SimPhase::Discard;
        taken.run();
        take.push(taken.payoff(me));
        let mut left = base;
        left.seen.insert(trump);
        left.robbable = params.robbing.then_some(trump);
        left.begin_decisions();
        left.run();
        leave.push(left.payoff(me));
    }
    let options = if knock { vec![Action::NoKnock, Action::Knock] } else { vec![Action::NoSniff, Action::Sniff] };
    Some((options, vec![leave, take]))
}

/// A simulated deal with the view's public state and no hidden cards placed yet.
fn base_sim(view: &DealView, params: &Params) -> Sim {
    let mut played = played_cards(view);
    let mut seen = CardSet::EMPTY;
    if let Some(c) = view.table_card {
        seen.insert(c);
    }
    let robbable = view
        .table_card
        .filter(|&c| Some(c) == view.trump_card && view.robbed.is_none() && view.sniffed.is_none() && !view.knocked);
    let mut taken = [0u8; 10];
    for (i, &t) in view.tricks_taken.iter().enumerate().take(10) {
        taken[i] = t;
    }
    let active: Vec<u8> = view.active.iter().map(|s| s.0).collect();
    let leader = view
        .trick
        .first()
        .map(|p| p.seat)
        .or(view.turn)
        .and_then(|s| active.iter().position(|&a| a == s.0))
        .unwrap_or(0);
    let trick: Vec<Card> = view.trick.iter().map(|p| p.card).collect();
    played = played.union(trick.iter().copied().collect());
    let mut joined = 0u16;
    let mut dropped = 0u16;
    for d in &view.decisions {
        match d.choice {
            Choice::Join | Choice::Rob => joined |= 1 << d.seat.0,
            Choice::DropOut => dropped |= 1 << d.seat.0,
            Choice::Pass => {}
        }
    }
    let (queue, forced) = decision_order(view);
    let decided: Vec<usize> = view.decisions.iter().map(|d| d.seat.index()).collect();
    let exchanged: Vec<u8> = view.exchanges.iter().map(|e| e.seat.0).collect();
    let (phase, queue) = match view.phase {
        Phase::Discard | Phase::Knock | Phase::Sniff | Phase::Shove => (SimPhase::Discard, Vec::new()),
        Phase::Decide => {
            (SimPhase::Decide, queue.into_iter().filter(|s| !decided.contains(s)).map(|s| s as u8).collect())
        }
        Phase::Exchange => (SimPhase::Exchange, active.iter().copied().filter(|s| !exchanged.contains(s)).collect()),
        Phase::Play => (SimPhase::Play, Vec::new()),
        Phase::Over => (SimPhase::Over, Vec::new()),
    };
    Sim {
        p: *params,
        n: usize::from(view.rules.players),
        dealer: view.dealer.index(),
        trumps: the_trumps(view),
        hands: [CardSet::EMPTY; 10],
        talon: Vec::new(),
        seen,
        robbable,
        played,
        phase,
        queue,
        joined,
        forced,
        dropped,
        must_play: view.everyone_must_play,
        active,
        knocked: view.knocked,
        sniffed: view.sniffed,
        played_for: view.played_for,
        trick,
        leader,
        done: view.tricks.len() as u8,
        taken,
    }
}

/// What the viewer knows of the hidden cards: which are hidden, which lie in a known hand, and
/// which each seat cannot hold (the voids and duties its play revealed).
struct Knowledge {
    hidden: CardSet,
    fixed: Vec<(usize, Card)>,
    excluded: [CardSet; 10],
    /// The dealer took the trump card unseen (knock, Grupp's sniff): he holds a trump.
    hidden_trump: bool,
    /// The cards each seat has played.
    played: [CardSet; 10],
    /// Each seat's answer that tells of its hand: whether it played (else passed or dropped
    /// out), the seats playing before it, the seats asked after it.
    answers: [Option<(bool, f64, f64)>; 10],
}

impl Knowledge {
    fn of(view: &DealView, me: usize) -> Knowledge {
        let params = Params::of(&view.rules);
        let trumps = the_trumps(view);
        let mut hidden = unseen(view);
        let mut fixed = Vec::new();
        let dealer = view.dealer.index();
        if let Some(c) = view.exposed
            && dealer != me
            && hidden.contains(c)
        {
            fixed.push((dealer, c));
            hidden.remove(c);
        }
        if let Some(c) = view.trump_card
            && hidden.contains(c)
        {
            let holder = view.robbed.map_or(dealer, |s| s.index());
            if holder != me {
                fixed.push((holder, c));
            }
            hidden.remove(c);
        }
        let mut excluded = [CardSet::EMPTY; 10];
        let all_trumps = trumps.all_cards();
        let tricks = view.tricks.iter().map(|t| t.cards.as_slice()).chain(std::iter::once(view.trick.as_slice()));
        for (number, trick) in tricks.enumerate() {
            let Some(lead) = trick.first() else { continue };
            let leader = lead.seat.index();
            if number == 0 && params.trump_lead && view.active.len() >= 3 && lead.card.suit() != trumps {
                excluded[leader] = excluded[leader].union(all_trumps);
            }
            if number == 1
                && let Some(rank) = params.daus
                && lead.card != Card::new(trumps, rank)
            {
                excluded[leader].insert(Card::new(trumps, rank));
            }
            let led = lead.card.suit();
            for j in 1..trick.len() {
                let (seat, card) = (trick[j].seat.index(), trick[j].card);
                let before: Vec<Card> = trick[..j].iter().map(|p| p.card).collect();
                let best_trump = before.iter().copied().filter(|c| c.suit() == trumps).max();
                let x = &mut excluded[seat];
                if card.suit() != led {
                    *x = x.union(led.all_cards());
                    if card.suit() != trumps {
                        let no_trumps = match params.void {
                            sim::Void::TrumpIfUntrumped => best_trump.is_none(),
                            sim::Void::MustTrump => true,
                            sim::Void::OvertrumpElseFree => {
                                let above = all_trumps.iter().filter(|&c| best_trump.is_none_or(|b| c > b));
                                *x = x.union(above.collect());
                                false
                            }
                        };
                        if no_trumps {
                            *x = x.union(all_trumps);
                        }
                    }
                } else if params.head && !(best_trump.is_some() && led != trumps) {
                    let best = before.iter().copied().filter(|c| c.suit() == led).max();
                    if let Some(b) = best
                        && card < b
                    {
                        *x = x.union(led.all_cards().iter().filter(|&c| c > b).collect());
                    }
                }
            }
        }
        let hidden_trump = dealer != me
            && (view.knocked || view.sniffed == Some(Sniffing::Grupp))
            && view.trump_card.is_none()
            && view.hand_sizes[dealer] > 0;
        let mut played = [CardSet::EMPTY; 10];
        for t in &view.tricks {
            t.cards.iter().for_each(|p| played[p.seat.index()].insert(p.card));
        }
        view.trick.iter().for_each(|p| played[p.seat.index()].insert(p.card));
        // What a seat's answer says of its hand, read by the rules of thumb: only where it
        // could pass or drop out and its hand has not changed since (no exchange, no robbing).
        let mut answers = [None; 10];
        let (queue, forced) = decision_order(view);
        let mut playing = forced.count_ones() as f64;
        for (i, d) in view.decisions.iter().enumerate() {
            let s = d.seat.index();
            let free = !view.everyone_must_play || (s == dealer && view.sniffed == Some(Sniffing::Alvensleben));
            let exchanged = view.exchanges.iter().any(|e| e.seat == d.seat && e.count > 0);
            let joins = matches!(d.choice, Choice::Join | Choice::Rob);
            if s != me && free && !exchanged && d.choice != Choice::Rob {
                let after = queue.len().saturating_sub(i + 1) as f64;
                answers[s] = Some((joins, playing - f64::from(u8::from(forced & (1 << s) != 0)), after));
            }
            if joins {
                playing += 1.0;
            }
        }
        Knowledge { hidden, fixed, excluded, hidden_trump, played, answers }
    }

    /// Whether `hand` (as dealt) of `seat` agrees with its answer, read by the rules of thumb.
    fn agrees(&self, view: &DealView, params: &Params, seat: usize, hand: CardSet) -> bool {
        let Some((joined, playing, after)) = self.answers[seat] else { return true };
        let trumps = the_trumps(view);
        let mut unseen = params.pack.difference(hand);
        if let Some(c) = view.table_card {
            unseen.remove(c);
        }
        let dealer = seat == view.dealer.index();
        let terms = if dealer { (view.knocked, view.sniffed) } else { (false, None) };
        let value = sim::join_value(params, trumps, hand, unseen, playing, after, view.played_for, terms);
        let alvensleben = dealer && view.sniffed == Some(Sniffing::Alvensleben);
        let join = if alvensleben {
            value > -f64::from(params.stake)
        } else {
            (playing == 0.0 && after == 0.0) || value > 0.0
        };
        join == joined
    }

    /// A deal consistent with the knowledge, the hidden cards spread at random.
    fn sample(&self, view: &DealView, me: usize, rng: &mut Rng) -> Option<Sim> {
        let params = Params::of(&view.rules);
        let mut sim = base_sim(view, &params);
        let n = sim.n;
        sim.hands[me] = view.hand?;
        let mut need = [0usize; 10];
        for s in 0..n {
            if s != me {
                need[s] = usize::from(view.hand_sizes[s]);
            }
        }
        let mut pool: Vec<Card> = self.hidden.iter().collect();
        rng.shuffle(&mut pool);
        for &(s, c) in &self.fixed {
            if need[s] > 0 {
                sim.hands[s].insert(c);
                need[s] -= 1;
            }
        }
        let dealer = sim.dealer;
        if self.hidden_trump
            && need[dealer] > 0
            && let Some(i) = pool.iter().position(|&c| c.suit() == sim.trumps && !self.excluded[dealer].contains(c))
        {
            sim.hands[dealer].insert(pool.remove(i));
            need[dealer] -= 1;
        }
        // The most constrained seats first.
        let mut seats: Vec<usize> = (0..n).filter(|&s| s != me).collect();
        seats.sort_by_key(|&s| std::cmp::Reverse(self.excluded[s].intersection(self.hidden).len()));
        for s in seats {
            if self.answers[s].is_some() && need[s] > 0 {
                // Draw hands until one agrees with the seat's answer (or give up).
                let allowed: Vec<usize> = (0..pool.len()).filter(|&i| !self.excluded[s].contains(pool[i])).collect();
                if allowed.len() >= need[s] {
                    let mut pick = allowed.clone();
                    for attempt in 0..ANSWER_TRIES {
                        for j in 0..need[s] {
                            let r = j + rng.index(pick.len() - j);
                            pick.swap(j, r);
                        }
                        let hand: CardSet = pick[..need[s]].iter().map(|&i| pool[i]).collect();
                        let dealt = hand.union(sim.hands[s]).union(self.played[s]);
                        if attempt + 1 == ANSWER_TRIES || self.agrees(view, &params, s, dealt) {
                            break;
                        }
                    }
                    let mut chosen: Vec<usize> = pick[..need[s]].to_vec();
                    chosen.sort_unstable_by(|a, b| b.cmp(a));
                    for i in chosen {
                        sim.hands[s].insert(pool.remove(i));
                    }
                    need[s] = 0;
                }
            }
            let mut k = 0;
            while k < pool.len() && need[s] > 0 {
                if self.excluded[s].contains(pool[k]) {
                    k += 1;
                } else {
                    sim.hands[s].insert(pool.remove(k));
                    need[s] -= 1;
                }
            }
            while need[s] > 0 && !pool.is_empty() {
                sim.hands[s].insert(pool.remove(0));
                need[s] -= 1;
            }
        }
        let talon = usize::from(view.talon).min(pool.len());
        sim.talon = pool[..talon].to_vec();
        Some(sim)
    }
}

// ---------------------------------------------------------------------------------------------
// The one interface.

impl crate::games::GameBot for Bot {
    type View = SeriesView;
    type Action = Action;
    type Deal = fipsen_rules::tippen::Deal;
    type Review = crate::games::decisions::DecisionReview<Action>;

    fn new(level: Level, seed: u64) -> Bot {
        Bot::new(level, seed)
    }

    fn choose(&mut self, view: &SeriesView) -> Option<Action> {
        self.choose_in_series(view)
    }

    /// Each of the seat's decisions before the play (shove or deal, knock, sniff, the card laid
    /// away, play or pass, rob, drop out, the exchange), every answer valued over deals sampled
    /// from what he knew.
    fn review(&mut self, deal: &Self::Deal, seat: fipsen_rules::Seat) -> Option<Self::Review> {
        review(self, deal, seat)
    }

    /// The tricks a player can be sure of against every other active player, every card
    /// known, under the preset's duties (the lead rules, heading and trumping).
    fn analyse(deal: &Self::Deal, budget: crate::analysis::Budget) -> Option<crate::analysis::Analysis> {
        use crate::analysis::tricks::{MAX_SEATS, Table, analyse};
        let view = deal.view(None);
        let reveal = view.reveal.as_ref()?;
        // Every card of the trump suit in the pack played (32 or 52 cards): not Prisdorf's
        // trumps, where diamonds are the seven alone.
        let trumps = crate::cards::whole_suit(crate::cards::suit_index(view.trumps?));
        let plays: Vec<fipsen_rules::Play> =
            view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()).copied().collect();
        let first = plays.first()?;
        let mut seats = view.active.clone();
        seats.sort_by_key(|s| s.0);
        if seats.len() > MAX_SEATS {
            return None;
        }
        let mut hands = [0u64; MAX_SEATS];
        for (place, seat) in seats.iter().enumerate() {
            hands[place] = reveal.hands.get(seat.index()).map_or(0, |h| h.bits());
        }
        for p in &plays {
            let place = seats.iter().position(|&s| s == p.seat)?;
            hands[place] |= 1 << p.card.index();
        }
        let leader = seats.iter().position(|&s| s == first.seat)? as u8;
        let legal = |hand: u64, trick: &[u8], done: u8| {
            let cards: Vec<Card> = trick.iter().map(|&c| crate::cards::card(c)).collect();
            deal.playable_at(CardSet::from_bits(hand), &cards, usize::from(done)).bits()
        };
        let table = Table { seats: &seats, trumps, legal: &legal, race: None };
        analyse(&table, hands, leader, &plays, |place| 1 << place, budget)
    }
}

#[cfg(test)]
mod tests;
