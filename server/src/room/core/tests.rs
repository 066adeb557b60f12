//! The room core without sockets: random command streams over every game, where the room
//! rebuilt from the stored records always equals the live one, plus the timing rules that are
//! easiest to check on a simulated clock.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use fipsen_bots::Level;
use fipsen_protocol::{ErrorCode, MAX_READING_SECONDS, RoomOptions};
use fipsen_rules::{GameId, GameRules, Seat, Seed};

use super::bots::{bot_pause, splitmix};
use super::{At, Change, Command, Core, Decision, Effect};
use crate::room::TableSeat;
use fipsen_protocol::RoomMessage;

use crate::room::command::JoinKind;
use crate::room::record::{Damaged, Record};
use crate::room::table::TableLink;
use crate::storage::{ROOM_RECORD_FORMAT, RoomMeta, StoredRecord, StoredRoom};

/// A small deterministic random source for the streams (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = splitmix(self.0);
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

impl Core {
    /// Every durable part of the state, as text: what a room rebuilt from its records must
    /// have exactly as the live room has it.
    fn durable(&self) -> String {
        let views: Vec<String> = match &self.series {
            Some(series) => std::iter::once(None)
                .chain((0..series.seats()).map(|s| Some(Seat(s as u8))))
                .map(|viewer| serde_json::to_string(&series.view(viewer)).unwrap_or_default())
                .collect(),
            None => Vec::new(),
        };
        format!(
            "participants {:?}\nhost {}\nseats {:?}\nrecords {}\nchat {:?}\npublic {}\nvotes {:?} of {:?}\n\
             counted {:?} {} {}\nprevious {:?}\nseries {:?}\nviews {views:?}",
            self.participants,
            self.host,
            self.seats,
            self.records,
            self.chat,
            self.options.public,
            self.delete_votes,
            self.series_people,
            self.counted,
            self.thrown_in,
            self.noted_deal,
            self.previous_deal.as_ref().map(|(n, _)| n),
            self.series.as_ref().map(|s| (s.deal_number(), s.totals().to_vec(), s.deal_over(), s.series_over())),
        )
    }
}

fn meta(rules: GameRules, options: RoomOptions, master: u8, tournament: Option<&TableLink>) -> RoomMeta {
    RoomMeta {
        code: "k3JX9a2LqP0vWm4Zb7Ya".into(),
        created_at: 0,
        title: "Table".into(),
        rules,
        options,
        master: Seed([master; 32]),
        tournament: tournament.map(|link| serde_json::to_string(link).unwrap()),
    }
}

/// A room core driven as its shell drives it, keeping what a storage would keep.
struct Driver {
    core: Core,
    meta: RoomMeta,
    start: Instant,
    now: Instant,
    stored: Vec<StoredRecord>,
    tokens: BTreeMap<u32, String>,
    next_conn: u64,
    next_act_id: BTreeMap<u32, u64>,
    deleted: bool,
}

impl Driver {
    fn new(meta: RoomMeta) -> Driver {
        let start = Instant::now();
        Driver {
            core: Core::new(meta.clone(), Duration::from_secs(600), start),
            meta,
            start,
            now: start,
            stored: Vec::new(),
            tokens: BTreeMap::new(),
            next_conn: 1,
            next_act_id: BTreeMap::new(),
            deleted: false,
        }
    }

    fn at(&self) -> At {
        At { now: self.now, unix_ms: 1_700_000_000_000 + (self.now - self.start).as_millis() as u64 }
    }

    /// Decides a command and, if accepted, stores and applies its changes as the shell does.
    fn run(&mut self, command: Command) -> Option<Decision> {
        let decision = self.core.decide(command, self.at()).ok()?;
        // Records come before passing changes, so that a failed store leaves nothing applied.
        let first_passing = decision.changes.iter().position(|c| matches!(c, Change::Passing(_)));
        let last_record = decision.changes.iter().rposition(|c| matches!(c, Change::Record(_)));
        if let (Some(passing), Some(record)) = (first_passing, last_record) {
            assert!(record < passing, "a record after a passing change: {:?}", decision.changes);
        }
        for change in &decision.changes {
            if let Change::Record(record) = change {
                let json = serde_json::to_string(record).unwrap();
                self.stored.push(StoredRecord {
                    index: self.stored.len() as u64,
                    seq_before: self.core.seq(),
                    json,
                    format: ROOM_RECORD_FORMAT,
                });
            }
            self.core.apply(change, self.now);
        }
        if decision.effects.iter().any(|e| matches!(e, Effect::Delete)) {
            self.deleted = true;
        }
        if decision.effects.iter().any(|e| matches!(e, Effect::OpenRematch { .. })) {
            // As the shell does once the new room is open.
            self.run(Command::Rematched { room: format!("again{}", self.stored.len()) });
        }
        Some(decision)
    }

    /// The room rebuilt from what was stored, read back as storage gives it.
    fn restored(&self) -> Core {
        let stored = StoredRoom { meta: self.meta.clone(), records: self.stored.clone() };
        let records = Record::read_all(&stored).expect("the stored records read back");
        Core::restore(self.meta.clone(), Duration::from_secs(600), &records, self.now)
            .expect("what the room stored rebuilds it")
    }

    fn join(&mut self, rng: &mut Rng) {
        let conn = self.next_conn;
        self.next_conn += 1;
        let names = ["Antje", "Hinnerk", "Opa", "antje", "Bot 1"];
        let name = names[rng.below(names.len())].to_string();
        let kind = match rng.below(4) {
            0 => JoinKind::Spectator { name },
            1 if !self.tokens.is_empty() => {
                let token = self.tokens.values().nth(rng.below(self.tokens.len())).cloned();
                JoinKind::Resume { token: token.unwrap_or_default(), last_seq: Some(self.core.seq()) }
            }
            _ => JoinKind::Player { name, token: None, key: None },
        };
        let fresh_token = format!("token-{conn}");
        let participant = self.core.participants.len() as u32;
        if let Some(decision) = self.run(Command::Join { conn, kind, fresh_token: fresh_token.clone(), seen: conn })
            && decision.changes.iter().any(|c| matches!(c, Change::Record(Record::Joined { .. })))
        {
            self.tokens.insert(participant, fresh_token);
        }
    }

    fn random_conn(&self, rng: &mut Rng) -> Option<u64> {
        let mut conns: Vec<u64> = self.core.viewers.keys().copied().collect();
        // In order, so that a seed always plays the same stream.
        conns.sort_unstable();
        (!conns.is_empty()).then(|| conns[rng.below(conns.len())])
    }

    /// The connection of the person whose turn it is, if he is here.
    fn conn_to_move(&self) -> Option<(u64, Seat)> {
        let seat = self.core.series.as_ref()?.turn()?;
        let conn = self.core.viewers.keys().copied().filter(|&c| self.core.seat_of_conn(c) == Some(seat)).min()?;
        Some((conn, seat))
    }

    fn act(&mut self, rng: &mut Rng) {
        let Some((conn, seat)) = self.conn_to_move().or_else(|| {
            let conn = self.random_conn(rng)?;
            Some((conn, self.core.seat_of_conn(conn)?))
        }) else {
            return;
        };
        let Some(series) = &self.core.series else { return };
        let legal = series.legal_actions(seat);
        let action = match legal.get(rng.below(legal.len().max(1))) {
            Some(action) if !rng.chance(5) => serde_json::to_value(action).unwrap(),
            _ => serde_json::json!({ "type": "nonsense" }),
        };
        let participant = self.core.viewers[&conn].participant.unwrap_or(0);
        let next = self.next_act_id.entry(participant).or_insert(1);
        // Now and then an id used before, or a sequence number from before the last game event.
        let id = if rng.chance(5) { next.saturating_sub(1) } else { *next };
        *next += 1;
        let seq = if rng.chance(5) { self.core.last_game_seq.saturating_sub(1) } else { self.core.seq() };
        self.run(Command::Request { conn, request: RoomMessage::Act { id, seq, action } });
    }

    fn request(&mut self, rng: &mut Rng) {
        let Some(conn) = self.random_conn(rng) else { return };
        let seats = self.core.seats.len();
        let seat = Seat(rng.below(seats + 1) as u8);
        let levels = [Level::Easy, Level::Normal, Level::Strong];
        let request = match rng.below(15) {
            0 => RoomMessage::TakeSeat { seat },
            1 => RoomMessage::LeaveSeat,
            2 => RoomMessage::Start,
            3 => RoomMessage::SetPublic { public: rng.chance(50) },
            4 => RoomMessage::NextDeal,
            5 => {
                RoomMessage::Chat { text: if rng.chance(10) { " ".into() } else { format!("Moin {}", rng.below(100)) } }
            }
            6 => RoomMessage::AddBot { seat, level: levels[rng.below(3)] },
            7 => RoomMessage::RemoveBot { seat },
            8 => RoomMessage::Review { deal: None },
            9 => RoomMessage::Nudge,
            10 => RoomMessage::Reading { reading: rng.chance(60) },
            11 => RoomMessage::Replay { deal: rng.below(3) as u32 },
            12 => RoomMessage::ShareLink,
            13 => RoomMessage::DeleteSeries { agree: rng.chance(30) },
            _ => RoomMessage::Rematch,
        };
        self.run(Command::Request { conn, request });
    }

    fn bot(&mut self, rng: &mut Rng) {
        let Some(call) = self.core.bot_call() else { return };
        let Some(series) = &self.core.series else { return };
        let legal = series.legal_actions(call.seat);
        let action = if rng.chance(5) { None } else { legal.get(rng.below(legal.len().max(1))) };
        self.run(Command::Bot { seat: call.seat, game_seq: call.game_seq, action });
    }

    fn step(&mut self, rng: &mut Rng) {
        match rng.below(100) {
            0..8 => self.join(rng),
            8..11 => {
                if let Some(conn) = self.random_conn(rng) {
                    self.run(Command::Leave { conn });
                }
            }
            11..40 => self.act(rng),
            40..60 => self.request(rng),
            60..85 => self.bot(rng),
            _ => {
                let seconds = [0, 1, 3, 11, 60, 130][rng.below(6)];
                self.now += Duration::from_secs(seconds);
                self.run(Command::Tick);
            }
        }
    }
}

/// Random command streams in every game (and a tournament table): after every step that stored
/// a record, and at the end, the room rebuilt from the stored records equals the live room in
/// every durable part, and every record reads back from its stored form.
#[test]
fn a_room_rebuilt_from_its_records_equals_the_live_room_in_every_game() {
    let mut checked = BTreeMap::new();
    for &game in GameId::ALL {
        for seed in 0..12u64 {
            let options = RoomOptions {
                move_seconds: (seed % 3 == 0).then_some(30),
                next_deal_seconds: if seed % 4 == 1 { None } else { Some(10) },
                bot_delay_ms: 0,
                ..RoomOptions::default()
            };
            let tournament = (seed % 6 == 5).then(|| TableLink {
                tournament: "t".into(),
                name: "Cup".into(),
                table: fipsen_tournament::TableId { round: 1, table: 1 },
                rounds: 1,
                deals: 2,
                duplicate: false,
            });
            let rules = GameRules::default_for(game);
            let mut driver = Driver::new(meta(rules, options, seed as u8 + 1, tournament.as_ref()));
            if tournament.is_some() {
                let seats: Vec<TableSeat> = (0..driver.core.seats.len())
                    .map(|i| match i % 2 {
                        0 => TableSeat::Person {
                            name: format!("P{i}"),
                            token_hash: crate::secrets::token_hash(&format!("t{i}")),
                        },
                        _ => TableSeat::Bot { name: format!("B{i}") },
                    })
                    .collect();
                for record in TableSeat::records(&seats) {
                    driver.run_record(record);
                }
                for i in (0..seats.len()).step_by(2) {
                    driver.tokens.insert(i as u32, format!("t{i}"));
                }
            }
            let mut rng = Rng(seed.wrapping_mul(0x9E37) ^ game as u64);
            for step in 0..400 {
                let stored = driver.stored.len();
                driver.step(&mut rng);
                if driver.deleted {
                    break;
                }
                if driver.stored.len() > stored && (step % 10 == 0 || driver.stored.len().is_multiple_of(7)) {
                    assert_eq!(
                        driver.restored().durable(),
                        driver.core.durable(),
                        "{game:?}, seed {seed}, step {step}"
                    );
                }
            }
            assert_eq!(driver.restored().durable(), driver.core.durable(), "{game:?}, seed {seed}, at the end");
            let entry = checked.entry(game.code()).or_insert((0usize, 0u32));
            entry.0 += driver.stored.len();
            entry.1 = entry.1.max(driver.core.series.as_ref().map_or(0, |s| s.deal_number()));
        }
    }
    // The streams reach far enough to mean something: in every game, records of many kinds
    // and deals beyond the first.
    for (game, (records, deals)) in &checked {
        assert!(*records > 200, "{game:?}: {records} records");
        assert!(*deals >= 2, "{game:?}: deals up to {deals}");
    }
}

impl Driver {
    /// Easy bots at seats `from`..4, then the start.
    fn seat_bots_and_start(&mut self, from: u8) {
        for seat in from..4u8 {
            let name = format!("Bot {seat}");
            let level = Level::Easy;
            self.run_record(Record::BotAdded { participant: u32::from(seat), seat: Seat(seat), level, name });
        }
        self.run_record(Record::Started);
    }

    fn run_record(&mut self, record: Record) {
        let json = serde_json::to_string(&record).unwrap();
        self.stored.push(StoredRecord {
            index: self.stored.len() as u64,
            seq_before: self.core.seq(),
            json,
            format: ROOM_RECORD_FORMAT,
        });
        self.core.apply(&Change::Record(record), self.now);
    }
}

/// A room of four bots at the default game with one spectator, started.
fn room_of_bots(master: u8, bot_delay_ms: u32) -> Driver {
    let options = RoomOptions { bot_delay_ms, ..RoomOptions::default() };
    let mut driver = Driver::new(meta(GameRules::default(), options, master, None));
    driver.seat_bots_and_start(0);
    driver.run(Command::Join {
        conn: 1,
        kind: JoinKind::Spectator { name: "Oma".into() },
        fresh_token: String::new(),
        seen: 1,
    });
    driver
}

/// Bots' pauses before following to a trick, over many deals, split by whether the bot could
/// play one card only (a fact hidden from the table) or several: the two must not differ, or
/// the pause tells everyone what the bot holds.
#[test]
fn a_bots_pause_does_not_tell_whether_it_had_a_choice() {
    let (mut forced, mut free) = (Vec::new(), Vec::new());
    for master in 1..=12u8 {
        let mut driver = room_of_bots(master, 1000);
        let mut pick = u64::from(master);
        for _step in 0..2000 {
            let Some(series) = &driver.core.series else { break };
            if series.series_over() {
                break;
            }
            if series.deal_over() {
                driver.run_record(Record::NextDeal);
                continue;
            }
            let Some(seat) = series.turn() else { break };
            let legal = series.legal_actions(seat);
            let following = series.trick_in_progress();
            let call = driver.core.bot_call().expect("a bot plans its move");
            assert_eq!(call.seat, seat);
            if following {
                if legal.len() == 1 {
                    forced.push(call.pause.as_secs_f64())
                } else {
                    free.push(call.pause.as_secs_f64())
                }
            }
            pick = splitmix(pick);
            let action = legal.get((pick % legal.len() as u64) as usize).expect("in range");
            driver.run_record(Record::BotAct { seat, action });
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(forced.len() >= 100 && free.len() >= 100, "{} forced, {} free", forced.len(), free.len());
    let ratio = mean(&forced) / mean(&free);
    assert!((0.85..1.15).contains(&ratio), "forced {:.3} s, free {:.3} s", mean(&forced), mean(&free));
}

/// Plays the current deal to its end with the first legal action of each turn.
fn finish_deal(driver: &mut Driver) {
    for _step in 0..2000 {
        let Some(series) = &driver.core.series else { return };
        if series.deal_over() {
            return;
        }
        let Some(seat) = series.turn() else { return };
        let action = series.legal_actions(seat).first().expect("a legal action");
        driver.run_record(Record::BotAct { seat, action });
    }
    panic!("the deal did not end");
}

/// The time from the end of a deal until the next deal is dealt, while seat 0's player switches
/// `reading` on for `on` and off for `off`, over and over, on a simulated clock (the room ticks
/// every 10 ms of it); `None` if no deal came within an hour.
fn pause_while_switching(on: Duration, off: Duration) -> Option<Duration> {
    let mut driver = Driver::new(meta(GameRules::default(), RoomOptions::default(), 5, None));
    let token_hash = crate::secrets::token_hash("antje");
    driver.run_record(Record::Joined { participant: 0, name: "Antje".into(), token_hash, seat: Some(Seat(0)) });
    driver.seat_bots_and_start(1);
    let conn = 2;
    let resume = JoinKind::Resume { token: "antje".into(), last_seq: None };
    driver.run(Command::Join { conn, kind: resume, fresh_token: String::new(), seen: conn }).expect("she comes back");
    finish_deal(&mut driver);
    let start = driver.now;
    driver.run(Command::Tick);
    assert!(driver.core.next_deal_at.is_some(), "the room has a pause of its own");
    let deal = driver.core.series.as_ref().map(|s| s.deal_number());
    let tick = Duration::from_millis(10);
    let (mut reading, mut switch_at) = (false, start);
    while driver.now < start + Duration::from_secs(3600) {
        driver.run(Command::Tick);
        if driver.core.series.as_ref().map(|s| s.deal_number()) != deal {
            return Some(driver.now - start);
        }
        if driver.now >= switch_at {
            reading = !reading;
            driver
                .run(Command::Request { conn, request: RoomMessage::Reading { reading } })
                .expect("reading is accepted");
            switch_at = driver.now + if reading { on } else { off };
        }
        driver.now += tick;
    }
    None
}

/// However a player switches `reading` on and off, his reading holds the next deal back for at
/// most 120 s over the whole pause: the 10 s pause ends within 10 + 120 + 3 s.
#[test]
fn switching_reading_on_and_off_never_holds_the_next_deal_for_ever() {
    let bound = Duration::from_secs(10 + u64::from(MAX_READING_SECONDS) + 3) + Duration::from_millis(100);
    for (on, off) in [(10_000, 1_000), (50, 2_900), (30_000, 10), (110_000, 2_000), (10, 10)] {
        let (on, off) = (Duration::from_millis(on), Duration::from_millis(off));
        let pause = pause_while_switching(on, off);
        assert!(pause.is_some_and(|p| p <= bound), "on {on:?}, off {off:?}: the next deal after {pause:?}");
    }
    // Reading without switching holds it for the reading time, and no longer.
    let pause = pause_while_switching(Duration::from_secs(3600), Duration::ZERO).unwrap();
    assert!(pause >= Duration::from_secs(u64::from(MAX_READING_SECONDS)) && pause <= bound, "{pause:?}");
}

#[test]
fn a_bots_pause_varies_like_a_persons_and_depends_on_public_facts_only() {
    assert_eq!(bot_pause(0, 7, true), Duration::ZERO);
    let pauses: Vec<Duration> = (0..1000).map(|i| bot_pause(1000, splitmix(i), false)).collect();
    let (min, max) = (pauses.iter().min().unwrap(), pauses.iter().max().unwrap());
    assert!(*min >= Duration::from_millis(600) && *max <= Duration::from_millis(1400), "{min:?}..{max:?}");
    assert!(*max - *min > Duration::from_millis(600), "the pauses vary");
    for i in 0..100 {
        let seed = splitmix(i);
        let ratio = bot_pause(1000, seed, true).as_secs_f64() / bot_pause(1000, seed, false).as_secs_f64();
        assert!((ratio - 1.3).abs() < 1e-9);
    }
}

/// The room to play again in is seated as this one: the same people (with their token hashes,
/// so that their tokens hold the new seats), the same bots at their levels, and the same host
/// (without a seat if he had none); offered once, by the host, when the series is over, never at
/// a tournament table.
#[test]
fn playing_again_keeps_the_seats_the_bots_and_the_host() {
    let rules: GameRules = serde_json::from_value(serde_json::json!({"deals": 1})).unwrap();
    let mut driver = Driver::new(meta(rules, RoomOptions::default(), 9, None));
    // The host (participant 0) leaves his seat to a bot; a guest sits at seat 2.
    let host_hash = crate::secrets::token_hash("host");
    driver.run_record(Record::Joined {
        participant: 0,
        name: "Antje".into(),
        token_hash: host_hash.clone(),
        seat: None,
    });
    let guest_hash = crate::secrets::token_hash("guest");
    driver.run_record(Record::Joined {
        participant: 1,
        name: "Hinnerk".into(),
        token_hash: guest_hash.clone(),
        seat: Some(Seat(2)),
    });
    for (participant, seat, level) in [(2, 0, Level::Easy), (3, 1, Level::Strong), (4, 3, Level::Normal)] {
        let name = format!("Bot {}", seat + 1);
        driver.run_record(Record::BotAdded { participant, seat: Seat(seat), level, name });
    }
    driver.run_record(Record::Started);
    for (conn, token) in [(1, "host"), (2, "guest")] {
        let resume = JoinKind::Resume { token: token.into(), last_seq: None };
        driver.run(Command::Join { conn, kind: resume, fresh_token: String::new(), seen: conn }).expect("back");
    }
    let offer = |driver: &Driver, conn| {
        driver.core.decide(Command::Request { conn, request: RoomMessage::Rematch }, driver.at())
    };
    assert_eq!(offer(&driver, 1).err(), Some(ErrorCode::RematchUnavailable), "the series is not over");
    finish_deal(&mut driver);
    assert!(driver.core.series.as_ref().is_some_and(|s| s.series_over()));
    assert_eq!(offer(&driver, 2).err(), Some(ErrorCode::NotHost));
    let Ok(decision) = offer(&driver, 1) else { panic!("the host may offer") };
    assert!(decision.changes.is_empty(), "nothing changes here until the new room is open");
    let [Effect::OpenRematch { records }] = decision.effects.as_slice() else { panic!("{:?}", decision.effects) };
    let expected = vec![
        Record::BotAdded { participant: 0, seat: Seat(0), level: Level::Easy, name: "Bot 1".into() },
        Record::BotAdded { participant: 1, seat: Seat(1), level: Level::Strong, name: "Bot 2".into() },
        Record::Joined { participant: 2, name: "Hinnerk".into(), token_hash: guest_hash, seat: Some(Seat(2)) },
        Record::BotAdded { participant: 3, seat: Seat(3), level: Level::Normal, name: "Bot 4".into() },
        Record::Joined { participant: 4, name: "Antje".into(), token_hash: host_hash, seat: None },
        Record::HostChanged { participant: 4 },
    ];
    assert_eq!(records, &expected);
    // The new room seated by them has the host and the seats as here, and nothing started.
    let mut new = Driver::new(meta(driver.meta.rules.clone(), RoomOptions::default(), 10, None));
    for record in records.clone() {
        new.run_record(record);
    }
    assert_eq!(new.core.host, 4);
    assert!(new.core.series.is_none());
    assert_eq!(new.core.players(), driver.core.players());
    // Once open, the room names it, and it is not offered again.
    driver.run(Command::Rematched { room: "NEWROOM".into() }).expect("told");
    assert_eq!(driver.core.rematch.as_deref(), Some("NEWROOM"));
    assert_eq!(offer(&driver, 1).err(), Some(ErrorCode::RematchUnavailable));
    assert_eq!(driver.restored().rematch.as_deref(), Some("NEWROOM"), "it is stored");
    // A tournament table is seated by its tournament.
    let link = TableLink {
        tournament: "t".into(),
        name: "Cup".into(),
        table: fipsen_tournament::TableId { round: 1, table: 1 },
        rounds: 1,
        deals: 1,
        duplicate: false,
    };
    let mut cup = Driver::new(meta(GameRules::default(), RoomOptions::default(), 11, Some(&link)));
    let seats: Vec<TableSeat> = (0..4)
        .map(|i| TableSeat::Person { name: format!("P{i}"), token_hash: crate::secrets::token_hash(&format!("t{i}")) })
        .collect();
    for record in TableSeat::records(&seats) {
        cup.run_record(record);
    }
    cup.run(Command::Join {
        conn: 1,
        kind: JoinKind::Resume { token: "t0".into(), last_seq: None },
        fresh_token: String::new(),
        seen: 1,
    });
    let refused = cup.core.decide(Command::Request { conn: 1, request: RoomMessage::Rematch }, cup.at()).err();
    assert_eq!(refused, Some(ErrorCode::TournamentTable));
}

/// The token a join decision admits its connection with.
fn admitted_token(decision: &Decision) -> Option<String> {
    decision.effects.iter().find_map(|e| match e {
        Effect::Admit { token, .. } => token.clone(),
        _ => None,
    })
}

/// A join sent again with its key (its answer lost) brings back the player the first one made,
/// with his seat and token, here and in the room rebuilt from its records (as a server taking
/// the room over has it); another key makes another player; a key of the wrong form is refused.
#[test]
fn a_join_sent_again_with_its_key_seats_the_player_once() {
    let mut driver = Driver::new(meta(GameRules::default(), RoomOptions::default(), 12, None));
    let key = "aVeryRandomJoinKey-0123456789";
    let join = |name: &str, key: &str| JoinKind::Player { name: name.into(), token: None, key: Some(key.into()) };
    let first = driver.run(Command::Join { conn: 1, kind: join("Dup", key), fresh_token: "f1".into(), seen: 1 });
    let first_token = admitted_token(&first.expect("the first join")).expect("a token");
    assert_ne!(first_token, "f1", "the token is the key's, not a fresh one");
    let again = driver.run(Command::Join { conn: 2, kind: join("Dup", key), fresh_token: "f2".into(), seen: 2 });
    assert_eq!(admitted_token(&again.expect("the join sent again")), Some(first_token.clone()));
    assert_eq!(driver.core.participants.len(), 1, "one player");
    assert_eq!(driver.core.seats.iter().flatten().count(), 1, "one seat taken");
    assert!(!driver.core.viewers.contains_key(&1), "the first connection was replaced");

    // A server that rebuilds the room from its records knows the key's player too.
    driver.core = driver.restored();
    let later = driver.run(Command::Join { conn: 3, kind: join("Dup", key), fresh_token: "f3".into(), seen: 3 });
    assert_eq!(admitted_token(&later.expect("after a takeover")), Some(first_token));
    assert_eq!(driver.core.participants.len(), 1, "still one player");

    let other = "anotherRandomJoinKey-987654";
    driver
        .run(Command::Join { conn: 4, kind: join("Dup", other), fresh_token: "f4".into(), seen: 4 })
        .expect("a second");
    assert_eq!(driver.core.participants.len(), 2, "another key, another player");
    let bad = driver
        .core
        .decide(Command::Join { conn: 5, kind: join("Bad", "short"), fresh_token: "f5".into(), seen: 5 }, driver.at());
    assert_eq!(bad.err(), Some(ErrorCode::JoinKeyInvalid));
}

/// A `resume` first seen before the connection the player has now (sent before the client gave
/// up on it, carried out late) is refused and leaves that connection in the room; a later one
/// replaces it.
#[test]
fn an_older_resume_does_not_replace_a_newer_connection() {
    let mut driver = Driver::new(meta(GameRules::default(), RoomOptions::default(), 13, None));
    let token_hash = crate::secrets::token_hash("antje");
    driver.run_record(Record::Joined { participant: 0, name: "Antje".into(), token_hash, seat: Some(Seat(0)) });
    let resume = || JoinKind::Resume { token: "antje".into(), last_seq: None };
    driver.run(Command::Join { conn: 7, kind: resume(), fresh_token: String::new(), seen: 2_000 }).expect("back");
    let stale = driver
        .core
        .decide(Command::Join { conn: 6, kind: resume(), fresh_token: String::new(), seen: 1_000 }, driver.at());
    assert_eq!(stale.err(), Some(ErrorCode::Superseded));
    assert!(driver.core.viewers.contains_key(&7), "the newer connection stays");
    driver.run(Command::Join { conn: 8, kind: resume(), fresh_token: String::new(), seen: 3_000 }).expect("newer");
    assert!(!driver.core.viewers.contains_key(&7) && driver.core.viewers.contains_key(&8), "replaced by the newer");
}

/// A room of bots that played `moves` actions, with what it stored.
fn played_bots(moves: usize) -> Driver {
    let mut driver = room_of_bots(5, 0);
    for _ in 0..moves {
        let series = driver.core.series.as_ref().expect("started");
        if series.deal_over() {
            driver.run_record(Record::NextDeal);
            continue;
        }
        let seat = series.turn().expect("someone is to act");
        let action = series.legal_actions(seat).first().expect("a legal action");
        driver.run_record(Record::BotAct { seat, action });
    }
    driver
}

/// Rebuilds `stored` records of `meta` as a restart does.
fn rebuild(meta: &RoomMeta, stored: Vec<StoredRecord>) -> Result<Core, Damaged> {
    let stored = StoredRoom { meta: meta.clone(), records: stored };
    let records = Record::read_all(&stored)?;
    Core::restore(meta.clone(), Duration::from_secs(600), &records, Instant::now())
}

/// The indexes of the stored bot actions.
fn bot_acts(stored: &[StoredRecord]) -> Vec<usize> {
    stored.iter().enumerate().filter(|(_, r)| r.json.contains("\"record\":\"bot_act\"")).map(|(i, _)| i).collect()
}

/// A stored room rebuilds exactly what was acknowledged, or not at all: each kind of damage
/// to its log or its creation row is found and named, never rebuilt into another game.
#[test]
fn a_damaged_log_is_refused_not_rebuilt_differently() {
    let driver = played_bots(12);
    let (meta, stored) = (driver.meta.clone(), driver.stored.clone());
    let sound = rebuild(&meta, stored.clone()).expect("the log as stored rebuilds");
    assert_eq!(sound.durable(), driver.core.durable());
    let acts = bot_acts(&stored);

    // An action of the right shape the rules refuse there: the first action played again later.
    let mut damaged = stored.clone();
    damaged[acts[4]].json = damaged[acts[0]].json.clone();
    let index = acts[4] as u64;
    assert!(
        matches!(rebuild(&meta, damaged), Err(Damaged::Refused { index: i, .. }) if i == index),
        "an illegal action"
    );

    // A record deleted from the middle.
    let mut damaged = stored.clone();
    damaged.remove(acts[2]);
    let index = acts[2] as u64;
    assert_eq!(rebuild(&meta, damaged).err(), Some(Damaged::Missing { index, found: index + 1 }));

    // A record stored after a sequence number the rebuild is already past.
    let mut damaged = stored.clone();
    damaged[acts[3]].seq_before = damaged[acts[2]].seq_before;
    assert!(
        matches!(rebuild(&meta, damaged), Err(Damaged::Sequence { index, .. }) if index == acts[3] as u64),
        "a sequence number that disagrees"
    );
    // A larger one is the room's unstored events (connections, timers) between two records.
    let mut later = stored.clone();
    for record in &mut later[acts[3]..] {
        record.seq_before += 5;
    }
    assert!(rebuild(&meta, later).is_ok());

    // An unreadable record.
    let mut damaged = stored.clone();
    damaged[acts[1]].json = "{\"record\":\"bot_act\",".into();
    assert!(matches!(rebuild(&meta, damaged), Err(Damaged::Unreadable { .. })));

    // Rules no room is created with, and a tournament link that does not read.
    let mut rules = serde_json::to_value(&meta.rules).unwrap();
    rules["min_bid"] = 9.into();
    let bad_rules = RoomMeta { rules: serde_json::from_value(rules).unwrap(), ..meta.clone() };
    assert!(matches!(rebuild(&bad_rules, stored.clone()), Err(Damaged::Creation { field: "rules", .. })));
    let bad_link = RoomMeta { tournament: Some("{\"tournament\":".into()), ..meta.clone() };
    assert!(matches!(rebuild(&bad_link, stored.clone()), Err(Damaged::Creation { field: "tournament", .. })));

    // An action before the start, and a second start.
    let mut damaged = stored.clone();
    let started = damaged.iter().position(|r| r.json.contains("\"record\":\"started\"")).unwrap();
    damaged.swap(started, acts[0]);
    (damaged[started].index, damaged[acts[0]].index) = (started as u64, acts[0] as u64);
    assert!(matches!(rebuild(&meta, damaged), Err(Damaged::Refused { .. })));
    let mut damaged = stored.clone();
    damaged[acts[0]].json = damaged[started].json.clone();
    assert!(matches!(rebuild(&meta, damaged), Err(Damaged::Refused { .. })));
}

/// The timing rules (the move clock, nudges, reading, bots in an empty room) on the simulated
/// clock of [`Driver`].
#[path = "timing_tests.rs"]
mod timing;
