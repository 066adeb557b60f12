//! The moves a Wippen prompt lists, against an enumeration of the legal moves made apart from
//! the listing: every set of table piles with every hand card asked of the rules' own selection
//! ([`Position::options_mask`], the check the server runs on a move). The prompt must describe
//! every legal move unless it says it left some out (`truncated`), describe no move that is not
//! legal, keep the sets of fewest piles where it cuts, and give its ready-made moves fewest piles
//! first.

#![allow(clippy::unwrap_used)]

use crate::wippen_common;

use std::collections::{BTreeSet, HashSet};

use fipsen_rules::wippen::{
    Building, BuildingId, CardPrompt, Deal, Move, Op, Operators, PROMPT_SETS_PER_CARD, Pile, Position, Rules,
};
use fipsen_rules::{Card, CardSet, Seat};
use wippen_common::Rng;

/// A move as a selection names it: card, kind, build value, piles used.
type Key = (Card, &'static str, u8, u64);

fn mask(indices: &[u8]) -> u64 {
    indices.iter().fold(0, |m, &i| m | (1 << i))
}

/// Every legal move of the player to move, one per card, kind, value and set of piles: each
/// set of piles (the empty one for a discard) asked of the rules' selection.
fn legal_moves(pos: &Position) -> BTreeSet<Key> {
    let n = pos.table.len();
    let mut out = BTreeSet::new();
    for card in pos.hand.iter() {
        for selection in 0..1u64 << n {
            for m in pos.options_mask(card, selection) {
                let value = match m {
                    Move::Build { value, .. } => value,
                    _ => 0,
                };
                out.insert((card, m.kind(), value, selection));
            }
        }
    }
    out
}

/// The moves one card's prompt describes: a discard, any union of disjoint capture groups that
/// takes the promised buildings (each of them a group on its own), one core with any disjoint
/// extras.
fn described(cp: &CardPrompt, table: &[Pile]) -> BTreeSet<Key> {
    fn unions(groups: &[u64], start: &[u64]) -> HashSet<u64> {
        let mut seen: HashSet<u64> = start.iter().copied().collect();
        let mut frontier: Vec<u64> = start.to_vec();
        while let Some(m) = frontier.pop() {
            for &g in groups {
                if g & m == 0 && seen.insert(m | g) {
                    frontier.push(m | g);
                }
            }
        }
        seen
    }
    let promised = table
        .iter()
        .enumerate()
        .filter(|(_, p)| p.building().is_some_and(|b| cp.must_include.contains(&b.id)))
        .fold(0u64, |m, (i, _)| m | (1 << i));
    let mut out = BTreeSet::new();
    if cp.discard {
        out.insert((cp.card, "discard", 0, 0));
    }
    let mut groups: Vec<u64> = cp.capture.iter().map(|s| mask(s)).collect();
    groups.extend((0..table.len()).filter(|i| promised & (1 << i) != 0).map(|i| 1u64 << i));
    for u in unions(&groups, &[0]) {
        if u != 0 && u & promised == promised {
            out.insert((cp.card, "capture", 0, u));
        }
    }
    for b in &cp.builds {
        let cores: Vec<u64> = b.cores.iter().map(|s| mask(s)).collect();
        let extras: Vec<u64> = b.extras.iter().map(|s| mask(s)).collect();
        for u in unions(&extras, &cores) {
            if u != 0 {
                out.insert((cp.card, "build", b.value, u));
            }
        }
    }
    out
}

/// The table piles a move takes.
fn piles_taken(m: &Move, table: &[Pile]) -> u32 {
    let leaves: HashSet<_> = m.groups().iter().flat_map(|g| g.leaves()).cloned().collect();
    table.iter().filter(|p| leaves.contains(&p.name().leaf())).count() as u32
}

/// The prompt of the player to move, checked against the legal moves.
fn check(deal: &Deal, seat: Seat) -> (usize, usize) {
    let prompt = deal.view(Some(seat)).prompt;
    let pos = deal.position(seat);
    let legal = legal_moves(&pos);
    let raw = pos.raw();
    let (mut moves, mut cut) = (0, 0);
    assert_eq!(prompt.moves.len(), pos.hand.len());
    for (cp, rc) in prompt.moves.iter().zip(&raw) {
        let of_card: BTreeSet<Key> = legal.iter().filter(|k| k.0 == cp.card).copied().collect();
        let listed = described(cp, deal.table());
        let wrong: Vec<_> = listed.difference(&of_card).collect();
        assert!(wrong.is_empty(), "{}: described but not legal {wrong:?}\n{:?}", cp.card, deal.table());
        let left_out: Vec<_> = of_card.difference(&listed).collect();
        assert!(
            cp.truncated || left_out.is_empty(),
            "{}: legal, not listed and not marked truncated: {left_out:?}\n{cp:?}\n{:?}",
            cp.card,
            deal.table()
        );
        moves += of_card.len();
        // The cut keeps the sets of fewest piles, whichever kind they are of.
        let mut all: Vec<u64> = rc.capture.clone();
        for b in &rc.builds {
            all.extend(b.cores.iter().chain(&b.extras));
        }
        let mut shown: Vec<u64> = cp.capture.iter().map(|s| mask(s)).collect();
        for b in &cp.builds {
            shown.extend(b.cores.iter().chain(&b.extras).map(|s| mask(s)));
        }
        assert!(shown.len() <= PROMPT_SETS_PER_CARD);
        assert_eq!(cp.truncated, shown.len() < all.len(), "{}: truncated exactly when sets are left out", cp.card);
        if cp.truncated {
            cut += 1;
            let most = shown.iter().map(|m| m.count_ones()).max().unwrap_or(0);
            let mut rest = all.clone();
            for m in &shown {
                let i = rest.iter().position(|r| r == m).expect("a listed set is a set of the listing");
                rest.swap_remove(i);
            }
            let fewest = rest.iter().map(|m| m.count_ones()).min().unwrap();
            assert!(most <= fewest, "{}: a set of {most} piles listed, one of {fewest} left out", cp.card);
        }
        // The ready moves: legal, fewest piles first, a capture before a build of as many.
        let order: Vec<(u32, bool)> =
            cp.ready.iter().map(|m| (piles_taken(m, deal.table()), matches!(m, Move::Build { .. }))).collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]), "{}: ready moves out of order {order:?}", cp.card);
        for m in &cp.ready {
            assert_eq!(deal.check(seat, m), Ok(()), "{m:?}");
        }
    }
    (moves, cut)
}

fn random_table(rng: &mut Rng, players: u8, piles: usize, small: bool) -> (Vec<Pile>, CardSet) {
    let mut pack: Vec<Card> = CardSet::ALL.iter().filter(|&c| !small || fipsen_rules::wippen::value(c) <= 6).collect();
    let draw = |pack: &mut Vec<Card>, rng: &mut Rng| pack.swap_remove(rng.below(pack.len()));
    let mut table = Vec::new();
    let mut id = 1;
    for _ in 0..piles {
        if pack.len() < 8 {
            break;
        }
        if rng.chance(25) {
            let cards = vec![draw(&mut pack, rng), draw(&mut pack, rng)];
            table.push(Pile::Building(Building {
                id: BuildingId(id),
                value: 1 + rng.below(13) as u8,
                owner: Seat(rng.below(usize::from(players)) as u8),
                cards,
            }));
            id += 1;
        } else {
            table.push(Pile::Loose { card: draw(&mut pack, rng) });
        }
    }
    let mut hand: CardSet = (0..1 + rng.below(4)).map(|_| draw(&mut pack, rng)).collect();
    // A hand card of a value some building has, at times, so that promises bind.
    if let Some(b) = table.iter().find_map(Pile::building)
        && rng.chance(50)
        && let Some(c) = CardSet::ALL
            .iter()
            .find(|&c| fipsen_rules::wippen::value(c) == b.value && !hand.contains(c) && pack.contains(&c))
    {
        hand.insert(c);
    }
    (table, hand)
}

/// Random positions of up to nine piles, every operator set and group size: the prompt lists
/// every legal move (none dropped without `truncated`), nothing illegal, and its ready moves in
/// order. Builds on a hand card that makes the value alone (its core holds no table pile) are
/// among the moves it must list.
#[test]
fn the_prompt_lists_every_legal_move_or_says_it_left_some_out() {
    let mut rng = Rng(77);
    let (mut moves, mut alone) = (0, 0);
    for i in 0..300u64 {
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
        let piles = 1 + rng.below(9);
        let (table, hand) = random_table(&mut rng, rules.players, piles, i % 2 == 0);
        let mut hands = vec![CardSet::EMPTY; usize::from(rules.players)];
        hands[0] = hand;
        let deal = Deal::arranged(rules, Seat(rules.players - 1), table, hands, Vec::new(), Seat(0));
        let pos = deal.position(Seat(0));
        alone += pos
            .raw()
            .iter()
            .map(|rc| rc.builds.iter().filter(|b| b.cores.contains(&0) && !b.extras.is_empty()).count())
            .sum::<usize>();
        moves += check(&deal, Seat(0)).0;
    }
    assert!(moves > 2_000, "{moves} legal moves compared");
    assert!(alone > 20, "{alone} builds on a card alone met");
}

/// Crowded tables of small cards: more than 200 sets for a hand card, cut to those of fewest
/// piles among captures, cores and extras together, and marked truncated.
#[test]
fn a_cut_prompt_keeps_the_sets_of_fewest_piles_of_every_kind() {
    let mut rng = Rng(5);
    let mut cut = 0;
    for i in 0..12u64 {
        let rules = Rules { max_group_piles: 3 + (i % 2) as u8, ..Rules::default() };
        let piles = 14 + rng.below(4);
        let (table, hand) = random_table(&mut rng, 2, piles, true);
        let deal = Deal::arranged(rules, Seat(1), table, vec![hand, CardSet::EMPTY], Vec::new(), Seat(0));
        let prompt = deal.view(Some(Seat(0))).prompt;
        let raw = deal.position(Seat(0)).raw();
        for (cp, rc) in prompt.moves.iter().zip(&raw) {
            let mut all: Vec<u64> = rc.capture.clone();
            for b in &rc.builds {
                all.extend(b.cores.iter().chain(&b.extras));
            }
            let mut shown: Vec<u64> = cp.capture.iter().map(|s| mask(s)).collect();
            for b in &cp.builds {
                shown.extend(b.cores.iter().chain(&b.extras).map(|s| mask(s)));
            }
            assert_eq!(cp.truncated, all.len() > PROMPT_SETS_PER_CARD, "{}", cp.card);
            assert_eq!(shown.len(), all.len().min(PROMPT_SETS_PER_CARD), "{}", cp.card);
            if cp.truncated {
                cut += 1;
                let most = shown.iter().map(|m| m.count_ones()).max().unwrap_or(0);
                let mut rest = all.clone();
                for m in &shown {
                    let i = rest.iter().position(|r| r == m).expect("a listed set is a set of the listing");
                    rest.swap_remove(i);
                }
                let fewest = rest.iter().map(|m| m.count_ones()).min().unwrap();
                assert!(most <= fewest, "{}: a set of {most} piles listed, one of {fewest} left out", cp.card);
            }
        }
    }
    assert!(cut > 0, "some hand card's sets were cut");
}
