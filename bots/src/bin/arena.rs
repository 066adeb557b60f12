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
//!
//! Thedinghausen Fipsen (`--game thedinghausen`, `--head-the-trick` for that option) is a race
//! over deals, so its unit is the **round**: from one seed the same round (the same deals, as
//! long as the play keeps it so) is played ten times, one A against four B with A in each of
//! the five seats, then one B against four A likewise. A level's score is its points per seat
//! per round and per seat per deal; the difference is taken per seed (the A seats' mean minus
//! the B seats' over the ten rounds). Seeds are played in order until `--deals` deals are
//! reached.
//!
//! ```text
//! cargo run --release -p fipsen-bots --bin arena -- --game thedinghausen --deals 20000 --match strong:normal --match normal:easy --threads 2
//! ```
//!
//! Its results on 23 November (seed 1; 20,000 deals per match, about 3,000 rounds of 6.7
//! deals), the difference per seat with its 95% interval:
//!
//! ```text
//! strong − normal  +0.165 ± 0.038 points per round, +0.0239 ± 0.0055 per deal: significant
//! normal − easy    +0.258 ± 0.052 points per round, +0.0378 ± 0.0077 per deal: significant
//! ```
//!
//! Wippen (`--game wippen [--players N] [--max-group-piles G]`, default two players) plays
//! `--deals` games, each twice from the same shuffle with the levels' seats swapped; a level's
//! score is its points per seat per game, the difference is taken per shuffle.
//!
//! Tippen (`--game tippen [--preset ID] [--players N] [--series D]`, default `modern_grupp` by
//! four) is played in whole series of D deals (default two rounds of dealers), since the pot
//! carries from deal to deal; each series twice with the levels' seats swapped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use fipsen_bots::Level;
use fipsen_bots::arena::{Player, Stats, in_parallel, play_deal, verdict};
use fipsen_bots::grossenaspe;
use fipsen_bots::mecklenburg;
use fipsen_bots::rng::Hasher;
use fipsen_bots::thedinghausen;
use fipsen_rules::grossenaspe::Rules as GrossenaspeRules;
use fipsen_rules::mecklenburg::{AnseggerfipsRules, AuctionKind, DuttUse, DuttfipsRules, Rules as MecklenburgRules};
use fipsen_rules::thedinghausen::Rules as ThedinghausenRules;
use fipsen_rules::{FirstLead, Outcome, Players, RuleSet, Seat, Seed};

/// The game played and its table options.
#[derive(Clone, Copy)]
enum Game {
    Prisdorf(RuleSet),
    Grossenaspe(GrossenaspeRules),
    Mecklenburg(MecklenburgRules),
    Thedinghausen(ThedinghausenRules),
}

impl Game {
    fn players(&self) -> u8 {
        match self {
            Game::Prisdorf(r) => r.players.count(),
            Game::Grossenaspe(r) => r.players,
            Game::Mecklenburg(_) => 4,
            Game::Thedinghausen(_) => 5,
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
            Game::Thedinghausen(_) => unreachable!("Thedinghausen is played by rounds"),
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
            Game::Thedinghausen(r) => {
                format!("Thedinghausen, 5 players, rounds to ten tricks, head the trick {}", r.head_the_trick)
            }
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
    let mut head = false;
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
            "--head-the-trick" => head = true,
            "--match" => {
                let v = value()?;
                let (a, b) = v.split_once(':').ok_or("--match takes two levels like strong:normal")?;
                matches.push((level(a)?, level(b)?));
            }
            "--help" | "-h" => {
                println!(
                    "arena [--game prisdorf|grossenaspe|anseggerfips|duttfips|thedinghausen] [--deals N] \
                     [--match A:B]... [--players 3|4|5] [--min-bid N] [--kontra] [--declarer-leads] \
                     [--dutt-exchange] [--duels] [--head-the-trick] [--seed S] [--threads T]\nlevels: easy, \
                     normal, strong; five players and min bid 1 for grossenaspe only, --kontra for prisdorf only, \
                     --dutt-exchange and --duels for anseggerfips only; anseggerfips and duttfips are played by \
                     four; thedinghausen by five, in rounds, --head-the-trick for it only\n\
                     arena --game tippen [--preset ID] [--players N] [--series D] [--deals N] [--match A:B]... \
                     [--seed S] [--threads T]: whole series of D deals (default two rounds of dealers)\n\
                     arena --game wippen [--players N] [--max-group-piles G] [--deals N] [--match A:B]... \
                     [--seed S] [--threads T]: N games, each played twice with seats swapped"
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
        "thedinghausen" => {
            if kontra
                || declarer_leads
                || dutt_exchange
                || duels
                || min_bid.is_some()
                || players.is_some_and(|p| p != 5)
            {
                return Err("thedinghausen is played by five, with no option but --head-the-trick".into());
            }
            let rules = ThedinghausenRules { head_the_trick: head, ..ThedinghausenRules::default() };
            rules.validate().map_err(|e| e.to_string())?;
            Game::Thedinghausen(rules)
        }
        other => {
            return Err(format!(
                "--game prisdorf, grossenaspe, anseggerfips, duttfips, thedinghausen or tippen, not {other}"
            ));
        }
    };
    if head && !matches!(game, Game::Thedinghausen(_)) {
        return Err("--head-the-trick is for thedinghausen only".into());
    }
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

/// What one level did over the ten rounds of one seed of Thedinghausen.
#[derive(Default, Clone, Copy)]
struct RoundSide {
    points: f64,
    seat_rounds: f64,
    seat_deals: f64,
    announced: u64,
    won: u64,
    lost: u64,
}

/// The ten rounds of one seed: one A against four B in every seat, then one B against four A.
fn thedinghausen_seed(args: &Args, rules: ThedinghausenRules, a: Level, b: Level, i: u64) -> ([RoundSide; 2], u64) {
    let mut h = Hasher::new(args.seed);
    h.word(i);
    let round_seed = h.finish();
    let dealer = Seat((i % 5) as u8);
    let mut sides = [RoundSide::default(); 2];
    let mut deals = 0u64;
    for (lineup, (lone, rest, lone_side)) in [(a, b, 0usize), (b, a, 1usize)].into_iter().enumerate() {
        for r in 0..5 {
            let levels: [Level; 5] = std::array::from_fn(|s| if s == r { lone } else { rest });
            let mut hb = Hasher::new(round_seed);
            hb.word((lineup * 5 + r) as u64);
            let played = thedinghausen::play_round(rules, dealer, round_seed, &levels, hb.finish());
            deals += u64::from(played.deals);
            for s in 0..5 {
                let side = if s == r { lone_side } else { 1 - lone_side };
                let t = &mut sides[side];
                t.points += f64::from(played.scores[s]);
                t.seat_rounds += 1.0;
                t.seat_deals += f64::from(played.deals);
                t.announced += u64::from(played.announced[s]);
                t.won += u64::from(played.won[s]);
                t.lost += u64::from(played.lost[s]);
            }
        }
    }
    (sides, deals)
}

/// A match of Thedinghausen rounds: seeds in order until `--deals` deals are played.
fn thedinghausen_match(args: &Args, rules: ThedinghausenRules, a: Level, b: Level) {
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let mut results: Vec<(u64, [RoundSide; 2], u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.threads)
            .map(|_| {
                let (next, done) = (&next, &done);
                scope.spawn(move || {
                    let mut out = Vec::new();
                    while done.load(Ordering::Relaxed) < args.deals {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let (sides, deals) = thedinghausen_seed(args, rules, a, b, i);
                        let before = done.fetch_add(deals, Ordering::Relaxed);
                        if (before + deals) / 1000 > before / 1000 {
                            eprintln!("  {} vs {}: {} of {} deals", a.name(), b.name(), before + deals, args.deals);
                        }
                        out.push((i, sides, deals));
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a worker panicked")).collect()
    });
    // The seeds in order up to the deal count: the same whatever the threads.
    results.sort_by_key(|r| r.0);
    let mut deals = 0u64;
    let mut used = 0;
    while used < results.len() && deals < args.deals {
        deals += results[used].2;
        used += 1;
    }
    results.truncate(used);
    let mut per_round = [Stats::default(); 2];
    let mut per_deal = [Stats::default(); 2];
    let (mut diff_round, mut diff_deal) = (Stats::default(), Stats::default());
    let mut total = [RoundSide::default(); 2];
    for (_, sides, _) in &results {
        for side in 0..2 {
            let t = &sides[side];
            per_round[side].add(t.points / t.seat_rounds);
            per_deal[side].add(t.points / t.seat_deals);
            let all = &mut total[side];
            all.points += t.points;
            all.seat_rounds += t.seat_rounds;
            all.seat_deals += t.seat_deals;
            all.announced += t.announced;
            all.won += t.won;
            all.lost += t.lost;
        }
        diff_round.add(sides[0].points / sides[0].seat_rounds - sides[1].points / sides[1].seat_rounds);
        diff_deal.add(sides[0].points / sides[0].seat_deals - sides[1].points / sides[1].seat_deals);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "\n{} vs {} ({:.0} s; {} seeds, {} rounds, {} deals, {:.1} deals per round, {:.1} ms per deal)",
        a.name(),
        b.name(),
        secs,
        results.len(),
        10 * results.len(),
        deals,
        deals as f64 / (10 * results.len()).max(1) as f64,
        secs * 1000.0 / deals.max(1) as f64
    );
    for (side, level) in [(0, a), (1, b)] {
        let t = &total[side];
        println!(
            "  {:<7} {:+.3} ± {:.3} points per seat per round, {:+.4} ± {:.4} per seat per deal; fipsen in {:.2}% \
             of seat-deals, won {:.1}%, lost {:.1}% of those",
            level.name(),
            per_round[side].mean(),
            per_round[side].ci95(),
            per_deal[side].mean(),
            per_deal[side].ci95(),
            100.0 * t.announced as f64 / t.seat_deals.max(1.0),
            100.0 * t.won as f64 / t.announced.max(1) as f64,
            100.0 * t.lost as f64 / t.announced.max(1) as f64
        );
    }
    let verdict = verdict(&diff_round, a, b);
    println!(
        "  difference {:+.3} ± {:.3} per seat per round, {:+.4} ± {:.4} per seat per deal: {verdict}",
        diff_round.mean(),
        diff_round.ci95(),
        diff_deal.mean(),
        diff_deal.ci95()
    );
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.windows(2).any(|w| w[0] == "--game" && w[1] == "wippen") {
        match fipsen_bots::wippen::arena::parse(&all) {
            Ok(o) => return fipsen_bots::wippen::arena::run(&o),
            Err(e) => {
                eprintln!("arena: {e}");
                std::process::exit(2);
            }
        }
    }
    if all.windows(2).any(|w| w[0] == "--game" && w[1] == "tippen") {
        match fipsen_bots::tippen::arena::parse(&all) {
            Ok(o) => return fipsen_bots::tippen::arena::run(&o),
            Err(e) => {
                eprintln!("arena: {e}");
                std::process::exit(2);
            }
        }
    }
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("arena: {e}");
            std::process::exit(2);
        }
    };
    if let Game::Thedinghausen(rules) = args.game {
        println!(
            "arena: at least {} deals per match, in rounds played ten times (one A vs four B, one B vs four A, \
             each lone level in every seat); {}; seed {}",
            args.deals,
            args.game.describe(),
            args.seed
        );
        for &(a, b) in &args.matches {
            thedinghausen_match(&args, rules, a, b);
        }
        return;
    }
    println!(
        "arena: {} deals per match, each played twice with seats swapped; {}; seed {}",
        args.deals,
        args.game.describe(),
        args.seed
    );
    for &(a, b) in &args.matches {
        let start = Instant::now();
        let merge = |total: &mut Tally, t: &Tally| {
            for side in 0..2 {
                total.sides[side].score.merge(&t.sides[side].score);
                total.sides[side].declared += t.sides[side].declared;
                total.sides[side].won += t.sides[side].won;
                total.sides[side].seats += t.sides[side].seats;
            }
            total.diff.merge(&t.diff);
        };
        let total = in_parallel(args.deals, args.threads, |range, done| run_range(&args, a, b, range, done), merge);
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
        println!("  difference {:+.3} ± {:.3} per seat per deal: {}", d.mean(), d.ci95(), verdict(&d, a, b));
    }
}
