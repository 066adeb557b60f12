//! Rooms of bots only, each watched by its creator: the most play one address can start with a
//! handful of messages. Every room's creator gives his seat to a bot, fills the table with bots
//! (no pause of their own, the next deal at once), starts it and reads what comes, counting
//! the events.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::net::{Target, Ws};

/// What the rooms did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BotRoomsReport {
    /// Rooms started.
    pub rooms: usize,
    /// The first room that could not be started, and why.
    pub first_failure: Option<String>,
    /// Seconds the rooms were watched.
    pub seconds: f64,
    /// Room events received, over all rooms.
    pub events: u64,
    /// Events a second, over all rooms.
    pub events_per_s: f64,
}

/// Opens `rooms` rooms of `rules` (a seat count in `players`) with `bot_delay_ms`, each watched by
/// its creator from `target`'s first source address, and counts their events for `seconds`.
///
/// # Errors
/// Never: a room that cannot be started is reported in `first_failure`.
pub async fn run(target: &Target, rooms: usize, rules: Value, bot_delay_ms: u32, seconds: f64) -> BotRoomsReport {
    let events = Arc::new(AtomicU64::new(0));
    let mut report = BotRoomsReport::default();
    let mut watching = Vec::new();
    for _ in 0..rooms {
        let options = json!({"bot_delay_ms": bot_delay_ms, "next_deal_seconds": 0});
        match start_room(target, &rules, options, "normal").await {
            Ok(ws) => {
                report.rooms += 1;
                watching.push(tokio::spawn(watch(ws, events.clone())));
            }
            Err(e) => {
                report.first_failure.get_or_insert(e);
            }
        }
    }
    let start = Instant::now();
    let before = events.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
    report.events = events.load(Ordering::Relaxed) - before;
    report.seconds = start.elapsed().as_secs_f64();
    report.events_per_s = report.events as f64 / report.seconds;
    for task in watching {
        task.abort();
    }
    report
}

async fn send(ws: &mut Ws, message: Value) -> Result<(), String> {
    ws.send(Message::text(message.to_string())).await.map_err(|e| format!("send: {e}"))
}

/// The next frame of `kind`; an error frame ends the wait.
async fn until(ws: &mut Ws, kind: &str) -> Result<Value, String> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| format!("no {kind} within 30 s"))?;
        match frame {
            Some(Ok(Message::Text(text))) => {
                let value: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
                if value["type"] == kind {
                    return Ok(value);
                }
                if value["type"] == "error" {
                    return Err(format!("refused: {value}"));
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("closed: {e}")),
            None => return Err("closed".into()),
        }
    }
}

/// A room of `rules` with `options`, its creator out of his seat and a bot of `level` in every
/// seat, started; the creator's connection, watching it.
pub(crate) async fn start_room(target: &Target, rules: &Value, options: Value, level: &str) -> Result<Ws, String> {
    let mut ws = target.connect().await?;
    send(&mut ws, json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await?;
    until(&mut ws, "welcome").await?;
    send(&mut ws, json!({"type": "create_room", "name": "Watcher", "rules": rules, "options": options})).await?;
    let joined = until(&mut ws, "joined").await?;
    let seats = joined["room"]["seats"].as_array().map_or(0, Vec::len);
    send(&mut ws, json!({"type": "leave_seat"})).await?;
    until(&mut ws, "update").await?;
    for seat in 0..seats {
        send(&mut ws, json!({"type": "add_bot", "seat": seat, "level": level})).await?;
        until(&mut ws, "update").await?;
    }
    send(&mut ws, json!({"type": "start"})).await?;
    until(&mut ws, "update").await?;
    Ok(ws)
}

async fn watch(mut ws: Ws, events: Arc<AtomicU64>) {
    while let Some(Ok(frame)) = ws.next().await {
        if let Message::Text(text) = frame
            && let Ok(value) = serde_json::from_str::<Value>(&text)
            && let Some(list) = value["events"].as_array()
        {
            events.fetch_add(list.len() as u64, Ordering::Relaxed);
        }
    }
}
