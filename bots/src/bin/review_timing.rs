//! How long the review of one seat's decisions before the play takes, per game, at strong (as a
//! server computes it): deals played by normal bots, each reviewed for one seat; prints the
//! median and maximum time, with the median number of decisions and of sampled deals.
//!
//! `cargo run --release -p fipsen-bots --bin review_timing -- [deals per game]`

use std::time::{Duration, Instant};

use fipsen_bots::Level;
use fipsen_bots::games::{FinishedDeal, choose};
use fipsen_rules::{AnyGame, GameId, GameRules, Seat, Seed};

fn main() {
    let deals: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    println!("{:<14} {:>6} {:>10} {:>10} {:>10} {:>8}", "game", "deals", "median", "max", "decisions", "samples");
    for &id in GameId::ALL.iter().filter(|&&id| FinishedDeal::decisions_reviewed(id)) {
        let mut times: Vec<Duration> = Vec::new();
        let (mut counts, mut samples) = (Vec::new(), Vec::new());
        let mut series = 0u64;
        while times.len() < deals && series < 10 * deals as u64 + 10 {
            series += 1;
            let (mut game, _) = AnyGame::start(&GameRules::default_for(id), Seed::from_u64(series))
                .expect("the default rules start a series");
            let mut actions = 0u64;
            while times.len() < deals && !game.series_over() && actions < 20_000 {
                if game.deal_over() {
                    if let Some(finished) = FinishedDeal::of(&game) {
                        let seat = Seat((actions % 3) as u8);
                        let t = Instant::now();
                        if let Some(review) = finished.decisions(seat, Level::Strong, series) {
                            times.push(t.elapsed());
                            let decisions = review.samples();
                            counts.push(decisions.len());
                            samples.extend(decisions);
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
        counts.sort();
        samples.sort();
        println!(
            "{:<14} {:>6} {:>10.2?} {:>10.2?} {:>10} {:>8}",
            format!("{id:?}"),
            times.len(),
            times.get(times.len() / 2).copied().unwrap_or_default(),
            times.last().copied().unwrap_or_default(),
            counts.get(counts.len() / 2).copied().unwrap_or_default(),
            samples.get(samples.len() / 2).copied().unwrap_or_default(),
        );
    }
}
