//! How long a Großenaspe bot's decisions take, by phase:
//! `grossenaspe_timing [deals] [level] [players]`.

use std::collections::BTreeMap;
use std::time::Instant;

use fipsen_bots::Level;
use fipsen_bots::grossenaspe::Bot;
use fipsen_bots::rng::Rng;
use fipsen_rules::grossenaspe::{Deal, Phase, Rules};
use fipsen_rules::{Seat, Seed};

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let level = match args.next().as_deref() {
        Some("easy") => Level::Easy,
        Some("normal") => Level::Normal,
        _ => Level::Strong,
    };
    let players: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let rules = Rules { players, ..Rules::grossenaspe() };
    let mut rng = Rng::new(1);
    let mut times: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for i in 0..deals {
        let (mut deal, _) = Deal::new(rules, 1, Seat(players - 1), Seed::from_u64(rng.next_u64()));
        let mut bots: Vec<Bot> = (0..u64::from(players)).map(|s| Bot::new(level, i * 8 + s)).collect();
        while !deal.is_over() {
            let seat = deal.turn().expect("a turn");
            let view = deal.view(Some(seat));
            let phase = match view.phase {
                Phase::Play => format!("Play trick {}", view.tricks.len() + 1),
                Phase::Discard if view.prompt.discard.is_some_and(|n| n > 2) => "Discard (Kieker)".to_string(),
                p => format!("{p:?}"),
            };
            let start = Instant::now();
            let action = bots[seat.index()].choose(&view).expect("an action");
            times.entry(phase).or_default().push(start.elapsed().as_secs_f64() * 1e3);
            deal.apply(seat, action).expect("legal");
        }
    }
    println!("{level:?}, {players} players: ms per decision");
    for (phase, mut t) in times {
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        println!(
            "  {phase:<16} n {:5}  mean {mean:7.2}  median {:7.2}  max {:7.2}",
            t.len(),
            t[t.len() / 2],
            t[t.len() - 1]
        );
    }
}
