//! Completeness of the listing (§E9): on random positions with up to 8 table piles (buildings
//! of several owners among them), a brute force over every subset of piles, every split into
//! groups and every expression tree — written here apart from the listing code, from E6 and
//! E7 alone — finds exactly the moves the listing describes: none missing, none extra.

#![allow(clippy::unwrap_used)]

use crate::wippen_common;

use std::collections::{BTreeSet, HashMap, HashSet};

use fipsen_rules::wippen::{Building, BuildingId, Op, Operators, Pile, Position, RawCard, Rules, value};
use fipsen_rules::{Card, CardSet, Seat};
use wippen_common::Rng;

/// A move as the listing identifies it: card, kind, build value, piles used.
type Key = (Card, &'static str, u8, u64);

/// Every value a tree using each of `values` exactly once can take (E6), by brute force.
fn tree_values(values: &[u64], ops: Operators, memo: &mut HashMap<Vec<u64>, HashSet<u64>>) -> HashSet<u64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    if let Some(v) = memo.get(&sorted) {
        return v.clone();
    }
    let mut out = HashSet::new();
    if sorted.len() == 1 {
        out.insert(sorted[0]);
    } else {
        let n = sorted.len();
        for left in 1..(1u32 << n) - 1 {
            let l: Vec<u64> = (0..n).filter(|i| left & (1 << i) != 0).map(|i| sorted[i]).collect();
            let r: Vec<u64> = (0..n).filter(|i| left & (1 << i) == 0).map(|i| sorted[i]).collect();
            let (lv, rv) = (tree_values(&l, ops, memo), tree_values(&r, ops, memo));
            for &a in &lv {
                for &b in &rv {
                    if ops.contains(Op::Add) {
                        out.insert(a + b);
                    }
                    if ops.contains(Op::Sub) && a > b {
                        out.insert(a - b);
                    }
                    if ops.contains(Op::Mul) {
                        out.insert(a * b);
                    }
                    if ops.contains(Op::Div) && a % b == 0 {
                        out.insert(a / b);
                    }
                }
            }
        }
    }
    memo.insert(sorted, out.clone());
    out
}

/// Every way to split `set` into non-empty groups (set partitions), each as a list of masks.
fn partitions(set: u64, out: &mut Vec<Vec<u64>>, current: &mut Vec<u64>) {
    if set == 0 {
        out.push(current.clone());
        return;
    }
    let low = set & set.wrapping_neg();
    let rest = set & !low;
    // Every subset of the rest joins the lowest pile.
    let mut sub = rest;
    loop {
        current.push(low | sub);
        partitions(rest & !sub, out, current);
        current.pop();
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & rest;
    }
}

/// The legal moves of E7 by brute force.
fn brute_force(pos: &Position) -> BTreeSet<Key> {
    let rules = pos.rules;
    let g = u32::from(rules.max_group_piles);
    let n = pos.table.len();
    let mut memo = HashMap::new();
    let mut makes = |mask: u64, extra: Option<u64>, target: u64| -> bool {
        let mut vals: Vec<u64> =
            (0..n).filter(|i| mask & (1 << i) != 0).map(|i| u64::from(pos.table[i].value())).collect();
        vals.extend(extra);
        !vals.is_empty() && tree_values(&vals, rules.operators, &mut memo).contains(&target)
    };
    let hand: Vec<Card> = pos.hand.iter().collect();
    let owns = |i: usize| -> Option<u8> {
        match &pos.table[i] {
            Pile::Building(b) if b.owner == pos.seat => Some(b.value),
            _ => None,
        }
    };
    let mut out = BTreeSet::new();
    let full = (1u64 << n) - 1;
    let mut all_partitions: Vec<(u64, Vec<Vec<u64>>)> = Vec::new();
    for u in 0..=full {
        let mut parts = Vec::new();
        partitions(u, &mut parts, &mut Vec::new());
        all_partitions.push((u, parts));
    }
    for &c in &hand {
        let w = value(c);
        let others: Vec<u8> = hand.iter().filter(|&&x| x != c).map(|&x| value(x)).collect();
        // His w-buildings while c is his last card of w (keep the promise).
        let promised: u64 = if rules.keep_promise && !others.contains(&w) {
            (0..n).filter(|&i| owns(i) == Some(w)).fold(0, |m, i| m | (1 << i))
        } else {
            0
        };
        if promised == 0 {
            out.insert((c, "discard", 0, 0));
        }
        for (u, parts) in &all_partitions {
            let u = *u;
            if u == 0 {
                continue;
            }
            // Capture: every group of table piles only, worth w.
            if u & promised == promised
                && parts.iter().any(|p| p.iter().all(|&grp| grp.count_ones() <= g && makes(grp, None, u64::from(w))))
            {
                out.insert((c, "capture", 0, u));
            }
            // Build to v: one group holds c (with 0..g table piles), the rest 1..g piles.
            for v in 1..=13u8 {
                if !others.contains(&v) {
                    continue;
                }
                if (0..n).any(|i| u & (1 << i) != 0 && owns(i).is_some_and(|b| b != v)) {
                    continue;
                }
                if promised != 0 && v != w {
                    continue;
                }
                let ok = parts.iter().any(|p| {
                    // c alone as a group of its own, or joining one of the groups.
                    let alone = w == v && p.iter().all(|&grp| grp.count_ones() <= g && makes(grp, None, u64::from(v)));
                    alone
                        || (0..p.len()).any(|k| {
                            p.iter().enumerate().all(|(j, &grp)| {
                                grp.count_ones() <= g && makes(grp, (j == k).then_some(u64::from(w)), u64::from(v))
                            })
                        })
                });
                if ok {
                    out.insert((c, "build", v, u));
                }
            }
        }
    }
    out
}

/// The moves the structured listing describes.
fn described(raw: &[RawCard]) -> BTreeSet<Key> {
    fn unions(groups: &[u64], start: &[u64]) -> HashSet<u64> {
        let mut seen: HashSet<u64> = start.iter().copied().collect();
        let mut frontier: Vec<u64> = start.to_vec();
        while let Some(m) = frontier.pop() {
            for &grp in groups {
                if grp & m == 0 && seen.insert(m | grp) {
                    frontier.push(m | grp);
                }
            }
        }
        seen
    }
    let mut out = BTreeSet::new();
    for rc in raw {
        if rc.discard {
            out.insert((rc.card, "discard", 0, 0));
        }
        for u in unions(&rc.capture, &[0]) {
            if u != 0 && u & rc.must_include == rc.must_include {
                out.insert((rc.card, "capture", 0, u));
            }
        }
        for b in &rc.builds {
            for u in unions(&b.extras, &b.cores) {
                if u != 0 {
                    out.insert((rc.card, "build", b.value, u));
                }
            }
        }
    }
    out
}

fn random_position(rng: &mut Rng, players: u8) -> (Vec<Pile>, CardSet) {
    let mut pack: Vec<Card> = CardSet::ALL.iter().collect();
    let mut draw = |rng: &mut Rng| pack.swap_remove(rng.below(pack.len()));
    let piles = rng.below(9);
    let mut table = Vec::new();
    let mut id = 1;
    for _ in 0..piles {
        if rng.chance(30) {
            let cards = vec![draw(rng), draw(rng)];
            table.push(Pile::Building(Building {
                id: BuildingId(id),
                value: 1 + rng.below(13) as u8,
                owner: Seat(rng.below(usize::from(players)) as u8),
                cards,
            }));
            id += 1;
        } else {
            table.push(Pile::Loose { card: draw(rng) });
        }
    }
    let hand: CardSet = (0..1 + rng.below(4)).map(|_| draw(rng)).collect();
    (table, hand)
}

#[test]
fn the_listing_describes_exactly_the_moves_a_brute_force_finds() {
    let mut rng = Rng(2024);
    let mut compared = 0;
    for i in 0..400u64 {
        let rules = Rules {
            players: 2 + (i % 3) as u8,
            operators: match i % 4 {
                0 => Operators::PLUS,
                1 => Operators::of(&[Op::Sub, Op::Div]),
                _ => Operators::ALL,
            },
            max_group_piles: [4, 2, 3, 4, 1][(i % 5) as usize],
            keep_promise: i % 3 != 0,
            ..Rules::default()
        };
        let (table, hand) = random_position(&mut rng, rules.players);
        // Small values make many groups: sometimes only cards up to five.
        let pos = Position { rules: &rules, table: &table, hand, seat: Seat(0) };
        let brute = brute_force(&pos);
        let listed = described(&pos.raw());
        let missing: Vec<_> = brute.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&brute).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{rules:?}\n{table:?}\n{hand:?}\nmissing {missing:?}\nextra {extra:?}"
        );
        // Every listed set has a witness worth its target, and options find each move.
        for (card, kind, v, u) in &listed {
            let options = pos.options_mask(*card, *u);
            assert!(
                options.iter().any(|m| m.kind() == *kind
                    && (*kind != "build"
                        || matches!(m, fipsen_rules::wippen::Move::Build { value, .. } if value == v))),
                "{card} {kind} {v} {u:b}: {options:?}"
            );
        }
        // Every witness uses exactly its piles (and a core the hand card) and is worth the target.
        for cl in pos.listing().cards {
            let check = |grp: &fipsen_rules::wippen::Group, target: u8, core: bool| {
                let mut leaves: Vec<_> = grp.witness.leaves().into_iter().cloned().collect();
                let mut expected: Vec<_> = grp.piles.iter().map(|p| p.leaf()).collect();
                if core {
                    expected.push(fipsen_rules::wippen::Expr::Card(cl.card));
                }
                leaves.sort_by_key(|e| format!("{e:?}"));
                expected.sort_by_key(|e| format!("{e:?}"));
                assert_eq!(leaves, expected);
                assert_eq!(
                    wippen_common::eval(&grp.witness, &table, cl.card),
                    Some(u64::from(target)),
                    "{}",
                    grp.witness
                );
            };
            for grp in &cl.capture {
                check(grp, value(cl.card), false);
            }
            for b in &cl.builds {
                for grp in &b.cores {
                    check(grp, b.value, true);
                }
                for grp in &b.extras {
                    check(grp, b.value, false);
                }
            }
        }
        compared += brute.len();
    }
    eprintln!("{compared} moves compared");
    assert!(compared > 2_000, "{compared} moves compared");
}
