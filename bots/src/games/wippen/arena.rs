//! Wippen between bot levels, for the `arena` binary (`--game wippen`): every game (a "deal" of
//! the engine: one pass through the pack) is played twice from the same shuffle, the levels'
//! seats swapped (A B, then B A; with more players A B A B, then B A B A), so each hand is
//! played by both levels and the luck of the cards cancels out of the difference.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use fipsen_rules::Seed;
use fipsen_rules::wippen::{Rules, Series};

use super::Bot;
use crate::arena::{Decisions, Stats, in_parallel, verdict};
use crate::level::Level;
use crate::rng::Hasher;

/// How one game went.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// Every seat's points.
    pub points: Vec<i32>,
    /// Sweeps per seat.
    pub sweeps: Vec<u8>,
    /// The decisions asked of each level and their times.
    pub decisions: Decisions,
}

/// Plays one game of `rules` shuffled from `seed` with `levels[s]` in seat `s` (the last seat
/// deals). Each bot sees only its own view.
///
/// # Panics
/// If a bot gives no answer at its turn or one the rules refuse: both are bugs.
pub fn play_game(rules: Rules, seed: Seed, levels: &[Level], bot_seed: u64) -> GameResult {
    let rules = Rules { deals: Some(1), ..rules };
    let (mut series, _) = Series::new(rules, seed).expect("valid rules");
    let mut decisions = Decisions::default();
    while !series.is_over() {
        let seat = series.deal().turn().expect("a game in progress has a turn");
        let view = series.view(Some(seat));
        let level = levels[seat.index()];
        let mut h = Hasher::new(bot_seed);
        h.word(u64::from(seat.0));
        let start = Instant::now();
        let mv = Bot::new(level, h.finish()).choose_in_series(&view).expect("the bot must move");
        decisions.record(level, start.elapsed());
        if let Err(e) = series.apply(seat, mv.clone()) {
            panic!("{level:?} at seat {seat} chose {mv:?}, refused: {e}");
        }
    }
    let row = series.scoresheet().last().expect("a finished game has its row");
    GameResult { points: row.points.clone(), sweeps: row.sweeps.clone(), decisions }
}

/// The arena's options for Wippen.
#[derive(Debug, Clone)]
pub struct Options {
    /// The table.
    pub rules: Rules,
    /// Games (shuffles) per match, each played twice.
    pub deals: u64,
    /// The matches: level A against level B.
    pub matches: Vec<(Level, Level)>,
    /// The seed of every shuffle and bot.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// Reads the arena's arguments for `--game wippen`.
///
/// # Errors
/// A message naming the argument at fault.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut rules = Rules::default();
    let mut deals = 1000u64;
    let mut seed = 1;
    let mut threads = 1;
    let mut matches = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--game" => {
                let g = value()?;
                if g != "wippen" {
                    return Err(format!("not wippen: {g}"));
                }
            }
            "--players" => rules.players = value()?.parse().map_err(|e| format!("--players: {e}"))?,
            "--max-group-piles" => {
                rules.max_group_piles = value()?.parse().map_err(|e| format!("--max-group-piles: {e}"))?;
            }
            "--deals" => deals = value()?.parse().map_err(|e| format!("--deals: {e}"))?,
            "--seed" => seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--threads" => threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--match" => {
                let v = value()?;
                let (x, y) = v.split_once(':').ok_or("--match takes two levels like strong:normal")?;
                let level = |name: &str| {
                    Level::ALL.into_iter().find(|l| l.name() == name).ok_or_else(|| format!("unknown level `{name}`"))
                };
                matches.push((level(x)?, level(y)?));
            }
            other => return Err(format!("unknown argument {other} for wippen (see --help)")),
        }
    }
    rules.validate().map_err(|e| e.to_string())?;
    if matches.is_empty() {
        matches = vec![(Level::Strong, Level::Normal), (Level::Normal, Level::Easy)];
    }
    Ok(Options { rules, deals, matches, seed, threads: threads.max(1) })
}

/// One match's tally.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    /// Points per seat per game of A and of B, one value per shuffle (both plays).
    pub sides: [Stats; 2],
    /// A's minus B's, one value per shuffle.
    pub diff: Stats,
    /// Sweeps per seat per game of A and of B.
    pub sweeps: [Stats; 2],
    /// The decisions of each level and their times.
    pub decisions: Decisions,
}

impl Tally {
    /// Adds another tally.
    pub fn merge(&mut self, o: &Tally) {
        for i in 0..2 {
            self.sides[i].merge(&o.sides[i]);
            self.sweeps[i].merge(&o.sweeps[i]);
        }
        self.diff.merge(&o.diff);
        self.decisions.merge(&o.decisions);
    }
}

/// Plays shuffles `range` of a match of `a` against `b`: each game twice, A in the even seats
/// and then in the odd ones.
pub fn run_range(o: &Options, a: Level, b: Level, range: std::ops::Range<u64>, done: &AtomicU64) -> Tally {
    let n = usize::from(o.rules.players);
    let mut t = Tally::default();
    for i in range {
        let mut h = Hasher::new(o.seed);
        h.word(i);
        let seed = Seed::from_u64(h.finish());
        let mut sums = [0.0f64; 2];
        let mut sweeps = [0.0f64; 2];
        let mut counts = [0.0f64; 2];
        for swap in [false, true] {
            let levels: Vec<Level> = (0..n).map(|s| if (s % 2 == 0) != swap { a } else { b }).collect();
            let r = play_game(o.rules, seed, &levels, h.finish() ^ u64::from(swap));
            for s in 0..n {
                let side = usize::from((s % 2 == 0) == swap);
                sums[side] += f64::from(r.points[s]);
                sweeps[side] += f64::from(r.sweeps[s]);
                counts[side] += 1.0;
            }
            t.decisions.merge(&r.decisions);
        }
        for side in 0..2 {
            t.sides[side].add(sums[side] / counts[side]);
            t.sweeps[side].add(sweeps[side] / counts[side]);
        }
        t.diff.add(sums[0] / counts[0] - sums[1] / counts[1]);
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        if finished.is_multiple_of(1000) {
            eprintln!("  {} vs {}: {finished} games", a.name(), b.name());
        }
    }
    t
}

/// Plays a whole match on `o.threads` threads: the same figures whatever the threads.
pub fn play_match(o: &Options, a: Level, b: Level) -> Tally {
    in_parallel(o.deals, o.threads, |range, done| run_range(o, a, b, range, done), Tally::merge)
}

/// Runs the arena for Wippen and prints each match.
pub fn run(o: &Options) {
    println!(
        "arena: Wippen, {} players, groups of at most {} piles, {} games per match, each played twice with seats \
         swapped; seed {}",
        o.rules.players, o.rules.max_group_piles, o.deals, o.seed
    );
    for &(a, b) in &o.matches {
        let start = Instant::now();
        let total = play_match(o, a, b);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "\n{} vs {} ({:.0} s, {:.1} ms per game played)",
            a.name(),
            b.name(),
            secs,
            secs * 500.0 / o.deals.max(1) as f64
        );
        for (side, level) in [(0, a), (1, b)] {
            let s = &total.sides[side];
            println!(
                "  {:<7} {:.3} ± {:.3} points per seat per game, {:.3} sweeps; {:.3} ms per move, slowest {:.1} ms",
                level.name(),
                s.mean(),
                s.ci95(),
                total.sweeps[side].mean(),
                total.decisions.mean_ms(level),
                total.decisions.slowest_ms(level)
            );
        }
        let d = total.diff;
        println!(
            "  difference {:+.3} ± {:.3} points per seat per game (standard error {:.3}, {} games): {}",
            d.mean(),
            d.ci95(),
            d.ci95() / 1.96,
            d.count(),
            verdict(&d, a, b)
        );
    }
}
