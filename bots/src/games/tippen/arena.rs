//! Tippen between bot levels, for the `arena` binary (`--game tippen`): whole series, since the
//! pot carries from deal to deal, each played twice with the levels' seats swapped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use fipsen_rules::Seed;
use fipsen_rules::tippen::{Preset, Rules, Series};

use super::Bot;
use crate::arena::{Decisions, Stats, in_parallel, verdict};
use crate::level::Level;
use crate::rng::Hasher;

/// How one series went.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesResult {
    /// Every seat's balance at the end.
    pub balances: Vec<i32>,
    /// The pot and reserve left unclaimed.
    pub left: i32,
    /// The decisions asked of each level and their times.
    pub decisions: Decisions,
}

/// Plays a series of `rules` (which must set `deals`) with `levels[s]` in seat `s`.
///
/// # Panics
/// If a bot gives no answer at its turn or one the rules refuse: both are bugs.
pub fn play_series(rules: Rules, seed: Seed, levels: &[Level], bot_seed: u64) -> SeriesResult {
    let (mut series, _) = Series::new(rules, seed).expect("valid rules");
    let mut decisions = Decisions::default();
    let mut step = 0u64;
    while !series.is_over() {
        if series.deal().is_over() {
            series.next_deal().expect("the deal is over");
            continue;
        }
        let seat = series.deal().turn().expect("a deal in progress has a turn");
        let view = series.view(Some(seat));
        let level = levels[seat.index()];
        let mut h = Hasher::new(bot_seed);
        h.word(u64::from(seat.0));
        h.word(step);
        step += 1;
        let start = Instant::now();
        let action = Bot::new(level, h.finish()).choose_in_series(&view).expect("the bot must act");
        decisions.record(level, start.elapsed());
        if let Err(e) = series.apply(seat, action) {
            panic!("{level:?} at seat {seat} chose {action:?}, refused: {e}");
        }
    }
    SeriesResult { balances: series.totals().to_vec(), left: series.pot() + series.reserve(), decisions }
}

/// The arena's options for Tippen.
#[derive(Debug, Clone)]
pub struct Options {
    /// The table.
    pub rules: Rules,
    /// Deals in all per match (rounded up to whole series).
    pub deals: u64,
    /// Deals per series.
    pub series_deals: u32,
    /// The matches: level A against level B.
    pub matches: Vec<(Level, Level)>,
    /// The seed of every shuffle and bot.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// Reads the arena's arguments for `--game tippen`.
///
/// # Errors
/// A message naming the argument at fault.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut preset = Preset::ModernGrupp;
    let mut players = 4u8;
    let mut deals = 1000u64;
    let mut series_deals = None;
    let mut seed = 1;
    let mut threads = 1;
    let mut matches = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--game" => {
                let g = value()?;
                if g != "tippen" {
                    return Err(format!("not tippen: {g}"));
                }
            }
            "--preset" => {
                let v = value()?;
                preset =
                    Preset::ALL.into_iter().find(|p| p.id() == v).ok_or_else(|| format!("unknown preset `{v}`"))?;
            }
            "--players" => players = value()?.parse().map_err(|e| format!("--players: {e}"))?,
            "--deals" => deals = value()?.parse().map_err(|e| format!("--deals: {e}"))?,
            "--series" => series_deals = Some(value()?.parse().map_err(|e| format!("--series: {e}"))?),
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
            other => return Err(format!("unknown argument {other} for tippen (see --help)")),
        }
    }
    let series_deals = series_deals.unwrap_or(2 * u32::from(players));
    let rules = Rules { deals: Some(series_deals), ..Rules::preset(preset, players) };
    rules.validate().map_err(|e| e.to_string())?;
    if matches.is_empty() {
        matches = vec![(Level::Strong, Level::Normal), (Level::Normal, Level::Easy)];
    }
    Ok(Options { rules, deals, series_deals, matches, seed, threads: threads.max(1) })
}

/// One match's tally: each level's counters per seat per deal, their difference per series.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    /// Counters per seat per deal of A and of B, one value per pair of series.
    pub sides: [Stats; 2],
    /// A's minus B's, one value per pair of series.
    pub diff: Stats,
    /// The pot left unclaimed per deal.
    pub left: Stats,
    /// The decisions of each level and their times.
    pub decisions: Decisions,
}

impl Tally {
    fn merge(&mut self, o: &Tally) {
        for i in 0..2 {
            self.sides[i].merge(&o.sides[i]);
        }
        self.diff.merge(&o.diff);
        self.left.merge(&o.left);
        self.decisions.merge(&o.decisions);
    }
}

/// Plays series `range` of a match of `a` against `b`: each series twice, A in the even
/// seats and then in the odd ones.
pub fn run_range(o: &Options, a: Level, b: Level, range: std::ops::Range<u64>, done: &AtomicU64) -> Tally {
    let n = usize::from(o.rules.players);
    let per = f64::from(o.series_deals);
    let mut t = Tally::default();
    for i in range {
        let mut h = Hasher::new(o.seed);
        h.word(i);
        let seed = Seed::from_u64(h.finish());
        let mut sums = [0.0f64; 2];
        let mut counts = [0.0f64; 2];
        for swap in [false, true] {
            let levels: Vec<Level> = (0..n).map(|s| if (s % 2 == 0) != swap { a } else { b }).collect();
            let r = play_series(o.rules, seed, &levels, h.finish() ^ u64::from(swap));
            for s in 0..n {
                let side = usize::from((s % 2 == 0) == swap);
                sums[side] += f64::from(r.balances[s]) / per;
                counts[side] += 1.0;
            }
            t.left.add(f64::from(r.left) / per);
            t.decisions.merge(&r.decisions);
        }
        for side in 0..2 {
            t.sides[side].add(sums[side] / counts[side]);
        }
        t.diff.add(sums[0] / counts[0] - sums[1] / counts[1]);
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        if finished.is_multiple_of(250) {
            eprintln!("  {} vs {}: {finished} series", a.name(), b.name());
        }
    }
    t
}

/// Runs the arena for Tippen and prints each match.
pub fn run(o: &Options) {
    let series = o.deals.div_ceil(u64::from(o.series_deals));
    println!(
        "arena: Tippen {}, {} players, {} series of {} deals per match ({} deals), each played twice with seats \
         swapped; seed {}",
        o.rules.preset.id(),
        o.rules.players,
        series,
        o.series_deals,
        series * u64::from(o.series_deals),
        o.seed
    );
    for &(a, b) in &o.matches {
        let start = Instant::now();
        let total = in_parallel(series, o.threads, |range, done| run_range(o, a, b, range, done), Tally::merge);
        println!("\n{} vs {} ({:.0} s)", a.name(), b.name(), start.elapsed().as_secs_f64());
        for (side, level) in [(0, a), (1, b)] {
            let s = &total.sides[side];
            println!(
                "  {:<7} {:+.3} ± {:.3} counters per seat per deal; {:.3} ms per decision, slowest {:.1} ms",
                level.name(),
                s.mean(),
                s.ci95(),
                total.decisions.mean_ms(level),
                total.decisions.slowest_ms(level)
            );
        }
        println!("  left unclaimed in the pot at the ends: {:.3} per deal", total.left.mean());
        let d = total.diff;
        println!("  difference {:+.3} ± {:.3} per seat per deal: {}", d.mean(), d.ci95(), verdict(&d, a, b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_keeps_the_counters_and_every_level_plays() {
        let rules = Rules { deals: Some(4), ..Rules::preset(Preset::Dreiblatt1859, 3) };
        let levels = [Level::Strong, Level::Normal, Level::Easy];
        let r = play_series(rules, Seed::from_u64(5), &levels, 9);
        assert_eq!(r.balances.iter().sum::<i32>() + r.left, 0);
        assert!(r.decisions.count.iter().all(|&n| n > 0), "{:?}", r.decisions);
        let again = play_series(rules, Seed::from_u64(5), &levels, 9);
        assert_eq!(r, SeriesResult { decisions: r.decisions, ..again });
    }

    #[test]
    fn the_arguments_name_preset_players_and_matches() {
        let args: Vec<String> = "--game tippen --preset dreiblatt_1859 --players 5 --match strong:easy"
            .split(' ')
            .map(String::from)
            .collect();
        let o = parse(&args).expect("valid");
        assert_eq!((o.rules.preset, o.rules.players, o.series_deals), (Preset::Dreiblatt1859, 5, 10));
        assert_eq!(o.matches, vec![(Level::Strong, Level::Easy)]);
        assert!(parse(&["--preset".into(), "nope".into()]).is_err());
        assert!(parse(&["--players".into(), "9".into()]).is_err());
    }
}
