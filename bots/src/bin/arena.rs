//! Plays deals between bot levels and prints each level's average score per deal with a 95%
//! confidence interval.
//!
//! Every deal is played twice with the levels' seats swapped (A B A B, then B A B A; with three
//! players A B A, then B A B), so each hand is played by both levels and the luck of the cards
//! cancels out of the difference.
//!
//! ```text
//! cargo run --release -p fipsen-bots --bin arena -- --deals 20000 --match strong:normal --match normal:easy
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use fipsen_bots::Level;
use fipsen_bots::arena::{Player, Stats, play_deal};
use fipsen_bots::rng::Hasher;
use fipsen_rules::{FirstLead, Outcome, Players, RuleSet, Seat, Seed};

struct Args {
    deals: u64,
    rules: RuleSet,
    matches: Vec<(Level, Level)>,
    seed: u64,
    threads: usize,
}

fn level(name: &str) -> Result<Level, String> {
    Level::ALL.into_iter().find(|l| l.name() == name).ok_or_else(|| format!("unknown level `{name}`"))
}

fn parse() -> Result<Args, String> {
    let mut args = Args { deals: 1000, rules: RuleSet::prisdorf(), matches: Vec::new(), seed: 1, threads: 1 };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--deals" => args.deals = value()?.parse().map_err(|e| format!("--deals: {e}"))?,
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--threads" => args.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--players" => {
                args.rules.players = match value()?.as_str() {
                    "3" => Players::Three,
                    "4" => Players::Four,
                    other => return Err(format!("--players 3 or 4, not {other}")),
                }
            }
            "--min-bid" => args.rules.min_bid = value()?.parse().map_err(|e| format!("--min-bid: {e}"))?,
            "--kontra" => args.rules.kontra = true,
            "--declarer-leads" => args.rules.first_lead = FirstLead::Declarer,
            "--match" => {
                let v = value()?;
                let (a, b) = v.split_once(':').ok_or("--match takes two levels like strong:normal")?;
                args.matches.push((level(a)?, level(b)?));
            }
            "--help" | "-h" => {
                println!(
                    "arena [--deals N] [--match A:B]... [--players 3|4] [--min-bid 2|3] [--kontra] \
                     [--declarer-leads] [--seed S] [--threads T]\nlevels: easy, normal, strong"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other} (see --help)")),
        }
    }
    args.rules.validate().map_err(|e| e.to_string())?;
    if args.matches.is_empty() {
        args.matches = vec![(Level::Strong, Level::Normal), (Level::Normal, Level::Easy)];
    }
    args.threads = args.threads.max(1);
    Ok(args)
}

/// What one level did over many deals.
#[derive(Default, Clone, Copy)]
struct Side {
    /// Score per seat per deal.
    score: Stats,
    declared: u64,
    won: u64,
    seats: u64,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    sides: [Side; 2],
    /// Per deal: A's average seat score minus B's, both replays together.
    diff: Stats,
}

fn run_range(args: &Args, a: Level, b: Level, range: std::ops::Range<u64>, done: &AtomicU64) -> Tally {
    let n = args.rules.players.count();
    let mut t = Tally::default();
    for i in range {
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        if finished.is_multiple_of(1000) {
            eprintln!("  {} vs {}: {finished} of {} deals", a.name(), b.name(), args.deals);
        }
        let mut h = Hasher::new(args.seed);
        h.word(i);
        let deal_seed = Seed::from_u64(h.finish());
        let dealer = Seat((i % u64::from(n)) as u8);
        let mut sums = [0.0f64; 2];
        let mut counts = [0.0f64; 2];
        for swap in [false, true] {
            // Seat s gets A when (s is even) != swap.
            let players: Vec<Player> = (0..n).map(|s| Player::of(if (s % 2 == 0) != swap { a } else { b })).collect();
            let played = play_deal(args.rules, dealer, deal_seed, &players, h.finish());
            let declarer = match played.outcome {
                Outcome::Won { declarer, .. } | Outcome::Lost { declarer, .. } | Outcome::GivenUp { declarer, .. } => {
                    Some((declarer, matches!(played.outcome, Outcome::Won { .. })))
                }
                Outcome::SiebenerFips { .. } | Outcome::ThrownIn => None,
            };
            for s in 0..n {
                let side = usize::from((s % 2 == 0) == swap);
                let score = f64::from(played.scores[usize::from(s)]);
                sums[side] += score;
                counts[side] += 1.0;
                t.sides[side].seats += 1;
                if let Some((d, won)) = declarer
                    && d.0 == s
                {
                    t.sides[side].declared += 1;
                    t.sides[side].won += u64::from(won);
                }
            }
        }
        for side in 0..2 {
            t.sides[side].score.add(sums[side] / counts[side]);
        }
        t.diff.add(sums[0] / counts[0] - sums[1] / counts[1]);
    }
    t
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("arena: {e}");
            std::process::exit(2);
        }
    };
    println!(
        "arena: {} deals per match, each played twice with seats swapped; {} players, min bid {}, kontra {}, \
         first lead {:?}; seed {}",
        args.deals,
        args.rules.players.count(),
        args.rules.min_bid,
        args.rules.kontra,
        args.rules.first_lead,
        args.seed
    );
    for &(a, b) in &args.matches {
        let start = Instant::now();
        let chunk = args.deals.div_ceil(args.threads as u64);
        let done = AtomicU64::new(0);
        let tallies: Vec<Tally> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..args.threads as u64)
                .map(|k| {
                    let range = (k * chunk).min(args.deals)..((k + 1) * chunk).min(args.deals);
                    let (args, done) = (&args, &done);
                    scope.spawn(move || run_range(args, a, b, range, done))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a worker panicked")).collect()
        });
        let mut total = Tally::default();
        for t in &tallies {
            for side in 0..2 {
                total.sides[side].score.merge(&t.sides[side].score);
                total.sides[side].declared += t.sides[side].declared;
                total.sides[side].won += t.sides[side].won;
                total.sides[side].seats += t.sides[side].seats;
            }
            total.diff.merge(&t.diff);
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "\n{} vs {} ({:.0} s, {:.1} ms per deal played)",
            a.name(),
            b.name(),
            secs,
            secs * 500.0 / args.deals as f64
        );
        for (side, level) in [(0, a), (1, b)] {
            let s = &total.sides[side];
            println!(
                "  {:<7} {:+.3} ± {:.3} points per seat per deal; declared {:.1}% of seat-deals, won {:.1}% of those",
                level.name(),
                s.score.mean(),
                s.score.ci95(),
                100.0 * s.declared as f64 / s.seats.max(1) as f64,
                100.0 * s.won as f64 / s.declared.max(1) as f64
            );
        }
        let d = total.diff;
        let verdict = if d.mean() - d.ci95() > 0.0 {
            format!("{} better, significant at 95%", a.name())
        } else if d.mean() + d.ci95() < 0.0 {
            format!("{} better, significant at 95%", b.name())
        } else {
            "no significant difference".to_string()
        };
        println!("  difference {:+.3} ± {:.3} per seat per deal: {verdict}", d.mean(), d.ci95());
    }
}
