//! The tournament from registration to results, with every operation's events replayed.

// The helpers outside the tests stop at the first surprise, as the tests do.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, HashSet};

use fipsen_rules::{GameId, GameRules, Players, RuleSet, Seed};
use fipsen_tournament::*;

/// A tournament with its event log; after every operation the log is replayed and the state
/// is written to JSON and read back, and both must equal the tournament.
struct Log {
    t: Tournament,
    events: Vec<TournamentEvent>,
}

impl Log {
    fn create(settings: Settings, organiser: &str) -> Log {
        let (t, events) = Tournament::create(TournamentId("t-1".into()), settings, organiser).unwrap();
        let log = Log { t, events };
        log.check();
        log
    }

    fn check(&self) {
        let replayed = Tournament::from_events(&self.events).unwrap();
        assert_eq!(replayed, self.t, "replaying the events rebuilds the state");
        let json = self.t.to_json().unwrap();
        assert_eq!(Tournament::from_json(&json).unwrap(), self.t, "the JSON round-trips");
        let events_json = serde_json::to_string(&self.events).unwrap();
        let events: Vec<TournamentEvent> = serde_json::from_str(&events_json).unwrap();
        assert_eq!(events, self.events, "the events round-trip through JSON");
    }

    /// Runs an operation; on success its events join the log, on failure the state must be
    /// unchanged.
    fn run<T>(
        &mut self,
        op: impl FnOnce(&mut Tournament) -> Result<T, TournamentError>,
        events: impl Fn(&T) -> Vec<TournamentEvent>,
    ) -> Result<T, TournamentError> {
        let before = self.t.clone();
        let result = op(&mut self.t);
        match &result {
            Ok(out) => self.events.extend(events(out)),
            Err(_) => assert_eq!(self.t, before, "a refused operation changes nothing"),
        }
        self.check();
        result
    }

    fn register(&mut self, name: &str) -> Result<EntrantId, TournamentError> {
        self.run(|t| t.register(name), |(_, e)| e.clone()).map(|(id, _)| id)
    }

    fn op(
        &mut self,
        op: impl FnOnce(&mut Tournament) -> Result<Vec<TournamentEvent>, TournamentError>,
    ) -> Result<Vec<TournamentEvent>, TournamentError> {
        self.run(op, Clone::clone)
    }
}

/// Prisdorf settings with short tables: `four` deals at a table of four, `three` at three.
fn short(name: &str, four: u32, three: u32, rounds: u32) -> Settings {
    let mut s = Settings::prisdorf(name);
    s.rounds = rounds;
    s.organiser_plays = false;
    for f in &mut s.tables {
        let players = if f.seats == 4 { Players::Four } else { Players::Three };
        f.deals = if f.seats == 4 { four } else { three };
        f.rules = GameRules::Prisdorf(RuleSet { deals: Some(f.deals), ..RuleSet::tournament(players) });
    }
    s
}

fn with_players(settings: Settings, n: usize) -> Log {
    let mut log = Log::create(settings, "Organiser");
    for i in 0..n {
        log.register(&format!("Player {i}")).unwrap();
    }
    log
}

/// Each entrant exactly once over the round's tables.
fn assert_seated_once(t: &Tournament, round: u32) {
    let r = t.round(round).unwrap();
    let mut seen = HashSet::new();
    for table in &r.tables {
        for id in &table.seats {
            assert!(seen.insert(*id), "{id} seated twice in round {round}");
        }
    }
    let all: HashSet<EntrantId> = t.entrants().iter().map(|e| e.id).collect();
    assert_eq!(seen, all, "everyone seated in round {round}");
}

/// Some points for a deal: one seat scores, as in the game (a declarer's win or loss).
fn deal_points(seats: usize, table: u32, deal: u32) -> Vec<i32> {
    let mut points = vec![0; seats];
    let scorer = ((table * 7 + deal * 3) as usize) % seats;
    let value = [2, -4, 3, 6, -12, 10, -5, 30][((table + deal * 5) % 8) as usize];
    points[scorer] = value;
    points
}

/// Records every deal of every table of the current round, one call per deal, and returns the
/// events; checks that the round ends with the last deal and not before.
fn play_round(log: &mut Log, sums: &mut BTreeMap<EntrantId, i64>) -> Vec<TournamentEvent> {
    let round = log.t.current_round().unwrap().clone();
    let most = round.tables.iter().map(|t| t.deals).max().unwrap();
    let mut events = Vec::new();
    for deal in 1..=most {
        for table in &round.tables {
            if deal > table.deals {
                continue;
            }
            assert_eq!(log.t.revealed_secret(round.number), None, "the secret stays hidden while tables play");
            let points = deal_points(table.seats.len(), table.id.table, deal);
            for (id, p) in table.seats.iter().zip(&points) {
                *sums.entry(*id).or_default() += i64::from(*p);
            }
            let result = DealResult { table: table.id, deal, points, redeal: 0 };
            events.extend(log.op(|t| t.record(std::slice::from_ref(&result))).unwrap());
            // Standings are live: they equal the deals recorded so far.
            for s in log.t.standings() {
                assert_eq!(s.total, sums.get(&s.entrant).copied().unwrap_or(0), "{}", s.name);
            }
        }
    }
    assert!(matches!(events.last(), Some(TournamentEvent::RoundEnded { round: r }) if *r == round.number));
    assert_eq!(events.iter().filter(|e| matches!(e, TournamentEvent::RoundEnded { .. })).count(), 1);
    events
}

#[test]
fn seating_for_every_number_of_players() {
    let settings = Settings::prisdorf("Seating");
    for n in 0..=40usize {
        match settings.plan(n) {
            Ok(plan) => {
                assert_eq!(plan.full_tables * 4 + plan.short_tables * 3, n);
                assert!(plan.short_tables <= 3);
                for fewer in 0..plan.short_tables {
                    assert!(
                        n < 3 * fewer || !(n - 3 * fewer).is_multiple_of(4),
                        "{n}: {fewer} tables of three would do"
                    );
                }
                assert!(n >= 3);
            }
            Err(e) => {
                assert!([0, 1, 2, 5].contains(&n), "{n} players refused: {e}");
                let code = if n == 5 { "tournament/cannot_seat" } else { "tournament/too_few_players" };
                assert_eq!(e.code(), code, "{n}");
            }
        }
    }
    let e = settings.plan(5).unwrap_err();
    assert_eq!(
        e.to_string(),
        "5 players cannot be seated at tables of 4 and at most 3 table(s) of 3; start with fill_with_bots to add 1 bot(s)"
    );

    for n in 3..=40usize {
        if n == 5 {
            continue;
        }
        let mut log = with_players(short(&format!("n{n}"), 2, 2, 2), n);
        log.op(|t| t.start(Seed::from_u64(n as u64), false)).unwrap();
        assert_seated_once(&log.t, 1);
        let plan = settings.plan(n).unwrap();
        let sizes: Vec<usize> = log.t.round(1).unwrap().tables.iter().map(|t| t.seats.len()).collect();
        assert_eq!(sizes, plan.sizes().collect::<Vec<_>>(), "{n}: full tables first");
        // Round 2, by the standings: everyone seated once again, at the same tables.
        let results: Vec<DealResult> = log
            .t
            .round(1)
            .unwrap()
            .tables
            .iter()
            .flat_map(|t| {
                (1..=2).map(|deal| DealResult {
                    table: t.id,
                    deal,
                    points: deal_points(t.seats.len(), t.id.table, deal),
                    redeal: 0,
                })
            })
            .collect();
        log.op(|t| t.record(&results)).unwrap();
        assert_eq!(log.t.phase(), Phase::RoundOver { round: 1 });
        log.op(|t| t.next_round(Seed::from_u64(100 + n as u64))).unwrap();
        assert_seated_once(&log.t, 2);
        let sizes2: Vec<usize> = log.t.round(2).unwrap().tables.iter().map(|t| t.seats.len()).collect();
        assert_eq!(sizes2, sizes);
        // Another seed seats them otherwise.
        let seating = |seed: u64| {
            let mut other = with_players(short("again", 2, 2, 2), n);
            other.op(|t| t.start(Seed::from_u64(seed), false)).unwrap();
            other.t.round(1).unwrap().tables.iter().map(|t| t.seats.clone()).collect::<Vec<_>>()
        };
        let first = seating(1);
        assert_eq!(first, seating(1), "the same seed seats the same");
        assert!((2..6).any(|s| seating(s) != first), "{n}: the seating depends on the seed");
    }
}

#[test]
fn bots_fill_numbers_that_cannot_be_seated() {
    for (n, bots) in [(1, 2), (2, 1), (5, 1), (6, 0), (9, 0)] {
        let mut log = with_players(short("bots", 2, 2, 1), n);
        if bots > 0 {
            let e = log.op(|t| t.start(Seed::from_u64(1), false)).unwrap_err();
            let code = if n < 3 { "tournament/too_few_players" } else { "tournament/cannot_seat" };
            assert_eq!(e.code(), code);
        }
        let events = log.op(|t| t.start(Seed::from_u64(1), true)).unwrap();
        let added: Vec<&Entrant> = log.t.entrants().iter().filter(|e| e.bot).collect();
        assert_eq!(added.len(), bots, "{n} players");
        assert_eq!(events.iter().any(|e| matches!(e, TournamentEvent::BotsAdded { .. })), bots > 0);
        for (i, bot) in added.iter().enumerate() {
            assert_eq!(bot.name, format!("Bot {}", i + 1));
        }
        assert_seated_once(&log.t, 1);
    }
    // A player called "Bot 1" keeps his name; the bot takes the next.
    let mut log = with_players(short("bots", 2, 2, 1), 0);
    log.register("bot 1").unwrap();
    log.op(|t| t.start(Seed::from_u64(1), true)).unwrap();
    let names: Vec<&str> = log.t.entrants().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["bot 1", "Bot 2", "Bot 3"]);
    // Nobody at all: bots alone do not make a tournament.
    let mut log = with_players(short("empty", 2, 2, 1), 0);
    let e = log.op(|t| t.start(Seed::from_u64(1), true)).unwrap_err();
    assert_eq!(e, TournamentError::TooFewPlayers { players: 0, needed: 3 });
}

#[test]
fn eleven_players_two_rounds() {
    let mut settings = short("Club evening", 3, 4, 2);
    settings.organiser_plays = true;
    let mut log = Log::create(settings, "Organiser");
    assert_eq!(log.t.entrants().len(), 1, "the organiser plays");
    let names = ["Anna", "Smith, \"Jo\"", "Claus", "Dörte", "Erk", "Frauke", "Gesa", "Hinnerk", "Ilse", "=SUM(A1)"];
    for name in names {
        log.register(name).unwrap();
    }
    log.op(|t| t.close_registration()).unwrap();
    assert_eq!(log.t.plan().unwrap(), Plan { full_size: 4, full_tables: 2, short_size: 3, short_tables: 1 });
    let events = log.op(|t| t.start(Seed::from_u64(11), false)).unwrap();
    assert_eq!(events.len(), 1, "registration was closed already: only the round starts");
    assert_eq!(log.t.phase(), Phase::Playing { round: 1 });
    assert_seated_once(&log.t, 1);
    let sizes: Vec<usize> = log.t.round(1).unwrap().tables.iter().map(|t| t.seats.len()).collect();
    assert_eq!(sizes, [4, 4, 3]);

    let mut sums = BTreeMap::new();
    play_round(&mut log, &mut sums);
    assert_eq!(log.t.phase(), Phase::RoundOver { round: 1 });
    let standings = log.t.standings();
    let deals: BTreeMap<EntrantId, u32> =
        log.t.round(1).unwrap().tables.iter().flat_map(|t| t.seats.iter().map(move |id| (*id, t.deals))).collect();
    for s in &standings {
        assert_eq!(s.total, sums[&s.entrant]);
        assert_eq!(s.deals, deals[&s.entrant]);
        assert_eq!(s.tables, 1);
        assert_eq!(s.duplicate, None);
    }
    assert!(standings.windows(2).all(|w| w[0].total >= w[1].total));

    // Round 2 by the standings: ranks 1–4 at table 1, 5–8 at table 2, the rest at the short table.
    log.op(|t| t.next_round(Seed::from_u64(12))).unwrap();
    assert_seated_once(&log.t, 2);
    let order: Vec<EntrantId> = standings.iter().map(|s| s.entrant).collect();
    let round2 = log.t.round(2).unwrap().clone();
    let at = |t: usize| round2.tables[t].seats.iter().copied().collect::<HashSet<_>>();
    assert_eq!(at(0), order[0..4].iter().copied().collect());
    assert_eq!(at(1), order[4..8].iter().copied().collect());
    assert_eq!(at(2), order[8..11].iter().copied().collect());
    assert_eq!(log.t.next_round(Seed::from_u64(13)).unwrap_err(), TournamentError::RoundNotOver(2));

    // Round 2, recorded as whole scoresheets (running totals) sent twice.
    for table in &round2.tables {
        let mut running = vec![0; table.seats.len()];
        let mut rows = Vec::new();
        for deal in 1..=table.deals {
            let points = deal_points(table.seats.len(), table.id.table + 10, deal);
            for ((r, p), id) in running.iter_mut().zip(&points).zip(&table.seats) {
                *r += p;
                *sums.entry(*id).or_default() += i64::from(*p);
            }
            rows.push(running.clone());
        }
        let results = DealResult::from_running_totals(table.id, &rows);
        log.op(|t| t.record(&results[..1])).unwrap();
        let events = log.op(|t| t.record(&results)).unwrap();
        assert_eq!(
            events.iter().filter(|e| matches!(e, TournamentEvent::DealRecorded { .. })).count(),
            results.len() - 1,
            "deals recorded before are skipped"
        );
        assert!(
            log.op(|t| t.record(&results)).unwrap().iter().all(|e| matches!(e, TournamentEvent::RoundEnded { .. }))
        );
    }
    assert_eq!(log.t.phase(), Phase::Finished);
    assert_eq!(log.t.next_round(Seed::from_u64(13)).unwrap_err().code(), "tournament/finished");

    let results = log.t.results();
    assert_eq!(results.tie_break, TIE_BREAK);
    assert_eq!(results.rounds.len(), 2);
    assert!(results.rounds.iter().all(|r| r.over && r.tables.len() == 3));
    for row in &results.standings {
        let s = &row.standing;
        assert_eq!(s.total, sums[&s.entrant]);
        assert_eq!(row.rounds.len(), 2);
        assert_eq!(row.rounds.iter().map(|r| r.points).sum::<i64>(), s.total);
        assert_eq!(row.rounds.iter().map(|r| r.deals).sum::<u32>(), s.deals);
        assert_eq!(s.tables, 2);
        for r in &row.rounds {
            let table = log.t.table(r.table).unwrap();
            assert_eq!(table.seats[r.seat], s.entrant);
            let seat = &results.rounds[r.table.round as usize - 1].tables[r.table.table as usize - 1].seats[r.seat];
            assert_eq!((seat.entrant, seat.points), (s.entrant, r.points));
        }
    }
    let total: i64 = results.standings.iter().map(|r| r.standing.total).sum();
    let recorded: i64 =
        log.t.rounds().iter().flat_map(|r| &r.tables).flat_map(|t| &t.scores).flatten().map(|p| i64::from(*p)).sum();
    assert_eq!(total, recorded, "the standings are the sum of the scoresheets");

    let csv = log.t.standings_csv();
    let lines: Vec<&str> = csv.split_terminator("\r\n").collect();
    assert_eq!(lines.len(), 12);
    assert_eq!(lines[0], "rank,name,bot,total,duplicate,tables,deals,round 1,round 2");
    assert!(csv.ends_with("\r\n"));
    for (line, row) in lines[1..].iter().zip(&results.standings) {
        let s = &row.standing;
        assert!(line.starts_with(&format!("{},", s.rank)), "{line}");
        assert!(line.ends_with(&format!(",{},{}", row.rounds[0].points, row.rounds[1].points)), "{line}");
    }
    assert!(csv.contains(",\"Smith, \"\"Jo\"\"\",no,"), "quoted with doubled quotes:\n{csv}");
    assert!(csv.contains(",'=SUM(A1),no,"), "no formula:\n{csv}");
    assert!(csv.contains(",Dörte,no,"));

    // Every seat of every table, with the points its table's scoresheet gave it.
    let tables = log.t.tables_csv();
    let lines: Vec<&str> = tables.split_terminator("\r\n").collect();
    assert_eq!(lines[0], "round,table,seat,name,bot,points,duplicate,deals,played");
    assert_eq!(lines.len(), 1 + 2 * 11, "one line per seat of every table of both rounds");
    let mut line = lines[1..].iter();
    for round in log.t.rounds() {
        for table in &round.tables {
            for (seat, (id, total)) in table.seats.iter().zip(table.totals()).enumerate() {
                let fields: Vec<&str> = line.next().unwrap().split(',').collect();
                let name = &log.t.entrant(*id).unwrap().name;
                assert_eq!(fields[..3], [round.number.to_string(), table.id.table.to_string(), (seat + 1).to_string()]);
                if !name.contains(',') {
                    assert_eq!(fields[3].trim_start_matches('\''), name.as_str());
                }
                let n = fields.len();
                assert_eq!(fields[n - 4], total.to_string(), "{name}'s points at {}", table.id);
                assert_eq!(fields[n - 2..], [table.deals.to_string(), table.played().to_string()]);
            }
        }
    }
    assert!(tables.contains(",\"Smith, \"\"Jo\"\"\",no,"), "quoted:\n{tables}");
}

#[test]
fn duplicate_seeds_commitments_and_secrets() {
    let mut settings = short("Duplicate", 2, 2, 2);
    settings.duplicate = true;
    settings.reseating = Reseating::Random;
    let mut log = with_players(settings, 11);
    assert_eq!(log.t.commitment(1), None);
    log.op(|t| t.start(Seed::from_u64(5), false)).unwrap();
    let seed = |log: &Log, round, table| log.t.table_seed(TableId { round, table }).unwrap();
    assert_eq!(seed(&log, 1, 1), seed(&log, 1, 2), "tables of four play the same deals");
    assert_ne!(seed(&log, 1, 1), seed(&log, 1, 3), "a table of three plays others");
    assert_eq!(log.t.table_seed(TableId { round: 1, table: 4 }), None);
    assert_eq!(log.t.revealed_secret(1), None);
    let commitment = log.t.commitment(1).unwrap();
    let view = serde_json::to_string(&log.t.view()).unwrap();
    let secret = log.t.round_secret(1).unwrap();
    assert!(view.contains(&commitment.to_hex()) && !view.contains(&secret.to_hex()), "the view hides the secret");
    let mut sums = BTreeMap::new();
    play_round(&mut log, &mut sums);
    let revealed = log.t.revealed_secret(1).unwrap();
    assert_eq!(revealed, secret);
    assert!(commitment.verify(&revealed));
    assert!(!commitment.verify(&Seed::from_u64(5)));
    assert_eq!(commitment.to_hex().len(), 64);
    // Anyone can derive the tables' seeds from the revealed secret.
    assert_eq!(revealed.derive(4), seed(&log, 1, 1));
    assert_eq!(revealed.derive(3), seed(&log, 1, 3));
    assert!(serde_json::to_string(&log.t.view()).unwrap().contains(&revealed.to_hex()));

    log.op(|t| t.next_round(Seed::from_u64(6))).unwrap();
    assert_seated_once(&log.t, 2);
    assert_eq!(seed(&log, 2, 1), seed(&log, 2, 2));
    assert_ne!(seed(&log, 2, 1), seed(&log, 1, 1), "a new round deals new cards");
    assert_ne!(seed(&log, 2, 3), seed(&log, 1, 3));
    assert_ne!(log.t.commitment(2), log.t.commitment(1));
    assert_eq!(log.t.revealed_secret(2), None);
    assert!(log.t.commitment(2).unwrap().verify(&log.t.round_secret(2).unwrap()));

    // Without duplicate deals every table has its own seed.
    let mut log = with_players(short("Own deals", 2, 2, 1), 11);
    log.op(|t| t.start(Seed::from_u64(5), false)).unwrap();
    let seeds: HashSet<Seed> = (1..=3).map(|t| seed(&log, 1, t)).collect();
    assert_eq!(seeds.len(), 3);
}

#[test]
fn duplicate_scores_compare_the_same_seat_at_other_tables() {
    let mut settings = short("Duplicate", 1, 1, 1);
    settings.duplicate = true;
    let mut log = with_players(settings, 12);
    log.op(|t| t.start(Seed::from_u64(9), false)).unwrap();
    let tables: Vec<Table> = log.t.round(1).unwrap().tables.clone();
    assert_eq!(tables.len(), 3);
    let points = [vec![6, 0, 0, -4], vec![0, 3, 0, 0], vec![2, 0, 0, 0]];
    // While only table 1 has played, there is nothing to compare with.
    log.op(|t| t.record(&[DealResult { table: tables[0].id, deal: 1, points: points[0].clone(), redeal: 0 }])).unwrap();
    assert!(log.t.standings().iter().all(|s| s.duplicate == Some(Hundredths(0))));
    // With table 2: seat 0 of table 1 scored 6 against 0.
    log.op(|t| t.record(&[DealResult { table: tables[1].id, deal: 1, points: points[1].clone(), redeal: 0 }])).unwrap();
    let dup = |log: &Log, table: usize, seat: usize| {
        let id = tables[table].seats[seat];
        log.t.standings().into_iter().find(|s| s.entrant == id).unwrap().duplicate.unwrap()
    };
    assert_eq!(dup(&log, 0, 0), Hundredths(600));
    assert_eq!(dup(&log, 1, 0), Hundredths(-600));
    assert_eq!(dup(&log, 1, 1), Hundredths(300));
    log.op(|t| t.record(&[DealResult { table: tables[2].id, deal: 1, points: points[2].clone(), redeal: 0 }])).unwrap();
    assert_eq!(log.t.phase(), Phase::Finished);
    // Seat 0: 6, 0, 2. Table 1: 6 − (0 + 2)/2 = 5; table 2: 0 − 4 = −4; table 3: 2 − 3 = −1.
    assert_eq!(dup(&log, 0, 0), Hundredths(500));
    assert_eq!(dup(&log, 1, 0), Hundredths(-400));
    assert_eq!(dup(&log, 2, 0), Hundredths(-100));
    // Seat 1: 0, 3, 0 → −1.5, 3, −1.5. Seat 3: −4, 0, 0 → −4, 2, 2.
    assert_eq!(dup(&log, 0, 1), Hundredths(-150));
    assert_eq!(dup(&log, 1, 1), Hundredths(300));
    assert_eq!(dup(&log, 0, 3), Hundredths(-400));
    assert_eq!(dup(&log, 2, 3), Hundredths(200));
    assert_eq!(Hundredths(-150).to_string(), "-1.50");
    assert_eq!(Hundredths(5).to_string(), "0.05");
    assert!(log.t.standings_csv().contains(",5.00,1,1\r\n") || log.t.standings_csv().contains(",5.00,1,1,"));

    // Tie-break: table 2 seat 1 (3 points, duplicate 3) ranks above table 3's seat 0 (2
    // points)… and equal totals go by the duplicate score: seats 1 and 2 of table 1 and seat 1
    // of table 3 all have 0 points, duplicate −1.5, 0 and −1.5.
    let standings = log.t.standings();
    let rank_of =
        |table: usize, seat: usize| standings.iter().find(|s| s.entrant == tables[table].seats[seat]).unwrap().rank;
    assert!(rank_of(0, 2) < rank_of(0, 1));
    assert_eq!(rank_of(0, 1), rank_of(2, 1), "equal in everything: a shared rank");
    let ranks: Vec<u32> = standings.iter().map(|s| s.rank).collect();
    for (i, w) in ranks.windows(2).enumerate() {
        assert!(w[1] == w[0] || w[1] == i as u32 + 2, "competition ranking: {ranks:?}");
    }
}

#[test]
fn fewer_deals_break_a_tie() {
    // 7 players: a table of four (1 deal) and a table of three (2 deals), all scoring nothing.
    let mut log = with_players(short("Ties", 1, 2, 1), 7);
    log.op(|t| t.start(Seed::from_u64(3), false)).unwrap();
    let tables = log.t.round(1).unwrap().tables.clone();
    log.op(|t| t.record(&[DealResult { table: tables[0].id, deal: 1, points: vec![0; 4], redeal: 0 }])).unwrap();
    let results: Vec<DealResult> =
        (1..=2).map(|deal| DealResult { table: tables[1].id, deal, points: vec![0; 3], redeal: 0 }).collect();
    log.op(|t| t.record(&results)).unwrap();
    for s in log.t.standings() {
        let at_four = tables[0].seats.contains(&s.entrant);
        assert_eq!(s.rank, if at_four { 1 } else { 5 }, "{s:?}");
    }
}

#[test]
fn errors_are_typed_and_change_nothing() {
    let mut log = with_players(short("Errors", 2, 2, 1), 0);
    let anna = log.register("  Anna ").unwrap();
    assert_eq!(log.t.entrant(anna).unwrap().name, "Anna");
    assert_eq!(log.register("anna").unwrap_err(), TournamentError::NameTaken { name: "Anna".into() });
    assert_eq!(log.register("ANNA").unwrap_err().code(), "tournament/name_taken");
    log.register("Jan  Peter").unwrap();
    assert_eq!(log.register("jan peter").unwrap_err().code(), "tournament/name_taken");
    assert_eq!(log.register("   ").unwrap_err(), TournamentError::NameEmpty);
    assert_eq!(log.register(&"x".repeat(33)).unwrap_err(), TournamentError::NameTooLong { chars: 33, max: 32 });
    log.register(&"ü".repeat(32)).unwrap();
    assert_eq!(log.register("a\nb").unwrap_err().code(), "tournament/name_invalid");
    assert_eq!(log.op(|t| t.remove(EntrantId(99))).unwrap_err().code(), "tournament/unknown_entrant");
    log.op(|t| t.remove(anna)).unwrap();
    let anna2 = log.register("Anna").unwrap();
    assert_ne!(anna, anna2, "ids are not used again");
    assert_eq!(log.t.entrants().len(), 3);

    let dummy = DealResult { table: TableId { round: 1, table: 1 }, deal: 1, points: vec![0; 3], redeal: 0 };
    assert_eq!(log.op(|t| t.record(std::slice::from_ref(&dummy))).unwrap_err(), TournamentError::NotStarted);
    assert_eq!(log.op(|t| t.next_round(Seed::from_u64(1))).unwrap_err(), TournamentError::NotStarted);

    log.op(|t| t.close_registration()).unwrap();
    assert_eq!(log.register("Late").unwrap_err(), TournamentError::Closed);
    assert_eq!(log.register("Late").unwrap_err().code(), "tournament/closed");
    assert_eq!(log.op(|t| t.close_registration()).unwrap_err(), TournamentError::Closed);
    log.op(|t| t.remove(anna2)).unwrap();
    let e = log.op(|t| t.start(Seed::from_u64(1), false)).unwrap_err();
    assert_eq!(e, TournamentError::TooFewPlayers { players: 2, needed: 3 });
    assert_eq!(e.code(), "tournament/too_few_players");
    assert!(e.to_string().contains("fill_with_bots"));
    log.op(|t| t.start(Seed::from_u64(1), true)).unwrap();
    assert_eq!(log.op(|t| t.start(Seed::from_u64(1), true)).unwrap_err().code(), "tournament/already_started");
    assert_eq!(log.op(|t| t.remove(EntrantId(2))).unwrap_err(), TournamentError::AlreadyStarted);

    let table = TableId { round: 1, table: 1 };
    let unknown = TableId { round: 1, table: 2 };
    let r = |deal, points: Vec<i32>| DealResult { table, deal, points, redeal: 0 };
    assert_eq!(log.op(|t| t.record(&[DealResult { table: unknown, ..r(1, vec![0; 3]) }])).unwrap_err(), {
        TournamentError::UnknownTable(unknown)
    });
    let e = log.op(|t| t.record(&[r(2, vec![0; 3])])).unwrap_err();
    assert_eq!(e, TournamentError::DealOutOfOrder { table, expected: 1, got: 2 });
    assert_eq!(e.code(), "tournament/deal_out_of_order");
    assert_eq!(log.op(|t| t.record(&[r(0, vec![0; 3])])).unwrap_err().code(), "tournament/deal_out_of_order");
    let e = log.op(|t| t.record(&[r(1, vec![0; 4])])).unwrap_err();
    assert_eq!(e, TournamentError::WrongSeatCount { table, seats: 3, got: 4 });
    assert_eq!(log.op(|t| t.record(&[r(3, vec![0; 3])])).unwrap_err().code(), "tournament/table_finished");
    // A batch with a bad deal at its end records nothing.
    assert!(log.op(|t| t.record(&[r(1, vec![2, 0, 0]), r(3, vec![0; 3])])).is_err());
    assert_eq!(log.t.table(table).unwrap().played(), 0);
    log.op(|t| t.record(&[r(1, vec![2, 0, 0])])).unwrap();
    assert_eq!(log.op(|t| t.record(&[r(1, vec![2, 0, 0])])).unwrap(), [], "the same deal again is skipped");
    let e = log.op(|t| t.record(&[r(1, vec![0, 2, 0])])).unwrap_err();
    assert_eq!(e, TournamentError::DealConflict { table, deal: 1 });
    assert_eq!(log.op(|t| t.next_round(Seed::from_u64(1))).unwrap_err().code(), "tournament/round_not_over");
    let events = log.op(|t| t.record(&[r(2, vec![0, 0, -4])])).unwrap();
    assert_eq!(events.last(), Some(&TournamentEvent::RoundEnded { round: 1 }));
    assert_eq!(log.t.phase(), Phase::Finished);
    assert_eq!(log.op(|t| t.record(&[r(1, vec![2, 0, 0])])).unwrap(), []);

    // A log whose events do not fit is refused.
    let mut replayed = Tournament::from_events(&log.events[..log.events.len() - 1]).unwrap();
    let last = log.events.last().unwrap();
    replayed.apply(last).unwrap();
    assert_eq!(replayed, log.t);
    assert_eq!(replayed.apply(last).unwrap_err().code(), "tournament/invalid_event");
    let recorded = log.events.iter().find(|e| matches!(e, TournamentEvent::DealRecorded { .. })).unwrap();
    assert!(replayed.apply(recorded).is_err());
    assert!(Tournament::from_events(&log.events[1..]).is_err(), "the first event creates");
    assert!(Tournament::from_events(&[]).is_err());
}

#[test]
fn settings_are_checked() {
    let ok = Settings::prisdorf("  Prisdorf open  ");
    assert_eq!(ok.tables[0].deals, 100);
    assert_eq!(ok.tables[1].deals, 120);
    assert!(ok.tables.iter().all(|f| matches!(f.rules, GameRules::Prisdorf(r) if !r.kontra)));
    let (t, events) = Tournament::create(TournamentId("x".into()), ok.clone(), "Olli").unwrap();
    assert_eq!(t.settings().name, "Prisdorf open");
    assert_eq!(t.entrants()[0].name, "Olli", "the organiser plays");
    assert_eq!(events.len(), 2);

    let bad = |f: &dyn Fn(&mut Settings)| {
        let mut s = ok.clone();
        f(&mut s);
        Tournament::create(TournamentId("x".into()), s, "Olli").unwrap_err()
    };
    assert_eq!(bad(&|s| s.rounds = 0).code(), "tournament/invalid_settings");
    assert_eq!(bad(&|s| s.name = " ".into()).code(), "tournament/invalid_settings");
    assert_eq!(bad(&|s| s.tables[0].deals = 99).code(), "tournament/invalid_settings");
    assert_eq!(bad(&|s| s.tables[0].deals = 0).code(), "tournament/invalid_settings");
    assert_eq!(bad(&|s| s.tables.clear()).code(), "tournament/invalid_settings");
    assert_eq!(bad(&|s| s.tables[1].seats = 2).code(), "tournament/invalid_settings");
    assert_eq!(bad(&|s| s.game = GameId::Grossenaspe).code(), "tournament/invalid_settings");
    assert_eq!(bad(&|s| s.tables[0].rules = GameRules::Prisdorf(RuleSet::tournament(Players::Three))).code(), {
        "tournament/invalid_settings"
    });
    // Tables may be given in any order; they are kept largest first.
    let mut s = ok.clone();
    s.tables.reverse();
    s.validate().unwrap();
    assert_eq!(s, ok);
    // Only tables of four: multiples of four.
    let mut four = ok.clone();
    four.tables.truncate(1);
    assert!(four.plan(8).is_ok() && four.plan(9).is_err() && four.plan(3).is_err());
    assert_eq!(four.bots_needed(9), Some(3));
}

#[test]
fn another_game_seats_its_own_table_sizes() {
    // Großenaspe Fipsen for five, with up to three tables of four.
    let rules = |players: u8| {
        let json = format!(r#"{{"game":"grossenaspe","players":{players},"deals":10}}"#);
        serde_json::from_str::<GameRules>(&json).unwrap()
    };
    let mut s = Settings::prisdorf("Großenaspe");
    s.game = GameId::Grossenaspe;
    s.organiser_plays = false;
    s.tables = vec![
        TableFormat { seats: 4, deals: 10, rules: rules(4) },
        TableFormat { seats: 5, deals: 10, rules: rules(5) },
    ];
    s.validate().unwrap();
    assert_eq!((s.full_size(), s.short_size()), (5, Some(4)));
    for n in 4..=40 {
        match s.plan(n) {
            Ok(plan) => {
                assert_eq!(plan.players(), n);
                assert!(plan.short_tables <= 3);
            }
            Err(e) => {
                let fits = (0..=3).any(|b| n >= 4 * b && (n - 4 * b).is_multiple_of(5));
                assert!(!fits, "{n}: {e}");
                assert_eq!(e.code(), "tournament/cannot_seat");
                assert!(n + s.bots_needed(n).unwrap() > n);
            }
        }
    }
    let mut log = with_players(s, 14);
    log.op(|t| t.start(Seed::from_u64(2), false)).unwrap();
    let sizes: Vec<usize> = log.t.round(1).unwrap().tables.iter().map(|t| t.seats.len()).collect();
    assert_eq!(sizes, [5, 5, 4]);
}

#[test]
fn running_totals_become_deals() {
    let table = TableId { round: 1, table: 2 };
    let deals = DealResult::from_running_totals(table, &[vec![2, 0, 0], vec![2, -4, 0], vec![2, -4, 30]]);
    let points: Vec<Vec<i32>> = deals.iter().map(|d| d.points.clone()).collect();
    assert_eq!(points, [vec![2, 0, 0], vec![0, -4, 0], vec![0, 0, 30]]);
    assert_eq!(deals.iter().map(|d| d.deal).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(deals.iter().all(|d| d.table == table));
}

#[test]
fn the_duplicate_score_compares_only_tables_that_played_the_same_dealing() {
    let mut settings = short("Dealings", 2, 2, 1);
    settings.duplicate = true;
    let mut log = with_players(settings, 12);
    log.op(|t| t.start(Seed::from_u64(5), false)).unwrap();
    let tables: Vec<Table> = log.t.round(1).unwrap().tables.clone();
    let deal = |table: usize, deal: u32, points: Vec<i32>, redeal: u32| DealResult {
        table: tables[table].id,
        deal,
        points,
        redeal,
    };
    // Deal 1: tables 1 and 2 played its first dealing, table 3 threw it in once and played the
    // re-deal: table 3 is compared with nobody.
    log.op(|t| t.record(&[deal(0, 1, vec![4, 0, 0, 0], 0), deal(1, 1, vec![0, 0, 0, 0], 0)])).unwrap();
    log.op(|t| t.record(&[deal(2, 1, vec![9, 0, 0, 0], 1)])).unwrap();
    let dup = |log: &Log, table: usize| {
        let id = tables[table].seats[0];
        log.t.standings().into_iter().find(|s| s.entrant == id).unwrap().duplicate.unwrap()
    };
    assert_eq!((dup(&log, 0), dup(&log, 1), dup(&log, 2)), (Hundredths(400), Hundredths(-400), Hundredths(0)));
    assert_eq!(log.t.table(tables[2].id).unwrap().redeal(1), 1);
    assert_eq!(log.t.table(tables[0].id).unwrap().redeal(1), 0);
    // The same deal again is harmless; with another dealing it is a conflict.
    assert!(log.op(|t| t.record(&[deal(2, 1, vec![9, 0, 0, 0], 1)])).unwrap().is_empty());
    let conflict = log.op(|t| t.record(&[deal(2, 1, vec![9, 0, 0, 0], 0)])).unwrap_err();
    assert_eq!(conflict.code(), "tournament/deal_conflict");
    // Deal 2, first dealing everywhere: all three are compared.
    let all: Vec<DealResult> = (0..3).map(|t| deal(t, 2, vec![3 * t as i32, 0, 0, 0], 0)).collect();
    log.op(|t| t.record(&all)).unwrap();
    assert_eq!(log.t.phase(), Phase::Finished);
    // Table 3 at deal 2: 6 − (0 + 3)/2 = 4.5; table 1: 4 − 0 + 0 − (3 + 6)/2 = −0.5.
    assert_eq!(dup(&log, 2), Hundredths(450));
    assert_eq!(dup(&log, 0), Hundredths(-50));
    // The dealing survives the JSON of the events (checked by the log) and is left out at 0.
    let json = serde_json::to_value(deal(0, 1, vec![0; 4], 0)).unwrap();
    assert!(json.get("redeal").is_none(), "{json}");
}

/// With duplicate deals, what everyone sees of a round being played counts a deal only once
/// every table of its size has played it: a table that is ahead tells nothing of the deals the
/// others have still to play. A table alone of its size is shown as it plays; at the round's
/// end everything is shown.
#[test]
fn duplicate_rounds_show_only_the_deals_every_table_of_a_size_has_played() {
    let mut settings = short("Duplicate", 3, 2, 1);
    settings.duplicate = true;
    let mut log = with_players(settings, 11);
    log.op(|t| t.start(Seed::from_u64(9), false)).unwrap();
    let round = log.t.current_round().unwrap().clone();
    let record = |log: &mut Log, table: usize, deal: u32| {
        let t = &round.tables[table];
        let result = DealResult { table: t.id, deal, points: deal_points(t.seats.len(), t.id.table, deal), redeal: 0 };
        log.op(|x| x.record(std::slice::from_ref(&result))).unwrap();
    };
    let shown = |log: &Log| -> Vec<(u32, u32, Vec<i64>)> {
        log.t.view().rounds[0].tables.iter().map(|t| (t.played, t.shown, t.totals.clone())).collect()
    };
    let total_of = |log: &Log, id: EntrantId| log.t.view().standings.iter().find(|s| s.entrant == id).unwrap().total;
    // Table 1 (of four) plays two deals, table 3 (the only one of three) one.
    record(&mut log, 0, 1);
    record(&mut log, 0, 2);
    record(&mut log, 2, 1);
    let view = shown(&log);
    assert_eq!((view[0].0, view[0].1), (2, 0), "table 1 played two deals; table 2 none: none shown");
    assert_eq!(view[0].2, vec![0; 4]);
    assert_eq!((view[2].0, view[2].1), (1, 1), "a table alone of its size is shown as it plays");
    assert_eq!(view[2].2, log.t.table(round.tables[2].id).unwrap().totals());
    for id in &round.tables[0].seats {
        assert_eq!(total_of(&log, *id), 0, "the standings count no deal of table 1 yet");
        assert_eq!(log.t.view().standings.iter().find(|s| s.entrant == *id).unwrap().deals, 0);
    }
    let public = log.t.public().results();
    assert!(public.rounds[0].tables[0].seats.iter().all(|s| s.points == 0), "nor do the results");
    // Table 2 catches up with deal 1: deal 1 of both is shown, deal 2 of table 1 is not.
    record(&mut log, 1, 1);
    let view = shown(&log);
    assert_eq!((view[0].0, view[0].1, view[1].0, view[1].1), (2, 1, 1, 1));
    let first = deal_points(4, round.tables[0].id.table, 1);
    assert_eq!(view[0].2, first.iter().map(|p| i64::from(*p)).collect::<Vec<_>>());
    // The round over, everything is shown.
    for deal in 2..=3 {
        record(&mut log, 1, deal);
    }
    record(&mut log, 0, 3);
    record(&mut log, 2, 2);
    assert_eq!(log.t.phase(), Phase::Finished);
    assert_eq!(log.t.public(), log.t);
    for (t, table) in log.t.view().rounds[0].tables.iter().enumerate() {
        assert_eq!((table.played, table.shown), (table.deals, table.deals));
        assert_eq!(table.totals, log.t.table(round.tables[t].id).unwrap().totals());
    }
}

/// Without duplicate deals every deal is shown as soon as it is recorded.
#[test]
fn without_duplicate_deals_every_recorded_deal_is_shown() {
    let mut log = with_players(short("Plain", 3, 2, 1), 11);
    log.op(|t| t.start(Seed::from_u64(9), false)).unwrap();
    let table = log.t.current_round().unwrap().tables[0].clone();
    let result = DealResult { table: table.id, deal: 1, points: deal_points(4, table.id.table, 1), redeal: 0 };
    log.op(|x| x.record(std::slice::from_ref(&result))).unwrap();
    assert_eq!(log.t.public(), log.t);
    let view = &log.t.view().rounds[0].tables[0];
    assert_eq!((view.played, view.shown), (1, 1));
    assert_eq!(view.totals, result.points.iter().map(|p| i64::from(*p)).collect::<Vec<_>>());
}

#[test]
fn registration_stops_at_the_cap() {
    let mut s = short("Capped", 1, 1, 1);
    s.max_entrants = Some(4);
    s.organiser_plays = true;
    let mut log = Log::create(s, "Olli");
    assert_eq!(log.t.settings().entrant_cap(), 4);
    for name in ["Anna", "Jan", "Gesa"] {
        log.register(name).unwrap();
    }
    // The organiser who plays is one of the four.
    let e = log.register("Hinnerk").unwrap_err();
    assert_eq!(e, TournamentError::Full { max: 4 });
    assert_eq!(e.code(), "tournament/full");
    assert_eq!(e.to_string(), "the tournament is full: it takes 4 players");
    // A name removed makes room again.
    let jan = log.t.entrant_by_name("Jan").unwrap().id;
    log.op(|t| t.remove(jan)).unwrap();
    log.register("Hinnerk").unwrap();
    // Bots added at the start do not count: five would need a sixth at two tables of three.
    let mut s = short("Bots", 1, 1, 1);
    s.max_entrants = Some(5);
    let mut log = with_players(s, 5);
    log.op(|t| t.start(Seed::from_u64(3), true)).unwrap();
    assert_eq!(log.t.entrants().len(), 6);
}

#[test]
fn new_tournaments_keep_to_the_limits_and_old_ones_still_load() {
    let create = |f: &dyn Fn(&mut Settings)| {
        let mut s = short("Limits", 1, 1, 1);
        f(&mut s);
        Tournament::create(TournamentId("x".into()), s, "Olli").map(|_| ())
    };
    assert!(create(&|s| s.rounds = MAX_ROUNDS).is_ok());
    assert_eq!(create(&|s| s.rounds = MAX_ROUNDS + 1).unwrap_err().code(), "tournament/invalid_settings");
    assert!(create(&|s| s.max_entrants = Some(MAX_ENTRANTS)).is_ok());
    assert!(create(&|s| s.max_entrants = Some(2)).is_ok());
    for cap in [0, 1, MAX_ENTRANTS + 1] {
        assert_eq!(create(&|s| s.max_entrants = Some(cap)).unwrap_err().code(), "tournament/invalid_settings");
    }

    // A tournament stored before the cap and the round limit: 12 rounds and no `max_entrants`,
    // with more entrants than a new one could take. It loads as it was, and takes no one more.
    let mut settings = serde_json::to_value(short("Old", 1, 1, 12)).unwrap();
    settings.as_object_mut().unwrap().remove("max_entrants");
    let mut events =
        vec![serde_json::json!({"event": "created", "id": "old-1", "organiser": "Olli", "settings": settings})];
    for i in 1..=(MAX_ENTRANTS + 2) {
        events.push(
            serde_json::json!({"event": "registered", "entrant": {"id": i, "name": format!("P{i}"), "bot": false}}),
        );
    }
    let events: Vec<TournamentEvent> = serde_json::from_value(serde_json::Value::Array(events)).unwrap();
    let mut old = Tournament::from_events(&events).unwrap();
    assert_eq!(old.settings().rounds, 12);
    assert_eq!(old.settings().max_entrants, None);
    assert_eq!(old.entrants().len(), MAX_ENTRANTS as usize + 2);
    assert_eq!(old.register("Late").unwrap_err(), TournamentError::Full { max: MAX_ENTRANTS });
    // Its events are written as they were read (no field added).
    assert!(!serde_json::to_string(&events[0]).unwrap().contains("max_entrants"));
    old.start(Seed::from_u64(9), true).unwrap();
}

#[test]
fn the_results_in_parts_are_the_whole_results() {
    let mut log = with_players(short("Parts", 2, 3, 2), 11);
    let mut sums = BTreeMap::new();
    log.op(|t| t.start(Seed::from_u64(5), false)).unwrap();
    play_round(&mut log, &mut sums);
    log.op(|t| t.next_round(Seed::from_u64(6))).unwrap();
    play_round(&mut log, &mut sums);
    let whole = log.t.results();
    let summary = log.t.results_summary();
    assert_eq!(summary.standings, whole.standings);
    assert_eq!(summary.rounds.len(), 2);
    assert!(summary.rounds.iter().all(|r| r.tables.is_empty()));
    let mut csv = String::from("round,table,seat,name,bot,points,duplicate,deals,played\r\n");
    for (i, round) in whole.rounds.iter().enumerate() {
        let number = i as u32 + 1;
        assert_eq!(summary.rounds[i].round, number);
        assert_eq!(summary.rounds[i].over, round.over);
        assert_eq!(log.t.round_results(number).as_ref(), Some(round));
        let part = log.t.round_tables_csv(number);
        csv.push_str(part.split_once("\r\n").unwrap().1);
    }
    assert_eq!(csv, log.t.tables_csv());
    assert_eq!(log.t.round_results(3), None);
    assert_eq!(log.t.round_tables_csv(3).lines().count(), 1, "the header alone");
}
