//! The reach table (§E9): for every multiset M of values 1–13 with 1 ≤ |M| ≤ g + 1, the values
//! that expressions using every element of M exactly once can take under a table's operators.
//!
//! "A set of piles can make t" depends only on the multiset of the piles' values, so the
//! listing looks each set up here. The table is computed once per set of operators and group
//! limit, and kept for the life of the process.
//!
//! A multiset is kept as a key: four bits per value counting its copies, so that the key of a
//! union is the sum of the keys. For |M| ≤ g the table keeps the values a whole tree over M can
//! take, as far as they can still lead to a value 1–13 once combined with the at most
//! g + 1 − |M| other elements of a group (a subtree of s elements in a tree of at most g + 1
//! elements whose value is at most 13 is worth at most 14^(g + 2 − s): see [`bound`]); for
//! |M| = g + 1 only the values 1–13. For each set it also answers the values 1–13 as a bit mask.
//! The witness tree of a (M, t) is rebuilt by a search guided by the table ([`Reach::witness`]).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

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

/// The reach table of one set of operators and one group limit g.
#[derive(Debug)]
pub(crate) struct Reach {
    ops: Operators,
    g: u8,
    /// For every M with 1 ≤ |M| ≤ g + 1: bit t set when M can make t (1–13).
    masks: KeyMap<u16>,
    /// For every M with 1 ≤ |M| ≤ g: the values M can make that may still matter, sorted.
    values: KeyMap<Vec<u64>>,
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

impl Reach {
    /// Computes the table.
    fn new(ops: Operators, g: u8) -> Reach {
        let mut reach = Reach { ops, g, masks: KeyMap::default(), values: KeyMap::default() };
        let ops_list = ops.list();
        for size in 1..=g + 1 {
            let limit = bound(g, size);
            let mut multisets = Vec::new();
            multisets_of(size, 1, [0; 14], &mut multisets);
            for counts in multisets {
                let key = key_of(&counts);
                let mut found: Vec<u64> = Vec::new();
                if size == 1 {
                    let v = counts.iter().position(|&c| c > 0).unwrap_or(1) as u64;
                    found.push(v);
                } else {
                    sub_multisets(&counts, &mut |left, right| {
                        let (Some(a_values), Some(b_values)) = (reach.values.get(&left), reach.values.get(&right))
                        else {
                            return;
                        };
                        for &a in a_values {
                            for &b in b_values {
                                for &op in &ops_list {
                                    if let Some(x) = op.apply(a, b)
                                        && x <= limit
                                    {
                                        found.push(x);
                                    }
                                }
                            }
                        }
                    });
                    found.sort_unstable();
                    found.dedup();
                }
                let mask = found.iter().filter(|&&v| (1..=13).contains(&v)).fold(0u16, |m, &v| m | (1 << v));
                reach.masks.insert(key, mask);
                if size <= g {
                    reach.values.insert(key, found);
                }
            }
        }
        reach
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
        if value <= 13
            && let Some(&m) = self.masks.get(&key)
        {
            return m & (1 << value) != 0;
        }
        self.values.get(&key).is_some_and(|v| v.binary_search(&value).is_ok())
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
            if let Some(a_values) = self.values.get(&lk) {
                for &a in a_values {
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
                            return Some(Expr::op(op, l, r));
                        }
                    }
                }
            }
            left = (left - 1) & set;
        }
        None
    }
}

/// The table of these operators and this group limit (1–6), computed on first use.
pub(crate) fn reach(ops: Operators, g: u8) -> &'static Reach {
    static TABLES: [OnceLock<Reach>; 16 * 7] = [const { OnceLock::new() }; 16 * 7];
    let g = g.clamp(1, 6);
    let slot = usize::from(ops.bits() & 15) * 7 + usize::from(g);
    TABLES[slot].get_or_init(|| Reach::new(ops, g))
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
/// each split comes twice, once each way round).
fn sub_multisets(counts: &[u8; 14], f: &mut dyn FnMut(Key, Key)) {
    let total = key_of(counts);
    let mut part = [0u8; 14];
    loop {
        // Next mixed-radix number below `counts`.
        let mut v = 1;
        while v <= 13 {
            if part[v] < counts[v] {
                part[v] += 1;
                break;
            }
            part[v] = 0;
            v += 1;
        }
        if v > 13 {
            return;
        }
        let left = key_of(&part);
        if left != total {
            f(left, total - left);
        }
    }
}

/// Computes the reach table of `rules` now, once per process and set of operators and group
/// limit: listing moves waits for it on first use (about a second at groups of 5 piles and
/// twenty at 6, BENCHMARKS.md), so a server prepares it off its event loop before a table of
/// these rules plays.
pub fn prepare(rules: &super::Rules) {
    let _ = reach(rules.operators, rules.max_group_piles);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_four_piles_holds_the_multisets_the_specification_counts() {
        let r = reach(Operators::ALL, 4);
        let sizes: usize = r.values.len();
        assert_eq!(sizes, 13 + 91 + 455 + 1820);
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
