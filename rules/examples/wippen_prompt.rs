//! What a Wippen prompt costs on the largest table: 45 loose cards, for groups of up to four,
//! five and six piles — the reach table's one-time set-up in a process, the prompt's listing
//! within its budget ([`PROMPT_PILE_SETS`]), and the whole listing:
//!
//! ```sh
//! cargo run --release -p fipsen-rules --example wippen_prompt
//! ```

use std::time::Instant;

use fipsen_rules::wippen::{PROMPT_PILE_SETS, Pile, Position, Rules};
use fipsen_rules::{Card, CardSet, Seat};

fn main() {
    for g in [4u8, 5, 6] {
        let rules = Rules { max_group_piles: g, ..Rules::default() };
        let hand: CardSet = ["HK", "SQ", "D10", "C2"].iter().filter_map(|c| c.parse::<Card>().ok()).collect();
        let table: Vec<Pile> = CardSet::ALL.difference(hand).iter().take(45).map(|card| Pile::Loose { card }).collect();
        let pos = Position { rules: &rules, table: &table, hand, seat: Seat(0) };
        let start = Instant::now();
        let _ = pos.raw_within(1);
        let set_up = start.elapsed();
        let start = Instant::now();
        let (_, complete) = pos.raw_within(PROMPT_PILE_SETS);
        let bounded = start.elapsed();
        let start = Instant::now();
        let _ = pos.raw();
        let whole = start.elapsed();
        println!(
            "groups of up to {g}: reach table set-up {set_up:.2?}, prompt listing {bounded:.2?} (complete: {complete}), whole listing {whole:.2?}"
        );
    }
}
