//! Bots for Thedinghausen Fipsen (docs/rules/thedinghausen.md §C): five players, the 32-card pack, a
//! turned-up trump card, the duty to trump and overtrump, a fipsen that must take all five
//! tricks, and a race to ten tricks over deals for the round pot.
//!
//! * **What a seat knows** ([`knowledge`]): its hand, the trump card (out of play), every card
//!   played; a player who did not follow suit holds none of it, one who then did not trump
//!   holds no trump, one who trumped without overtrumping holds no trump above the trick's best
//!   (and, with `head_the_trick`, one who followed without heading holds nothing above the
//!   trick's best card of the suit). The six unused cards and the other hands are drawn
//!   uniformly among the layouts consistent with that ([`crate::knowledge::Sampler`]).
//! * **What a deal is worth** ([`race_odds`]): the chance of each seat to win the round from
//!   its counts, as if every further trick went to a seat at random; a seat's payoff is that
//!   chance times the pot, less a fipsen penalty it paid.
//! * **The search** ([`Search`]), with every card of a drawn deal known and the duties of the
//!   game: for a fipsen, alpha-beta of the announcer against the other four as one side ("does
//!   he take every trick he needs?"); for a card, the viewer's best play against the other
//!   seats playing by the careful rules of thumb (as they would, seeing their own cards only),
//!   scored by his payoff in the race. Equivalent cards are searched once.
//! * **Levels**: easy announces a fipsen by a rule of thumb (five trumps, or four with the best
//!   one) and plays high to win and low to lose, now and then a card at random; normal
//!   estimates the chance of a fipsen by sampling and plays by careful rules of thumb (sure
//!   winners, the cheapest card that wins when last, the best card against a fipsen or a seat
//!   close to ten, short suits led to be able to trump them); strong estimates the fipsen with
//!   more samples and chooses every card by sampling and the search. A fipsen is announced
//!   only under five tricks (from five on, five tricks reach ten anyway) and when its gain in
//!   the race ([`fipsen_gain`]) beats a margin.
//!
//! ```
//! use fipsen_bots::Level;
//! use fipsen_bots::thedinghausen::Bot;
//! use fipsen_rules::Seed;
//! use fipsen_rules::thedinghausen::{Rules, Series};
//!
//! let (mut series, _) = Series::new(Rules::default(), Seed::from_u64(1)).unwrap();
//! let seat = series.deal().turn().unwrap();
//! let action = Bot::new(Level::Strong, 42).choose_in_series(&series.view(Some(seat))).expect("its turn");
//! series.apply(seat, action).unwrap();
//! ```

use std::sync::OnceLock;

use fipsen_rules::thedinghausen::{Action, Deal, DealView, FipsenResult, Phase, Round, Rules, SeriesView};
use fipsen_rules::{Card, Seat, Seed};

use crate::games::decisions::{Choice, Decision, DecisionKind, DecisionReview, chance_margin};

use crate::cards::{
    Bits, PackMasks, beats, card, highest, lowest, packed, packed_index, suit_index, suit_mask_of, winning_card,
};
use crate::knowledge::{Knowledge, Layout, Sampler, Seen};
use crate::level::Level;
use crate::rng::{Hasher, Rng};

/// The pack: 32 cards.
pub const PACK: PackMasks = PackMasks::P32;

/// The five players.
const PLAYERS: usize = 5;

/// Tricks that win a round.
const TARGET: u8 = 10;

/// What a lost fipsen costs.
const PENALTY: f32 = 5.0;

/// No fipsen announced.
const NONE: u8 = u8::MAX;

/// The cards above `c` (any suit: intersect with a suit).
#[inline]
const fn above(c: u8) -> u64 {
    !((2u64 << c) - 1)
}

/// The numbers behind a level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// Deals sampled to estimate the chance of a fipsen (0: a rule of thumb).
    pub fipsen_samples: usize,
    /// Deals sampled for each card played (0: rules of thumb).
    pub play_samples: usize,
    /// With fewer cards than this left in the viewer's hand the play samples are doubled (the
    /// search is cheap late in a deal).
    pub late_cards: u8,
    /// The chance of a fipsen needed beyond break-even (the estimate sees every card).
    pub fipsen_margin: f64,
    /// The chance of an easy bot choosing a card at random among the legal ones.
    pub noise: f64,
}

impl Config {
    /// The default numbers of a level.
    pub const fn of(level: Level) -> Config {
        match level {
            Level::Easy => {
                Config { fipsen_samples: 0, play_samples: 0, late_cards: 0, fipsen_margin: 0.0, noise: 0.15 }
            }
            Level::Normal => {
                Config { fipsen_samples: 24, play_samples: 0, late_cards: 0, fipsen_margin: 0.1, noise: 0.0 }
            }
            Level::Strong => {
                Config { fipsen_samples: 64, play_samples: 48, late_cards: 4, fipsen_margin: 0.05, noise: 0.0 }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The race.

/// Index of counts (each 0..10) in the odds table.
#[inline]
fn counts_index(counts: &[u8; PLAYERS]) -> usize {
    counts.iter().rev().fold(0usize, |a, &c| a * 10 + usize::from(c))
}

/// Each seat's chance to win the round from these counts, if every further trick went to one
/// of the five at random (a seat with ten or more has won).
pub fn race_odds(counts: &[u8; PLAYERS]) -> [f32; PLAYERS] {
    if let Some(w) = counts.iter().position(|&c| c >= TARGET) {
        let mut out = [0.0; PLAYERS];
        out[w] = 1.0;
        return out;
    }
    odds_table()[counts_index(counts)]
}

fn odds_table() -> &'static [[f32; PLAYERS]] {
    static TABLE: OnceLock<Vec<[f32; PLAYERS]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let states = 100_000;
        let mut table = vec![[0.0f32; PLAYERS]; states];
        let digits = |i: usize| {
            let mut c = [0u8; PLAYERS];
            let mut x = i;
            for d in &mut c {
                *d = (x % 10) as u8;
                x /= 10;
            }
            c
        };
        // From the highest total down: a state's odds are the mean over who takes the next trick.
        let mut order: Vec<usize> = (0..states).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(digits(i).iter().map(|&d| u32::from(d)).sum::<u32>()));
        for i in order {
            let c = digits(i);
            let mut v = [0.0f32; PLAYERS];
            for s in 0..PLAYERS {
                if c[s] + 1 >= TARGET {
                    v[s] += 0.2;
                } else {
                    let mut n = c;
                    n[s] += 1;
                    let next = table[counts_index(&n)];
                    for t in 0..PLAYERS {
                        v[t] += 0.2 * next[t];
                    }
                }
            }
            table[i] = v;
        }
        table
    })
}

// ---------------------------------------------------------------------------------------------
// The rules on masks.

/// The cards of `hand` that may be played to a trick holding `trick` (`led` its first card;
/// nothing in it: a lead, anything).
#[inline]
pub fn playable(hand: u64, trick: u64, led: Option<u8>, trumps: u64, head: bool) -> u64 {
    let Some(led) = led else { return hand };
    let suit = suit_mask_of(led);
    let follow = hand & suit;
    let trumped = trick & trumps;
    if follow != 0 {
        if !head || (trumped != 0 && suit & trumps == 0) {
            return follow;
        }
        let beating = follow & above(highest(trick & suit));
        return if beating != 0 { beating } else { follow };
    }
    let held = hand & trumps;
    let over = if trumped == 0 { held } else { held & above(highest(trumped)) };
    if over != 0 {
        over
    } else if held != 0 {
        held
    } else {
        hand
    }
}

// ---------------------------------------------------------------------------------------------
// What a seat knows.

/// The trump cards of a view: the pack's cards of the turned card's suit.
fn trumps_of(view: &DealView) -> u64 {
    PACK.suits[suit_index(view.trump_card.suit())]
}

/// What the viewer of `view` knows of the unseen cards; `None` for a spectator. The trump card
/// is out of play; the duties of the play say what a player did not hold.
pub fn knowledge(view: &DealView) -> Option<Knowledge> {
    let viewer = view.viewer?.0;
    let hand = view.hand?.bits();
    let mut k = Knowledge::from_seen(&Seen {
        pack: &PACK,
        players: PLAYERS as u8,
        viewer,
        hand,
        hand_sizes: &view.hand_sizes,
        tricks: &view.tricks,
        trick: &view.trick,
    });
    k.pool &= !view.trump_card.set().bits();
    let trumps = trumps_of(view);
    let head = view.rules.head_the_trick;
    let tricks = view.tricks.iter().map(|t| t.cards.as_slice()).chain(std::iter::once(view.trick.as_slice()));
    for trick in tricks {
        let Some(first) = trick.first() else { continue };
        let led = first.card.index();
        let suit = suit_mask_of(led);
        let mut before = 1u64 << led;
        for play in &trick[1..] {
            let c = play.card.index();
            let seat = play.seat.index();
            let trumped = before & trumps;
            if suit & (1 << c) != 0 {
                if head && !(trumped != 0 && suit & trumps == 0) {
                    let best = highest(before & suit);
                    if c < best {
                        k.forbidden[seat] |= suit & above(best);
                    }
                }
            } else if trumps & (1 << c) == 0 {
                k.forbidden[seat] |= trumps;
            } else if trumped != 0 && c < highest(trumped) {
                k.forbidden[seat] |= trumps & above(highest(trumped));
            }
            before |= 1 << c;
        }
    }
    k.forbidden[usize::from(viewer)] = 0;
    Some(k)
}

// ---------------------------------------------------------------------------------------------
// The exact search.

/// A position of the deal with every hand known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// Every seat's cards.
    pub hands: [u64; PLAYERS],
    /// Who led the trick being played (or leads next).
    pub leader: u8,
    /// The cards of the trick being played, from the leader.
    pub trick: [u8; PLAYERS],
    /// How many.
    pub len: u8,
    /// Every seat's round count now.
    pub counts: [u8; PLAYERS],
    /// Tricks finished in this deal.
    pub done: u8,
    /// Tricks the announcer has taken in this deal.
    pub fipsen_tricks: u8,
    /// The announcer, or none.
    pub fipsen: u8,
    /// The fipsen is lost (its penalty is in the pot).
    pub broken: bool,
}

impl State {
    /// The seat to play.
    #[inline]
    pub fn turn(&self) -> u8 {
        (self.leader + self.len) % PLAYERS as u8
    }

    #[inline]
    fn trick_mask(&self) -> u64 {
        self.trick[..usize::from(self.len)].iter().fold(0, |m, &c| m | 1 << c)
    }

    /// The cards the seat to play may play.
    pub fn playable(&self, trumps: u64, head: bool) -> u64 {
        let led = (self.len > 0).then(|| self.trick[0]);
        playable(self.hands[usize::from(self.turn())], self.trick_mask(), led, trumps, head)
    }
}

/// What a search is for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Goal {
    /// The viewer's payoff in the race: his chance to win the round times the pot, less a
    /// fipsen penalty he paid.
    Race,
    /// Whether the viewer, who announced, takes every one of the next `need` tricks (1 or 0).
    Sweep {
        /// The tricks he needs in a row.
        need: u8,
    },
}

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    hands: [u64; PLAYERS],
    generation: u32,
    leader: u8,
    counts: [u8; PLAYERS],
    flags: u8,
    lower: f32,
    upper: f32,
}

const TABLE_BITS: u32 = 13;

/// The search of a deal with every card known, for one viewer: against the other four as one
/// side ([`Search::value`]), or against them playing by the rules of thumb
/// ([`Search::model_after`]). Keep one and reuse it.
#[derive(Debug, Clone)]
pub struct Search {
    table: Vec<Entry>,
    generation: u32,
    me: u8,
    trumps: u64,
    head: bool,
    pot: f32,
    goal: Goal,
    /// Positions visited (for measurements).
    pub nodes: u64,
}

impl Default for Search {
    fn default() -> Self {
        Search::new()
    }
}

impl Search {
    /// A search with an empty table.
    pub fn new() -> Search {
        Search { table: Vec::new(), generation: 0, me: 0, trumps: 0, head: false, pot: 0.0, goal: Goal::Race, nodes: 0 }
    }

    /// Sets up a search for `me` with these trumps, option and pot (before any penalty of the
    /// deal still to come); the table keeps nothing from before.
    pub fn start(&mut self, me: u8, trumps: u64, head: bool, pot: i32, goal: Goal) {
        if self.table.is_empty() {
            self.table = vec![Entry::default(); 1 << TABLE_BITS];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.iter_mut().for_each(|e| *e = Entry::default());
            self.generation = 1;
        }
        self.me = me;
        self.trumps = trumps;
        self.head = head;
        self.pot = pot as f32;
        self.goal = goal;
    }

    /// The viewer's value of `state` under best play of both sides, the other four as one.
    pub fn value(&mut self, state: &State) -> f32 {
        // Every value lies in this window, so a side that reaches its end need look no further.
        let (lo, hi) = match self.goal {
            Goal::Sweep { .. } => (0.0, 1.0),
            Goal::Race => (-PENALTY, self.pot + PENALTY),
        };
        self.node(state, lo, hi)
    }

    /// The value after the seat to play plays `card`.
    pub fn value_after(&mut self, state: &State, card: u8) -> f32 {
        match self.advance(state, card) {
            Ok(next) => self.value(&next),
            Err(v) => v,
        }
    }

    /// The viewer's payoff after the seat to play plays `card` when the viewer plays his best
    /// with every card known and the other seats play by the careful rules of thumb, seeing
    /// their own cards only (`led`: the suits led to finished tricks; `out`: the unused cards).
    /// For a search started with [`Goal::Race`].
    pub fn model_after(&mut self, state: &State, card: u8, led: u64, out: u64) -> f32 {
        let led = if state.len == 0 { led | suit_mask_of(card) } else { led };
        match self.advance(state, card) {
            Ok(next) => self.model(&next, led, out),
            Err(v) => v,
        }
    }

    fn model(&mut self, s: &State, led: u64, out: u64) -> f32 {
        self.nodes += 1;
        let turn = s.turn();
        if turn == self.me {
            let mut moves = [0u8; 8];
            let count = self.moves(s, &mut moves);
            let mut best = f32::NEG_INFINITY;
            for &m in &moves[..count] {
                best = best.max(self.model_after(s, m, led, out));
            }
            return best;
        }
        let p = usize::from(turn);
        let hand = s.hands[p];
        let others = s.hands.iter().enumerate().filter(|&(i, _)| i != p).fold(out, |a, (_, h)| a | h);
        let running = s.fipsen != NONE && !s.broken && s.fipsen != turn;
        let t = Thumb {
            hand,
            legal: s.playable(self.trumps, self.head),
            unseen: others,
            trumps: self.trumps,
            led,
            leader: s.leader,
            trick: s.trick,
            len: s.len,
            counts: s.counts,
            fipsen: running.then_some(s.fipsen),
        };
        let c = t.careful();
        self.model_after(s, c, led, out)
    }

    /// The viewer's payoff once the deal or the round is over.
    fn payoff(&self, s: &State) -> f32 {
        let pot = self.pot + if s.broken { PENALTY } else { 0.0 };
        let paid = if s.broken && s.fipsen == self.me { PENALTY } else { 0.0 };
        race_odds(&s.counts)[usize::from(self.me)] * pot - paid
    }

    /// The position after `card`; `Err` with the value when the deal, the round or the
    /// question is settled by it.
    fn advance(&self, s: &State, card: u8) -> Result<State, f32> {
        let mut n = *s;
        let turn = usize::from(s.turn());
        n.hands[turn] &= !(1 << card);
        n.trick[usize::from(s.len)] = card;
        n.len += 1;
        if usize::from(n.len) < PLAYERS {
            return Ok(n);
        }
        let mask = n.trick_mask();
        let best = winning_card(mask, n.trick[0], self.trumps);
        let at = n.trick.iter().position(|&c| c == best).unwrap_or(0) as u8;
        let w = (n.leader + at) % PLAYERS as u8;
        n.leader = w;
        n.len = 0;
        n.done += 1;
        n.counts[usize::from(w)] += 1;
        if let Goal::Sweep { need } = self.goal {
            if w != self.me {
                return Err(0.0);
            }
            n.fipsen_tricks += 1;
            return if n.fipsen_tricks >= need { Err(1.0) } else { Ok(n) };
        }
        if n.fipsen != NONE && !n.broken {
            if w != n.fipsen {
                n.broken = true;
            } else {
                n.fipsen_tricks += 1;
                if n.done == 5 {
                    n.counts[usize::from(w)] += 5;
                }
            }
        }
        if n.counts[usize::from(w)] >= TARGET || n.done >= 5 {
            return Err(self.payoff(&n));
        }
        Ok(n)
    }

    fn node(&mut self, s: &State, mut alpha: f32, mut beta: f32) -> f32 {
        self.nodes += 1;
        let at_start = s.len == 0;
        let (orig_alpha, orig_beta) = (alpha, beta);
        let mut slot = usize::MAX;
        if at_start {
            slot = table_index(s);
            let e = self.table[slot];
            if e.generation == self.generation
                && e.hands == s.hands
                && e.leader == s.leader
                && e.counts == s.counts
                && e.flags == flags(s)
            {
                if e.lower >= beta {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                if e.lower == e.upper {
                    return e.lower;
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
        }
        let mut moves = [0u8; 8];
        let count = self.moves(s, &mut moves);
        let maximising = s.turn() == self.me;
        let mut best = if maximising { f32::NEG_INFINITY } else { f32::INFINITY };
        for &m in &moves[..count] {
            let v = match self.advance(s, m) {
                Ok(next) => self.node(&next, alpha, beta),
                Err(v) => v,
            };
            if maximising {
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
        if at_start {
            let mut e = Entry {
                hands: s.hands,
                generation: self.generation,
                leader: s.leader,
                counts: s.counts,
                flags: flags(s),
                lower: f32::NEG_INFINITY,
                upper: f32::INFINITY,
            };
            if best <= orig_alpha {
                e.upper = best;
            } else if best >= orig_beta {
                e.lower = best;
            } else {
                e.lower = best;
                e.upper = best;
            }
            self.table[slot] = e;
        }
        best
    }

    /// The cards worth trying for the seat to play (one of each run of equivalent cards),
    /// likely best first.
    fn moves(&self, s: &State, out: &mut [u8; 8]) -> usize {
        let turn = s.turn();
        let hand = s.hands[usize::from(turn)];
        let legal = s.playable(self.trumps, self.head);
        let trick = s.trick_mask();
        let alive = s.hands.iter().fold(trick, |a, h| a | h);
        let trumps = self.trumps;
        let mine = turn == self.me;
        let (best, me_winning) = if s.len == 0 {
            (0, false)
        } else {
            let best = winning_card(trick, s.trick[0], trumps);
            let at = s.trick.iter().position(|&c| c == best).unwrap_or(0) as u8;
            (best, (s.leader + at) % PLAYERS as u8 == self.me)
        };
        let mut scored = [(0i16, 0u8); 8];
        let mut n = 0;
        for c in Bits(legal) {
            let up = suit_mask_of(c) & alive & above(c);
            if up != 0 && hand & (1 << lowest(up)) != 0 {
                continue;
            }
            let rank = i16::from(c & 15) + if trumps & (1 << c) != 0 { 16 } else { 0 };
            let score = if s.len == 0 {
                if up & !hand == 0 { 64 + rank } else { -rank }
            } else if beats(c, best, trumps) && (mine || me_winning) {
                100 - rank
            } else {
                -rank
            };
            let mut i = n;
            while i > 0 && scored[i - 1].0 < score {
                scored[i] = scored[i - 1];
                i -= 1;
            }
            scored[i] = (score, c);
            n += 1;
        }
        for i in 0..n {
            out[i] = scored[i].1;
        }
        n
    }
}

#[inline]
fn flags(s: &State) -> u8 {
    u8::from(s.broken) | s.fipsen_tricks << 1
}

#[inline]
fn table_index(s: &State) -> usize {
    let h = &s.hands;
    let folded = h[0]
        ^ h[1].rotate_left(13)
        ^ h[2].rotate_left(29)
        ^ h[3].rotate_left(43)
        ^ h[4].rotate_left(53)
        ^ u64::from(s.leader) << 61
        ^ (counts_index(&s.counts) as u64).rotate_left(7)
        ^ u64::from(flags(s)) << 58;
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize
}

/// The position of the viewer's deal with the other hands taken from `layout`.
fn state_of(view: &DealView, hands: [u64; PLAYERS]) -> State {
    let mut trick = [0u8; PLAYERS];
    for (i, p) in view.trick.iter().enumerate() {
        trick[i] = p.card.index();
    }
    // In the announcements forehand is to lead the first trick.
    let next = if view.phase == Phase::Fipsen { Some(view.forehand) } else { view.turn };
    let leader = view.trick.first().map_or_else(|| next.map_or(0, |s| s.0), |p| p.seat.0);
    let mut counts = [0u8; PLAYERS];
    for (i, &c) in view.counts.iter().enumerate().take(PLAYERS) {
        counts[i] = c;
    }
    let (fipsen, broken) = match view.fipsen {
        Some(f) => (f.seat.0, f.result == FipsenResult::Lost),
        None => (NONE, false),
    };
    let fipsen_tricks =
        if fipsen == NONE { 0 } else { view.tricks_taken.get(usize::from(fipsen)).copied().unwrap_or(0) };
    State {
        hands,
        leader,
        trick,
        len: view.trick.len() as u8,
        counts,
        done: view.tricks.len() as u8,
        fipsen_tricks,
        fipsen,
        broken,
    }
}

// ---------------------------------------------------------------------------------------------
// Rules of thumb.

/// What the rules of thumb look at: one seat's cards and what it has not seen, the trick, the
/// counts. Built from a view, or from a position with every card known in the strong bot's
/// search, where the other seats are expected to play by these rules.
#[derive(Debug, Clone, Copy)]
struct Thumb {
    hand: u64,
    legal: u64,
    /// Cards not in the hand, not played, not the trump card (the unused six among them).
    unseen: u64,
    trumps: u64,
    /// Suits led to finished tricks (as masks).
    led: u64,
    leader: u8,
    trick: [u8; PLAYERS],
    len: u8,
    counts: [u8; PLAYERS],
    /// The announcer of a running fipsen, if another seat.
    fipsen: Option<u8>,
}

impl Thumb {
    fn of(view: &DealView) -> Option<Thumb> {
        let me = view.viewer?.0;
        let hand = view.hand?.bits();
        let mut played = 0u64;
        let mut led = 0u64;
        for t in &view.tricks {
            if let Some(first) = t.cards.first() {
                led |= suit_mask_of(first.card.index());
            }
            for p in &t.cards {
                played |= 1 << p.card.index();
            }
        }
        let mut trick = [0u8; PLAYERS];
        for (i, p) in view.trick.iter().enumerate() {
            played |= 1 << p.card.index();
            trick[i] = p.card.index();
        }
        let mut counts = [0u8; PLAYERS];
        for (i, &c) in view.counts.iter().enumerate().take(PLAYERS) {
            counts[i] = c;
        }
        Some(Thumb {
            hand,
            legal: view.prompt.cards.bits(),
            unseen: PACK.cards & !hand & !played & !view.trump_card.set().bits(),
            trumps: trumps_of(view),
            led,
            leader: view.trick.first().map_or(me, |p| p.seat.0),
            trick,
            len: view.trick.len() as u8,
            counts,
            fipsen: view.fipsen.filter(|f| f.result == FipsenResult::Running && f.seat.0 != me).map(|f| f.seat.0),
        })
    }

    /// Whether no unseen card of its suit is above `c`.
    fn boss(&self, c: u8) -> bool {
        self.unseen & suit_mask_of(c) & above(c) == 0
    }

    /// Whether `c` played now likely takes the trick whose best card is `best`, with
    /// `after` seats still to play: a trump above every unseen trump; a plain card above every
    /// unseen card of its suit when no trump is unseen, or when few of the suit are gone and
    /// few players follow.
    fn sure(&self, c: u8, best: Option<u8>, after: usize) -> bool {
        if best.is_some_and(|b| !beats(c, b, self.trumps)) {
            return false;
        }
        if after == 0 {
            return true;
        }
        if self.trumps & (1 << c) != 0 {
            return self.boss(c);
        }
        let suit = PACK.suits[usize::from(c >> 4)];
        let gone = (suit & !self.unseen & !self.hand).count_ones();
        self.boss(c) && (self.unseen & self.trumps == 0 || (gone <= 1 && after <= 2))
    }

    /// The card to shed: plain cards before trumps, low before high, from the shortest plain
    /// suit (to be able to trump it later).
    fn shed(&self, mask: u64) -> u8 {
        let trumps = self.trumps;
        Bits(mask)
            .min_by_key(|&c| {
                let t = trumps & (1 << c) != 0;
                let len = (self.hand & suit_mask_of(c)).count_ones();
                (t, c & 15, len, c)
            })
            .unwrap_or(0)
    }

    fn trick_mask(&self) -> u64 {
        self.trick[..usize::from(self.len)].iter().fold(0, |m, &c| m | 1 << c)
    }

    /// The careful rules (normal).
    fn careful(&self) -> u8 {
        let legal = self.legal;
        if legal.count_ones() <= 1 {
            return lowest(legal);
        }
        let trumps = self.trumps;
        if self.len == 0 {
            // Lead: a sure trump, then the ace of a suit not yet led, else a low card of the
            // shortest plain suit.
            let my_trumps = legal & trumps;
            if my_trumps != 0 && self.boss(highest(my_trumps)) {
                return highest(my_trumps);
            }
            let fresh =
                Bits(legal & !trumps).filter(|&c| self.boss(c) && self.led & (1 << c) == 0).max_by_key(|&c| c & 15);
            if let Some(c) = fresh {
                return c;
            }
            let plain = legal & !trumps;
            if plain != 0 {
                let short = (0..4)
                    .filter(|&s| plain & PACK.suits[s] != 0)
                    .min_by_key(|&s| ((plain & PACK.suits[s]).count_ones(), s))
                    .unwrap_or(0);
                return lowest(plain & PACK.suits[short]);
            }
            return lowest(legal);
        }
        let mask = self.trick_mask();
        let best = winning_card(mask, self.trick[0], trumps);
        let at = self.trick.iter().position(|&c| c == best).unwrap_or(0) as u8;
        let winner = (self.leader + at) % PLAYERS as u8;
        let after = PLAYERS - 1 - usize::from(self.len);
        let beaters = Bits(legal).filter(|&c| beats(c, best, trumps)).fold(0u64, |m, c| m | 1 << c);
        // A running fipsen of another seat that someone else holds once he has played: it is
        // broken; no need to spend a card on the trick unless it is sure.
        let announcer_beaten =
            self.fipsen.is_some_and(|f| winner != f && (0..self.len).any(|i| (self.leader + i) % PLAYERS as u8 == f));
        if beaters == 0 {
            return self.shed(legal);
        }
        if let Some(c) =
            Bits(beaters).filter(|&c| self.sure(c, Some(best), after)).min_by_key(|&c| (trumps & (1 << c) != 0, c & 15))
        {
            return c;
        }
        if after == 0 {
            return Bits(beaters).min_by_key(|&c| (trumps & (1 << c) != 0, c & 15)).unwrap_or(0);
        }
        if announcer_beaten {
            return self.shed(legal);
        }
        // The announcer of a fipsen, or a seat close to ten, holds the trick: the best card.
        let danger = Some(winner) == self.fipsen || self.counts[usize::from(winner)] + 2 >= TARGET;
        if danger {
            return Bits(beaters).max_by_key(|&c| (trumps & (1 << c) != 0, c & 15)).unwrap_or(0);
        }
        // The best plain card when following, the lowest trump when trumping.
        let plain = beaters & !trumps;
        if plain != 0 {
            return highest(plain);
        }
        lowest(beaters)
    }

    /// The easy rules: lead the highest card; play the highest card that takes the trick so
    /// far, else the lowest.
    fn easy(&self) -> u8 {
        let legal = self.legal;
        let trumps = self.trumps;
        let key = |c: &u8| (trumps & (1 << c) != 0, c & 15);
        if self.len == 0 {
            return Bits(legal).max_by_key(key).unwrap_or(0);
        }
        let best = winning_card(self.trick_mask(), self.trick[0], trumps);
        let beaters = Bits(legal).filter(|&c| beats(c, best, trumps)).fold(0u64, |m, c| m | 1 << c);
        if beaters != 0 { Bits(beaters).max_by_key(key).unwrap_or(0) } else { Bits(legal).min_by_key(key).unwrap_or(0) }
    }
}

/// What announcing gains over passing for the viewer of `view` (in the announcements) if he
/// takes all five tricks with chance `p` either way: the pot at once instead of his chance of
/// the round after five tricks; otherwise the penalty, of which he gets his share back with
/// his chance of the round after a broken deal (taken as two tricks to him, three to others).
pub fn fipsen_gain(view: &DealView, p: f64) -> f64 {
    let Some(me) = view.viewer.map(|s| s.index()) else { return 0.0 };
    let mut counts = [0u8; PLAYERS];
    for (i, &c) in view.counts.iter().enumerate().take(PLAYERS) {
        counts[i] = c.min(TARGET - 1);
    }
    let pot = f64::from(view.pot.max(1));
    let mut swept = counts;
    swept[me] += 5;
    let q_swept = f64::from(race_odds(&swept)[me]);
    let mut broken = counts;
    broken[me] += 2;
    let mut given = 0;
    let mut others: Vec<usize> = (0..PLAYERS).filter(|&s| s != me).collect();
    others.sort_by_key(|&s| std::cmp::Reverse(counts[s]));
    for &s in others.iter().cycle().take(12) {
        if given == 3 {
            break;
        }
        if broken[s] + 1 < TARGET {
            broken[s] += 1;
            given += 1;
        }
    }
    let q_broken = f64::from(race_odds(&broken)[me]);
    p * pot * (1.0 - q_swept) + (1.0 - p) * (f64::from(PENALTY) * q_broken - f64::from(PENALTY))
}

/// The easy rule for a fipsen: five trumps, or four with the best trump still in play.
fn easy_fipsen(view: &DealView) -> bool {
    let Some(t) = Thumb::of(view) else { return false };
    let my_trumps = t.hand & t.trumps;
    let n = my_trumps.count_ones();
    n >= 5 || (n >= 4 && t.boss(highest(my_trumps)))
}

// ---------------------------------------------------------------------------------------------
// The review.

/// The pack order that deals `view`'s revealed hands, trump card and unused cards again.
fn pack_of(view: &DealView) -> Option<Vec<Card>> {
    let reveal = view.reveal.as_ref()?;
    let mut pack = vec![None; 32];
    for i in 0..PLAYERS {
        let seat = (usize::from(view.forehand.0) + i) % PLAYERS;
        let cards: Vec<Card> = reveal.dealt.get(seat)?.iter().collect();
        if cards.len() != 5 {
            return None;
        }
        for (k, &c) in cards.iter().enumerate() {
            pack[if k < 3 { 3 * i + k } else { 15 + 2 * i + k - 3 }] = Some(c);
        }
    }
    pack[25] = Some(view.trump_card);
    for (k, c) in reveal.unused.iter().enumerate() {
        *pack.get_mut(26 + k)? = Some(c);
    }
    pack.into_iter().collect()
}

/// The review of `seat`'s announcement in the finished `deal` by `bot`: if his turn came in
/// the announcements, fipsen and pass valued from his own view then, and the bot's choice.
/// `None` if the deal is not over.
pub fn review(bot: &mut Bot, deal: &Deal, seat: Seat) -> Option<DecisionReview<Action>> {
    if !deal.is_over() {
        return None;
    }
    let view = deal.view(Some(seat));
    view.viewer?;
    let (mut replay, _) = Deal::from_pack(*deal.rules(), deal.number(), view.dealer, &pack_of(&view)?, deal.round())?;
    let mut decisions = Vec::new();
    while replay.phase() == Phase::Fipsen {
        let turn = replay.turn()?;
        let action = if view.passed.contains(&turn) { Action::Pass } else { Action::Fipsen };
        if turn == seat {
            let at = replay.view(Some(seat));
            let (options, samples) = bot.announce_choices(&at)?;
            let choice = bot.choose(&at)?;
            let samples = samples as u32;
            decisions.push(Decision {
                decision: DecisionKind::Announcement,
                samples,
                effective: None,
                options,
                bot: choice,
                chosen: action,
            });
        }
        replay.apply(turn, action).ok()?;
    }
    Some(DecisionReview { seat, decisions })
}

// ---------------------------------------------------------------------------------------------
// The bot.

/// A Thedinghausen bot of one level. Its choices depend only on its level, configuration,
/// seed and the view it is shown.
#[derive(Debug, Clone)]
pub struct Bot {
    level: Level,
    config: Config,
    seed: u64,
    search: Search,
}

impl Bot {
    /// A bot of `level`, whose choices follow from `seed` and the view alone.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot::with_config(level, Config::of(level), seed)
    }

    /// A bot with its own numbers (for measurements).
    pub fn with_config(level: Level, config: Config, seed: u64) -> Bot {
        Bot { level, config, seed, search: Search::new() }
    }

    /// The bot's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The bot's action in a series, or `None` once it is over.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Action> {
        if view.over { None } else { self.choose(&view.deal) }
    }

    /// The bot's action, or `None` if the viewer may do nothing now. Always one the prompt
    /// offers.
    pub fn choose(&mut self, view: &DealView) -> Option<Action> {
        if view.viewer.is_none() || view.turn != view.viewer || view.prompt.is_empty() {
            return None;
        }
        let mut rng = Rng::new(decision_seed(self.seed, view));
        let action = if view.prompt.fipsen || view.prompt.pass {
            self.announce(view, &mut rng)
        } else {
            self.play(view, &mut rng)
        };
        action.filter(|a| allowed(view, a)).or_else(|| fallback(view))
    }

    /// The chance that the viewer takes every trick he needs if he announces, by sampling and
    /// the exact search; `None` for a spectator.
    pub fn fipsen_chance(&mut self, view: &DealView, samples: usize, rng: &mut Rng) -> Option<f64> {
        self.fipsen_chance_counted(view, samples, rng).map(|(p, _)| p)
    }

    /// [`Bot::fipsen_chance`] with the number of sampled deals it was measured on (fewer than
    /// asked when the first eight show the hand hopeless).
    pub fn fipsen_chance_counted(&mut self, view: &DealView, samples: usize, rng: &mut Rng) -> Option<(f64, usize)> {
        let me = view.viewer?.0;
        let count = view.counts.get(usize::from(me)).copied().unwrap_or(0);
        let need = 5u8.min(TARGET.saturating_sub(count)).max(1);
        let layouts = draw(view, samples, rng)?;
        self.search.start(me, trumps_of(view), view.rules.head_the_trick, view.pot, Goal::Sweep { need });
        let mut won = 0usize;
        for (i, layout) in layouts.iter().enumerate() {
            // A hand that sweeps none of the first eight deals is hopeless: stop there.
            if i == 8 && won == 0 {
                return Some((0.0, 8));
            }
            let mut s = state_of(view, layout.hands);
            s.fipsen = me;
            if self.search.value(&s) > 0.5 {
                won += 1;
            }
        }
        Some((won as f64 / layouts.len().max(1) as f64, layouts.len()))
    }

    /// The announcing decision at `view` (the viewer's turn in the announcements): passing
    /// worth 0, announcing worth its gain over passing in chips ([`fipsen_gain`]) at the chance
    /// of a sweep measured over deals of the cards he cannot see, with the margin of that
    /// chance carried through (the gain is linear in it): a Wilson interval's, which does not
    /// vanish when every sampled deal agreed.
    pub fn announce_choices(&mut self, view: &DealView) -> Option<(Vec<Choice<Action>>, usize)> {
        let mut rng = Rng::new(decision_seed(self.seed, view));
        let samples = self.config.fipsen_samples.max(16);
        let (p, n) = self.fipsen_chance_counted(view, samples, &mut rng)?;
        let spread = (fipsen_gain(view, 1.0) - fipsen_gain(view, 0.0)).abs();
        let margin = spread * chance_margin(p, n);
        let mut out = Vec::new();
        if view.prompt.fipsen {
            out.push(Choice { action: Action::Fipsen, value: fipsen_gain(view, p), margin });
        }
        if view.prompt.pass {
            out.push(Choice { action: Action::Pass, value: 0.0, margin: 0.0 });
        }
        Some((out, n))
    }

    fn announce(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let me = usize::from(view.viewer?.0);
        let count = view.counts.get(me).copied().unwrap_or(0);
        let yes = if self.config.fipsen_samples == 0 {
            easy_fipsen(view)
        } else if count + 5 >= TARGET {
            // Five tricks reach ten anyway: a fipsen could only be lost.
            false
        } else {
            let p = self.fipsen_chance(view, self.config.fipsen_samples, rng)?;
            fipsen_gain(view, p) > self.config.fipsen_margin * f64::from(view.pot.max(1))
        };
        if yes && view.prompt.fipsen { Some(Action::Fipsen) } else { Some(Action::Pass) }
    }

    fn play(&mut self, view: &DealView, rng: &mut Rng) -> Option<Action> {
        let legal = view.prompt.cards.bits();
        if legal == 0 {
            return None;
        }
        if legal.count_ones() == 1 {
            return Some(Action::Play { card: card(lowest(legal)) });
        }
        let c = match self.level {
            Level::Easy => {
                if rng.unit() < self.config.noise {
                    let cards: Vec<u8> = Bits(legal).collect();
                    cards[rng.index(cards.len())]
                } else {
                    Thumb::of(view)?.easy()
                }
            }
            Level::Normal => Thumb::of(view)?.careful(),
            Level::Strong => self.search_card(view, legal, rng).or_else(|| Thumb::of(view).map(|t| t.careful()))?,
        };
        Some(Action::Play { card: card(c) })
    }

    /// The card with the best mean payoff over sampled deals: in each, the viewer's cards are
    /// searched with every card known and the other seats play by the careful rules of thumb.
    /// Ties go to the card the rules of thumb prefer, then the lowest.
    fn search_card(&mut self, view: &DealView, legal: u64, rng: &mut Rng) -> Option<u8> {
        let me = view.viewer?.0;
        let hand = view.hand?.bits();
        let mut samples = self.config.play_samples.max(1);
        if (hand.count_ones() as u8) < self.config.late_cards {
            samples *= 2;
        }
        let layouts = draw(view, samples, rng)?;
        self.search.start(me, trumps_of(view), view.rules.head_the_trick, view.pot, Goal::Race);
        let led =
            view.tricks.iter().filter_map(|t| t.cards.first()).fold(0u64, |m, p| m | suit_mask_of(p.card.index()));
        let cards: Vec<u8> = Bits(legal).collect();
        let mut totals = vec![0.0f64; cards.len()];
        for layout in &layouts {
            let s = state_of(view, layout.hands);
            // Equivalent cards (adjacent once the cards between are gone) share one value.
            let alive = s.hands.iter().fold(s.trick_mask(), |a, h| a | h);
            let mut values: Vec<(u8, f32)> = Vec::with_capacity(cards.len());
            for (i, &c) in cards.iter().enumerate() {
                let rep = representative(c, hand, alive);
                let v = match values.iter().find(|&&(r, _)| r == rep) {
                    Some(&(_, v)) => v,
                    None => {
                        let v = self.search.model_after(&s, rep, led, layout.out);
                        values.push((rep, v));
                        v
                    }
                };
                totals[i] += f64::from(v);
            }
        }
        let preferred = Thumb::of(view).map(|t| t.careful());
        let mut best: Option<(usize, f64)> = None;
        for (i, &total) in totals.iter().enumerate() {
            let better = match best {
                None => true,
                Some((j, b)) => {
                    total > b + 1e-6 || (total > b - 1e-6 && Some(cards[i]) == preferred && Some(cards[j]) != preferred)
                }
            };
            if better {
                best = Some((i, total));
            }
        }
        best.map(|(i, _)| cards[i])
    }
}

/// The top of the run of equivalent cards that `c` belongs to in `hand`.
fn representative(c: u8, hand: u64, alive: u64) -> u8 {
    let mut c = c;
    loop {
        let up = suit_mask_of(c) & alive & above(c);
        if up == 0 || hand & (1 << lowest(up)) == 0 {
            return c;
        }
        c = lowest(up);
    }
}

/// Deals drawn uniformly among those consistent with what the viewer knows; `None` for a
/// spectator.
fn draw(view: &DealView, samples: usize, rng: &mut Rng) -> Option<Vec<Layout>> {
    let k = knowledge(view)?;
    let sampler = Sampler::new(&k).or_else(|| {
        // Should the duties' reading ever contradict itself, the plain voids alone.
        let mut plain = k.clone();
        plain.forbidden = [0; PLAYERS];
        Sampler::new(&plain)
    })?;
    Some((0..samples.max(1)).map(|_| sampler.sample(rng)).collect())
}

/// A seed for one decision: the bot's seed and everything in the view that can change.
fn decision_seed(seed: u64, view: &DealView) -> u64 {
    let mut h = Hasher::new(seed);
    h.word(view.viewer.map_or(99, |s| u64::from(s.0)));
    h.word(u64::from(view.number));
    h.word(u64::from(view.dealer.0));
    h.word(u64::from(view.trump_card.index()));
    h.word(view.hand.map_or(0, |c| packed(c.bits())));
    h.word(view.passed.len() as u64);
    h.word(u64::from(view.fipsen.is_some()));
    for &c in &view.counts {
        h.word(u64::from(c));
    }
    h.word(view.pot as u64);
    for p in view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()) {
        h.word(u64::from(p.seat.0) << 8 | u64::from(packed_index(p.card.index())));
    }
    h.finish()
}

/// Whether the prompt allows the action.
fn allowed(view: &DealView, action: &Action) -> bool {
    let p = &view.prompt;
    match *action {
        Action::Fipsen => p.fipsen,
        Action::Pass => p.pass,
        Action::Play { card } => p.cards.contains(card),
    }
}

/// Something legal, should a decision fail.
fn fallback(view: &DealView) -> Option<Action> {
    let p = &view.prompt;
    if p.pass {
        return Some(Action::Pass);
    }
    p.cards.lowest().map(|card| Action::Play { card })
}

// ---------------------------------------------------------------------------------------------
// Whole rounds between bots.

/// How one round between bots went.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundPlayed {
    /// What each seat won or lost in the round (antes, penalties, the pot): they sum to zero.
    pub scores: [i32; PLAYERS],
    /// Deals played.
    pub deals: u32,
    /// The round's winner.
    pub winner: Seat,
    /// Fipsen announced by each seat.
    pub announced: [u32; PLAYERS],
    /// Fipsen won by each seat.
    pub won: [u32; PLAYERS],
    /// Fipsen lost by each seat.
    pub lost: [u32; PLAYERS],
}

/// Plays one round (deals until a seat reaches ten tricks) with a bot of `levels[s]` in seat
/// `s`, `first_dealer` dealing first, each deal shuffled from `seed`; every bot is asked with
/// its own view only.
///
/// # Panics
/// If a bot answers with an action the rules refuse or gives no answer at its turn (bugs), or
/// the round runs past 100 deals.
pub fn play_round(
    rules: Rules,
    first_dealer: Seat,
    seed: u64,
    levels: &[Level; PLAYERS],
    bot_seed: u64,
) -> RoundPlayed {
    let mut bots: Vec<Bot> = (0..PLAYERS)
        .map(|s| {
            let mut h = Hasher::new(bot_seed);
            h.word(s as u64);
            Bot::new(levels[s], h.finish())
        })
        .collect();
    let mut round = Round::first();
    let mut dealer = first_dealer;
    let mut played = RoundPlayed {
        scores: [0; PLAYERS],
        deals: 0,
        winner: Seat(0),
        announced: [0; PLAYERS],
        won: [0; PLAYERS],
        lost: [0; PLAYERS],
    };
    loop {
        assert!(played.deals < 100, "a round of more than 100 deals");
        let mut h = Hasher::new(seed);
        h.word(u64::from(played.deals));
        let (mut deal, _) = Deal::new(rules, played.deals + 1, dealer, Seed::from_u64(h.finish()), round);
        played.deals += 1;
        while !deal.is_over() {
            let seat = deal.turn().expect("a deal that is not over has a turn");
            let view = deal.view(Some(seat));
            let action = bots[seat.index()].choose(&view).expect("the bot must act");
            if let Err(e) = deal.apply(seat, action) {
                panic!("bot at seat {seat} chose {action:?}, refused: {e}");
            }
        }
        for (s, c) in deal.changes().iter().enumerate() {
            played.scores[s] += c;
        }
        if let Some(f) = deal.fipsen() {
            played.announced[f.seat.index()] += 1;
            match f.result {
                FipsenResult::Won => played.won[f.seat.index()] += 1,
                FipsenResult::Lost => played.lost[f.seat.index()] += 1,
                FipsenResult::Running | FipsenResult::Void => {}
            }
        }
        if let Some(w) = deal.round_won() {
            played.winner = w;
            return played;
        }
        round = deal.next_round();
        dealer = dealer.next(PLAYERS as u8);
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

    /// The seat's announcement: fipsen or pass, valued over deals sampled from what he knew.
    fn review(&mut self, deal: &Deal, seat: Seat) -> Option<DecisionReview<Action>> {
        review(self, deal, seat)
    }

    /// The tricks a seat can be sure of against the other four, every card known; in a deal
    /// with a fipsen, the tricks of the announcer against the four, and of the four together
    /// against him. Only this deal's tricks count, and only those the rules play: the search
    /// stops where a seat's round count reaches ten and the deal ends.
    fn analyse(deal: &Deal, budget: crate::analysis::Budget) -> Option<crate::analysis::Analysis> {
        use crate::analysis::holstein::hands_at_start;
        use crate::analysis::tricks::{MAX_SEATS, Table, analyse};
        let view = deal.view(None);
        let reveal = view.reveal.as_ref()?;
        let plays: Vec<fipsen_rules::Play> =
            view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()).copied().collect();
        let first = plays.first()?;
        let start = hands_at_start(PLAYERS as u8, &plays, &reveal.hands);
        let mut hands = [0u64; MAX_SEATS];
        hands[..PLAYERS].copy_from_slice(&start[..PLAYERS]);
        let seats: Vec<Seat> = (0..PLAYERS as u8).map(Seat).collect();
        let (trumps, head) = (trumps_of(&view), view.rules.head_the_trick);
        let legal = move |hand: u64, trick: &[u8], _done: u8| {
            playable(hand, trick.iter().fold(0, |m, &c| m | 1 << c), trick.first().copied(), trumps, head)
        };
        // The deal ends once a seat's round count reaches ten: the tricks after it are not
        // played, so the search stops there too.
        let mut race = [u8::MAX; MAX_SEATS];
        for (place, count) in deal.round().counts.iter().enumerate() {
            race[place] = fipsen_rules::thedinghausen::TARGET.saturating_sub(*count).max(1);
        }
        let table = Table { seats: &seats, trumps, legal: &legal, race: Some(race) };
        let all = (1u16 << PLAYERS) - 1;
        let announcer = view.fipsen.map(|f| f.seat.index());
        let side_of = |place: usize| match announcer {
            Some(a) if a == place => 1 << a,
            Some(a) => all & !(1 << a),
            None => 1 << place,
        };
        analyse(&table, hands, first.seat.0, &plays, side_of, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::thedinghausen::Series;
    use fipsen_rules::{Card, CardSet, GameAction, GameView};

    fn cards(codes: &str) -> Vec<Card> {
        codes.split_whitespace().map(|c| c.parse::<Card>().expect("a card code")).collect()
    }

    fn mask(codes: &str) -> u64 {
        cards(codes).iter().fold(0, |m, c| m | 1 << c.index())
    }

    /// A deal with seat 4 dealing (seat 0 is forehand), the hands of seats 0..5, the trump
    /// card, and the other six cards unused.
    fn deal_with(hands: [&str; 5], trump: &str, round: Round, rules: Rules) -> Deal {
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        let trump = cards(trump)[0];
        let mut pack = vec![trump; 32];
        for (i, h) in hands.iter().enumerate() {
            assert_eq!(h.len(), 5);
            pack[3 * i..3 * i + 3].copy_from_slice(&h[..3]);
            pack[15 + 2 * i..17 + 2 * i].copy_from_slice(&h[3..]);
        }
        pack[25] = trump;
        let used: CardSet = pack[..26].iter().copied().collect();
        let rest: Vec<Card> = Deal::PACK.cards().iter().filter(|c| !used.contains(*c)).collect();
        pack[26..].copy_from_slice(&rest);
        let (deal, _) = Deal::from_pack(rules, 1, Seat(4), &pack, round).expect("a valid pack");
        deal
    }

    fn round_at(counts: [u8; 5]) -> Round {
        Round { number: 1, counts, pot: 5, fresh: false }
    }

    const STRONG_HAND: [&str; 5] =
        ["HA HK HQ HJ H10", "C7 C8 C9 C10 CJ", "S7 S8 S9 S10 SJ", "D7 D8 D9 D10 DJ", "CQ CK SQ SK DQ"];

    fn legal(deal: &Deal, seat: Seat, action: Action) -> bool {
        deal.legal_actions(seat).contains(&action)
    }

    /// Through the door of every game, each level plays whole series (with and without
    /// heading the trick): every answer is one the rules accept.
    #[test]
    fn every_level_answers_legally_through_the_door() {
        for level in Level::ALL {
            for (k, head) in [(1u64, false), (2, true)] {
                let rules = Rules { head_the_trick: head, ..Rules::default() };
                let (mut series, _) = Series::new(rules, Seed::from_u64(k + 10 * level as u64)).expect("a series");
                let mut actions = 0u64;
                while series.rounds_won() < 1 && actions < 3_000 {
                    if series.deal().is_over() {
                        series.next_deal().expect("the next deal");
                        continue;
                    }
                    let seat = series.deal().turn().expect("a turn");
                    let view = GameView::Thedinghausen(series.view(Some(seat)));
                    let Some(GameAction::Thedinghausen(action)) = crate::games::choose(level, actions, &view) else {
                        panic!("{level:?}: no Thedinghausen answer at its turn");
                    };
                    assert!(legal(series.deal(), seat, action), "{level:?}: {action:?} is not legal");
                    series.apply(seat, action).expect("accepted");
                    // Out of turn, nothing.
                    let other = seat.next(5);
                    if series.deal().turn() != Some(other) {
                        assert!(Bot::new(level, 1).choose_in_series(&series.view(Some(other))).is_none());
                    }
                    actions += 1;
                }
                assert_eq!(series.rounds_won(), 1, "{level:?} played a whole round");
            }
        }
    }

    /// The same level, seed and view give the same answer; a spectator gets none.
    #[test]
    fn answers_are_deterministic() {
        for level in Level::ALL {
            let (mut series, _) = Series::new(Rules::default(), Seed::from_u64(5)).expect("a series");
            for step in 0..40u64 {
                if series.deal().is_over() {
                    series.next_deal().expect("the next deal");
                }
                let seat = series.deal().turn().expect("a turn");
                let view = series.view(Some(seat));
                let a = Bot::new(level, step).choose_in_series(&view);
                let b = Bot::new(level, step).choose_in_series(&view);
                assert_eq!(a, b, "{level:?} at step {step}");
                assert!(Bot::new(level, step).choose_in_series(&series.view(None)).is_none());
                series.apply(seat, a.expect("an answer")).expect("accepted");
            }
        }
    }

    #[test]
    fn an_unbeatable_hand_announces_and_a_hopeless_one_passes() {
        let deal = deal_with(STRONG_HAND, "H9", round_at([0; 5]), Rules::default());
        let view = deal.view(Some(Seat(0)));
        for level in [Level::Normal, Level::Strong] {
            assert_eq!(Bot::new(level, 3).choose(&view), Some(Action::Fipsen), "{level:?}");
        }
        assert_eq!(Bot::new(Level::Easy, 3).choose(&view), Some(Action::Fipsen), "easy counts five trumps");
        let p = Bot::new(Level::Strong, 3).fipsen_chance(&view, 16, &mut Rng::new(1));
        assert_eq!(p, Some(1.0));
        // Seat 1's five low clubs: nobody announces with it.
        let mut deal = deal;
        deal.apply(Seat(0), Action::Pass).expect("a pass");
        let view = deal.view(Some(Seat(1)));
        assert_eq!(Bot::new(Level::Strong, 3).fipsen_chance(&view, 16, &mut Rng::new(1)), Some(0.0));
        for level in Level::ALL {
            assert_eq!(Bot::new(level, 3).choose(&view), Some(Action::Pass), "{level:?}");
        }
    }

    /// At five tricks or more, five tricks reach ten anyway: a fipsen could only be lost.
    #[test]
    fn no_fipsen_when_five_tricks_win_the_round_anyway() {
        let deal = deal_with(STRONG_HAND, "H9", round_at([5, 3, 0, 0, 0]), Rules::default());
        let view = deal.view(Some(Seat(0)));
        for level in [Level::Normal, Level::Strong] {
            assert_eq!(Bot::new(level, 3).choose(&view), Some(Action::Pass), "{level:?}");
        }
        assert!(fipsen_gain(&view, 0.0) < 0.0);
    }

    fn pass_all(deal: &mut Deal) {
        while deal.phase() == Phase::Fipsen {
            let seat = deal.turn().expect("a turn");
            deal.apply(seat, Action::Pass).expect("a pass");
        }
    }

    /// At nine tricks, forehand with the ace of trumps leads it: the round is his at once.
    #[test]
    fn strong_takes_the_trick_that_wins_the_round() {
        let hands = ["HA C7 S7 D7 D8", "C8 C9 C10 CJ CQ", "S8 S9 S10 SJ SQ", "HK HQ D9 D10 DJ", "CA SA DA CK SK"];
        let mut deal = deal_with(hands, "H7", round_at([9, 8, 0, 0, 0]), Rules::default());
        pass_all(&mut deal);
        let view = deal.view(Some(Seat(0)));
        let action = Bot::new(Level::Strong, 11).choose(&view);
        assert_eq!(action, Some(Action::Play { card: cards("HA")[0] }));
        deal.apply(Seat(0), action.expect("a card")).expect("legal");
        while deal.turn().is_some_and(|s| s != Seat(0)) && !deal.is_over() {
            let seat = deal.turn().expect("a turn");
            let a = Bot::new(Level::Strong, 2).choose(&deal.view(Some(seat))).expect("a card");
            deal.apply(seat, a).expect("legal");
        }
        assert_eq!(deal.round_won(), Some(Seat(0)));
    }

    /// Last to a plain trick and void, the strong bot overtrumps with its lower trump and keeps
    /// the higher; following suit last, it takes the trick with the card that wins it.
    #[test]
    fn strong_wins_the_trick_it_surely_can_cheaply() {
        let hands = ["CA C7 S7 D7 D8", "C8 S8 S9 S10 SJ", "C9 D9 D10 DJ DQ", "C10 SQ SK SA DK", "HA HK HJ H8 H9"];
        let mut deal = deal_with(hands, "H7", round_at([0; 5]), Rules::default());
        pass_all(&mut deal);
        // Clubs led; seats 1..3 follow; seat 4 is void and must overtrump: none in the trick, so
        // any trump. Last to play, the lowest wins as well as the highest.
        for (seat, code) in [(0u8, "C7"), (1, "C8"), (2, "C9"), (3, "C10")] {
            deal.apply(Seat(seat), Action::Play { card: cards(code)[0] }).expect("legal");
        }
        let view = deal.view(Some(Seat(4)));
        assert_eq!(Bot::new(Level::Strong, 1).choose(&view), Some(Action::Play { card: cards("H8")[0] }));
        assert_eq!(Bot::new(Level::Normal, 1).choose(&view), Some(Action::Play { card: cards("H8")[0] }));
    }

    #[test]
    fn the_masks_follow_the_rules_crate() {
        for head in [false, true] {
            let rules = Rules { head_the_trick: head, ..Rules::default() };
            for k in 0..60u64 {
                let (mut deal, _) = Deal::new(rules, 1, Seat((k % 5) as u8), Seed::from_u64(k), round_at([0; 5]));
                pass_all(&mut deal);
                let trumps = PACK.suits[suit_index(deal.trump_card().suit())];
                let mut rng = Rng::new(k);
                while !deal.is_over() {
                    let seat = deal.turn().expect("a turn");
                    let view = deal.view(Some(seat));
                    let hands: [u64; 5] = std::array::from_fn(|s| deal.hand(Seat(s as u8)).bits());
                    let state = state_of(&view, hands);
                    assert_eq!(state.turn(), seat.0);
                    let ours = state.playable(trumps, head);
                    assert_eq!(ours, deal.playable(seat).bits(), "deal {k}, trick {:?}", view.trick);
                    let options: Vec<u8> = Bits(ours).collect();
                    let c = options[rng.index(options.len())];
                    deal.apply(seat, Action::Play { card: card(c) }).expect("legal");
                }
            }
        }
    }

    /// The duties tell what a player does not hold, and the drawn deals respect it.
    #[test]
    fn knowledge_reads_the_duty_to_trump() {
        let hands = ["CA C7 S7 D7 D8", "SA S8 HQ D9 D10", "C9 H8 DJ DQ DK", "C10 SQ SK S9 DA", "CK CQ CJ C8 S10"];
        let mut deal = deal_with(hands, "H7", round_at([0; 5]), Rules::default());
        pass_all(&mut deal);
        // Clubs led: seat 1 is void and holds a trump, so must trump (HQ); seat 2 follows.
        for (seat, code) in [(0u8, "C7"), (1, "HQ"), (2, "C9"), (3, "C10"), (4, "C8")] {
            deal.apply(Seat(seat), Action::Play { card: cards(code)[0] }).expect("legal");
        }
        let view = deal.view(Some(Seat(0)));
        let k = knowledge(&view).expect("a seat");
        // Seat 1 showed no club.
        assert_eq!(k.forbidden[1] & PACK.suits[0], PACK.suits[0]);
        assert_eq!(k.pool & mask("H7"), 0, "the trump card is out of play");
        // Seat 1 leads SA; seat 2, void in spades, must trump with H8.
        deal.apply(Seat(1), Action::Play { card: cards("SA")[0] }).expect("legal");
        deal.apply(Seat(2), Action::Play { card: cards("H8")[0] }).expect("legal");
        deal.apply(Seat(3), Action::Play { card: cards("S9")[0] }).expect("legal");
        deal.apply(Seat(4), Action::Play { card: cards("S10")[0] }).expect("legal");
        deal.apply(Seat(0), Action::Play { card: cards("S7")[0] }).expect("legal");
        // Seat 2 takes with H8 and leads DJ; seat 3 follows DA; seat 4 is void in diamonds and
        // holds no trump: it discards a club, so holds no trump.
        deal.apply(Seat(2), Action::Play { card: cards("DJ")[0] }).expect("legal");
        deal.apply(Seat(3), Action::Play { card: cards("DA")[0] }).expect("legal");
        deal.apply(Seat(4), Action::Play { card: cards("CK")[0] }).expect("legal");
        let view = deal.view(Some(Seat(0)));
        let k = knowledge(&view).expect("a seat");
        assert_eq!(k.forbidden[4] & PACK.suits[2], PACK.suits[2], "seat 4 holds no trump");
        assert_eq!(k.forbidden[4] & PACK.suits[3], PACK.suits[3], "nor a diamond");
        let layouts = draw(&view, 50, &mut Rng::new(4)).expect("layouts");
        for l in &layouts {
            assert_eq!(l.hands[4] & (PACK.suits[2] | PACK.suits[3]), 0);
            assert_eq!(l.hands[0], view.hand.expect("a hand").bits());
            assert_eq!(l.out.count_ones(), 6);
        }
    }

    #[test]
    fn race_odds_favour_the_leader_and_sum_to_one() {
        let even = race_odds(&[3; 5]);
        assert!(even.iter().all(|&p| (p - 0.2).abs() < 1e-4));
        let lead = race_odds(&[9, 5, 5, 5, 5]);
        assert!(lead[0] > 0.5 && lead[1] < 0.15);
        assert!((lead.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert_eq!(race_odds(&[2, 10, 0, 0, 0]), [0.0, 1.0, 0.0, 0.0, 0.0]);
        // Each trick taken raises the chance.
        assert!(race_odds(&[4, 3, 3, 3, 3])[0] > race_odds(&[3, 4, 3, 3, 3])[0]);
    }

    #[test]
    fn whole_rounds_settle_the_pot() {
        let levels = [Level::Strong, Level::Normal, Level::Easy, Level::Normal, Level::Easy];
        for k in 0..3u64 {
            let played = play_round(Rules::default(), Seat((k % 5) as u8), k, &levels, k);
            assert_eq!(played.scores.iter().sum::<i32>(), 0);
            assert!(played.scores[played.winner.index()] > 0);
            assert!(played.deals >= 2);
        }
    }
}
