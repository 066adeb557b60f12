//! Finds a master seed whose first deal has a wanted situation, for tests that start the server
//! with `--insecure-fixed-seed` (the first dealer is the last seat, so seat 0 is Vorhand).
//!
//! `cargo run -p fipsen-rules --example find_seed -- <3|4> <situation>`, where situation is one of
//! `fips` (seat 0 holds a Siebener Fips), `kieker` (seat 0 holds no court card),
//! `diamond-seven` (seat 0 holds the ♦7), `clubs` (seat 0 holds the four top clubs).

use fipsen_rules::{Card, CardSet, Players, Rank, RuleSet, Seat, Seed, Series, Suit};

fn wanted(situation: &str, hand: CardSet) -> Option<bool> {
    let top_clubs: CardSet = [Rank::Ace, Rank::King, Rank::Queen, Rank::Jack]
        .into_iter()
        .filter_map(|rank| Card::new(Suit::Clubs, rank))
        .collect();
    Some(match situation {
        "fips" => hand.has_siebener_fips(),
        "kieker" => !hand.has_court(),
        "diamond-seven" => hand.contains(Card::DIAMOND_SEVEN),
        "clubs" => hand.contains_all(top_clubs),
        _ => return None,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let players = match args.first().map(String::as_str) {
        Some("3") => Players::Three,
        _ => Players::Four,
    };
    let situation = args.get(1).cloned().unwrap_or_else(|| "fips".to_string());
    let rules = RuleSet { players, ..RuleSet::prisdorf() };
    for n in 0..10_000_000u64 {
        let master = Seed::from_u64(n);
        let Ok((series, _)) = Series::new(rules, master) else { return };
        match wanted(&situation, series.deal().hand(Seat(0))) {
            None => return eprintln!("unknown situation {situation:?}"),
            Some(true) => {
                println!("{}", master.to_hex());
                eprintln!("seat 0: {:?}", series.deal().hand(Seat(0)));
                return;
            }
            Some(false) => {}
        }
    }
    eprintln!("none found");
}
