//! What one seat knows about the cards it cannot see, and deals drawn consistently with it.
//!
//! [`Knowledge::from_view`] reads only a [`DealView`] — what the rules crate lets that seat see:
//! its own hand, every card played, the suits a player failed to follow, hand sizes, its own
//! skat and discards as declarer, a Kieker's shown hand, and who bid or held a Kieker (such a
//! player was dealt no court card). [`Sampler`] then draws layouts of the unseen cards
//! **uniformly** among those consistent with that knowledge (an exact count by dynamic
//! programming, then one card at a time with the right odds), or enumerates them all.

use fipsen_rules::{Bid, Call, DealView, Players};

use crate::cards::{Bits, COURT, PACK, SUIT_MASKS, suit_of};
use crate::rng::Rng;

/// Where the unseen cards may be, as one seat knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Knowledge {
    /// 3 or 4.
    pub players: u8,
    /// The seat that knows.
    pub viewer: u8,
    /// The viewer's own cards.
    pub hand: u64,
    /// How many cards each seat holds now.
    pub sizes: [u8; 4],
    /// The cards the viewer has not seen: in the other hands or out of play.
    pub pool: u64,
    /// Cards each seat cannot hold (failed to follow, no court card after a Kieker bid, …).
    pub forbidden: [u64; 4],
}

/// Where the unseen cards lie in one drawn layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Every seat's hand (the viewer's own included).
    pub hands: [u64; 4],
    /// The unseen cards out of play (skat, stock, discards, a thrown hand).
    pub out: u64,
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
    /// What the viewer of `view` knows; `None` for a spectator's view.
    pub fn from_view(view: &DealView) -> Option<Knowledge> {
        let viewer = view.viewer?.0;
        let hand = view.hand?.bits();
        let players = view.rules.players.count();
        let mut sizes = [0u8; 4];
        for (i, &s) in view.hand_sizes.iter().enumerate().take(4) {
            sizes[i] = s;
        }
        let mut played = 0u64;
        let mut forbidden = [0u64; 4];
        let tricks = view.tricks.iter().map(|t| t.cards.as_slice()).chain(std::iter::once(view.trick.as_slice()));
        for trick in tricks {
            let Some(lead) = trick.first() else { continue };
            let led = suit_of(lead.card.index());
            for play in trick {
                played |= 1 << play.card.index();
                if suit_of(play.card.index()) != led {
                    forbidden[play.seat.index()] |= SUIT_MASKS[led];
                }
            }
        }
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
        let pool = PACK & !hand & !played & !known_out;
        forbidden[usize::from(viewer)] = 0;
        Some(Knowledge { players, viewer, hand, sizes, pool, forbidden })
    }

    /// The knowledge of a seat holding `hand` before the auction: every other hand unseen.
    pub fn before_auction(players: Players, viewer: u8, hand: u64) -> Knowledge {
        let n = players.count();
        let mut sizes = [0u8; 4];
        for s in sizes.iter_mut().take(usize::from(n)) {
            *s = 5;
        }
        Knowledge { players: n, viewer, hand, sizes, pool: PACK & !hand, forbidden: [0; 4] }
    }

    /// How many unseen cards lie out of play.
    pub fn out_count(&self) -> usize {
        let held: usize =
            (0..self.players).filter(|&s| s != self.viewer).map(|s| usize::from(self.sizes[usize::from(s)])).sum();
        (self.pool.count_ones() as usize).saturating_sub(held)
    }
}

/// Draws layouts of the unseen cards uniformly among those consistent with a [`Knowledge`].
#[derive(Debug, Clone)]
pub struct Sampler {
    viewer_hand: u64,
    viewer: u8,
    /// The other seats.
    others: Vec<u8>,
    /// Their hand sizes.
    caps: [usize; 3],
    /// The unseen cards in a fixed order.
    cards: Vec<u8>,
    /// For each card, the others (by position in `others`) that may hold it.
    allowed: Vec<u8>,
    /// Index strides of the capacity state.
    strides: [usize; 3],
    states: usize,
    /// ways[i * states + state]: layouts of cards i.. with these capacities left.
    ways: Vec<u64>,
}

impl Sampler {
    /// A sampler, or `None` when no layout fits the knowledge (it then has an error).
    pub fn new(k: &Knowledge) -> Option<Sampler> {
        let others: Vec<u8> = (0..k.players).filter(|&s| s != k.viewer).collect();
        let mut caps = [0usize; 3];
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
        let strides = [1, caps[0] + 1, (caps[0] + 1) * (caps[1] + 1)];
        let states = strides[2] * (caps[2] + 1);
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

    fn state_caps(&self, state: usize) -> [usize; 3] {
        [state % self.strides[1], (state / self.strides[1]) % (self.caps[1] + 1), state / self.strides[2]]
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
                let held = c[0] + c[1] + c[2];
                if held > left {
                    continue;
                }
                let mut w = 0u64;
                if held < left {
                    w += ways[(i + 1) * states + state];
                }
                for j in 0..3 {
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
        self.caps[0] * self.strides[0] + self.caps[1] * self.strides[1] + self.caps[2] * self.strides[2]
    }

    /// How many layouts fit.
    pub fn count(&self) -> u64 {
        self.ways[self.full_state()]
    }

    fn layout(&self, owners: &[u8]) -> Layout {
        let mut hands = [0u64; 4];
        hands[usize::from(self.viewer)] = self.viewer_hand;
        let mut out = 0u64;
        for (&c, &o) in self.cards.iter().zip(owners) {
            if o == 3 {
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
        let mut owners = [3u8; 52];
        for i in 0..self.cards.len() {
            let total = self.ways[i * states + state];
            let mut r = rng.below(total.max(1));
            let next = (i + 1) * states;
            let mut chosen = 3u8;
            let c = self.state_caps(state);
            let held = c[0] + c[1] + c[2];
            for j in 0..3 {
                if c[j] > 0 && self.allowed[i] & (1 << j) != 0 {
                    let w = self.ways[next + state - self.strides[j]];
                    if r < w {
                        chosen = j as u8;
                        break;
                    }
                    r -= w;
                }
            }
            if chosen < 3 {
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
        let mut owners = [3u8; 52];
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
        for j in 0..3 {
            if c[j] > 0 && self.allowed[i] & (1 << j) != 0 && self.ways[next + state - self.strides[j]] > 0 {
                owners[i] = j as u8;
                self.walk(i + 1, state - self.strides[j], owners, f);
            }
        }
        if c[0] + c[1] + c[2] < n - i && self.ways[next + state] > 0 {
            owners[i] = 3;
            self.walk(i + 1, state, owners, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_enumeration_and_samples_are_uniform() {
        // Viewer 0 holds 2 cards; seats 1..3 hold one each; 5 cards out; seat 1 void in clubs.
        let mask = |codes: &str| {
            crate::cards::mask_of(codes.split_whitespace().map(|c| c.parse::<fipsen_rules::Card>().unwrap().index()))
        };
        let hand = mask("C7 C8");
        let pool = mask("C9 C10 CJ CQ CK CA S7 S8");
        let mut forbidden = [0; 4];
        forbidden[1] = SUIT_MASKS[0];
        let k = Knowledge { players: 4, viewer: 0, hand, sizes: [2, 1, 1, 1], pool, forbidden };
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
