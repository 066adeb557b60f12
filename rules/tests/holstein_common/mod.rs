//! Test helpers shared by every game of the Holstein family: card codes and the small
//! deterministic generator behind the random players.
#![allow(dead_code)]

use fipsen_rules::{Card, CardSet};

pub mod properties;

/// Parses space-separated card codes.
pub fn cards(codes: &str) -> CardSet {
    codes.split_whitespace().map(|c| c.parse::<Card>().unwrap_or_else(|e| panic!("{e}"))).collect()
}

/// A small deterministic generator for the random players.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn subset(&mut self, from: CardSet, k: usize) -> CardSet {
        let mut cards: Vec<Card> = from.iter().collect();
        let mut out = CardSet::EMPTY;
        for _ in 0..k.min(cards.len()) {
            out.insert(cards.swap_remove(self.below(cards.len())));
        }
        out
    }
}
