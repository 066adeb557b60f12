//! Frame sizes per message kind, early and late in a long series, over real sockets.
//!
//! Ignored by default (a 100-deal series takes a while); run it with
//! `cargo nextest run -p fipsen-server --test socket --run-ignored only --no-capture frame_sizes::`
//! (`FRAME_SIZES_DEALS` sets the series' length). It prints a table of the frames every seat and
//! one spectator received, by kind, in the first ten and the last ten deals, and the size of the
//! `joined` snapshot a spectator gets on coming in early and late.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::BTreeMap;

use common::{Client, Rng, Server, Table, short_rules, temp_db};
use fipsen_rules::GameId;
use serde_json::{Value, json};

const SEED: &str = "6a09e667f3bcc908b2fe94f82a54ff53a510e527fade682d9b05688c2b3e6c1f";

/// Bytes of the frames of one kind in one part of the series.
#[derive(Default)]
struct Sizes(Vec<usize>);

impl Sizes {
    fn row(&self) -> String {
        if self.0.is_empty() {
            return "| – | – | – | – |".into();
        }
        let mut sorted = self.0.clone();
        sorted.sort_unstable();
        let mean = sorted.iter().sum::<usize>() as f64 / sorted.len() as f64;
        format!("| {} | {:.0} | {} | {} |", sorted.len(), mean, sorted[sorted.len() / 2], sorted[sorted.len() - 1])
    }
}

/// Sorts the frames a client received since `from` by kind into early and late deals.
fn tally(client: &Client, from: usize, deals: u64, sizes: &mut BTreeMap<(String, &'static str), Sizes>) {
    for (frame, number) in client.frames[from..].iter().zip(&client.deal_numbers[from..]) {
        let v: Value = serde_json::from_str(frame).unwrap();
        let kind = v["type"].as_str().unwrap_or("?").to_string();
        let part = match number {
            Some(n) if *n <= 10 => "early (deals 1–10)",
            Some(n) if *n > deals - 10 => "late (last 10 deals)",
            _ => continue,
        };
        sizes.entry((kind, part)).or_default().0.push(frame.len());
    }
}

async fn measure(game: GameId) {
    let deals: u32 = std::env::var("FRAME_SIZES_DEALS").ok().and_then(|d| d.parse().ok()).unwrap_or(100);
    let (_dir, db) = temp_db();
    // Dealt from a fixed seed and played with fixed choices: the same series on every build.
    let server = Server::start(&db, &["--insecure-fixed-seed", SEED]);
    let mut table = Table::open(&server, short_rules(game, deals), json!({"next_deal_seconds": null}), 1).await;
    let starts: Vec<usize> = table.seats.iter().chain(&table.spectators).map(|c| c.frames.len()).collect();
    let mut early = Client::greeted(&server).await;
    let early_joined = early.join(&table.room, "Early", "spectator").await.to_string().len();
    early.close().await;
    let mut rng = Rng(11);
    let mut late_joined = None;
    let mut steps = 0;
    while !table.series_over() {
        if table.deal_over() {
            let number = table.seats[0].game["number"].as_u64().unwrap();
            if number == u64::from(deals) - 5 && late_joined.is_none() {
                let mut late = Client::greeted(&server).await;
                late.join(&table.room, "Late", "spectator").await;
                late_joined = late.frames.last().map(String::len);
                late.close().await;
            }
            table.ask_next_deal().await;
            continue;
        }
        assert!(table.step(&mut rng).await, "nobody could act: {}", table.view());
        steps += 1;
    }
    let mut sizes = BTreeMap::new();
    for (client, from) in table.seats.iter().chain(&table.spectators).zip(starts) {
        tally(client, from, u64::from(deals), &mut sizes);
    }
    println!("\n{game:?}, {deals} deals, {steps} moves; frames of every seat and one spectator");
    println!("| kind | part | frames | mean bytes | median | max |\n|---|---|---|---|---|---|");
    for ((kind, part), s) in &sizes {
        println!("| `{kind}` | {part} {}", s.row());
    }
    println!("| `joined` (spectator) | early (deal 1) | 1 | {early_joined} | {early_joined} | {early_joined} |");
    if let Some(late) = late_joined {
        println!("| `joined` (spectator) | late (deal {}) | 1 | {late} | {late} | {late} |", deals - 5);
    }
}

#[tokio::test]
#[ignore = "a measurement: prints frame sizes of a long series"]
async fn frame_sizes_prisdorf() {
    measure(GameId::Prisdorf).await;
}

#[tokio::test]
#[ignore = "a measurement: prints frame sizes of a long series"]
async fn frame_sizes_tippen() {
    measure(GameId::Tippen).await;
}
