//! What one seat knows about the cards it cannot see, and deals drawn consistently with it.
//!
//! [`Knowledge::from_view`] reads only a [`DealView`] — what the rules crate lets that seat see:
//! its own hand, every card played, the suits a player failed to follow, hand sizes, its own
//! skat and discards as declarer, a Kieker's shown hand, and who bid or held a Kieker (such a
//! player was dealt no court card). [`Sampler`] then draws layouts of the unseen cards
//! **uniformly** among those consistent with that knowledge (an exact count by dynamic
//! programming, then one card at a time with the right odds), or enumerates them all.

use fipsen_rules::{Bid, Call, DealView, Play, Players, TrickView};

use crate::cards::{Bits, COURT, PackMasks, suit_of, whole_suit};
use crate::rng::Rng;
use crate::solver::MAX_PLAYERS;

/// Where the unseen cards may be, as one seat knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Knowledge {
    /// 3 to [`MAX_PLAYERS`].
    pub players: u8,
    /// The seat that knows.
    pub viewer: u8,
    /// The viewer's own cards.
    pub hand: u64,
    /// How many cards each seat holds now.
    pub sizes: [u8; MAX_PLAYERS],
    /// The cards the viewer has not seen: in the other hands or out of play.
    pub pool: u64,
    /// Cards each seat cannot hold (failed to follow, no court card after a Kieker bid, …).
    pub forbidden: [u64; MAX_PLAYERS],
}

/// Where the unseen cards lie in one drawn layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Every seat's hand (the viewer's own included).
    pub hands: [u64; MAX_PLAYERS],
    /// The unseen cards out of play (skat, stock or talon, discards, a hand laid aside).
    pub out: u64,
}

/// What every game of the Holstein family shows a seat of the play: its hand, the hand sizes
/// and the tricks. A game's own reading of its view adds what else it shows.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    /// The pack played with.
    pub pack: &'a PackMasks,
    /// Players at the table.
    pub players: u8,
    /// The seat that sees.
    pub viewer: u8,
    /// Its cards now.
    pub hand: u64,
    /// Every seat's number of cards now.
    pub hand_sizes: &'a [u8],
    /// The finished tricks.
    pub tricks: &'a [TrickView],
    /// The trick being played.
    pub trick: &'a [Play],
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

impl Knowledge {
    /// What a seat knows from its hand, the hand sizes and the tricks: every card not in its
    /// hand nor played is unseen, and a seat that failed to follow holds none of the suit led.
    /// The caller adds what else its game shows (cards known out of play, court cards ruled
    /// out by a Kieker call).
    pub fn from_seen(seen: &Seen<'_>) -> Knowledge {
        let mut sizes = [0u8; MAX_PLAYERS];
        for (i, &s) in seen.hand_sizes.iter().enumerate().take(MAX_PLAYERS) {
            sizes[i] = s;
        }
        let mut played = 0u64;
        let mut forbidden = [0u64; MAX_PLAYERS];
        let tricks = seen.tricks.iter().map(|t| t.cards.as_slice()).chain(std::iter::once(seen.trick));
        for trick in tricks {
            let Some(lead) = trick.first() else { continue };
            let led = suit_of(lead.card.index());
            for play in trick {
                played |= 1 << play.card.index();
                if suit_of(play.card.index()) != led {
                    forbidden[play.seat.index()] |= whole_suit(led);
                }
            }
        }
        let pool = seen.pack.cards & !seen.hand & !played;
        Knowledge { players: seen.players, viewer: seen.viewer, hand: seen.hand, sizes, pool, forbidden }
    }

    /// What the viewer of `view` knows; `None` for a spectator's view.
    pub fn from_view(view: &DealView) -> Option<Knowledge> {
        let viewer = view.viewer?.0;
        let hand = view.hand?.bits();
        let players = view.rules.players.count();
        let mut k = Knowledge::from_seen(&Seen {
            pack: &PackMasks::PRISDORF,
            players,
            viewer,
            hand,
            hand_sizes: &view.hand_sizes,
            tricks: &view.tricks,
            trick: &view.trick,
        });
        let forbidden = &mut k.forbidden;
        let mut known_out = view.discards.map_or(0, |d| d.bits());
        let declarer = view.declarer.map(|s| s.0);
        let kieker = view.contract.is_some_and(|c| c.is_kieker());
        if let (true, Some(shown), Some(d)) = (kieker, view.kieker_hand, declarer) {
            if view.rules.players == Players::Three {
                // A three-player Kieker threw his dealt hand away.
                known_out |= shown.bits();
            } else if d != viewer {
                // The shown cards are in the Kieker's hand or among his discards.
                for s in 0..players {
                    if s != d && s != viewer {
                        forbidden[usize::from(s)] |= shown.bits();
                    }
                }
            }
        }
        let callers = kieker_callers(view);
        let hand_game = view.game.is_some_and(|g| g.hand);
        for s in 0..players {
            // A hand holds only dealt cards unless its owner picked something up.
            let picked_up = declarer == Some(s) && (kieker || !hand_game);
            if callers & (1 << s) != 0 && !picked_up {
                forbidden[usize::from(s)] |= COURT;
            }
        }
        k.pool &= !known_out;
        k.forbidden[usize::from(viewer)] = 0;
        Some(k)
    }

    /// The knowledge of a seat holding `hand` before the auction of Prisdorf: every other hand
    /// unseen.
    pub fn before_auction(players: Players, viewer: u8, hand: u64) -> Knowledge {
        Knowledge::dealt(&PackMasks::PRISDORF, players.count(), viewer, hand)
    }

    /// The knowledge of a seat dealt `hand` (five cards, as every player) from `pack` at a
    /// table of `players`, before anything else is known.
    pub fn dealt(pack: &PackMasks, players: u8, viewer: u8, hand: u64) -> Knowledge {
        let mut sizes = [0u8; MAX_PLAYERS];
        for s in sizes.iter_mut().take(usize::from(players)) {
            *s = 5;
        }
        Knowledge { players, viewer, hand, sizes, pool: pack.cards & !hand, forbidden: [0; MAX_PLAYERS] }
    }

    /// How many unseen cards lie out of play.
    pub fn out_count(&self) -> usize {
        let held: usize =
            (0..self.players).filter(|&s| s != self.viewer).map(|s| usize::from(self.sizes[usize::from(s)])).sum();
        (self.pool.count_ones() as usize).saturating_sub(held)
    }
}

/// The most other seats a viewer has.
const OTHERS: usize = MAX_PLAYERS - 1;
/// The owner code of a card out of play.
const OUT: u8 = OTHERS as u8;

/// Draws layouts of the unseen cards uniformly among those consistent with a [`Knowledge`].
#[derive(Debug, Clone)]
pub struct Sampler {
    viewer_hand: u64,
    viewer: u8,
    /// The other seats.
    others: Vec<u8>,
    /// Their hand sizes (0 past the last).
    caps: [usize; OTHERS],
    /// The unseen cards in a fixed order.
    cards: Vec<u8>,
    /// For each card, the others (by position in `others`) that may hold it.
    allowed: Vec<u8>,
    /// Index strides of the capacity state.
    strides: [usize; OTHERS],
    states: usize,
    /// ways[i * states + state]: layouts of cards i.. with these capacities left.
    ways: Vec<u64>,
}

impl Sampler {
    /// A sampler, or `None` when no layout fits the knowledge (it then has an error).
    pub fn new(k: &Knowledge) -> Option<Sampler> {
        let others: Vec<u8> = (0..k.players).filter(|&s| s != k.viewer).collect();
        let mut caps = [0usize; OTHERS];
        for (j, &s) in others.iter().enumerate() {
            caps[j] = usize::from(k.sizes[usize::from(s)]);
        }
        let held: usize = caps.iter().sum();
        let cards: Vec<u8> = Bits(k.pool).collect();
        if held > cards.len() {
            return None;
        }
        let allowed: Vec<u8> = cards
            .iter()
            .map(|&c| {
                let mut a = 0u8;
                for (j, &s) in others.iter().enumerate() {
                    if k.forbidden[usize::from(s)] & (1 << c) == 0 {
                        a |= 1 << j;
                    }
                }
                a
            })
            .collect();
        let mut strides = [1usize; OTHERS];
        for j in 1..OTHERS {
            strides[j] = strides[j - 1] * (caps[j - 1] + 1);
        }
        let states = strides[OTHERS - 1] * (caps[OTHERS - 1] + 1);
        let mut s = Sampler {
            viewer_hand: k.hand,
            viewer: k.viewer,
            others,
            caps,
            cards,
            allowed,
            strides,
            states,
            ways: Vec::new(),
        };
        s.count_ways();
        (s.count() > 0).then_some(s)
    }

    fn state_caps(&self, state: usize) -> [usize; OTHERS] {
        let mut c = [0usize; OTHERS];
        for j in 0..OTHERS {
            c[j] = (state / self.strides[j]) % (self.caps[j] + 1);
        }
        c
    }

    fn count_ways(&mut self) {
        let n = self.cards.len();
        let states = self.states;
        let mut ways = vec![0u64; (n + 1) * states];
        ways[n * states] = 1;
        for i in (0..n).rev() {
            let left = n - i;
            for state in 0..states {
                let c = self.state_caps(state);
                let held: usize = c.iter().sum();
                if held > left {
                    continue;
                }
                let mut w = 0u64;
                if held < left {
                    w += ways[(i + 1) * states + state];
                }
                for j in 0..OTHERS {
                    if c[j] > 0 && self.allowed[i] & (1 << j) != 0 {
                        w += ways[(i + 1) * states + state - self.strides[j]];
                    }
                }
                ways[i * states + state] = w;
            }
        }
        self.ways = ways;
    }

    fn full_state(&self) -> usize {
        (0..OTHERS).map(|j| self.caps[j] * self.strides[j]).sum()
    }

    /// How many layouts fit.
    pub fn count(&self) -> u64 {
        self.ways[self.full_state()]
    }

    fn layout(&self, owners: &[u8]) -> Layout {
        let mut hands = [0u64; MAX_PLAYERS];
        hands[usize::from(self.viewer)] = self.viewer_hand;
        let mut out = 0u64;
        for (&c, &o) in self.cards.iter().zip(owners) {
            if o == OUT {
                out |= 1 << c;
            } else {
                hands[usize::from(self.others[usize::from(o)])] |= 1 << c;
            }
        }
        Layout { hands, out }
    }

    /// One layout, every consistent layout equally likely.
    pub fn sample(&self, rng: &mut Rng) -> Layout {
        let states = self.states;
        let mut state = self.full_state();
        let mut owners = [OUT; 52];
        for i in 0..self.cards.len() {
            let total = self.ways[i * states + state];
            let mut r = rng.below(total.max(1));
            let next = (i + 1) * states;
            let mut chosen = OUT;
            let c = self.state_caps(state);
            let held: usize = c.iter().sum();
            for j in 0..OTHERS {
                if c[j] > 0 && self.allowed[i] & (1 << j) != 0 {
                    let w = self.ways[next + state - self.strides[j]];
                    if r < w {
                        chosen = j as u8;
                        break;
                    }
                    r -= w;
                }
            }
            if chosen < OUT {
                state -= self.strides[usize::from(chosen)];
            } else {
                debug_assert!(held < self.cards.len() - i);
            }
            owners[i] = chosen;
        }
        self.layout(&owners[..self.cards.len()])
    }

    /// Calls `f` with every consistent layout.
    pub fn for_each(&self, f: &mut impl FnMut(&Layout)) {
        let mut owners = [OUT; 52];
        self.walk(0, self.full_state(), &mut owners, f);
    }

    fn walk(&self, i: usize, state: usize, owners: &mut [u8; 52], f: &mut impl FnMut(&Layout)) {
        let n = self.cards.len();
        if i == n {
            f(&self.layout(&owners[..n]));
            return;
        }
        let next = (i + 1) * self.states;
        let c = self.state_caps(state);
        for j in 0..OTHERS {
            if c[j] > 0 && self.allowed[i] & (1 << j) != 0 && self.ways[next + state - self.strides[j]] > 0 {
                owners[i] = j as u8;
                self.walk(i + 1, state - self.strides[j], owners, f);
            }
        }
        if c.iter().sum::<usize>() < n - i && self.ways[next + state] > 0 {
            owners[i] = OUT;
            self.walk(i + 1, state, owners, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SUIT_MASKS;

    #[test]
    fn counts_match_enumeration_and_samples_are_uniform() {
        // Viewer 0 holds 2 cards; seats 1..3 hold one each; 5 cards out; seat 1 void in clubs.
        let mask = |codes: &str| {
            crate::cards::mask_of(codes.split_whitespace().map(|c| c.parse::<fipsen_rules::Card>().unwrap().index()))
        };
        let hand = mask("C7 C8");
        let pool = mask("C9 C10 CJ CQ CK CA S7 S8");
        let mut forbidden = [0; MAX_PLAYERS];
        forbidden[1] = SUIT_MASKS[0];
        let k = Knowledge { players: 4, viewer: 0, hand, sizes: [2, 1, 1, 1, 0], pool, forbidden };
        let s = Sampler::new(&k).unwrap();
        let mut all = Vec::new();
        s.for_each(&mut |l| all.push(*l));
        assert_eq!(all.len() as u64, s.count());
        assert_eq!(s.count(), 2 * 7 * 6);
        for l in &all {
            assert_eq!(l.hands[1] & SUIT_MASKS[0], 0);
            assert_eq!(l.hands[1].count_ones(), 1);
            assert_eq!(l.hands[0], hand);
            assert_eq!(l.hands[1] | l.hands[2] | l.hands[3] | l.out, pool);
        }
        let mut rng = Rng::new(3);
        let mut hits = std::collections::HashMap::new();
        let draws = 200 * all.len();
        for _ in 0..draws {
            *hits.entry(s.sample(&mut rng).hands).or_insert(0usize) += 1;
        }
        assert_eq!(hits.len(), all.len(), "every layout drawn");
        for &h in hits.values() {
            assert!((100..320).contains(&h), "draw count {h} far from 200");
        }
    }
}
