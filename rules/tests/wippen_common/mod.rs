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
