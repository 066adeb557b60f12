//! Plays a short series in the terminal with random legal moves and prints the auction, the
//! tricks and the scoresheet: `cargo run -p fipsen-rules --example selfplay -- [deals] [seed]`.

use fipsen_rules::{Action, Event, RuleSet, Seed, Series};

/// A tiny deterministic generator so the example needs no extra crates.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2026);
    let rules = RuleSet { deals: Some(deals), ..RuleSet::prisdorf() };
    let Ok((mut series, events)) = Series::new(rules, Seed::from_u64(seed)) else { return };
    let mut rng = SplitMix(seed);
    events.iter().for_each(print_event);
    while !series.is_over() {
        if series.deal().is_over() {
            match series.next_deal() {
                Ok(events) => events.iter().for_each(print_event),
                Err(e) => return eprintln!("{e}"),
            }
            continue;
        }
        let Some(seat) = series.deal().turn() else { return };
        let actions = series.legal_actions(seat);
        // Prefer a Siebener Fips; otherwise pass more often than not, so auctions stay short.
        let action = if actions.contains(&Action::SiebenerFips) {
            Action::SiebenerFips
        } else if actions.contains(&Action::Pass) && rng.below(3) > 0 {
            Action::Pass
        } else {
            actions[rng.below(actions.len())]
        };
        match series.apply(seat, action) {
            Ok(events) => events.iter().for_each(print_event),
            Err(e) => return eprintln!("refused: {e}"),
        }
    }
    println!("\nScoresheet");
    println!("{:>3}  {:>6}  {:>8}  {:<24} {:>6}   totals", "#", "dealer", "declarer", "result", "value");
    for row in series.scoresheet() {
        let declarer = row.declarer.map_or("-".to_string(), |s| s.to_string());
        let result = format!("{:?}", row.outcome).chars().take(24).collect::<String>();
        println!(
            "{:>3}  {:>6}  {:>8}  {:<24} {:>6}   {:?}",
            row.number, row.dealer.0, declarer, result, row.value, row.totals
        );
    }
}

fn print_event(event: &Event) {
    match event {
        Event::Dealt { number, dealer, hands, .. } => {
            println!("\n== Deal {number}, dealer seat {dealer} ==");
            for (seat, hand) in hands.iter().enumerate() {
                println!("  seat {seat}: {:?}", hand.unwrap_or_default());
            }
        }
        Event::Called { seat, call } => println!("  seat {seat}: {call:?}"),
        Event::CardPlayed { seat, card } => print!("  {seat}:{card}"),
        Event::TrickTaken { seat } => println!("   -> seat {seat}"),
        Event::DealOver { outcome, .. } => println!("  result: {outcome:?}"),
        Event::Scored { .. } => {}
        other => println!("  {other:?}"),
    }
}
