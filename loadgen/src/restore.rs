//! The restart scenario: fill the server's database with rooms through the protocol (each with
//! four players and a few moves), then — after the server is restarted — come back to every
//! room with its seat token and check that the server shows the host the very same game.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fipsen_protocol::{ClientMessage, ConnectionMessage};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio_tungstenite::tungstenite::Message;

use crate::counters::Counters;
use crate::net::{Target, Ws};
use crate::phase::{Phase, PhaseReport};
use crate::stats::{Latency, Summary};
use crate::table::{SavedRoom, Table, TableConfig};

/// What filling the database did.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PreloadReport {
    /// Rooms created and saved.
    pub rooms: usize,
    /// Seconds it took.
    pub seconds: f64,
    /// The moves made, with their latency (closed loop).
    pub moves: PhaseReport,
    /// Errors.
    pub errors: u64,
}

/// Creates `rooms` rooms with `groups` tables of four players working side by side, plays
/// `moves` moves in each, and returns what is needed to come back to each.
///
/// # Errors
/// A table could not be set up or a move failed.
pub async fn preload(
    addr: std::net::SocketAddr,
    rooms: usize,
    moves: usize,
    groups: usize,
    seed: u64,
) -> Result<(Vec<SavedRoom>, PreloadReport), String> {
    let started = Instant::now();
    let target = Arc::new(Target::new(addr, 4));
    let counters = Arc::new(Counters::default());
    let config = Arc::new(TableConfig {
        game: fipsen_rules::GameId::Prisdorf,
        players: None,
        spectators: 0,
        deals: None,
        strict: false,
        hello_only: false,
        seed,
        keep_last: true,
    });
    let phase = Arc::new(Phase::new("preload", 1.0, 0.0, 1, started));
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for group in 0..groups.max(1) {
        let (target, counters, config, phase, next) =
            (target.clone(), counters.clone(), config.clone(), phase.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            let mut saved = Vec::new();
            if next.fetch_add(1, Ordering::Relaxed) >= rooms {
                return Ok(saved);
            }
            let mut table = Table::open(group, &target, config, counters).await?;
            loop {
                table.play(moves, &phase).await?;
                saved.push(table.saved());
                if next.fetch_add(1, Ordering::Relaxed) >= rooms {
                    return Ok::<_, String>(saved);
                }
                table.new_room().await?;
            }
        }));
    }
    let mut all = Vec::with_capacity(rooms);
    for task in tasks {
        match task.await {
            Ok(Ok(saved)) => all.extend(saved),
            Ok(Err(e)) => return Err(e),
            Err(e) => return Err(format!("a preload task failed: {e}")),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut moves = phase.report();
    moves.seconds = seconds;
    moves.moves_per_s = moves.resolved as f64 / seconds.max(1e-9);
    let report = PreloadReport { rooms: all.len(), seconds, moves, errors: counters.error_total() };
    Ok((all, report))
}

/// What coming back after the restart found.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RestoreReport {
    /// Rooms to check.
    pub rooms: usize,
    /// Rooms that answered `resume` with the saved game.
    pub restored: usize,
    /// Rooms whose game differed from the saved one.
    pub mismatched: usize,
    /// Rooms that answered with an error, and the first of them.
    pub failed: usize,
    /// The first failure.
    pub first_failure: Option<String>,
    /// From `t0` (the server's start) to the first accepted connection, seconds.
    pub first_connection_s: f64,
    /// From `t0` to the first room resumed.
    pub first_room_s: f64,
    /// From `t0` to every room checked.
    pub all_rooms_s: f64,
    /// `resume` → `joined`, per room.
    pub resume: Summary,
}

fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// Comes back to every saved room with `connections` connections side by side. Times are
/// counted from `t0` (seconds since 1970; the moment the server was started), waiting up to
/// `patience` for the server to accept connections.
pub async fn check(
    addr: std::net::SocketAddr,
    saved: Vec<SavedRoom>,
    connections: usize,
    t0: f64,
    patience: Duration,
) -> RestoreReport {
    let target = Arc::new(Target::new(addr, 4));
    let mut report = RestoreReport { rooms: saved.len(), ..RestoreReport::default() };
    // Wait for the server.
    let deadline = Instant::now() + patience;
    let first = loop {
        match target.connect().await {
            Ok(ws) => break Some(ws),
            Err(_) if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(2)).await,
            Err(e) => {
                report.first_failure = Some(format!("the server never accepted a connection: {e}"));
                break None;
            }
        }
    };
    let Some(first) = first else { return report };
    report.first_connection_s = unix_now() - t0;
    let saved = Arc::new(saved);
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    let mut first = Some(first);
    for _ in 0..connections.max(1) {
        let ws = match first.take() {
            Some(ws) => ws,
            None => match target.connect().await {
                Ok(ws) => ws,
                Err(e) => {
                    report.first_failure.get_or_insert(e);
                    continue;
                }
            },
        };
        let (saved, next) = (saved.clone(), next.clone());
        tasks.push(tokio::spawn(async move { resume_rooms(ws, &saved, &next, t0).await }));
    }
    let mut latency = Latency::new();
    let mut first_room = f64::MAX;
    for task in tasks {
        let Ok(outcome) = task.await else { continue };
        report.restored += outcome.restored;
        report.mismatched += outcome.mismatched;
        report.failed += outcome.failed;
        if let Some(f) = outcome.first_failure {
            report.first_failure.get_or_insert(f);
        }
        latency.merge(&outcome.latency);
        first_room = first_room.min(outcome.first_room_s);
    }
    report.first_room_s = if first_room == f64::MAX { 0.0 } else { first_room };
    report.all_rooms_s = unix_now() - t0;
    report.resume = latency.summary();
    report
}

#[derive(Debug, Default)]
struct Outcome {
    restored: usize,
    mismatched: usize,
    failed: usize,
    first_failure: Option<String>,
    latency: Latency,
    first_room_s: f64,
}

async fn resume_rooms(mut ws: Ws, saved: &[SavedRoom], next: &AtomicUsize, t0: f64) -> Outcome {
    let mut outcome = Outcome { first_room_s: f64::MAX, ..Outcome::default() };
    let fail = |outcome: &mut Outcome, why: String| {
        outcome.failed += 1;
        outcome.first_failure.get_or_insert(why);
    };
    if let Err(e) = exchange(
        &mut ws,
        &ConnectionMessage::Hello { protocol: fipsen_protocol::PROTOCOL_VERSION, client: None }.into(),
        "welcome",
    )
    .await
    {
        fail(&mut outcome, e);
        return outcome;
    }
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(room) = saved.get(i) else { break };
        let Some(token) = room.tokens.first() else {
            fail(&mut outcome, format!("room {}: no token saved", room.room));
            continue;
        };
        let resume = ClientMessage::from(ConnectionMessage::Resume {
            room: room.room.clone(),
            token: token.clone(),
            last_seq: Some(room.seq),
        });
        let sent = Instant::now();
        match exchange(&mut ws, &resume, "joined").await {
            Ok(joined) => {
                outcome.latency.record(sent.elapsed());
                outcome.first_room_s = outcome.first_room_s.min(unix_now() - t0);
                if same_game(&joined, room.host_frame.as_deref()) {
                    outcome.restored += 1;
                } else {
                    outcome.mismatched += 1;
                    let diff = game_diff(&joined, room.host_frame.as_deref()).join("; ");
                    outcome
                        .first_failure
                        .get_or_insert(format!("room {}: the game differs after the restart: {diff}", room.room));
                }
            }
            Err(e) => {
                fail(&mut outcome, format!("room {}: {e}", room.room));
                continue;
            }
        }
        if let Err(e) = exchange(&mut ws, &ConnectionMessage::LeaveRoom.into(), "left").await {
            fail(&mut outcome, e);
            break;
        }
    }
    let _ = ws.close(None).await;
    outcome
}

/// Whether the `game` of a `joined` frame equals the `game` of the saved frame.
pub fn same_game(joined: &str, saved: Option<&str>) -> bool {
    let game = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok().map(|v| v["game"].clone());
    match (game(joined), saved.and_then(game)) {
        (Some(a), Some(b)) => a == b && !a.is_null(),
        _ => false,
    }
}

/// Where the `game` of a `joined` frame differs from the saved one: up to ten JSON paths with
/// both values (after the restart first).
pub fn game_diff(joined: &str, saved: Option<&str>) -> Vec<String> {
    let game = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok().map(|v| v["game"].clone());
    let (Some(now), Some(before)) = (game(joined), saved.and_then(game)) else {
        return vec!["a frame is unreadable or missing".into()];
    };
    let mut out = Vec::new();
    diff_values("game", &now, &before, &mut out);
    out
}

fn diff_values(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
    use serde_json::Value;
    if out.len() >= 10 || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for key in keys {
                let null = Value::Null;
                diff_values(&format!("{path}.{key}"), x.get(key).unwrap_or(&null), y.get(key).unwrap_or(&null), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff_values(&format!("{path}[{i}]"), p, q, out);
            }
        }
        _ => out.push(format!("{path}: {a} (saved {b})")),
    }
}

/// Sends a message and reads frames until one of type `want` (skipping updates), or an error.
async fn exchange(ws: &mut Ws, message: &ClientMessage, want: &str) -> Result<String, String> {
    let text = serde_json::to_string(message).map_err(|e| e.to_string())?;
    ws.send(Message::text(text)).await.map_err(|e| format!("send: {e}"))?;
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| format!("no {want} within 30 s"))?;
        match frame {
            Some(Ok(Message::Text(text))) => {
                let kind = serde_json::from_str::<serde_json::Value>(text.as_str())
                    .ok()
                    .and_then(|v| v["type"].as_str().map(str::to_string))
                    .unwrap_or_default();
                if kind == want {
                    return Ok(text.to_string());
                }
                if kind == "error" {
                    return Err(format!("error instead of {want}: {text}"));
                }
            }
            Some(Ok(Message::Close(frame))) => return Err(format!("closed: {frame:?}")),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("connection error: {e}")),
            None => return Err("connection ended".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_compared_by_value() {
        let saved = r#"{"type":"update","seq":5,"game":{"number":1,"deal":{"turn":2}}}"#;
        let same = r#"{"type":"joined","seq":6,"game":{"deal":{"turn":2},"number":1}}"#;
        let other = r#"{"type":"joined","seq":6,"game":{"deal":{"turn":3},"number":1}}"#;
        assert!(same_game(same, Some(saved)));
        assert!(!same_game(other, Some(saved)));
        assert!(!same_game(same, None));
        assert!(!same_game(r#"{"type":"joined","game":null}"#, Some(r#"{"game":null}"#)));
        assert_eq!(game_diff(other, Some(saved)), vec!["game.deal.turn: 3 (saved 2)".to_string()]);
        assert!(game_diff(same, Some(saved)).is_empty());
    }
}
