//! Plays deals between bot levels and prints each level's average score per deal with a 95%
//! confidence interval.
//!
//! Every deal is played twice with the levels' seats swapped (A B A B, then B A B A; with three
//! players A B A, then B A B), so each hand is played by both levels and the luck of the cards
//! cancels out of the difference.
//!
//! ```text
//! cargo run --release -p fipsen-bots --bin arena -- --deals 20000 --match strong:normal --match normal:easy
//! cargo run --release -p fipsen-bots --bin arena -- --game grossenaspe --deals 10000 --threads 2
//! ```
//!
//! With five players (Großenaspe) the seats go A B A B A, then B A B A B. Anseggerfips and
//! Duttfips are played by four (`--game anseggerfips` with `--dutt-exchange` or `--duels` for
//! those options; `--game duttfips`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use fipsen_bots::Level;
use fipsen_bots::arena::{Player, Stats, play_deal};
use fipsen_bots::grossenaspe;
use fipsen_bots::mecklenburg;
use fipsen_bots::rng::Hasher;
use fipsen_rules::grossenaspe::Rules as GrossenaspeRules;
use fipsen_rules::mecklenburg::{AnseggerfipsRules, AuctionKind, DuttUse, DuttfipsRules, Rules as MecklenburgRules};
use fipsen_rules::{FirstLead, Outcome, Players, RuleSet, Seat, Seed};

/// The game played and its table options.
#[derive(Clone, Copy)]
enum Game {
    Prisdorf(RuleSet),
    Grossenaspe(GrossenaspeRules),
    Mecklenburg(MecklenburgRules),
}

impl Game {
    fn players(&self) -> u8 {
        match self {
            Game::Prisdorf(r) => r.players.count(),
            Game::Grossenaspe(r) => r.players,
            Game::Mecklenburg(_) => 4,
        }
    }

    /// Plays one deal: every seat's score, and the declarer with whether he won.
    fn play(&self, dealer: Seat, seed: Seed, players: &[Player], bot_seed: u64) -> (Vec<i32>, Option<(Seat, bool)>) {
        match self {
            Game::Prisdorf(rules) => {
                let played = play_deal(*rules, dealer, seed, players, bot_seed);
                let declarer = match played.outcome {
                    Outcome::Won { declarer, .. }
                    | Outcome::Lost { declarer, .. }
                    | Outcome::GivenUp { declarer, .. } => {
                        Some((declarer, matches!(played.outcome, Outcome::Won { .. })))
                    }
                    Outcome::SiebenerFips { .. } | Outcome::ThrownIn => None,
                };
                (played.scores, declarer)
            }
            Game::Grossenaspe(rules) => {
                use fipsen_rules::grossenaspe::Outcome as O;
                let played = grossenaspe::play_deal(*rules, dealer, seed, players, bot_seed);
                let declarer = match played.outcome {
                    O::Won { declarer, .. } => Some((declarer, true)),
                    O::Lost { declarer, .. } | O::Folded { declarer, .. } => Some((declarer, false)),
                    O::ThrownIn => None,
                };
                (played.scores, declarer)
            }
            Game::Mecklenburg(rules) => {
                use fipsen_rules::mecklenburg::Outcome as O;
                let played = mecklenburg::play_deal(*rules, dealer, seed, players, bot_seed);
                let declarer = match played.outcome {
                    O::Won { declarer, .. } => Some((declarer, true)),
                    O::Lost { declarer, .. } => Some((declarer, false)),
                    O::ThrownIn => None,
                };
                (played.scores, declarer)
            }
        }
    }

    fn describe(&self) -> String {
        match self {
            Game::Prisdorf(r) => format!(
                "{} players, min bid {}, kontra {}, first lead {:?}",
                r.players.count(),
                r.min_bid,
                r.kontra,
                r.first_lead
            ),
            Game::Grossenaspe(r) => format!(
                "Großenaspe, {} players, min bid {}, loss factor {}, first lead {:?}",
                r.players, r.min_bid, r.loss_factor, r.first_lead
            ),
            Game::Mecklenburg(r) => format!(
                "{:?}, 4 players, auction {:?}, min bid {}, Dutt {:?}, loss factor {}, first lead {:?}",
                r.variant(),
                r.auction(),
                r.min_bid(),
                r.dutt(),
                r.loss_factor(),
                r.first_lead()
            ),
        }
    }
}

struct Args {
    deals: u64,
    game: Game,
    matches: Vec<(Level, Level)>,
    seed: u64,
    threads: usize,
}

fn level(name: &str) -> Result<Level, String> {
    Level::ALL.into_iter().find(|l| l.name() == name).ok_or_else(|| format!("unknown level `{name}`"))
}

fn parse() -> Result<Args, String> {
    let mut deals = 1000;
    let mut seed = 1;
    let mut threads = 1;
    let mut game = "prisdorf".to_string();
    let mut players: Option<u8> = None;
    let mut min_bid: Option<u8> = None;
    let mut kontra = false;
    let mut declarer_leads = false;
    let mut dutt_exchange = false;
    let mut duels = false;
    let mut matches = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--deals" => deals = value()?.parse().map_err(|e| format!("--deals: {e}"))?,
            "--seed" => seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--threads" => threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--game" => game = value()?,
            "--players" => players = Some(value()?.parse().map_err(|e| format!("--players: {e}"))?),
            "--min-bid" => min_bid = Some(value()?.parse().map_err(|e| format!("--min-bid: {e}"))?),
            "--kontra" => kontra = true,
            "--declarer-leads" => declarer_leads = true,
            "--dutt-exchange" => dutt_exchange = true,
            "--duels" => duels = true,
            "--match" => {
                let v = value()?;
                let (a, b) = v.split_once(':').ok_or("--match takes two levels like strong:normal")?;
                matches.push((level(a)?, level(b)?));
            }
            "--help" | "-h" => {
                println!(
                    "arena [--game prisdorf|grossenaspe|anseggerfips|duttfips] [--deals N] [--match A:B]... \
                     [--players 3|4|5] [--min-bid N] [--kontra] [--declarer-leads] [--dutt-exchange] [--duels] \
                     [--seed S] [--threads T]\nlevels: easy, normal, strong; five players and min bid 1 for \
                     grossenaspe only, --kontra for prisdorf only, --dutt-exchange and --duels for anseggerfips \
                     only; anseggerfips and duttfips are played by four"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other} (see --help)")),
        }
    }
    let first_lead = if declarer_leads { FirstLead::Declarer } else { FirstLead::Forehand };
    let game = match game.as_str() {
        "prisdorf" => {
            let mut rules = RuleSet { kontra, first_lead, ..RuleSet::prisdorf() };
            if let Some(p) = players {
                rules.players = match p {
                    3 => Players::Three,
                    4 => Players::Four,
                    other => return Err(format!("--players 3 or 4 for prisdorf, not {other}")),
                };
            }
            if let Some(m) = min_bid {
                rules.min_bid = m;
            }
            rules.validate().map_err(|e| e.to_string())?;
            Game::Prisdorf(rules)
        }
        "grossenaspe" => {
            if kontra {
                return Err("grossenaspe has no Kontra".into());
            }
            let mut rules = GrossenaspeRules { first_lead, ..GrossenaspeRules::grossenaspe() };
            if let Some(p) = players {
                rules.players = p;
            }
            if let Some(m) = min_bid {
                rules.min_bid = m;
            }
            rules.validate().map_err(|e| e.to_string())?;
            Game::Grossenaspe(rules)
        }
        "anseggerfips" | "duttfips" => {
            if kontra || players.is_some_and(|p| p != 4) {
                return Err(format!("{game} is played by four, without Kontra"));
            }
            let rules = if game == "anseggerfips" {
                let mut r = AnseggerfipsRules { first_lead, ..AnseggerfipsRules::anseggerfips() };
                if dutt_exchange {
                    r.dutt = DuttUse::Exchange;
                }
                if duels {
                    r.auction = AuctionKind::Duels;
                }
                if let Some(m) = min_bid {
                    r.min_bid = m;
                }
                MecklenburgRules::Anseggerfips(r)
            } else {
                if dutt_exchange || duels || min_bid.is_some() {
                    return Err("duttfips has no --dutt-exchange, --duels or --min-bid".into());
                }
                MecklenburgRules::Duttfips(DuttfipsRules { first_lead, ..DuttfipsRules::duttfips() })
            };
            rules.validate().map_err(|e| e.to_string())?;
            Game::Mecklenburg(rules)
        }
        other => return Err(format!("--game prisdorf, grossenaspe, anseggerfips or duttfips, not {other}")),
    };
    if matches.is_empty() {
        matches = vec![(Level::Strong, Level::Normal), (Level::Normal, Level::Easy)];
    }
    Ok(Args { deals, game, matches, seed, threads: threads.max(1) })
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
    let n = args.game.players();
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
            let (scores, declarer) = args.game.play(dealer, deal_seed, &players, h.finish());
            for s in 0..n {
                let side = usize::from((s % 2 == 0) == swap);
                let score = f64::from(scores[usize::from(s)]);
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
        "arena: {} deals per match, each played twice with seats swapped; {}; seed {}",
        args.deals,
        args.game.describe(),
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
