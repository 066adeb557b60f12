//! Times the decisions of Anseggerfips and Duttfips bots by phase: every seat a bot of the
//! level given, over the deals given.
//!
//! ```text
//! cargo run --release -p fipsen-bots --example mecklenburg_timing -- 40 strong
//! ```

use std::time::Instant;

use fipsen_bots::Level;
use fipsen_bots::mecklenburg::Bot;
use fipsen_rules::mecklenburg::{AnseggerfipsRules, Deal, DuttUse, DuttfipsRules, Phase, Rules};
use fipsen_rules::{Seat, Seed};

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let level = match args.next().as_deref() {
        Some("easy") => Level::Easy,
        Some("normal") => Level::Normal,
        _ => Level::Strong,
    };
    let games: [(&str, Rules); 3] = [
        ("anseggerfips", AnseggerfipsRules::anseggerfips().into()),
        (
            "anseggerfips, Dutt exchanged",
            AnseggerfipsRules { dutt: DuttUse::Exchange, ..AnseggerfipsRules::anseggerfips() }.into(),
        ),
        ("duttfips", DuttfipsRules::duttfips().into()),
    ];
    for (name, rules) in games {
        let phases = [Phase::Auction, Phase::Discard, Phase::Trumps, Phase::Play, Phase::DurchChoice];
        let mut sums = [(0.0f64, 0.0f64, 0u32); 5];
        for i in 0..deals {
            let (mut deal, _) = Deal::new(rules, 1, Seat((i % 4) as u8), Seed::from_u64(i));
            let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(level, i * 4 + s)).collect();
            while !deal.is_over() {
                let seat = deal.turn().expect("a turn");
                let view = deal.view(Some(seat));
                let start = Instant::now();
                let action = bots[seat.index()].choose(&view).expect("an answer");
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                let p = phases.iter().position(|&p| p == view.phase).expect("a phase");
                sums[p].0 += ms;
                sums[p].1 = sums[p].1.max(ms);
                sums[p].2 += 1;
                deal.apply(seat, action).expect("legal");
            }
        }
        print!("{name}, {}:", level.name());
        for (p, (sum, max, n)) in phases.iter().zip(sums) {
            if n > 0 {
                print!("  {p:?} {:.2} / {:.1} ms ({n})", sum / f64::from(n), max);
            }
        }
        println!();
    }
}
