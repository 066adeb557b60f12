//! The shell's own part: the pace of bots that play only for watchers, shared by an address.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fipsen_bots::Level;
use fipsen_protocol::{ErrorCode, RoomOptions};
use fipsen_rules::{AnyGame, GameRules, Seat};
use futures_util::future::BoxFuture;
use tokio::sync::{mpsc, watch};

use super::core::Change;
use super::shell::Member;
use super::{ConnLink, Kick, Record, Room, RoomEnv, RoomHost, TableReport};
use crate::frames::Base;
use crate::metrics::Metrics;
use crate::quota::BotPace;
use crate::storage::SyncMode;
use crate::storage::{RoomMeta, Storage, StorageOptions};

/// A server that holds rooms and does nothing for them but pace their bots.
#[derive(Debug, Default)]
struct Pacing(BotPace);

impl RoomHost for Pacing {
    fn room_closed(&self, _: &str, _: u64) {}

    fn table_played(&self, _: TableReport) {}

    fn bot_move_at(&self, addr: IpAddr, due: Instant) -> Instant {
        self.0.move_at(addr, due)
    }

    fn open_rematch(self: Arc<Self>, _: RoomMeta, _: Vec<Record>) -> BoxFuture<'static, Result<Arc<str>, ErrorCode>> {
        Box::pin(async { Err(ErrorCode::Storage) })
    }
}

/// A room of four bots without a pause of their own, started, on a throw-away database, held
/// by the host given.
fn room_of_bots(dir: &std::path::Path, master: u8, host: Option<Arc<Pacing>>) -> Room {
    let metrics = Arc::new(Metrics::default());
    let (storage, _writer) = Storage::open_with(
        &dir.join(format!("db{master}.sqlite3")),
        metrics.clone(),
        StorageOptions { sync: SyncMode::Normal, ..StorageOptions::default() },
    )
    .unwrap();
    let host = host.unwrap_or_default();
    let meta = RoomMeta {
        code: "k3JX9a2LqP0vWm4Zb7Ya".into(),
        created_at: 0,
        title: "Bots".into(),
        rules: GameRules::default(),
        options: RoomOptions { bot_delay_ms: 0, ..RoomOptions::default() },
        master: fipsen_rules::Seed([master; 32]),
        tournament: None,
    };
    let env = RoomEnv {
        storage,
        metrics,
        host,
        idle: Duration::from_secs(60),
        reviews: crate::fair::FairQueue::new(1),
        max_spectators: crate::room::DEFAULT_AUDIENCE_CAP,
    };
    let (lobby, _) = watch::channel(None);
    let mut room = Room::new(meta, 1, lobby, env);
    let now = Instant::now();
    for seat in 0..4u8 {
        let name = format!("Bot {seat}");
        let record = Record::BotAdded { participant: u32::from(seat), seat: Seat(seat), level: Level::Easy, name };
        room.core.apply(&Change::Record(record), now);
    }
    room.core.apply(&Change::Record(Record::Started), now);
    room
}

/// A watcher from `addr` enters the room as connection `conn`.
fn watch_from(room: &mut Room, conn: u64, addr: [u8; 4], participant: Option<u32>) {
    let (tx, _rx) = mpsc::channel(4);
    let link = ConnLink { id: conn, tx, kick: Arc::new(Kick::default()), addr: IpAddr::from(addr) };
    room.members.insert(conn, Member { link, base: Arc::new(Base::empty()) });
    let name = format!("Viewer {conn}");
    let connected = super::core::Passing::Connected { conn, participant, name, announce: true, since: 0 };
    room.core.apply(&Change::Passing(connected), Instant::now());
}

/// When the bot to move in `room` plans to act, from now.
fn planned_in(room: &mut Room) -> Duration {
    room.forget_bot_turn();
    room.plan_bots();
    room.bot_turn_at().expect("a bot plans its move").saturating_duration_since(Instant::now())
}

/// Bots with no pause of their own, in rooms that a person only watches, ten moves a second
/// from one address: the rooms watched from there share that pace; once a person sits at the
/// table and is connected, they act at once.
#[tokio::test]
async fn bots_playing_for_watchers_only_keep_a_pace_shared_by_the_address() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = room_of_bots(dir.path(), 3, None);
    let host = Arc::new(Pacing(BotPace::new(10)));
    first.env.host = host.clone();
    let mut second = room_of_bots(dir.path(), 4, Some(host));
    watch_from(&mut first, 1, [192, 0, 2, 1], None);
    watch_from(&mut second, 1, [192, 0, 2, 1], None);
    let pace = Duration::from_millis(100);
    // The address's first move in a while is made at once.
    let a = planned_in(&mut first);
    assert!(a < Duration::from_millis(20), "{a:?}");
    // The same address's other room, and the first one again: each a step further.
    let b = planned_in(&mut second);
    let c = planned_in(&mut first);
    assert!(
        b >= a + pace - Duration::from_millis(20) && c >= b + pace - Duration::from_millis(20),
        "{a:?} {b:?} {c:?}"
    );
    // Another address watching longer (a lower connection number) has its own pace.
    watch_from(&mut second, 0, [198, 51, 100, 7], None);
    let d = planned_in(&mut second);
    assert!(d < b, "{d:?} {b:?}");
    // A person sits down (in a seat whose turn it is not) and is connected: no pace.
    let turn = first.core.series().and_then(AnyGame::turn).expect("a turn");
    let seat = Seat((turn.0 + 1) % 4);
    let record = Record::Joined { participant: 4, name: "Antje".into(), token_hash: String::new(), seat: Some(seat) };
    first.core.apply(&Change::Record(record), Instant::now());
    watch_from(&mut first, 2, [192, 0, 2, 1], Some(4));
    let e = planned_in(&mut first);
    assert!(e < Duration::from_millis(20), "{e:?}");
}
