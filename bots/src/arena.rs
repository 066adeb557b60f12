//! Playing deals between bots: the engine of the `arena` binary, kept in the library so tests
//! can drive it too.

use fipsen_rules::{Action, Deal, Outcome, RuleSet, Seat, Seed};

use crate::bot::{Bot, Config, Level};
use crate::rng::Hasher;

/// One seat's bot setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Player {
    /// The level.
    pub level: Level,
    /// Its numbers.
    pub config: Config,
}

impl Player {
    /// A level with its default numbers.
    pub fn of(level: Level) -> Player {
        Player { level, config: Config::of(level) }
    }
}

/// How one deal went.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// Every seat's score.
    pub scores: Vec<i32>,
    /// How it ended.
    pub outcome: Outcome,
    /// Every action taken, in order.
    pub actions: Vec<(Seat, Action)>,
}

/// Plays one deal to its end with a bot in every seat. Each bot is asked only with its own
/// view; a Siebener Fips is offered to its holder whenever it may be announced.
///
/// # Panics
/// If a bot answers with an action the rules refuse, or gives no answer when it must act:
/// both are bugs.
pub fn play_deal(rules: RuleSet, dealer: Seat, seed: Seed, players: &[Player], bot_seed: u64) -> Played {
    let (deal, _) = Deal::new(rules, 1, dealer, seed);
    play_from(deal, players, bot_seed)
}

/// [`play_deal`] from a deal already dealt.
///
/// # Panics
/// As [`play_deal`].
pub fn play_from(mut deal: Deal, players: &[Player], bot_seed: u64) -> Played {
    let n = deal.players();
    let mut bots: Vec<Bot> = (0..n)
        .map(|s| {
            let mut h = Hasher::new(bot_seed);
            h.word(u64::from(s));
            let p = players[usize::from(s)];
            Bot::with_config(p.level, p.config, h.finish())
        })
        .collect();
    let mut actions = Vec::new();
    while !deal.is_over() {
        // A Siebener Fips may come out of turn.
        let fips = (0..n).map(Seat).find(|&s| deal.before_first_lead() && deal.hand(s).has_siebener_fips());
        let seat = match fips {
            Some(s) => s,
            None => deal.turn().expect("a deal that is not over has a turn"),
        };
        let view = deal.view(Some(seat));
        let action = bots[seat.index()].choose(&view).expect("the bot must act");
        if let Err(e) = deal.apply(seat, action) {
            panic!("bot at seat {seat} chose {action:?}, refused: {e} ({})", e.code());
        }
        actions.push((seat, action));
    }
    let outcome = deal.outcome().expect("over");
    Played { scores: outcome.scores(n), outcome, actions }
}

/// Running mean and variance (Welford).
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Stats {
    /// Adds one value.
    pub fn add(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }

    /// Merges another run.
    pub fn merge(&mut self, o: &Stats) {
        if o.n == 0.0 {
            return;
        }
        let n = self.n + o.n;
        let d = o.mean - self.mean;
        self.mean += d * o.n / n;
        self.m2 += o.m2 + d * d * self.n * o.n / n;
        self.n = n;
    }

    /// How many values.
    pub fn count(&self) -> f64 {
        self.n
    }

    /// The mean.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Half the width of the 95% confidence interval of the mean.
    pub fn ci95(&self) -> f64 {
        if self.n < 2.0 { f64::INFINITY } else { 1.96 * (self.m2 / (self.n - 1.0) / self.n).sqrt() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_merge_equals_one_run() {
        let xs = [1.0, 4.0, -2.0, 7.5, 3.0, 0.0];
        let mut all = Stats::default();
        xs.iter().for_each(|&x| all.add(x));
        let (mut a, mut b) = (Stats::default(), Stats::default());
        xs[..2].iter().for_each(|&x| a.add(x));
        xs[2..].iter().for_each(|&x| b.add(x));
        a.merge(&b);
        assert!((a.mean() - all.mean()).abs() < 1e-12);
        assert!((a.ci95() - all.ci95()).abs() < 1e-12);
        assert_eq!(a.count(), 6.0);
    }
}

/// The bots' decisions in a game or a match, per level (easy, normal, strong): how many, how
/// long they took in all, and the slowest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Decisions {
    /// Decisions per level.
    pub count: [u64; 3],
    /// Their time in all, per level.
    pub time: [std::time::Duration; 3],
    /// The slowest, per level.
    pub slowest: [std::time::Duration; 3],
}

impl Decisions {
    /// Counts one decision of `level` that took `took`.
    pub fn record(&mut self, level: Level, took: std::time::Duration) {
        let i = level as usize;
        self.count[i] += 1;
        self.time[i] += took;
        self.slowest[i] = self.slowest[i].max(took);
    }

    /// Adds another game's or worker's decisions.
    pub fn merge(&mut self, o: &Decisions) {
        for i in 0..3 {
            self.count[i] += o.count[i];
            self.time[i] += o.time[i];
            self.slowest[i] = self.slowest[i].max(o.slowest[i]);
        }
    }

    /// The mean time of a decision of `level`, in milliseconds.
    pub fn mean_ms(&self, level: Level) -> f64 {
        let i = level as usize;
        self.time[i].as_secs_f64() * 1000.0 / self.count[i].max(1) as f64
    }

    /// The slowest decision of `level`, in milliseconds.
    pub fn slowest_ms(&self, level: Level) -> f64 {
        self.slowest[level as usize].as_secs_f64() * 1000.0
    }
}

/// Runs the units `0..units` of a match on `threads` threads, each a contiguous range
/// (`work(range, done)`, `done` counting finished units across threads), and merges what they
/// return in the order of the ranges: the same result whatever the number of threads.
///
/// # Panics
/// If a worker panics.
pub fn in_parallel<T: Send + Default>(
    units: u64,
    threads: usize,
    work: impl Fn(std::ops::Range<u64>, &std::sync::atomic::AtomicU64) -> T + Sync,
    merge: impl Fn(&mut T, &T),
) -> T {
    let threads = threads.max(1) as u64;
    let chunk = units.div_ceil(threads);
    let done = std::sync::atomic::AtomicU64::new(0);
    let parts: Vec<T> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let range = (k * chunk).min(units)..((k + 1) * chunk).min(units);
                let (work, done) = (&work, &done);
                scope.spawn(move || work(range, done))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a worker panicked")).collect()
    });
    let mut total = T::default();
    parts.iter().for_each(|p| merge(&mut total, p));
    total
}

/// The verdict on a difference of A's and B's results, by its 95% interval.
pub fn verdict(d: &Stats, a: Level, b: Level) -> String {
    if d.mean() - d.ci95() > 0.0 {
        format!("{} better, significant at 95%", a.name())
    } else if d.mean() + d.ci95() < 0.0 {
        format!("{} better, significant at 95%", b.name())
    } else {
        "no significant difference".to_string()
    }
}
