//! Listing the legal moves (§E9): per hand card, whether it may be discarded, the sets of
//! piles it can capture and the cores and extras of each build, each set with one witness tree;
//! and the selection query [`options`].

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::expr::{BuildingId, Expr, Move, value};
use super::reach::{Key, Reach, reach, unit};
use super::rules::Rules;
use super::table::{Pile, PileRef};
use crate::card::{Card, CardSet};
use crate::error::RuleError;
use crate::seat::Seat;

/// Where a listing is made: the table, the mover's hand and seat, the rules.
#[derive(Debug, Clone, Copy)]
pub struct Position<'a> {
    /// The table's options.
    pub rules: &'a Rules,
    /// The piles on the table, in table order.
    pub table: &'a [Pile],
    /// The mover's hand.
    pub hand: CardSet,
    /// The mover.
    pub seat: Seat,
}

/// One build value of a hand card, as sets of table piles (bit i: the table's pile i).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawBuild {
    /// The value built.
    pub value: u8,
    /// Sets S such that S plus the hand card can make the value.
    pub cores: Vec<u64>,
    /// Sets S (non-empty) that can make the value.
    pub extras: Vec<u64>,
}

/// The listing of one hand card as sets of table piles (bit i: the table's pile i), without
/// witnesses: what [`Listing`] holds, computed first and cheaply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawCard {
    /// The hand card.
    pub card: Card,
    /// Whether it may be discarded.
    pub discard: bool,
    /// Every set of at most g piles that can make the card's value.
    pub capture: Vec<u64>,
    /// The buildings a capture must take (keep the promise).
    pub must_include: u64,
    /// For each value the card may build to.
    pub builds: Vec<RawBuild>,
}

/// A set of table piles with one expression that makes the target from them.
///
/// ```json
/// {"piles": [{"card": "S3"}, {"card": "D2"}, {"card": "C4"}],
///  "witness": {"op": "+", "l": {"op": "*", "l": {"card": "S3"}, "r": {"card": "D2"}}, "r": {"card": "C4"}}}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenGroup"))]
pub struct Group {
    /// The piles, in table order.
    pub piles: Vec<PileRef>,
    /// One tree using them (and, for a build's core, the hand card).
    pub witness: Expr,
}

/// The builds of one hand card to one value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenBuildListing"))]
pub struct BuildListing {
    /// The value built.
    pub value: u8,
    /// The groups holding the hand card: sets S such that S plus the card can make the value.
    pub cores: Vec<Group>,
    /// The other groups: sets of table piles that can make the value.
    pub extras: Vec<Group>,
}

/// Everything one hand card can do (§E9). A capture is legal exactly when it is a non-empty
/// collection of pairwise disjoint `capture` groups that includes every building of
/// `must_include`; a build exactly when it is one core and any pairwise disjoint extras
/// disjoint from it, using at least one table pile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenCardListing"))]
pub struct CardListing {
    /// The hand card.
    pub card: Card,
    /// Whether it may be discarded.
    pub discard: bool,
    /// The capture groups.
    pub capture: Vec<Group>,
    /// The buildings every capture with this card must take.
    pub must_include: Vec<BuildingId>,
    /// The builds, by value.
    pub builds: Vec<BuildListing>,
}

/// The structured listing of a player's legal moves, one entry per hand card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenListing"))]
pub struct Listing {
    /// Per hand card, lowest first.
    pub cards: Vec<CardListing>,
}

impl<'a> Position<'a> {
    /// The reach table of the rules.
    pub(crate) fn reach(&self) -> std::sync::Arc<Reach> {
        reach(self.rules.operators, self.rules.max_group_piles)
    }

    fn g(&self) -> usize {
        usize::from(self.rules.max_group_piles)
    }

    /// The mover's buildings of value `v`, as a pile mask.
    pub(crate) fn own_of_value(&self, v: u8) -> u64 {
        self.own_where(|b| b == v)
    }

    /// The mover's buildings of another value than `v`, as a pile mask.
    pub(crate) fn own_other_than(&self, v: u8) -> u64 {
        self.own_where(|b| b != v)
    }

    fn own_where(&self, f: impl Fn(u8) -> bool) -> u64 {
        self.table
            .iter()
            .enumerate()
            .filter(|(_, p)| p.building().is_some_and(|b| b.owner == self.seat && f(b.value)))
            .fold(0, |m, (i, _)| m | (1 << i))
    }

    /// Whether the hand holds a card of value `v` other than `card`.
    pub(crate) fn holds_other(&self, card: Card, v: u8) -> bool {
        self.hand.iter().any(|c| c != card && value(c) == v)
    }

    /// The buildings a move with `card` must not leave behind (keep the promise): the mover's
    /// buildings of the card's value when it is his last card of that value.
    pub(crate) fn promise(&self, card: Card) -> u64 {
        let w = value(card);
        if !self.rules.keep_promise || self.holds_other(card, w) { 0 } else { self.own_of_value(w) }
    }

    /// The values `card` may build to: those of the other hand cards (none but its own value
    /// when the promise binds it, and then none at all).
    pub(crate) fn build_values(&self, card: Card) -> Vec<u8> {
        let promise = self.promise(card) != 0;
        let w = value(card);
        let mut values: Vec<u8> =
            self.hand.iter().filter(|&c| c != card).map(value).filter(|&v| !promise || v == w).collect();
        values.sort_unstable();
        values.dedup();
        values
    }

    /// The key of the multiset of values of the piles in `mask`.
    pub(crate) fn key(&self, mask: u64) -> Key {
        let mut key = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            key += unit(self.table[i].value());
            m &= m - 1;
        }
        key
    }

    /// The listing as pile masks, without witnesses.
    pub fn raw(&self) -> Vec<RawCard> {
        self.raw_within(u64::MAX).0
    }

    /// [`Position::raw`] from at most `sets` sets of piles, and whether that was all of them: a
    /// table of dozens of loose cards with groups of up to six piles has millions of sets, more
    /// than a prompt may cost (BENCHMARKS.md, Wippen); what is left out can still be asked for
    /// by selection ([`Position::options`]).
    pub fn raw_within(&self, sets: u64) -> (Vec<RawCard>, bool) {
        let reach = self.reach();
        let n = self.table.len().min(64);
        let g = self.g();
        let cards: Vec<Card> = self.hand.iter().collect();
        let mut out: Vec<RawCard> = cards
            .iter()
            .map(|&card| {
                let promise = self.promise(card);
                RawCard {
                    card,
                    discard: promise == 0,
                    capture: Vec::new(),
                    must_include: promise,
                    builds: self
                        .build_values(card)
                        .into_iter()
                        .map(|v| RawBuild {
                            value: v,
                            cores: if v == value(card) { vec![0] } else { Vec::new() },
                            extras: Vec::new(),
                        })
                        .collect(),
                }
            })
            .collect();
        // The distinct card values with their cards' indices.
        let mut by_value: Vec<(u8, Vec<usize>)> = Vec::new();
        for (i, &c) in cards.iter().enumerate() {
            let w = value(c);
            match by_value.iter_mut().find(|(v, _)| *v == w) {
                Some((_, list)) => list.push(i),
                None => by_value.push((w, vec![i])),
            }
        }
        let any_builds = out.iter().any(|c| !c.builds.is_empty());
        let own_other: [u64; 14] = std::array::from_fn(|v| self.own_other_than(v as u8));
        let keys: Vec<Key> = self.table.iter().take(n).map(|p| unit(p.value())).collect();
        // Every set of 1 to g piles, once, up to `sets` of them.
        let mut left = sets;
        let mut visit = |mask: u64, key: Key| {
            if left == 0 {
                return false;
            }
            left -= 1;
            let m = reach.mask(key);
            for (w, idx) in &by_value {
                let capture = m & (1 << w) != 0;
                let core_mask = if any_builds { reach.mask(key + unit(*w)) } else { 0 };
                for &i in idx {
                    let rc = &mut out[i];
                    if capture {
                        rc.capture.push(mask);
                    }
                    for b in &mut rc.builds {
                        if mask & own_other[usize::from(b.value)] != 0 {
                            continue;
                        }
                        if core_mask & (1 << b.value) != 0 {
                            b.cores.push(mask);
                        }
                        if m & (1 << b.value) != 0 {
                            b.extras.push(mask);
                        }
                    }
                }
            }
            true
        };
        let complete = subsets_while(&keys, g, &mut visit);
        (out, complete)
    }

    /// Every set of 1 to g table piles that can make at least one value 1–13, with those values
    /// as bits (bit v: value v), from one pass over the sets: what a card of any value could
    /// capture there, or add to a build as an extra. For bots weighing what a table offers to
    /// cards not in the mover's hand; the hand plays no part.
    pub fn group_values(&self) -> Vec<(u64, u16)> {
        let reach = self.reach();
        let n = self.table.len().min(64);
        let keys: Vec<Key> = self.table.iter().take(n).map(|p| unit(p.value())).collect();
        let mut out = Vec::new();
        subsets(&keys, self.g(), &mut |mask, key| {
            let m = reach.mask(key);
            if m != 0 {
                out.push((mask, m));
            }
        });
        out
    }

    /// The listing with a witness tree for every set.
    pub fn listing(&self) -> Listing {
        let raw = self.raw();
        Listing {
            cards: raw
                .into_iter()
                .map(|rc| {
                    let w = value(rc.card);
                    CardListing {
                        card: rc.card,
                        discard: rc.discard,
                        capture: rc.capture.iter().map(|&m| self.group(m, None, w)).collect(),
                        must_include: self.buildings_in(rc.must_include),
                        builds: rc
                            .builds
                            .iter()
                            .map(|b| BuildListing {
                                value: b.value,
                                cores: b.cores.iter().map(|&m| self.group(m, Some(rc.card), b.value)).collect(),
                                extras: b.extras.iter().map(|&m| self.group(m, None, b.value)).collect(),
                            })
                            .collect(),
                    }
                })
                .collect(),
        }
    }

    /// The piles of a mask, in table order.
    pub fn piles(&self, mask: u64) -> Vec<PileRef> {
        (0..self.table.len()).filter(|i| mask & (1 << i) != 0).map(|i| self.table[i].name()).collect()
    }

    fn buildings_in(&self, mask: u64) -> Vec<BuildingId> {
        (0..self.table.len())
            .filter(|i| mask & (1 << i) != 0)
            .filter_map(|i| self.table[i].building().map(|b| b.id))
            .collect()
    }

    /// A witness tree over the piles of `mask` (and the hand card, if any) worth `target`.
    pub fn witness(&self, mask: u64, hand: Option<Card>, target: u8) -> Option<Expr> {
        let mut leaves: Vec<(u8, Expr)> = (0..self.table.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| (self.table[i].value(), self.table[i].name().leaf()))
            .collect();
        if let Some(c) = hand {
            leaves.push((value(c), Expr::Card(c)));
        }
        self.reach().witness(&leaves, u64::from(target))
    }

    fn group(&self, mask: u64, hand: Option<Card>, target: u8) -> Group {
        let witness =
            self.witness(mask, hand, target).unwrap_or_else(|| Expr::Card(hand.unwrap_or(Card::DIAMOND_SEVEN)));
        Group { piles: self.piles(mask), witness }
    }

    /// The mask of named piles.
    ///
    /// # Errors
    /// [`RuleError::UnknownPile`], [`RuleError::PileUsedTwice`].
    pub fn mask_of(&self, piles: &[PileRef]) -> Result<u64, RuleError> {
        let mut mask = 0u64;
        for p in piles {
            let i = self.table.iter().position(|t| t.name() == *p).ok_or(RuleError::UnknownPile)?;
            if mask & (1 << i) != 0 {
                return Err(RuleError::PileUsedTwice);
            }
            mask |= 1 << i;
        }
        Ok(mask)
    }

    /// Every legal move with `card` that uses exactly the piles `selection` (a mask), each with
    /// one witness grouping: the discard (empty selection), the capture, and a build per value.
    /// The search is not bounded: [`Position::options`] bounds it for queries from outside.
    pub fn options_mask(&self, card: Card, selection: u64) -> Vec<Move> {
        let mut unbounded = u64::MAX;
        self.options_within(card, selection, &mut unbounded).expect("an unbounded search ends")
    }

    /// [`Position::options_mask`] spending at most `budget` group tests and tries.
    fn options_within(&self, card: Card, selection: u64, budget: &mut u64) -> Result<Vec<Move>, OutOfBudget> {
        let mut out = Vec::new();
        if !self.hand.contains(card) {
            return Ok(out);
        }
        let w = value(card);
        let promise = self.promise(card);
        if selection == 0 {
            if promise == 0 {
                out.push(Move::Discard { card });
            }
            return Ok(out);
        }
        let reach = self.reach();
        let g = self.g();
        // The capture: the selection split into groups worth w, the promised buildings in it.
        if selection & promise == promise {
            let mut cover = Cover::new(g, |t| reach.can_make(self.key(t), w));
            if let Some(groups) = cover.split(selection, budget)? {
                let groups = groups.into_iter().filter_map(|m| self.witness(m, None, w)).collect();
                out.push(Move::Capture { card, groups });
            }
        }
        // The builds: a core (with the card) and extras.
        for v in self.build_values(card) {
            if selection & self.own_other_than(v) != 0 {
                continue;
            }
            let mut cover = Cover::new(g, |t| reach.can_make(self.key(t), v));
            let mut found = None;
            if v == w
                && let Some(groups) = cover.split(selection, budget)?
            {
                found = Some((0, groups));
            }
            if found.is_none() {
                let mut spent = Ok(());
                for_subsets_of(selection, g, &mut |core| {
                    if *budget == 0 {
                        spent = Err(OutOfBudget);
                        return true;
                    }
                    *budget -= 1;
                    if !reach.can_make(self.key(core) + unit(w), v) {
                        return false;
                    }
                    let rest =
                        if core == selection { Ok(Some(Vec::new())) } else { cover.split(selection & !core, budget) };
                    match rest {
                        Ok(Some(groups)) => {
                            found = Some((core, groups));
                            true
                        }
                        Ok(None) => false,
                        Err(e) => {
                            spent = Err(e);
                            true
                        }
                    }
                });
                spent?;
            }
            if let Some((core, extras)) = found {
                let mut groups = Vec::new();
                if let Some(e) = self.witness(core, Some(card), v) {
                    groups.push(e);
                }
                groups.extend(extras.into_iter().filter_map(|m| self.witness(m, None, v)));
                out.push(Move::Build { card, value: v, groups });
            }
        }
        Ok(out)
    }

    /// [`Position::options_mask`] of named piles, for a query from outside: its search is
    /// bounded by [`SELECTION_BUDGET`].
    ///
    /// # Errors
    /// [`RuleError::NotInHand`], [`RuleError::UnknownPile`], [`RuleError::PileUsedTwice`];
    /// [`RuleError::SelectionTooLarge`] when the selection has too many ways to be split to be
    /// searched within the budget.
    pub fn options(&self, card: Card, piles: &[PileRef]) -> Result<Vec<Move>, RuleError> {
        if !self.hand.contains(card) {
            return Err(RuleError::NotInHand { card });
        }
        let mask = self.mask_of(piles)?;
        let mut budget = SELECTION_BUDGET;
        self.options_within(card, mask, &mut budget).map_err(|OutOfBudget| RuleError::SelectionTooLarge)
    }

    /// The simple moves: every legal discard, every capture of exactly one listed group (with
    /// the promised buildings added as groups of their own), every build of one core and no
    /// extras (a core without table piles with each single extra). Every legal move is made of
    /// these: a capture is a union of listed groups, a build a core with extras.
    pub fn simple_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for rc in self.raw() {
            let card = rc.card;
            let w = value(card);
            if rc.discard {
                out.push(Move::Discard { card });
            }
            let mut seen = HashSet::new();
            for &m in &rc.capture {
                let rest = rc.must_include & !m;
                // The promised buildings outside the group come as groups of their own; a group
                // overlapping one only in part is no simple move.
                if !seen.insert(m | rest) {
                    continue;
                }
                let mut groups: Vec<Expr> = self.witness(m, None, w).into_iter().collect();
                for i in 0..self.table.len() {
                    if rest & (1 << i) != 0 {
                        groups.push(self.table[i].name().leaf());
                    }
                }
                out.push(Move::Capture { card, groups });
            }
            for b in &rc.builds {
                for &core in &b.cores {
                    if core == 0 {
                        for &extra in &b.extras {
                            let groups =
                                vec![Expr::Card(card), self.witness(extra, None, b.value).unwrap_or(Expr::Card(card))];
                            out.push(Move::Build { card, value: b.value, groups });
                        }
                    } else if let Some(e) = self.witness(core, Some(card), b.value) {
                        out.push(Move::Build { card, value: b.value, groups: vec![e] });
                    }
                }
            }
        }
        out
    }
}

/// Calls `visit(mask, key)` for every set of 1 to `g` piles (`keys[i]` is pile i's value key).
pub(crate) fn subsets(keys: &[Key], g: usize, visit: &mut dyn FnMut(u64, Key)) {
    subsets_while(keys, g, &mut |mask, key| {
        visit(mask, key);
        true
    });
}

/// [`subsets`] until `visit` returns false; whether every set was visited.
pub(crate) fn subsets_while(keys: &[Key], g: usize, visit: &mut dyn FnMut(u64, Key) -> bool) -> bool {
    fn go(
        keys: &[Key],
        start: usize,
        left: usize,
        mask: u64,
        key: Key,
        visit: &mut dyn FnMut(u64, Key) -> bool,
    ) -> bool {
        for i in start..keys.len() {
            let (m, k) = (mask | (1 << i), key + keys[i]);
            if !visit(m, k) {
                return false;
            }
            if left > 1 && !go(keys, i + 1, left - 1, m, k, visit) {
                return false;
            }
        }
        true
    }
    go(keys, 0, g, 0, 0, visit)
}

/// Calls `f` for every subset of `set` with at most `g` elements (the empty one included)
/// until it returns true.
fn for_subsets_of(set: u64, g: usize, f: &mut dyn FnMut(u64) -> bool) -> bool {
    let bits: Vec<u64> = (0..64).filter(|i| set & (1 << i) != 0).map(|i| 1u64 << i).collect();
    fn go(bits: &[u64], start: usize, left: usize, mask: u64, f: &mut dyn FnMut(u64) -> bool) -> bool {
        if f(mask) {
            return true;
        }
        if left == 0 {
            return false;
        }
        for i in start..bits.len() {
            if go(bits, i + 1, left - 1, mask | bits[i], f) {
                return true;
            }
        }
        false
    }
    go(&bits, 0, g, 0, f)
}

/// The most group tests and tries one selection query ([`Position::options`]) may spend: tables
/// met in play need a few hundred; constructed selections of twenty piles and more would need
/// billions (BENCHMARKS.md, Wippen).
pub const SELECTION_BUDGET: u64 = 2_000_000;

/// A search that ran out of its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OutOfBudget;

/// Splits sets of piles into groups of at most g piles, each group accepted by a test: the
/// lowest pile's group is chosen first, then the rest is split; the sets that could not be split
/// are remembered. Every group tested spends one unit of the budget.
struct Cover<F: Fn(u64) -> bool> {
    g: usize,
    ok: F,
    failed: HashSet<u64>,
}

impl<F: Fn(u64) -> bool> Cover<F> {
    fn new(g: usize, ok: F) -> Cover<F> {
        Cover { g, ok, failed: HashSet::new() }
    }

    /// A split of `set` into accepted groups, if there is one.
    fn split(&mut self, set: u64, budget: &mut u64) -> Result<Option<Vec<u64>>, OutOfBudget> {
        if set == 0 {
            return Ok(Some(Vec::new()));
        }
        if self.failed.contains(&set) {
            return Ok(None);
        }
        let low = set & set.wrapping_neg();
        let mut result = Ok(None);
        for_subsets_of(set & !low, self.g - 1, &mut |extra| {
            if *budget == 0 {
                result = Err(OutOfBudget);
                return true;
            }
            *budget -= 1;
            let group = low | extra;
            if !(self.ok)(group) {
                return false;
            }
            match self.split(set & !group, budget) {
                Ok(Some(mut more)) => {
                    more.insert(0, group);
                    result = Ok(Some(more));
                    true
                }
                Ok(None) => false,
                Err(e) => {
                    result = Err(e);
                    true
                }
            }
        });
        if let Ok(None) = result {
            self.failed.insert(set);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Rank, Suit};

    #[test]
    fn group_values_name_the_capture_sets_of_every_value() {
        let rules = Rules::default();
        let card = |s, r| Card::new(s, r);
        let table: Vec<Pile> = [
            card(Suit::Spades, Rank::Three),
            card(Suit::Diamonds, Rank::Two),
            card(Suit::Clubs, Rank::Four),
            card(Suit::Diamonds, Rank::Five),
            card(Suit::Hearts, Rank::King),
        ]
        .into_iter()
        .map(|card| Pile::Loose { card })
        .collect();
        let sets = Position { rules: &rules, table: &table, hand: CardSet::EMPTY, seat: Seat(0) }.group_values();
        for rank in Rank::ALL {
            let hand: CardSet = [card(Suit::Hearts, rank)].into_iter().collect();
            let pos = Position { rules: &rules, table: &table, hand, seat: Seat(0) };
            let mut listed = pos.raw()[0].capture.clone();
            let w = value(card(Suit::Hearts, rank));
            let mut offered: Vec<u64> = sets.iter().filter(|(_, v)| v & (1 << w) != 0).map(|&(m, _)| m).collect();
            listed.sort_unstable();
            offered.sort_unstable();
            assert_eq!(listed, offered, "value {w}");
        }
    }

    /// A prompt's listing stops after its budget of pile sets, says so, and lists only what a
    /// full listing lists; a small table is listed whole within it.
    #[test]
    fn a_bounded_listing_stops_at_its_budget_and_says_so() {
        let rules = Rules::default();
        let hand: CardSet = ["HK", "SQ", "D10"].iter().map(|c| c.parse::<Card>().unwrap()).collect();
        let table: Vec<Pile> = CardSet::ALL.difference(hand).iter().take(30).map(|card| Pile::Loose { card }).collect();
        let pos = Position { rules: &rules, table: &table, hand, seat: Seat(0) };
        let mut sets = 0u64;
        subsets(&table.iter().map(|p| unit(p.value())).collect::<Vec<_>>(), pos.g(), &mut |_, _| sets += 1);
        assert_eq!(sets, 31_930, "30 piles in groups of one to four");
        let (bounded, complete) = pos.raw_within(sets / 4);
        assert!(!complete);
        let (full, complete) = pos.raw_within(sets);
        assert!(complete);
        assert_eq!(full, pos.raw());
        let mut fewer = 0;
        for (b, f) in bounded.iter().zip(&full) {
            let all: HashSet<u64> = f.capture.iter().copied().collect();
            assert!(b.capture.iter().all(|m| all.contains(m)), "{}: a set the full listing lacks", b.card);
            fewer += usize::from(b.capture.len() < f.capture.len());
        }
        assert!(fewer > 0, "the budget left sets out");
    }
}
