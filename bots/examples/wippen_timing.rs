//! How long a Wippen bot's moves take, by the number of table piles:
//! `wippen_timing [games] [level] [players]`: the level plays every seat of whole games;
//! `wippen_timing tables [level]`: positions of two players dealt at random with 4 to 30 loose
//! cards on the table, four cards in each hand.

use std::collections::BTreeMap;
use std::time::Instant;

use fipsen_bots::Level;
use fipsen_bots::rng::Rng;
use fipsen_bots::wippen::Bot;
use fipsen_rules::wippen::{Deal, Pile, Rules, Series};
use fipsen_rules::{Card, CardSet, Seat, Seed};

fn main() {
    if std::env::args().nth(1).as_deref() == Some("tables") {
        return tables(std::env::args().nth(2).as_deref());
    }
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let level = match args.next().as_deref() {
        Some("easy") => Level::Easy,
        Some("normal") => Level::Normal,
        _ => Level::Strong,
    };
    let players: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let rules = Rules { players, deals: Some(1), ..Rules::default() };
    let mut rng = Rng::new(1);
    let mut by_piles: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    let mut all = Vec::new();
    for i in 0..games {
        let (mut series, _) = Series::new(rules, Seed::from_u64(rng.next_u64())).expect("valid rules");
        while !series.is_over() {
            let seat = series.deal().turn().expect("a turn");
            let view = series.view(Some(seat));
            let piles = view.deal.table.len();
            let start = Instant::now();
            let mv = Bot::new(level, i * 8 + u64::from(seat.0)).choose_in_series(&view).expect("a move");
            let ms = start.elapsed().as_secs_f64() * 1e3;
            by_piles.entry(piles).or_default().push(ms);
            all.push(ms);
            series.apply(seat, mv).expect("legal");
        }
    }
    let line = |label: String, t: &mut Vec<f64>| {
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        let p99 = t[(t.len() * 99 / 100).min(t.len() - 1)];
        println!(
            "  {label:<10} n {:6}  mean {mean:7.3}  median {:7.3}  p99 {p99:7.3}  max {:7.3}",
            t.len(),
            t[t.len() / 2],
            t[t.len() - 1]
        );
    };
    println!("{} players, {level:?}: ms per move, by table piles", players);
    for (piles, mut t) in by_piles {
        line(format!("{piles} piles"), &mut t);
    }
    line("all".to_string(), &mut all);
}

/// Moves on random tables of a given size.
fn tables(level: Option<&str>) {
    let level = match level {
        Some("easy") => Level::Easy,
        Some("normal") => Level::Normal,
        _ => Level::Strong,
    };
    let rules = Rules::default();
    let mut rng = Rng::new(7);
    println!("2 players, {level:?}: ms per move on random tables, 40 positions each");
    for piles in [4usize, 6, 8, 10, 12, 14, 16, 18, 21, 24, 30] {
        let mut t = Vec::new();
        for i in 0..40u64 {
            let mut pack: Vec<Card> = CardSet::ALL.iter().collect();
            rng.shuffle(&mut pack);
            let table: Vec<Pile> = pack[..piles].iter().map(|&card| Pile::Loose { card }).collect();
            let hands = vec![
                pack[piles..piles + 4].iter().copied().collect::<CardSet>(),
                pack[piles + 4..piles + 8].iter().copied().collect::<CardSet>(),
            ];
            let stock = pack[piles + 8..].to_vec();
            let deal = Deal::arranged(rules, Seat(1), table, hands, stock, Seat(0));
            let view = deal.view(Some(Seat(0)));
            let start = Instant::now();
            let mv = Bot::new(level, i).choose(&view).expect("a move");
            t.push(start.elapsed().as_secs_f64() * 1e3);
            deal.check(Seat(0), &mv).expect("legal");
        }
        t.sort_by(f64::total_cmp);
        println!(
            "  {piles:>2} piles  mean {:8.3}  median {:8.3}  max {:8.3}",
            t.iter().sum::<f64>() / t.len() as f64,
            t[t.len() / 2],
            t[t.len() - 1]
        );
    }
}
