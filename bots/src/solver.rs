//! The exact solver for the play with every card known ("double dummy").
//!
//! A [`Position`] holds the hands as bit masks, the trumps, the declarer and the trick being
//! played. The search answers one question at a time: *can the declarer take at least `k` more
//! tricks against the opponents playing as one team?* Every score of a deal is a step function
//! of the declarer's tricks — he wins with his count, goes on for Durch only if he can take them
//! all — so a couple of such yes/no searches give the exact result (see [`Stakes`]).
//!
//! What keeps it fast:
//! * **equivalent cards**: of cards of one suit in one hand that are adjacent once the cards
//!   between them are gone (played in finished tricks) or held by the same player, only one is
//!   searched;
//! * **move ordering**: cheapest winning card or lowest loser when following, high cards first
//!   when leading, so that a cut-off comes early;
//! * **a transposition table** at the start of each trick holding bounds on the declarer's
//!   tricks still to come, shared by every question asked about one root position.

use fipsen_rules::{Deal, Game, Phase};

use crate::cards::{Bits, beats, highest, lowest, rank_of, suit_mask_of, trump_mask, winning_card};

/// The most players at a table of the Holstein family (Großenaspe with five).
pub const MAX_PLAYERS: usize = 5;

/// A position of the play with every hand known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// 3 to [`MAX_PLAYERS`].
    pub players: u8,
    /// Each seat's cards (unused seats empty).
    pub hands: [u64; MAX_PLAYERS],
    /// The declarer's seat.
    pub declarer: u8,
    /// The trump cards: the pack's cards of the trump suit (in Prisdorf's Ruten the seven of
    /// diamonds alone).
    pub trumps: u64,
    /// Who led the trick being played (or leads next, when `trick_len` is 0).
    pub leader: u8,
    /// The cards played to the current trick, in order from the leader.
    pub trick: [u8; MAX_PLAYERS],
    /// How many cards lie in the current trick.
    pub trick_len: u8,
}

impl Position {
    /// The seat to play.
    pub fn turn(&self) -> u8 {
        (self.leader + self.trick_len) % self.players
    }

    /// The cards the seat to play may play.
    pub fn playable(&self) -> u64 {
        let hand = self.hands[usize::from(self.turn())];
        if self.trick_len == 0 {
            return hand;
        }
        let follow = hand & suit_mask_of(self.trick[0]);
        if follow != 0 { follow } else { hand }
    }

    /// Tricks still to be finished, the current one included.
    pub fn tricks_left(&self) -> u8 {
        self.hands[usize::from(self.leader)].count_ones() as u8 + u8::from(self.trick_len > 0)
    }

    /// The position after the seat to play plays `card` (which must be playable). Returns the
    /// new position and, if the card finished a trick, its winner.
    pub fn play(&self, card: u8) -> (Position, Option<u8>) {
        let mut next = *self;
        let turn = usize::from(self.turn());
        next.hands[turn] &= !(1 << card);
        next.trick[usize::from(self.trick_len)] = card;
        next.trick_len += 1;
        if next.trick_len < self.players {
            return (next, None);
        }
        let winner = trick_winner(&next.trick, next.players, next.leader, next.trumps);
        next.leader = winner;
        next.trick_len = 0;
        next.trick = [0; MAX_PLAYERS];
        (next, Some(winner))
    }

    /// The position of a deal of the rules crate in its play (or Durch choice) phase.
    pub fn from_deal(deal: &Deal) -> Option<Position> {
        let game = deal.game()?;
        let declarer = deal.declarer()?.0;
        if !matches!(deal.phase(), Phase::Play | Phase::DurchChoice) {
            return None;
        }
        let players = deal.players();
        let mut hands = [0u64; MAX_PLAYERS];
        for s in 0..players {
            hands[usize::from(s)] = deal.hand(fipsen_rules::Seat(s)).bits();
        }
        let current = deal.current_trick();
        let leader = match current.first() {
            Some(play) => play.seat.0,
            None => deal.turn().map_or(declarer, |s| s.0),
        };
        let mut trick = [0u8; MAX_PLAYERS];
        for (i, play) in current.iter().enumerate() {
            trick[i] = play.card.index();
        }
        Some(Position {
            players,
            hands,
            declarer,
            trumps: trump_mask(game.trumps?),
            leader,
            trick,
            trick_len: current.len() as u8,
        })
    }
}

/// The seat that wins a full trick.
fn trick_winner(trick: &[u8; MAX_PLAYERS], players: u8, leader: u8, trumps: u64) -> u8 {
    let mut mask = 0u64;
    for &c in &trick[..usize::from(players)] {
        mask |= 1 << c;
    }
    let best = winning_card(mask, trick[0], trumps);
    let i = trick[..usize::from(players)].iter().position(|&c| c == best).unwrap_or(0) as u8;
    (leader + i) % players
}

/// What the declarer's tricks are worth: the contract, the game's value now, and the tricks so
/// far. Turns a number of tricks into the declarer's score under best play of both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stakes {
    /// The tricks the contract needs (5 for a Kieker).
    pub tricks: u8,
    /// All five tricks are already needed: a 5, a Kieker, or the declarer went on.
    pub durch: bool,
    /// The game's value now (base × 2^doubles, Durch included once it applies).
    pub value: i32,
    /// Tricks the declarer has taken.
    pub won: u8,
    /// Tricks the opponents have taken.
    pub lost: u8,
    /// A lost game costs this many times its value (2 in Prisdorf; an option in Großenaspe).
    pub loss_factor: i32,
    /// Whether a declarer who reaches his count without a loss may go on for Durch. Always in
    /// Prisdorf and Großenaspe; a table option in Anseggerfips and Duttfips, where without it
    /// the deal ends at the count and taking every trick is worth no more.
    pub durch_open: bool,
}

impl Stakes {
    /// The stakes of a declared game of Prisdorf after the tricks taken so far.
    pub fn from_game(game: &Game, won: u8, lost: u8) -> Stakes {
        Stakes {
            tricks: game.tricks,
            durch: game.durch,
            value: game.value(),
            won,
            lost,
            loss_factor: 2,
            durch_open: true,
        }
    }

    /// The declarer's score when he ends with `total` tricks, going on for Durch whenever he
    /// may and can take all five (he chooses with every card known).
    pub fn score(&self, total: u8) -> i32 {
        let lost = -self.loss_factor * self.value;
        if self.durch {
            if total >= 5 { self.value } else { lost }
        } else if self.durch_open && total >= 5 && self.lost == 0 {
            2 * self.value
        } else if total >= self.tricks {
            self.value
        } else {
            lost
        }
    }

    /// The further tricks at which the score changes, lowest first: reaching the count, and
    /// (when Durch may still be played) taking all the rest.
    fn steps(&self) -> ([u8; 2], usize) {
        let all = 5u8.saturating_sub(self.won);
        if self.durch {
            ([all, 0], 1)
        } else {
            let count = self.tricks.saturating_sub(self.won);
            if self.durch_open && self.lost == 0 && all > count { ([count, all], 2) } else { ([count, 0], 1) }
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    /// The hands at the start of the trick.
    hands: [u64; MAX_PLAYERS],
    generation: u32,
    /// Who leads the trick.
    leader: u8,
    /// The declarer takes at least this many more tricks.
    lower: u8,
    /// The declarer takes at most this many more tricks.
    upper: u8,
}

const TABLE_BITS: u32 = 12;

/// The exact solver. Keep one and reuse it: it owns its transposition table.
#[derive(Debug, Clone)]
pub struct Solver {
    table: Vec<Entry>,
    generation: u32,
    players: u8,
    declarer: u8,
    trumps: u64,
    /// Positions visited since the solver was made (for measurements).
    pub nodes: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

/// A card and the declarer's score under best play after it.
pub type CardValue = (u8, i32);

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver {
            table: vec![Entry::default(); 1 << TABLE_BITS],
            generation: 0,
            players: 4,
            declarer: 0,
            trumps: 0,
            nodes: 0,
        }
    }

    fn start(&mut self, pos: &Position) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.iter_mut().for_each(|e| *e = Entry::default());
            self.generation = 1;
        }
        self.players = pos.players;
        self.declarer = pos.declarer;
        self.trumps = pos.trumps;
    }

    /// Whether the declarer can take at least `k` more tricks (the current trick included).
    pub fn at_least(&mut self, pos: &Position, k: u8) -> bool {
        self.start(pos);
        self.root(pos, k as i8)
    }

    /// The most further tricks the declarer can be sure of (the current trick included).
    pub fn max_tricks(&mut self, pos: &Position) -> u8 {
        self.start(pos);
        let left = pos.tricks_left();
        let (mut lo, mut hi) = (0u8, left);
        // Binary search on the threshold; the table keeps the bounds learned on the way.
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if self.root(pos, mid as i8) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    /// Whether the declarer's further tricks reach each of `thresholds` (which must be
    /// increasing): returns how many of them he reaches.
    pub fn reaches(&mut self, pos: &Position, thresholds: &[u8]) -> usize {
        self.start(pos);
        let mut count = 0;
        for &k in thresholds {
            if !self.root(pos, k as i8) {
                break;
            }
            count += 1;
        }
        count
    }

    /// The declarer's score under best play, and a best card for the seat to play.
    pub fn solve(&mut self, pos: &Position, stakes: &Stakes) -> (i32, u8) {
        self.start(pos);
        let (steps, n) = stakes.steps();
        let steps = &steps[..n];
        let score_of = |reached: usize| -> i32 {
            let extra = if reached == 0 { 0 } else { steps[reached - 1] };
            stakes.score(stakes.won + extra)
        };
        let mut moves = [0u8; 10];
        let count = self.moves(pos, &mut moves);
        let moves = &moves[..count];
        let declarer_moves = pos.turn() == self.declarer;
        if declarer_moves {
            // The highest step some card reaches.
            for reached in (1..=steps.len()).rev() {
                let need = steps[reached - 1] as i8;
                for &m in moves {
                    if self.after(pos, m, need) {
                        return (score_of(reached), m);
                    }
                }
            }
            (score_of(0), moves[count - 1])
        } else {
            // The lowest step some card holds the declarer to.
            for (reached, &need) in steps.iter().enumerate() {
                for &m in moves {
                    if !self.after(pos, m, need as i8) {
                        return (score_of(reached), m);
                    }
                }
            }
            (score_of(steps.len()), moves[count - 1])
        }
    }

    /// The declarer's score under best play after each card the seat to play may play
    /// (equivalent cards get the same value). Appends to `out`.
    pub fn card_values(&mut self, pos: &Position, stakes: &Stakes, out: &mut Vec<CardValue>) {
        self.start(pos);
        let (steps, n) = stakes.steps();
        let mut moves = [0u8; 10];
        let count = self.moves(pos, &mut moves);
        let first = out.len();
        for &m in &moves[..count] {
            let mut reached = 0;
            for &k in &steps[..n] {
                if !self.after(pos, m, k as i8) {
                    break;
                }
                reached += 1;
            }
            let extra = if reached == 0 { 0 } else { steps[reached - 1] };
            out.push((m, stakes.score(stakes.won + extra)));
        }
        // The cards left out as equivalent take the value of their representative.
        let playable = pos.playable();
        let turn = usize::from(pos.turn());
        let alive = self.alive(pos);
        for c in Bits(playable) {
            if out[first..].iter().any(|&(m, _)| m == c) {
                continue;
            }
            let rep = representative(c, pos.hands[turn], alive);
            if let Some(&(_, v)) = out[first..first + count].iter().find(|&&(m, _)| m == rep) {
                out.push((c, v));
            }
        }
    }

    fn alive(&self, pos: &Position) -> u64 {
        let mut alive = 0;
        for h in &pos.hands[..usize::from(pos.players)] {
            alive |= h;
        }
        for &c in &pos.trick[..usize::from(pos.trick_len)] {
            alive |= 1 << c;
        }
        alive
    }

    /// Whether the declarer takes `need` more tricks after the seat to play plays `m`.
    fn after(&mut self, pos: &Position, m: u8, need: i8) -> bool {
        let turn = usize::from(pos.turn());
        let mut hands = pos.hands;
        hands[turn] &= !(1 << m);
        let mut trick = pos.trick;
        trick[usize::from(pos.trick_len)] = m;
        self.play(hands, pos.leader, pos.trick_len + 1, trick, need)
    }

    fn root(&mut self, pos: &Position, need: i8) -> bool {
        if pos.trick_len == 0 {
            self.trick_start(pos.hands, pos.leader, need)
        } else {
            self.play(pos.hands, pos.leader, pos.trick_len, pos.trick, need)
        }
    }

    /// The root's moves: representatives of equivalent cards, ordered.
    fn moves(&self, pos: &Position, out: &mut [u8; 10]) -> usize {
        let mut trick_mask = 0u64;
        for &c in &pos.trick[..usize::from(pos.trick_len)] {
            trick_mask |= 1 << c;
        }
        self.gen_moves(&pos.hands, pos.leader, pos.trick_len, &pos.trick, trick_mask, out)
    }

    fn trick_start(&mut self, hands: [u64; MAX_PLAYERS], leader: u8, need: i8) -> bool {
        self.nodes += 1;
        if need <= 0 {
            return true;
        }
        let left = hands[usize::from(leader)].count_ones() as i8;
        if need > left {
            return false;
        }
        if left == 1 {
            let mut trick = [0u8; MAX_PLAYERS];
            for i in 0..self.players {
                trick[usize::from(i)] = lowest(hands[usize::from((leader + i) % self.players)]);
            }
            return trick_winner(&trick, self.players, leader, self.trumps) == self.declarer;
        }
        // Sure tricks: a trump above every trump of the other side wins whenever it is played.
        let (sure, lost) = self.sure_tricks(&hands);
        if need <= sure as i8 {
            return true;
        }
        if need > left - lost as i8 {
            return false;
        }
        let index = table_index(&hands, leader);
        let entry = self.table[index];
        let (mut lower, mut upper) = (0u8, left as u8);
        if entry.generation == self.generation && entry.hands == hands && entry.leader == leader {
            if i16::from(entry.lower) >= i16::from(need) {
                return true;
            }
            if i16::from(entry.upper) < i16::from(need) {
                return false;
            }
            (lower, upper) = (entry.lower, entry.upper);
        }
        let result = self.play(hands, leader, 0, [0; MAX_PLAYERS], need);
        if result {
            lower = lower.max(need as u8);
        } else {
            upper = upper.min(need as u8 - 1);
        }
        self.table[index] = Entry { hands, generation: self.generation, leader, lower, upper };
        result
    }

    /// Tricks the declarer is sure of, and tricks the opponents are sure of, from trumps alone:
    /// each of his trumps above all of theirs wins the trick it is played to; so does each of
    /// one opponent's trumps above all of his (one opponent plays one card a trick).
    fn sure_tricks(&self, hands: &[u64; MAX_PLAYERS]) -> (u32, u32) {
        let t = self.trumps;
        let mine = hands[usize::from(self.declarer)] & t;
        let mut theirs = 0u64;
        let mut lost = 0u32;
        let above_mine = if mine == 0 { t } else { !((2u64 << highest(mine)) - 1) };
        for s in 0..self.players {
            if s != self.declarer {
                let h = hands[usize::from(s)] & t;
                theirs |= h;
                lost = lost.max((h & above_mine).count_ones());
            }
        }
        let above_theirs = if theirs == 0 { t } else { !((2u64 << highest(theirs)) - 1) };
        ((mine & above_theirs).count_ones(), lost)
    }

    fn play(&mut self, hands: [u64; MAX_PLAYERS], leader: u8, count: u8, trick: [u8; MAX_PLAYERS], need: i8) -> bool {
        if count == self.players {
            let winner = trick_winner(&trick, self.players, leader, self.trumps);
            let need = need - i8::from(winner == self.declarer);
            return self.trick_start(hands, winner, need);
        }
        self.nodes += 1;
        let mut trick_mask = 0u64;
        for &c in &trick[..usize::from(count)] {
            trick_mask |= 1 << c;
        }
        let mut moves = [0u8; 10];
        let n = self.gen_moves(&hands, leader, count, &trick, trick_mask, &mut moves);
        let turn = (leader + count) % self.players;
        let declarer = turn == self.declarer;
        for &m in &moves[..n] {
            let mut next = hands;
            next[usize::from(turn)] &= !(1 << m);
            let mut t = trick;
            t[usize::from(count)] = m;
            let r = self.play(next, leader, count + 1, t, need);
            if r == declarer {
                return r;
            }
        }
        !declarer
    }

    /// The cards worth trying for the seat to play, best first; returns how many.
    fn gen_moves(
        &self,
        hands: &[u64; MAX_PLAYERS],
        leader: u8,
        count: u8,
        trick: &[u8; MAX_PLAYERS],
        trick_mask: u64,
        out: &mut [u8; 10],
    ) -> usize {
        let players = self.players;
        let turn = (leader + count) % players;
        let hand = hands[usize::from(turn)];
        let playable = if count == 0 {
            hand
        } else {
            let follow = hand & suit_mask_of(trick[0]);
            if follow != 0 { follow } else { hand }
        };
        let mut alive = trick_mask;
        for h in &hands[..usize::from(players)] {
            alive |= h;
        }
        let trumps = self.trumps;
        let declarer_side = turn == self.declarer;
        // Who wins the trick so far, and is that my side?
        let (best, mine_winning) = if count == 0 {
            (0u8, false)
        } else {
            let best = winning_card(trick_mask, trick[0], trumps);
            let at = trick[..usize::from(count)].iter().position(|&c| c == best).unwrap_or(0) as u8;
            let winner = (leader + at) % players;
            (best, (winner == self.declarer) == declarer_side)
        };
        let last = count + 1 == players;
        let mut scored = [(0i16, 0u8); 10];
        let mut n = 0;
        for c in Bits(playable) {
            // Only the top card of a run of equivalent cards.
            let above = suit_mask_of(c) & alive & !((2u64 << c) - 1);
            if above != 0 && hand & (1 << lowest(above)) != 0 {
                continue;
            }
            // Trumps above plain cards: 0..13 plain, 13..26 trumps.
            let rank = i16::from(rank_of(c)) + if trumps & (1 << c) != 0 { 13 } else { 0 };
            let score = if count == 0 {
                // Leads: the highest card left of its suit first, trumps before plain cards.
                if above & !hand == 0 {
                    32 + rank
                } else if declarer_side {
                    rank
                } else {
                    -rank
                }
            } else if mine_winning && (last || !declarer_side) {
                -rank
            } else if beats(c, best, trumps) {
                100 - rank
            } else {
                -rank
            };
            // Insertion by score, best first.
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

/// The slot of a trick start in the table: a hash of the hands and the leader.
#[inline]
fn table_index(hands: &[u64; MAX_PLAYERS], leader: u8) -> usize {
    let folded = hands[0]
        ^ hands[1].rotate_left(13)
        ^ hands[2].rotate_left(29)
        ^ hands[3].rotate_left(43)
        ^ hands[4].rotate_left(53)
        ^ u64::from(leader) << 61;
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize
}

/// The top of the run of equivalent cards that `c` belongs to in `hand`.
fn representative(c: u8, hand: u64, alive: u64) -> u8 {
    let mut c = c;
    loop {
        let above = suit_mask_of(c) & alive & !((2u64 << c) - 1);
        if above == 0 {
            return c;
        }
        let next = lowest(above);
        if hand & (1 << next) == 0 {
            return c;
        }
        c = next;
    }
}
