//! How long the card-by-card analysis of one finished deal takes, per game: deals played by
//! normal bots, each analysed within the default budget; prints the median, the 99th
//! percentile and the maximum, with how many analyses were complete, the most nodes one took
//! and (Wippen) the median number of moves searched after a move.
//!
//! `cargo run --release -p fipsen-bots --bin analysis_timing -- [deals per game] [nodes] [game]`
//! (nodes: the budget, by default the bots' default; game: one game's code, by default all).

use std::time::{Duration, Instant};

use fipsen_bots::Level;
use fipsen_bots::analysis::Budget;
use fipsen_bots::games::{FinishedDeal, choose};
use fipsen_rules::{AnyGame, GameId, GameRules, Seed};

fn main() {
    let deals: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let budget = std::env::args().nth(2).and_then(|a| a.parse().ok()).map_or(Budget::DEFAULT, Budget::nodes);
    let only = std::env::args().nth(3).map(|code| GameId::from_code(&code).expect("a game's code"));
    println!(
        "{:<14} {:>6} {:>10} {:>10} {:>10} {:>9} {:>12} {:>8}",
        "game", "deals", "median", "p99", "max", "complete", "nodes (max)", "horizon"
    );
    for &id in GameId::ALL.iter().filter(|&&id| only.is_none_or(|g| g == id)) {
        let mut times: Vec<Duration> = Vec::new();
        let (mut complete, mut max_nodes) = (0usize, 0u64);
        let mut horizons: Vec<u8> = Vec::new();
        let mut series = 0u64;
        while times.len() < deals && series < 10 * deals as u64 + 10 {
            series += 1;
            let (mut game, _) = AnyGame::start(&GameRules::default_for(id), Seed::from_u64(series))
                .expect("the default rules start a series");
            let mut actions = 0u64;
            while times.len() < deals && !game.series_over() && actions < 20_000 {
                if game.deal_over() {
                    if let Some(finished) = FinishedDeal::of(&game) {
                        let t = Instant::now();
                        if let Some(a) = finished.analyse(budget) {
                            times.push(t.elapsed());
                            complete += usize::from(a.complete);
                            max_nodes = max_nodes.max(a.nodes);
                            horizons.extend(a.cards.iter().filter_map(|c| c.horizon));
                        }
                    }
                    if game.next_deal().is_err() {
                        break;
                    }
                    continue;
                }
                let Some(seat) = game.turn() else { break };
                let Some(action) = choose(Level::Normal, actions, &game.view(Some(seat))) else { break };
                if game.apply(seat, &action).is_err() {
                    break;
                }
                actions += 1;
            }
        }
        times.sort();
        horizons.sort();
        let horizon = horizons.get(horizons.len() / 2).map_or("-".to_string(), |h| h.to_string());
        let at = |q: f64| times.get(((times.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or_default();
        println!(
            "{:<14} {:>6} {:>10.2?} {:>10.2?} {:>10.2?} {:>9} {:>12} {:>8}",
            format!("{id:?}"),
            times.len(),
            at(0.5),
            at(0.99),
            times.last().copied().unwrap_or_default(),
            complete,
            max_nodes,
            horizon
        );
    }
}
