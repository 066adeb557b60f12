//! The analysis of the play of trick games where every seat plays for himself (Thedinghausen,
//! Tippen): with every card known, the tricks a side can be sure of against every other seat
//! playing as one side, by an exact search ("can the side take at least `k` more tricks?")
//! with bounds kept at the start of each trick. The search stops where the rules stop the deal
//! ([`Table::race`]).

use std::collections::HashMap;

use fipsen_rules::{Card, Play, Seat};

use super::{Analysis, Budget, Method, Unit, entry, unanalysed};
use crate::cards::{Bits, card, winning_card};

/// The most seats in play at once.
pub const MAX_SEATS: usize = 10;

/// Which cards a hand may play: `legal(hand, trick, done)` with the cards of the trick being
/// played from its leader (empty: a lead) and the tricks finished so far.
pub type Legal<'a> = &'a dyn Fn(u64, &[u8], u8) -> u64;

/// The table of a search: who plays, in order, the trumps and the rule for the cards allowed.
#[derive(Clone, Copy)]
pub struct Table<'a> {
    /// The seats in play, in the order they play around the table.
    pub seats: &'a [Seat],
    /// The trump cards.
    pub trumps: u64,
    /// The cards allowed.
    pub legal: Legal<'a>,
    /// Where the rules end the deal before its last trick: for each place, the tricks of this
    /// deal that bring its player's count to the end of the round (Thedinghausen's race to
    /// ten: the rest of the deal is not played, so no trick after it counts). `None`: every
    /// trick is played.
    pub race: Option<[u8; MAX_SEATS]>,
}

/// A position of the play: the hands of the seats in play (by their place in
/// [`Table::seats`]), who leads, the trick being played and the tricks finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    /// The hands, by place at the table.
    pub hands: [u64; MAX_SEATS],
    /// The place of the leader of the trick being played.
    pub leader: u8,
    /// The cards of the trick, from the leader.
    pub trick: [u8; MAX_SEATS],
    /// How many.
    pub len: u8,
    /// Tricks finished.
    pub done: u8,
    /// Tricks taken in the deal by each place, kept only under a race ([`Table::race`]; zero
    /// otherwise, so that positions reached by different tricks share their bounds).
    pub taken: [u8; MAX_SEATS],
}

impl State {
    /// The place of the seat to play.
    fn turn(&self, n: usize) -> usize {
        (usize::from(self.leader) + usize::from(self.len)) % n
    }

    /// Tricks still to be finished, the current one included.
    fn left(&self) -> u8 {
        self.hands[usize::from(self.leader)].count_ones() as u8 + u8::from(self.len > 0)
    }
}

impl std::fmt::Debug for Table<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("seats", &self.seats)
            .field("trumps", &self.trumps)
            .field("race", &self.race)
            .finish_non_exhaustive()
    }
}

impl Table<'_> {
    fn n(&self) -> usize {
        self.seats.len()
    }

    /// The cards the seat to play may play.
    fn playable(&self, s: &State) -> u64 {
        let hand = s.hands[s.turn(self.n())];
        (self.legal)(hand, &s.trick[..usize::from(s.len)], s.done) & hand
    }

    /// The position after the seat to play plays `c`, and the place of the trick's winner if
    /// it finished one.
    fn play(&self, s: &State, c: u8) -> (State, Option<usize>) {
        let n = self.n();
        let mut next = *s;
        next.hands[s.turn(n)] &= !(1 << c);
        next.trick[usize::from(s.len)] = c;
        next.len += 1;
        if usize::from(next.len) < n {
            return (next, None);
        }
        let trick = &next.trick[..n];
        let best = winning_card(trick.iter().fold(0, |m, &c| m | 1 << c), trick[0], self.trumps);
        let at = trick.iter().position(|&c| c == best).unwrap_or(0);
        let winner = (usize::from(next.leader) + at) % n;
        next.leader = winner as u8;
        next.len = 0;
        next.trick = [0; MAX_SEATS];
        next.done += 1;
        if let Some(race) = &self.race {
            next.taken[winner] += 1;
            if next.taken[winner] >= race[winner] {
                // The round is won: the deal ends here, the cards left unplayed.
                next.hands = [0; MAX_SEATS];
            }
        }
        (next, Some(winner))
    }
}

/// The exact search for one side (a set of places at the table).
struct Search<'t, 'a> {
    table: &'t Table<'a>,
    side: u16,
    /// Bounds on the side's further tricks at trick starts.
    bounds: HashMap<State, (u8, u8)>,
    nodes: u64,
}

impl Search<'_, '_> {
    /// Whether the side takes at least `need` more tricks (the current one included).
    fn reach(&mut self, s: &State, need: i8) -> bool {
        self.nodes += 1;
        if need <= 0 {
            return true;
        }
        let left = s.left();
        if need > left as i8 {
            return false;
        }
        let (mut lower, mut upper) = (0u8, left);
        if s.len == 0
            && let Some(&(lo, hi)) = self.bounds.get(s)
        {
            if lo as i8 >= need {
                return true;
            }
            if (hi as i8) < need {
                return false;
            }
            (lower, upper) = (lo, hi);
        }
        let mine = self.side & (1 << s.turn(self.table.n())) != 0;
        let mut result = !mine;
        for c in Bits(self.table.playable(s)) {
            let (next, winner) = self.table.play(s, c);
            let got = winner.is_some_and(|w| self.side & (1 << w) != 0);
            if self.reach(&next, need - i8::from(got)) == mine {
                result = mine;
                break;
            }
        }
        if s.len == 0 {
            if result {
                lower = lower.max(need as u8);
            } else {
                upper = upper.min(need as u8 - 1);
            }
            self.bounds.insert(*s, (lower, upper));
        }
        result
    }

    /// The most further tricks the side can be sure of.
    fn most(&mut self, s: &State) -> u8 {
        let mut k = 0;
        while k < s.left() && self.reach(s, k as i8 + 1) {
            k += 1;
        }
        k
    }
}

/// The analysis of a play: `hands` by place at the table when the first card was led by
/// place `leader`, then `plays` in order. `side_of(place)` is the set of places (a bit each)
/// whose tricks count for that place's player. `None` if the plays do not fit the hands.
pub fn analyse(
    table: &Table,
    hands: [u64; MAX_SEATS],
    leader: u8,
    plays: &[Play],
    side_of: impl Fn(usize) -> u16,
    budget: Budget,
) -> Option<Analysis> {
    let n = table.n();
    if n == 0 || n > MAX_SEATS {
        return None;
    }
    let mut s = State { hands, leader, trick: [0; MAX_SEATS], len: 0, done: 0, taken: [0; MAX_SEATS] };
    let mut searches: HashMap<u16, Search> = HashMap::new();
    let mut taken = [0u8; MAX_SEATS];
    let mut cards = Vec::with_capacity(plays.len());
    let mut nodes = 0u64;
    let mut complete = true;
    for (i, p) in plays.iter().enumerate() {
        let place = s.turn(n);
        let playable = table.playable(&s);
        if table.seats[place] != p.seat || playable & (1 << p.card.index()) == 0 {
            return None;
        }
        if nodes >= budget.nodes {
            complete = false;
            cards.push(unanalysed(i, p.seat, p.card));
        } else {
            let side = side_of(place);
            let search =
                searches.entry(side).or_insert_with(|| Search { table, side, bounds: HashMap::new(), nodes: 0 });
            let before_nodes = search.nodes;
            let so_far: u8 = (0..n).filter(|&q| side & (1 << q) != 0).map(|q| taken[q]).sum();
            let mut values: Vec<(Card, i32)> = Vec::new();
            for c in Bits(playable) {
                let (next, winner) = table.play(&s, c);
                let got = u8::from(winner.is_some_and(|w| side & (1 << w) != 0));
                values.push((card(c), i32::from(so_far + got + search.most(&next))));
            }
            nodes += search.nodes - before_nodes;
            cards.push(entry(i, p.seat, p.card, &values, None));
        }
        let (next, winner) = table.play(&s, p.card.index());
        if let Some(w) = winner {
            taken[w] += 1;
        }
        s = next;
    }
    Some(Analysis { unit: Unit::Tricks, method: Method::AgainstAll, cards, complete, nodes })
}
