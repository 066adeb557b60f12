//! The room's timing rules on a simulated clock: the move clock, nudges during a turn and
//! between deals, reading that holds the next deal, and bots that play only while somebody is
//! in the room. Each moves the clock to just before a deadline and to the deadline itself, so
//! that a rule that fires early or late fails here, without a socket test waiting for it.

use std::time::Duration;

use fipsen_bots::Level;
use fipsen_protocol::{ErrorCode, NUDGE_AFTER_SECONDS, NUDGE_EVERY_SECONDS, RoomEvent, RoomOptions};
use fipsen_rules::{GameRules, RuleError, Seat};

use super::{Driver, finish_deal, meta};
use crate::room::command::JoinKind;
use crate::room::core::{Change, Command};
use crate::room::record::Record;
use crate::storage::StoredRecord;
use fipsen_protocol::RoomMessage;

const MS: Duration = Duration::from_millis(1);

impl Driver {
    /// Decides `command` and, if accepted, stores and applies its changes as the shell does,
    /// giving the events they made.
    fn events_of(&mut self, command: Command) -> Result<Vec<RoomEvent>, ErrorCode> {
        let decision = self.core.decide(command, self.at())?;
        let mut events = Vec::new();
        for change in &decision.changes {
            if let Change::Record(record) = change {
                self.stored.push(StoredRecord {
                    index: self.stored.len() as u64,
                    seq_before: self.core.seq(),
                    json: serde_json::to_string(record).expect("a record serialises"),
                    format: crate::storage::ROOM_RECORD_FORMAT,
                });
            }
            events.extend(self.core.apply(change, self.now).into_iter().map(|e| e.event));
        }
        Ok(events)
    }

    /// A request of connection `conn`.
    fn ask(&mut self, conn: u64, request: RoomMessage) -> Result<Vec<RoomEvent>, ErrorCode> {
        self.events_of(Command::Request { conn, request })
    }

    /// Ticks at the current time as the shell does, until nothing more is due: every tick's
    /// events.
    fn tick(&mut self) -> Vec<RoomEvent> {
        let mut events = Vec::new();
        for _ in 0..50 {
            let decision = self.core.decide(Command::Tick, self.at()).expect("a tick is always decided");
            if decision.changes.is_empty() {
                return events;
            }
            events.extend(self.events_of(Command::Tick).expect("a tick is always decided"));
        }
        panic!("the ticks never settle: {events:?}");
    }

    /// The people named by their tokens take seats 0.. (participants 0..), bots the rest, the
    /// series starts, and each person comes in on connection 1, 2, … (his seat plus one).
    fn people_and_bots(options: RoomOptions, people: &[&str]) -> Driver {
        let mut driver = Driver::new(meta(GameRules::default(), options, 21, None));
        for (i, token) in people.iter().enumerate() {
            let token_hash = crate::secrets::token_hash(token);
            let name = format!("Person {i}");
            driver.run_record(Record::Joined { participant: i as u32, name, token_hash, seat: Some(Seat(i as u8)) });
        }
        driver.seat_bots_and_start(people.len() as u8);
        for (i, token) in people.iter().enumerate() {
            let conn = i as u64 + 1;
            let kind = JoinKind::Resume { token: (*token).into(), last_seq: None };
            driver.run(Command::Join { conn, kind, fresh_token: String::new(), seen: conn }).expect("he comes in");
        }
        driver
    }

    /// Every seat but `seat` plays its first legal action until it is `seat`'s turn.
    fn play_until_turn_of(&mut self, seat: Seat) {
        for _ in 0..200 {
            let series = self.core.series.as_ref().expect("started");
            let turn = series.turn().expect("a deal in play");
            if turn == seat {
                return;
            }
            let action = series.legal_actions(turn).first().expect("a legal action");
            self.run_record(Record::BotAct { seat: turn, action });
        }
        panic!("{seat:?} never had the turn");
    }

    fn deal_number(&self) -> Option<u32> {
        self.core.series.as_ref().map(|s| s.deal_number())
    }

    /// The seats a bot is asked to act for now.
    fn bot_called(&self) -> Option<Seat> {
        self.core.bot_call().map(|call| call.seat)
    }
}

fn nudged(events: &[RoomEvent]) -> Vec<(Seat, Seat)> {
    events
        .iter()
        .filter_map(|e| match e {
            RoomEvent::Nudged { seat, by } => Some((*seat, *by)),
            _ => None,
        })
        .collect()
}

/// The move clock of a person's turn runs out exactly after the room's `move_seconds`; then a
/// bot at the room's takeover level makes that one move (the seat stays the person's), and the
/// clock runs again from his next turn.
#[test]
fn the_move_clock_runs_out_on_time_and_a_bot_makes_that_one_move() {
    let options = RoomOptions { move_seconds: Some(10), next_deal_seconds: None, ..RoomOptions::default() };
    let mut driver = Driver::people_and_bots(options, &["antje"]);
    driver.play_until_turn_of(Seat(0));
    let since = driver.now;
    assert_eq!(driver.core.clock_deadline(), Some((Seat(0), since + Duration::from_secs(10))));
    assert_eq!(driver.core.next_deadline(), Some(since + Duration::from_secs(10)));

    driver.now = since + Duration::from_secs(10) - MS;
    let early = driver.tick();
    assert!(!early.iter().any(|e| matches!(e, RoomEvent::ClockRanOut { .. })), "{early:?}");
    assert_ne!(driver.bot_called(), Some(Seat(0)), "nobody moves for her before her time is up");

    driver.now = since + Duration::from_secs(10);
    let ran_out = driver.tick();
    assert!(ran_out.contains(&RoomEvent::ClockRanOut { seat: Seat(0), level: Level::Normal }), "{ran_out:?}");
    let call = driver.core.bot_call().expect("a bot makes her move");
    assert_eq!(call.seat, Seat(0));
    let legal = driver.core.series.as_ref().expect("started").legal_actions(Seat(0));
    let played = driver
        .events_of(Command::Bot { seat: Seat(0), game_seq: call.game_seq, action: legal.first() })
        .expect("the bot's move is taken");
    assert!(played.iter().any(|e| matches!(e, RoomEvent::Game { .. })), "{played:?}");
    // One move only: the seat is hers, with no bot standing in.
    assert_eq!(driver.core.controller(Seat(0)), None);
    assert!(driver.core.stood_in().is_empty());
    assert_eq!(driver.core.seated()[0], Some(0));
    // Her next turn has a fresh clock.
    driver.play_until_turn_of(Seat(0));
    let since = driver.now;
    assert_eq!(driver.core.clock_deadline(), Some((Seat(0), since + Duration::from_secs(10))));
    // Without a move clock nothing runs out however long she thinks.
    let mut calm = Driver::people_and_bots(RoomOptions { next_deal_seconds: None, ..RoomOptions::default() }, &["a"]);
    calm.play_until_turn_of(Seat(0));
    assert_eq!(calm.core.clock_deadline(), None);
    calm.now += Duration::from_secs(3600);
    assert!(!calm.tick().iter().any(|e| matches!(e, RoomEvent::ClockRanOut { .. })));
}

/// A seated player may remind the person whose turn it is once that turn has lasted
/// [`NUDGE_AFTER_SECONDS`], and again only after [`NUDGE_EVERY_SECONDS`]; nobody nudges himself,
/// and a spectator nudges nobody.
#[test]
fn a_nudge_comes_after_the_turn_has_lasted_and_not_too_often() {
    let mut driver = Driver::people_and_bots(RoomOptions::default(), &["antje", "bernd"]);
    driver.play_until_turn_of(Seat(0));
    let since = driver.now;
    driver.run(Command::Join {
        conn: 9,
        kind: JoinKind::Spectator { name: "Oma".into() },
        fresh_token: String::new(),
        seen: 9,
    });
    assert_eq!(driver.ask(2, RoomMessage::Nudge), Err(ErrorCode::NudgeTooSoon));
    assert_eq!(driver.ask(1, RoomMessage::Nudge), Err(ErrorCode::NudgeNobody), "nobody nudges himself");
    assert_eq!(driver.ask(9, RoomMessage::Nudge), Err(ErrorCode::NotSeated));

    let after = Duration::from_secs(u64::from(NUDGE_AFTER_SECONDS));
    driver.now = since + after - MS;
    assert_eq!(driver.ask(2, RoomMessage::Nudge), Err(ErrorCode::NudgeTooSoon));
    driver.now = since + after;
    assert_eq!(nudged(&driver.ask(2, RoomMessage::Nudge).expect("late enough")), [(Seat(0), Seat(1))]);

    let every = Duration::from_secs(u64::from(NUDGE_EVERY_SECONDS));
    let first = driver.now;
    driver.now = first + every - MS;
    assert_eq!(driver.ask(2, RoomMessage::Nudge), Err(ErrorCode::NudgeTooSoon), "once every 30 s");
    driver.now = first + every;
    assert_eq!(nudged(&driver.ask(2, RoomMessage::Nudge).expect("30 s later")), [(Seat(0), Seat(1))]);

    // Her move starts the next turn's time afresh: a bot's turn is never nudged.
    let action = driver.core.series.as_ref().expect("started").legal_actions(Seat(0)).first().expect("legal");
    driver.run_record(Record::BotAct { seat: Seat(0), action });
    let turn = driver.core.series.as_ref().and_then(|s| s.turn()).expect("a turn");
    driver.now += Duration::from_secs(3600);
    let answer = driver.ask(1, RoomMessage::Nudge);
    if turn == Seat(1) {
        assert_eq!(nudged(&answer.expect("his turn has lasted")), [(Seat(1), Seat(0))]);
    } else {
        assert_eq!(answer, Err(ErrorCode::NudgeNobody), "{turn:?} is a bot's turn");
    }
}

/// Between deals a nudge reminds the connected people who have not asked for the next deal yet,
/// never a bot, once the pause has lasted [`NUDGE_AFTER_SECONDS`]; it deals nothing.
#[test]
fn between_deals_a_nudge_reminds_only_the_people_not_ready() {
    let options = RoomOptions { next_deal_seconds: None, ..RoomOptions::default() };
    let mut driver = Driver::people_and_bots(options, &["antje", "bernd"]);
    finish_deal(&mut driver);
    let over = driver.now;
    assert_eq!(driver.deal_number(), Some(1));
    let asked = driver.ask(2, RoomMessage::NextDeal).expect("he asks for the next deal");
    assert_eq!(asked, [RoomEvent::NextDealAsked { seat: Seat(1) }]);
    assert_eq!(driver.ask(2, RoomMessage::Nudge), Err(ErrorCode::NudgeTooSoon));

    let after = Duration::from_secs(u64::from(NUDGE_AFTER_SECONDS));
    driver.now = over + after - MS;
    assert!(driver.tick().is_empty());
    assert_eq!(driver.ask(2, RoomMessage::Nudge), Err(ErrorCode::NudgeTooSoon));
    driver.now = over + after;
    assert_eq!(nudged(&driver.ask(2, RoomMessage::Nudge).expect("late enough")), [(Seat(0), Seat(1))]);
    assert!(driver.tick().is_empty());
    assert_eq!(driver.deal_number(), Some(1), "still between deals");
    // Once she asks too, the next deal comes at once.
    driver.ask(1, RoomMessage::NextDeal).expect("she asks");
    driver.tick();
    assert_eq!(driver.deal_number(), Some(2));
}

/// The countdown to the next deal stands still while a player reads the result, and goes on
/// with at least 3 s once he is done; reading is only between deals.
#[test]
fn the_next_deal_waits_while_a_player_reads_the_result() {
    let options = RoomOptions { next_deal_seconds: Some(3), ..RoomOptions::default() };
    let mut driver = Driver::people_and_bots(options, &["antje"]);
    assert_eq!(driver.ask(1, RoomMessage::Reading { reading: true }), Err(ErrorCode::Rule(RuleError::DealNotOver)));
    finish_deal(&mut driver);
    let over = driver.now;
    driver.tick();
    assert_eq!(driver.core.next_deal_at, Some(over + Duration::from_secs(3)));

    driver.now = over + Duration::from_secs(1);
    let reading = driver.ask(1, RoomMessage::Reading { reading: true }).expect("she reads");
    assert_eq!(reading, [RoomEvent::Reading { seat: Seat(0), reading: true }]);
    assert_eq!(driver.core.next_deal_at, None, "the countdown stands still");
    assert_eq!(driver.core.next_deal_left, Some(Duration::from_secs(2)));
    // Long past the pause: no new deal while she reads, and the countdown has not moved.
    driver.now = over + Duration::from_secs(30);
    driver.tick();
    assert_eq!(driver.deal_number(), Some(1), "the deal waits for the reader");
    assert_eq!(driver.core.next_deal_left, Some(Duration::from_secs(2)));

    // Done reading: the countdown goes on with 3 s (more than the 2 s it had), then the deal.
    let done = driver.now;
    let events = driver.ask(1, RoomMessage::Reading { reading: false }).expect("she is done");
    assert_eq!(events, [RoomEvent::Reading { seat: Seat(0), reading: false }]);
    assert_eq!(driver.core.next_deal_at, Some(done + Duration::from_secs(3)));
    driver.now = done + Duration::from_secs(3) - MS;
    driver.tick();
    assert_eq!(driver.deal_number(), Some(1));
    driver.now = done + Duration::from_secs(3);
    driver.tick();
    assert_eq!(driver.deal_number(), Some(2), "the next deal comes when the countdown ends");
}

/// A table of bots (the person gone, a bot standing in for him) plays only while somebody is in
/// the room: nothing is dealt or played with nobody there, however long; a spectator coming in
/// sets the bots going, and they stop when he leaves. A room rebuilt from its records waits too.
#[test]
fn bots_play_only_while_a_person_is_in_the_room() {
    let options = RoomOptions {
        bot_delay_ms: 0,
        grace_seconds: 0,
        next_deal_seconds: Some(0),
        bot_takeover: Some(Level::Easy),
        ..RoomOptions::default()
    };
    let mut driver = Driver::people_and_bots(options, &["antje"]);
    driver.play_until_turn_of(Seat(1));
    assert!(driver.bot_called().is_some(), "the bots play while she is here");
    driver.events_of(Command::Leave { conn: 1 }).expect("she leaves");
    let stand_in = driver.tick();
    assert!(stand_in.contains(&RoomEvent::StandIn { seat: Seat(0), level: Level::Easy }), "{stand_in:?}");
    let records = driver.stored.len();
    let seq = driver.core.seq();
    for _ in 0..5 {
        assert!(driver.core.dormant());
        assert_eq!(driver.bot_called(), None, "no bot plays with nobody in the room");
        assert_eq!(driver.core.next_deadline(), driver.core.empty_since.map(|t| t + driver.core.idle));
        driver.now += Duration::from_secs(60);
        driver.tick();
    }
    assert_eq!((driver.stored.len(), driver.core.seq()), (records, seq), "nothing happened meanwhile");

    // Someone watches: the bots play on, her seat's stand-in too, over the next deal.
    let watch = |conn| Command::Join {
        conn,
        kind: JoinKind::Spectator { name: "Oma".into() },
        fresh_token: String::new(),
        seen: conn,
    };
    driver.events_of(watch(5)).expect("she watches");
    let deal = driver.deal_number();
    for _ in 0..2000 {
        if driver.deal_number() != deal {
            break;
        }
        if let Some(call) = driver.core.bot_call() {
            let legal = driver.core.series.as_ref().expect("started").legal_actions(call.seat);
            driver.events_of(Command::Bot { seat: call.seat, game_seq: call.game_seq, action: legal.first() }).ok();
        } else {
            driver.tick();
        }
    }
    assert_ne!(driver.deal_number(), deal, "the bots play while someone watches");
    driver.events_of(Command::Leave { conn: 5 }).expect("she goes");
    driver.tick();
    assert!(driver.core.dormant());
    assert_eq!(driver.bot_called(), None);

    // Rebuilt after a restart: still nobody plays.
    driver.core = driver.restored();
    let (records, deal) = (driver.stored.len(), driver.deal_number());
    for _ in 0..5 {
        assert!(driver.core.dormant());
        assert_eq!(driver.bot_called(), None);
        driver.now += Duration::from_secs(120);
        driver.tick();
    }
    assert_eq!((driver.stored.len(), driver.deal_number()), (records, deal), "no deal played after the restart");
}
