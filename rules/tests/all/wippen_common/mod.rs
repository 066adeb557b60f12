//! Helpers shared by the Wippen tests.

#![allow(dead_code, clippy::unwrap_used)]

use fipsen_rules::wippen::{Building, BuildingId, Deal, Move, Pile, Rules};
use fipsen_rules::{Card, CardSet, Seat};

/// A card from its code.
pub fn c(code: &str) -> Card {
    code.parse().unwrap()
}

/// Cards from space-separated codes.
pub fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(c).collect()
}

/// A set of cards from space-separated codes.
pub fn set(codes: &str) -> CardSet {
    cards(codes).into_iter().collect()
}

/// A move from its JSON.
pub fn mv(json: &str) -> Move {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// A loose card.
pub fn loose(code: &str) -> Pile {
    Pile::Loose { card: c(code) }
}

/// A building.
pub fn building(id: u16, value: u8, owner: u8, codes: &str) -> Pile {
    Pile::Building(Building { id: BuildingId(id), value, owner: Seat(owner), cards: cards(codes) })
}

/// The table of §E7's required examples: loose ♠3 ♦2 ♣4 ♦5 and building #1 (6, P1: ♥3 ♣3),
/// P1 (seat 0) holding ♠2 ♥6 ♣A, P2 (seat 1) holding ♥10 ♠5 ♠7 ♦8; `turn` to move.
pub fn example(rules: Rules, turn: u8) -> Deal {
    let table = vec![loose("S3"), loose("D2"), loose("C4"), loose("D5"), building(1, 6, 0, "H3 C3")];
    Deal::arranged(rules, Seat(1), table, vec![set("S2 H6 CA"), set("H10 S5 S7 D8")], Vec::new(), Seat(turn))
}

use fipsen_rules::wippen::{Expr, Op, PileRef, Position, RawCard, value};

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The value of an expression by E6, written apart from the rules crate: `None` when a node is
/// not a whole number of at least 1 or a leaf names nothing.
pub fn eval(e: &Expr, table: &[Pile], hand: Card) -> Option<u64> {
    match e {
        Expr::Card(card) if *card == hand => Some(u64::from(value(hand))),
        Expr::Card(_) | Expr::Building(_) => table.iter().find(|p| p.name().leaf() == *e).map(|p| u64::from(p.value())),
        Expr::Op(op, l, r) => {
            let (a, b) = (eval(l, table, hand)?, eval(r, table, hand)?);
            match op {
                Op::Add => a.checked_add(b),
                Op::Sub => (a > b).then(|| a - b),
                Op::Mul => a.checked_mul(b),
                Op::Div => (b != 0 && a % b == 0).then(|| a / b),
            }
        }
    }
}

/// Whether the move is one the structured listing describes (with valid trees), judged from
/// the listing alone.
pub fn listed(pos: &Position, raw: &[RawCard], m: &Move) -> bool {
    let Some(rc) = raw.iter().find(|rc| rc.card == m.card()) else { return false };
    let card = rc.card;
    let ops_ok = |e: &Expr| -> bool {
        fn all(e: &Expr, f: &dyn Fn(Op) -> bool) -> bool {
            match e {
                Expr::Op(op, l, r) => f(*op) && all(l, f) && all(r, f),
                _ => true,
            }
        }
        all(e, &|op| pos.rules.operators.contains(op))
    };
    // Each group as (table mask, hand card uses), or None if a leaf names nothing.
    let mut used = 0u64;
    let mut parts = Vec::new();
    for g in m.groups() {
        let mut mask = 0u64;
        let mut hand = 0;
        for leaf in g.leaves() {
            if *leaf == Expr::Card(card) {
                hand += 1;
                continue;
            }
            let Some(i) = pos.table.iter().position(|p| p.name().leaf() == *leaf) else { return false };
            if used & (1 << i) != 0 {
                return false;
            }
            used |= 1 << i;
            mask |= 1 << i;
        }
        parts.push((mask, hand, g));
    }
    match m {
        Move::Discard { .. } => rc.discard,
        Move::Capture { .. } => {
            !parts.is_empty()
                && used & rc.must_include == rc.must_include
                && parts.iter().all(|(mask, hand, g)| {
                    *hand == 0
                        && rc.capture.contains(mask)
                        && ops_ok(g)
                        && eval(g, pos.table, card) == Some(u64::from(value(card)))
                })
        }
        Move::Build { value: v, .. } => {
            let Some(rb) = rc.builds.iter().find(|b| b.value == *v) else { return false };
            used != 0
                && parts.iter().map(|p| p.1).sum::<usize>() == 1
                && parts.iter().all(|(mask, hand, g)| {
                    (if *hand == 1 { rb.cores.contains(mask) } else { rb.extras.contains(mask) })
                        && ops_ok(g)
                        && eval(g, pos.table, card) == Some(u64::from(*v))
                })
        }
    }
}

/// A random legal move from the listing: a discard, a capture of several disjoint groups (the
/// promised buildings included), or a build of a core and disjoint extras.
pub fn random_move(pos: &Position, raw: &[RawCard], rng: &mut Rng) -> Move {
    loop {
        let rc = &raw[rng.below(raw.len())];
        match rng.below(3) {
            0 if rc.discard => return Move::Discard { card: rc.card },
            1 if !rc.capture.is_empty() => {
                let mut used = 0u64;
                for _ in 0..1 + rng.below(4) {
                    let g = rc.capture[rng.below(rc.capture.len())];
                    if g & used == 0 {
                        used |= g;
                    }
                }
                // The promised buildings, each a group of its own.
                used |= rc.must_include;
                let options = pos.options_mask(rc.card, used);
                let capture = options.into_iter().find(|m| m.kind() == "capture");
                return capture.expect("a union of listed groups is a capture");
            }
            2 if !rc.builds.is_empty() => {
                let b = &rc.builds[rng.below(rc.builds.len())];
                if b.cores.is_empty() {
                    continue;
                }
                let mut used = b.cores[rng.below(b.cores.len())];
                for _ in 0..rng.below(3) {
                    if b.extras.is_empty() {
                        break;
                    }
                    let g = b.extras[rng.below(b.extras.len())];
                    if g & used == 0 {
                        used |= g;
                    }
                }
                if used == 0 {
                    continue;
                }
                let options = pos.options_mask(rc.card, used);
                let build = options.into_iter().find(|m| matches!(m, Move::Build { value, .. } if *value == b.value));
                return build.expect("a core with disjoint extras is a build");
            }
            _ if !rc.discard && rc.capture.is_empty() && rc.builds.iter().all(|b| b.cores.is_empty()) => {
                unreachable!("a hand card with nothing to do: {rc:?}")
            }
            _ => {}
        }
    }
}

/// A random change to a move (another card, pile, operator, value, a group dropped or
/// doubled), legal or not.
pub fn mutate(m: &Move, pos: &Position, rng: &mut Rng) -> Move {
    let piles: Vec<PileRef> = pos.table.iter().map(Pile::name).collect();
    let hand: Vec<Card> = pos.hand.iter().collect();
    fn change_leaf(e: &Expr, k: &mut usize, to: &Expr) -> Expr {
        match e {
            Expr::Op(op, l, r) => {
                let l = change_leaf(l, k, to);
                let r = change_leaf(r, k, to);
                Expr::Op(*op, Box::new(l), Box::new(r))
            }
            leaf => {
                let out = if *k == 0 { to.clone() } else { leaf.clone() };
                *k = k.wrapping_sub(1);
                out
            }
        }
    }
    fn change_op(e: &Expr, k: &mut usize, to: Op) -> Expr {
        match e {
            Expr::Op(op, l, r) => {
                let op = if *k == 0 { to } else { *op };
                *k = k.wrapping_sub(1);
                let l = change_op(l, k, to);
                let r = change_op(r, k, to);
                Expr::Op(op, Box::new(l), Box::new(r))
            }
            leaf => leaf.clone(),
        }
    }
    let card = m.card();
    let (mut groups, mut kind_value) = match m {
        Move::Discard { .. } => (Vec::new(), None),
        Move::Capture { groups, .. } => (groups.clone(), None),
        Move::Build { groups, value, .. } => (groups.clone(), Some(*value)),
    };
    let mut new_card = card;
    match rng.below(7) {
        0 => new_card = hand[rng.below(hand.len())],
        1 if !groups.is_empty() && !piles.is_empty() => {
            let i = rng.below(groups.len());
            let mut k = rng.below(groups[i].leaves().len());
            let to = piles[rng.below(piles.len())].leaf();
            groups[i] = change_leaf(&groups[i], &mut k, &to);
        }
        2 if !groups.is_empty() => {
            let i = rng.below(groups.len());
            let mut k = rng.below(4);
            groups[i] = change_op(&groups[i], &mut k, Op::ALL[rng.below(4)]);
        }
        3 if !groups.is_empty() => {
            groups.remove(rng.below(groups.len()));
        }
        4 if !groups.is_empty() => {
            let g = groups[rng.below(groups.len())].clone();
            groups.push(g);
        }
        5 => kind_value = Some(1 + rng.below(13) as u8),
        _ if !piles.is_empty() => {
            let p = piles[rng.below(piles.len())].leaf();
            groups.push(p);
        }
        _ => {}
    }
    match (m, kind_value) {
        (Move::Discard { .. }, None) if groups.is_empty() => Move::Discard { card: new_card },
        (_, Some(value)) => Move::Build { card: new_card, value, groups },
        _ => Move::Capture { card: new_card, groups },
    }
}
