//! The reach table (§E9): for every multiset M of values 1–13 with 1 ≤ |M| ≤ g + 1, the values
//! that expressions using every element of M exactly once can take under a table's operators.
//!
//! "A set of piles can make t" depends only on the multiset of the piles' values, so the
//! listing looks each set up here. A table is computed once per set of operators and group
//! limit and shared by every position that needs it; the large ones (groups of six piles) are
//! dropped when nothing holds them any more ([`ReachTable`]), but for the one computed last.
//!
//! A multiset is kept as a key: four bits per value counting its copies, so that the key of a
//! union is the sum of the keys. For |M| ≤ g the table keeps, as a bit set, the values a whole
//! tree over M can take, as far as they can still lead to a value 1–13 once combined with the
//! at most g + 1 − |M| other elements of a group (a subtree of s elements in a tree of at most
//! g + 1 elements whose value is at most 13 is worth at most 14^(g + 2 − s): see [`bound`]; and
//! no tree of s elements is worth more than 13^s); for |M| = g + 1 only the values 1–13. For
//! each set it also answers the values 1–13 as a bit mask. The witness tree of a (M, t) is
//! rebuilt by a search guided by the table ([`Reach::witness`]).
//!
//! Combining two parts works on the bit sets: for each value a of the part with fewer
//! elements, a + b and b − a are the other part's set shifted, a − b the same set reversed,
//! and only products and quotients visit single values. At g = 6 the whole table is about
//! 10 MB and builds in a fraction of a second (BENCHMARKS.md, Wippen).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, LazyLock, Mutex, PoisonError, Weak};

use super::expr::{Expr, Op};
use super::rules::Operators;

/// A multiset of values 1–13: four bits per value, the count of its copies.
pub(crate) type Key = u64;

/// The key of one copy of `value` (1–13).
pub(crate) const fn unit(value: u8) -> Key {
    1 << (4 * (value as u32 - 1))
}

/// A multiplicative hash of a key (the keys are well spread already).
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (n >> 32);
    }
}

type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// The values 1–13 as bits.
const SMALL: u64 = 0x3FFE;

/// The bit sets of the multisets of one size: row r is `rows[r * words..(r + 1) * words]`,
/// bit v set when the multiset can make v (0 < v ≤ `cap`).
#[derive(Debug, Default)]
struct Level {
    cap: u64,
    words: usize,
    rows: Vec<u64>,
}

impl Level {
    fn new(cap: u64) -> Level {
        Level { cap, words: (cap as usize) / 64 + 1, rows: Vec::new() }
    }

    fn row(&self, r: u32) -> &[u64] {
        let start = r as usize * self.words;
        &self.rows[start..start + self.words]
    }
}

/// The reach table of one set of operators and one group limit g.
#[derive(Debug)]
pub(crate) struct Reach {
    ops: Operators,
    g: u8,
    /// For every M with 1 ≤ |M| ≤ g + 1: bit t set when M can make t (1–13).
    masks: KeyMap<u16>,
    /// For every M with 1 ≤ |M| ≤ g: its row in `levels[|M|]`.
    rows: KeyMap<u32>,
    /// Per size 1 ≤ s ≤ g (index s; 0 is empty): the values each multiset can make that may
    /// still matter.
    levels: Vec<Level>,
}

/// The largest value a subtree of `size` elements can have in a tree of at most `g + 1`
/// elements worth at most 13: `14^(g + 2 − size)` (13 at the root itself).
///
/// Going up one node from x with a sibling subtree y of r elements (y ≤ 13^r), the parent p is
/// at least x (for x + y, x × y), x − 13^r (x − y), x / 13^r (x ÷ y), or x is below y (y − x,
/// y ÷ x); so p ≤ P needs x ≤ (P + 1) · 13^r, and (14^k + 1) · 13^r ≤ 14^(k + r).
pub(crate) fn bound(g: u8, size: u8) -> u64 {
    if size > g { 13 } else { 14u64.saturating_pow(u32::from(g + 2 - size)) }
}

/// The largest value that may matter for a multiset of `size` elements: [`bound`], and never
/// more than 13^size, the most `size` values 1–13 can make.
fn cap_of(g: u8, size: u8) -> u64 {
    bound(g, size).min(13u64.saturating_pow(u32::from(size)))
}

fn bit(set: &[u64], v: u64) -> bool {
    let w = (v / 64) as usize;
    w < set.len() && set[w] >> (v % 64) & 1 != 0
}

/// The 64 bits of `set` from bit `from` on (zeros outside it).
fn bits_at(set: &[u64], from: i64) -> u64 {
    if from <= -64 {
        return 0;
    }
    if from < 0 {
        return set.first().map_or(0, |&w| w << (-from));
    }
    let (w, o) = ((from / 64) as usize, from % 64);
    let lo = set.get(w).copied().unwrap_or(0);
    if o == 0 {
        return lo;
    }
    let hi = set.get(w + 1).copied().unwrap_or(0);
    lo >> o | hi << (64 - o)
}

/// Every set bit of `set`, lowest first, up to `max`.
fn each_bit(set: &[u64], max: u64, f: &mut dyn FnMut(u64)) {
    for (i, &word) in set.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            let v = i as u64 * 64 + u64::from(w.trailing_zeros());
            if v > max {
                return;
            }
            f(v);
            w &= w - 1;
        }
    }
}

/// The highest set bit of `set` (0 for none).
fn highest(set: &[u64]) -> u64 {
    set.iter().rposition(|&w| w != 0).map_or(0, |i| i as u64 * 64 + 63 - u64::from(set[i].leading_zeros()))
}

/// Adds to `out` (values up to `cap`) every a ∘ b and b ∘ a with a in `small` and b in
/// `large`, for the operators `ops`. Each shift or reversal touches only the words of `out`
/// its results can reach.
fn combine(ops: Operators, small: &[u64], large: &[u64], out: &mut [u64], cap: u64, divisors: &[Vec<u16>]) {
    let top = highest(large);
    if top == 0 {
        return;
    }
    let last = out.len() - 1;
    let words_to = |v: u64| (v / 64).min(last as u64) as usize;
    // The values of `large` up to `cap`, counted once for the choice of a quotient's search.
    let within_cap = large.iter().take(words_to(cap) + 1).map(|w| w.count_ones() as u64).sum::<u64>();
    each_bit(small, u64::MAX, &mut |a| {
        let ai = a as i64;
        if ops.contains(Op::Add) {
            // a + b = v: b = v − a.
            let (from, to) = (words_to(a + 1), words_to(a + top));
            for (k, o) in out.iter_mut().enumerate().take(to + 1).skip(from) {
                *o |= bits_at(large, 64 * k as i64 - ai);
            }
        }
        if ops.contains(Op::Sub) {
            // b − a = v: b = v + a.
            if top > a {
                for (k, o) in out.iter_mut().enumerate().take(words_to(top - a) + 1) {
                    *o |= bits_at(large, 64 * k as i64 + ai);
                }
            }
            // a − b = v: b = a − v, bits of `large` read backwards.
            if a > 1 {
                for (k, o) in out.iter_mut().enumerate().take(words_to(a - 1) + 1) {
                    *o |= bits_at(large, ai - 64 * k as i64 - 63).reverse_bits();
                }
            }
        }
        if ops.contains(Op::Mul) {
            each_bit(large, cap / a, &mut |b| {
                let v = a * b;
                out[(v / 64) as usize] |= 1 << (v % 64);
            });
        }
        if ops.contains(Op::Div) {
            // a ÷ b = v: b divides a.
            let mut quotient = |d: u64| {
                let v = a / d;
                if v <= cap && bit(large, d) {
                    out[(v / 64) as usize] |= 1 << (v % 64);
                }
            };
            match divisors.get(a as usize) {
                Some(ds) => ds.iter().for_each(|&d| quotient(u64::from(d))),
                None => (1..=a.min(top)).filter(|d| a.is_multiple_of(*d)).for_each(quotient),
            }
            // b ÷ a = v: b = a · v, found from whichever is fewer, the quotients or the values.
            let most = cap.min(top / a);
            if most <= within_cap || a == 1 {
                for v in 1..=most {
                    if bit(large, a * v) {
                        out[(v / 64) as usize] |= 1 << (v % 64);
                    }
                }
            } else {
                each_bit(large, a * most, &mut |b| {
                    if b.is_multiple_of(a) {
                        let v = b / a;
                        out[(v / 64) as usize] |= 1 << (v % 64);
                    }
                });
            }
        }
    });
    // Nothing is worth 0, and nothing above the cap is kept.
    out[0] &= !1;
    let spare = 64 * out.len() as u64 - 1 - cap;
    if spare > 0 {
        out[last] &= u64::MAX >> spare;
    }
}

/// Whether `set` holds every value 1 to `cap`.
fn full(set: &[u64], cap: u64) -> bool {
    let last = (cap / 64) as usize;
    set.iter().enumerate().all(|(k, &w)| {
        let want = if k == last { u64::MAX >> (63 - cap % 64) } else { u64::MAX };
        let want = if k == 0 { want & !1 } else { want };
        k > last || w & want == want
    })
}

impl Reach {
    /// Computes the table.
    fn new(ops: Operators, g: u8) -> Reach {
        let mut reach = Reach {
            ops,
            g,
            masks: KeyMap::default(),
            rows: KeyMap::default(),
            levels: (0..=g).map(|s| if s == 0 { Level::default() } else { Level::new(cap_of(g, s)) }).collect(),
        };
        // The divisors of every value a part of at most (g + 1) / 2 elements can make.
        let most = cap_of(g, g.div_ceil(2).max(1));
        let divisors: Vec<Vec<u16>> = if ops.contains(Op::Div) {
            let mut d = vec![Vec::new(); most as usize + 1];
            for x in 1..=most as usize {
                for m in (x..=most as usize).step_by(x) {
                    d[m].push(x as u16);
                }
            }
            d
        } else {
            Vec::new()
        };
        let mut scratch = Vec::new();
        for size in 1..=g + 1 {
            let cap = if size > g { 13 } else { cap_of(g, size) };
            let words = cap as usize / 64 + 1;
            let mut multisets = Vec::new();
            multisets_of(size, 1, [0; 14], &mut multisets);
            if size <= g {
                reach.levels[usize::from(size)].rows.reserve_exact(multisets.len() * words);
            }
            for counts in multisets {
                let key = key_of(&counts);
                scratch.clear();
                scratch.resize(words, 0);
                if size == 1 {
                    let v = counts.iter().position(|&c| c > 0).unwrap_or(1);
                    scratch[0] = 1 << v;
                } else {
                    sub_multisets(&counts, &mut |left, right| {
                        // Each split once; `combine` takes both orders.
                        if left > right {
                            return true;
                        }
                        let (Some((ls, lset, _)), Some((rs, rset, _))) = (reach.set(left), reach.set(right)) else {
                            return true;
                        };
                        if ls <= rs {
                            combine(ops, lset, rset, &mut scratch, cap, &divisors);
                        } else {
                            combine(ops, rset, lset, &mut scratch, cap, &divisors);
                        }
                        // Stop once every value that may matter is found.
                        !full(&scratch, cap)
                    });
                }
                reach.masks.insert(key, (scratch[0] & SMALL) as u16);
                if size <= g {
                    let level = &mut reach.levels[usize::from(size)];
                    let row = (level.rows.len() / level.words) as u32;
                    level.rows.extend_from_slice(&scratch);
                    reach.rows.insert(key, row);
                }
            }
        }
        reach
    }

    /// The size, bit set and cap of the multiset `key`, if it has a row (|M| ≤ g).
    fn set(&self, key: Key) -> Option<(usize, &[u64], u64)> {
        let &row = self.rows.get(&key)?;
        let size = (0..13).map(|i| ((key >> (4 * i)) & 15) as usize).sum::<usize>();
        let level = &self.levels[size];
        Some((size, level.row(row), level.cap))
    }

    /// The bytes the table holds (its bit sets and maps, roughly).
    pub(crate) fn bytes(&self) -> usize {
        let sets: usize = self.levels.iter().map(|l| l.rows.capacity() * 8).sum();
        let entry = size_of::<Key>() + 8;
        sets + (self.masks.capacity() + self.rows.capacity()) * entry
    }

    /// The values 1–13 the multiset `key` can make, as bits (0 for an unknown or too large
    /// multiset).
    #[inline]
    pub(crate) fn mask(&self, key: Key) -> u16 {
        self.masks.get(&key).copied().unwrap_or(0)
    }

    /// Whether the multiset `key` (at most g + 1 elements) can make `target` (1–13).
    #[inline]
    pub(crate) fn can_make(&self, key: Key, target: u8) -> bool {
        target <= 13 && self.mask(key) & (1 << target) != 0
    }

    fn has_value(&self, key: Key, value: u64) -> bool {
        if value <= 13 {
            return self.mask(key) & (1 << value) != 0;
        }
        self.set(key).is_some_and(|(_, set, _)| bit(set, value))
    }

    /// One tree using every leaf exactly once, worth `target`, if there is one. `leaves` are
    /// the leaves with their values (at most g + 1 of them).
    pub(crate) fn witness(&self, leaves: &[(u8, Expr)], target: u64) -> Option<Expr> {
        if leaves.is_empty() || leaves.len() > usize::from(self.g) + 1 {
            return None;
        }
        let all = (1u32 << leaves.len()) - 1;
        let key =
            |set: u32| -> Key { (0..leaves.len()).filter(|i| set & (1 << i) != 0).map(|i| unit(leaves[i].0)).sum() };
        if !self.has_value(key(all), target) {
            return None;
        }
        self.witness_of(leaves, all, target, &key)
    }

    fn witness_of(&self, leaves: &[(u8, Expr)], set: u32, target: u64, key: &dyn Fn(u32) -> Key) -> Option<Expr> {
        if set.count_ones() == 1 {
            let leaf = &leaves[set.trailing_zeros() as usize];
            return (u64::from(leaf.0) == target).then(|| leaf.1.clone());
        }
        // Every ordered split into a non-empty left and right part.
        let mut left = (set - 1) & set;
        while left != 0 {
            let right = set & !left;
            let (lk, rk) = (key(left), key(right));
            if let Some((_, a_values, _)) = self.set(lk) {
                let mut found = None;
                each_bit(a_values, u64::MAX, &mut |a| {
                    if found.is_some() {
                        return;
                    }
                    for op in self.ops.list() {
                        let b = match op {
                            Op::Add => target.checked_sub(a).filter(|&b| b > 0),
                            Op::Sub => a.checked_sub(target).filter(|&b| b > 0),
                            Op::Mul => target.is_multiple_of(a).then(|| target / a),
                            Op::Div => a.is_multiple_of(target).then(|| a / target),
                        };
                        let Some(b) = b else { continue };
                        if op.apply(a, b) != Some(target) || !self.has_value(rk, b) {
                            continue;
                        }
                        if let (Some(l), Some(r)) =
                            (self.witness_of(leaves, left, a, key), self.witness_of(leaves, right, b, key))
                        {
                            found = Some(Expr::op(op, l, r));
                            return;
                        }
                    }
                });
                if found.is_some() {
                    return found;
                }
            }
            left = (left - 1) & set;
        }
        None
    }
}

/// A reach table kept alive: while one is held, every position with its rules finds the table
/// at once; when none is, the large tables are dropped and their memory given back.
#[derive(Debug, Clone)]
pub struct ReachTable(Arc<Reach>);

impl ReachTable {
    /// The bytes the table holds (roughly).
    pub fn bytes(&self) -> usize {
        self.0.bytes()
    }
}

/// Tables smaller than this stay for the life of the process once computed (groups of up to
/// five piles under any operators); larger ones only while something holds them.
const PINNED_BYTES: usize = 4 << 20;

#[derive(Default)]
struct Slot {
    shared: Weak<Reach>,
    pinned: Option<Arc<Reach>>,
}

/// One slot per set of operators and group limit: a position waits only for the table of its
/// own rules while it is computed, never for another.
static SLOTS: LazyLock<Vec<Mutex<Slot>>> = LazyLock::new(|| (0..16 * 7).map(|_| Mutex::default()).collect());

/// The large table computed last, kept as well: a program that lists moves under one set of
/// rules without holding its table (a bench, the bots' arena) does not compute it again for
/// every position. It bounds what stays after the last room to one large table.
static RECENT: Mutex<Option<Arc<Reach>>> = Mutex::new(None);

/// The table of these operators and this group limit (1–6), computed if nothing holds it.
pub(crate) fn reach(ops: Operators, g: u8) -> Arc<Reach> {
    let g = g.clamp(1, 6);
    let slot = usize::from(ops.bits() & 15) * 7 + usize::from(g);
    let mut slot = SLOTS[slot].lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(table) = slot.shared.upgrade() {
        return table;
    }
    let table = Arc::new(Reach::new(ops, g));
    slot.shared = Arc::downgrade(&table);
    if table.bytes() < PINNED_BYTES {
        slot.pinned = Some(table.clone());
    } else {
        *RECENT.lock().unwrap_or_else(PoisonError::into_inner) = Some(table.clone());
    }
    table
}

fn key_of(counts: &[u8; 14]) -> Key {
    (1..=13u8).map(|v| u64::from(counts[usize::from(v)]) * unit(v)).sum()
}

/// Every multiset of `size` values from `from` to 13, as counts indexed by value.
fn multisets_of(size: u8, from: u8, counts: [u8; 14], out: &mut Vec<[u8; 14]>) {
    if size == 0 {
        out.push(counts);
        return;
    }
    for v in from..=13 {
        let mut next = counts;
        next[usize::from(v)] += 1;
        multisets_of(size - 1, v, next, out);
    }
}

/// Calls `f(left, right)` for every split of the multiset into two non-empty parts (ordered:
/// each split comes twice, once each way round), while `f` answers true.
fn sub_multisets(counts: &[u8; 14], f: &mut dyn FnMut(Key, Key) -> bool) {
    let total = key_of(counts);
    let mut part = [0u8; 14];
    let mut left: Key = 0;
    loop {
        // Next mixed-radix number below `counts`, its key kept along.
        let mut v = 1;
        while v <= 13 {
            if part[v] < counts[v] {
                part[v] += 1;
                left += unit(v as u8);
                break;
            }
            left -= u64::from(part[v]) * unit(v as u8);
            part[v] = 0;
            v += 1;
        }
        if v > 13 {
            return;
        }
        if left != total && !f(left, total - left) {
            return;
        }
    }
}

/// The reach table of `rules`, computed now if nothing holds it yet. Listing moves needs it;
/// a server computes it off its event loop before a table of these rules plays, and keeps the
/// handle while the table lives, so that the table's memory is given back after the last one.
pub fn prepare(rules: &super::Rules) -> ReachTable {
    ReachTable(reach(rules.operators, rules.max_group_piles))
}

#[cfg(test)]
mod tests {
    use super::super::Rules;
    use super::*;

    /// Every value a tree over the values `m` can take, up to `cap`, by the definition (§E9):
    /// the union over every split of every valid a ∘ b.
    fn reference(ops: Operators, m: &[u64], cap: u64) -> Vec<u64> {
        if m.len() == 1 {
            return if m[0] <= cap { vec![m[0]] } else { Vec::new() };
        }
        let mut out = Vec::new();
        let n = m.len();
        for left in 1..(1u32 << n) - 1 {
            let (l, r): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| left & (1 << i) != 0);
            let l: Vec<u64> = l.iter().map(|&i| m[i]).collect();
            let r: Vec<u64> = r.iter().map(|&i| m[i]).collect();
            for a in reference(ops, &l, u64::MAX / 2) {
                for b in reference(ops, &r, u64::MAX / 2) {
                    for op in ops.list() {
                        if let Some(x) = op.apply(a, b).filter(|&x| x <= cap) {
                            out.push(x);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn the_table_of_four_piles_holds_the_multisets_the_specification_counts() {
        let r = reach(Operators::ALL, 4);
        assert_eq!(r.rows.len(), 13 + 91 + 455 + 1820);
        assert_eq!(r.masks.len(), 8_567);
        // 3 × 2 + 4 = 10; 5 ÷ 2 is never a whole number; 13 and 1 never make 13 twice.
        assert!(r.can_make(unit(3) + unit(2) + unit(4), 10));
        assert!(r.can_make(unit(5) + unit(2), 3));
        assert!(!r.can_make(unit(2) + unit(2), 0));
        assert!(r.can_make(unit(1) + unit(1), 1));
        assert!(!r.can_make(unit(2) + unit(2), 3));
        let plus = reach(Operators::PLUS, 4);
        assert!(!plus.can_make(unit(5) + unit(2), 3));
        assert!(plus.can_make(unit(5) + unit(2), 7));
    }

    #[test]
    fn the_bit_sets_hold_exactly_the_values_of_the_definition() {
        // Every operator set, groups of up to three piles: every multiset of up to four values
        // against the definition, values and masks.
        for bits in 1..16u8 {
            let ops = Operators::of(&Op::ALL.into_iter().filter(|op| bits & op.bit() != 0).collect::<Vec<_>>());
            let r = reach(ops, 3);
            for size in 1..=4u8 {
                let mut multisets = Vec::new();
                multisets_of(size, 1, [0; 14], &mut multisets);
                for counts in multisets {
                    let key = key_of(&counts);
                    let m: Vec<u64> =
                        (1..=13u64).flat_map(|v| std::iter::repeat_n(v, usize::from(counts[v as usize]))).collect();
                    let cap = if size > 3 { 13 } else { cap_of(3, size) };
                    let want = reference(ops, &m, cap);
                    let mask = want.iter().filter(|&&v| v <= 13).fold(0u16, |k, &v| k | (1 << v));
                    assert_eq!(r.mask(key), mask, "{m:?} under {:?}", ops.list());
                    if let Some((_, set, _)) = r.set(key) {
                        let mut got = Vec::new();
                        each_bit(set, u64::MAX, &mut |v| got.push(v));
                        assert_eq!(got, want, "{m:?} under {:?}", ops.list());
                    }
                }
            }
        }
    }

    #[test]
    fn groups_of_six_piles_agree_with_the_definition_on_samples() {
        let r = reach(Operators::ALL, 6);
        let samples: [&[u64]; 6] = [
            &[1, 1, 1, 1, 1, 1, 1],
            &[2, 2, 2, 2, 2, 2, 2],
            &[1, 2, 3, 1, 2, 3, 1],
            &[13, 12, 11, 10, 9],
            &[5, 7, 11],
            &[9, 1, 13, 4],
        ];
        for m in samples {
            let key: Key = m.iter().map(|&v| unit(v as u8)).sum();
            let size = m.len() as u8;
            let cap = if size > 6 { 13 } else { cap_of(6, size) };
            let want = reference(Operators::ALL, m, cap);
            let mask = want.iter().filter(|&&v| v <= 13).fold(0u16, |k, &v| k | (1 << v));
            assert_eq!(r.mask(key), mask, "{m:?}");
            if let Some((_, set, _)) = r.set(key) {
                let mut got = Vec::new();
                each_bit(set, u64::MAX, &mut |v| got.push(v));
                assert_eq!(got, want, "{m:?}");
            }
        }
    }

    #[test]
    fn the_largest_table_is_small_and_given_back_when_nothing_holds_it() {
        // Groups of six piles under `+ − ÷` (an operator set no other test asks for): a few
        // megabytes, where the table of values kept before held gigabytes.
        let ops = Operators::of(&[Op::Add, Op::Sub, Op::Div]);
        let rules = Rules { operators: ops, max_group_piles: 6, ..Default::default() };
        let held = prepare(&rules);
        assert!(held.bytes() < 32 << 20, "{} bytes", held.bytes());
        let again = prepare(&rules);
        assert!(Arc::ptr_eq(&held.0, &again.0), "one table for every holder");
        let weak = Arc::downgrade(&held.0);
        drop((held, again));
        // Only the large table computed last is kept beyond its holders.
        let other = Rules { operators: Operators::of(&[Op::Mul, Op::Div]), ..rules };
        let other = prepare(&other);
        assert!(weak.upgrade().is_none(), "the table is dropped with its last holder");
        assert!(other.bytes() < 32 << 20, "{} bytes", other.bytes());
        // The small tables stay.
        let small = Arc::downgrade(&reach(ops, 4));
        assert!(small.upgrade().is_some());
    }

    #[test]
    fn a_witness_is_worth_its_target() {
        let r = reach(Operators::ALL, 4);
        let leaves = vec![
            (3, Expr::Card("S3".parse().unwrap())),
            (2, Expr::Card("D2".parse().unwrap())),
            (4, Expr::Card("C4".parse().unwrap())),
        ];
        let w = r.witness(&leaves, 10).unwrap();
        assert_eq!(w.leaves().len(), 3);
    }
}
