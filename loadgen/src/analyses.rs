//! Analyses beside the tables: clients that keep the server's analysis of finished deals busy,
//! so that a table run beside them shows what the analyses cost the rooms' moves. Each client
//! opens a room of bots only (by default Wippen, the costliest analysis, with easy bots, whose
//! moves cost little beside the analysis), gives its seat to a bot, and asks for the replay of
//! each deal as soon as it is over: every answer is a deal analysed for the first time (a cache
//! miss). It records how long each replay took,
//! and how often the server said it was busy (its permits for reviews and replays were taken).

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

use crate::net::{Target, Ws};
use crate::stats::{Latency, Summary};

/// What the analysis clients did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AnalysesReport {
    /// Clients that started a room.
    pub clients: usize,
    /// Seconds they ran.
    pub seconds: f64,
    /// Replays answered (each a deal analysed).
    pub replays: usize,
    /// Replays answered a second.
    pub replays_per_s: f64,
    /// How long a replay took, from the request to the answer.
    pub replay: Summary,
    /// Requests answered `server/busy` (every permit taken), asked again after a pause.
    pub busy: u64,
    /// The first failure, if any.
    pub first_failure: Option<String>,
}

/// What every client adds to.
struct Tally {
    times: Latency,
    busy: u64,
    first_failure: Option<String>,
}

/// Runs `clients` analysis clients against `target` for `seconds`, each in a room of `rules`
/// with bots of `level`.
pub async fn run(target: &Target, clients: usize, rules: Value, level: &str, seconds: f64) -> AnalysesReport {
    let tally = Arc::new(Mutex::new(Tally { times: Latency::new(), busy: 0, first_failure: None }));
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    let mut report = AnalysesReport::default();
    for _ in 0..clients {
        match open(target, &rules, level).await {
            Ok(ws) => {
                report.clients += 1;
                tasks.push(tokio::spawn(ask_replays(ws, deadline, tally.clone())));
            }
            Err(e) => {
                tally.lock().await.first_failure.get_or_insert(e);
            }
        }
    }
    for task in tasks {
        let _ = task.await;
    }
    let tally = tally.lock().await;
    report.seconds = start.elapsed().as_secs_f64();
    report.replays = tally.times.count() as usize;
    report.replays_per_s = report.replays as f64 / report.seconds;
    report.replay = tally.times.summary();
    report.busy = tally.busy;
    report.first_failure.clone_from(&tally.first_failure);
    report
}

async fn send(ws: &mut Ws, message: Value) -> Result<(), String> {
    ws.send(Message::text(message.to_string())).await.map_err(|e| format!("send: {e}"))
}

/// The next frame of type `kind` or `error` (other frames are skipped), within `wait`.
async fn answer(ws: &mut Ws, kind: &str, wait: Duration) -> Result<Value, String> {
    let until = Instant::now() + wait;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let frame = tokio::time::timeout(left, ws.next()).await.map_err(|_| format!("no {kind} within {wait:?}"))?;
        match frame {
            Some(Ok(Message::Text(text))) => {
                let value: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
                if value["type"] == kind || value["type"] == "error" {
                    return Ok(value);
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("closed: {e}")),
            None => return Err("closed".into()),
        }
    }
}

/// A room of `rules` with a bot of `level` in every seat, started, its replays public (its
/// creator watches without a seat).
async fn open(target: &Target, rules: &Value, level: &str) -> Result<Ws, String> {
    let options = json!({"bot_delay_ms": 0, "next_deal_seconds": 0, "public_replays": true});
    crate::bot_rooms::start_room(target, rules, options, level).await
}

/// Asks for the replay of deal 1, 2, … each as soon as it is over, until `deadline`.
async fn ask_replays(mut ws: Ws, deadline: Instant, tally: Arc<Mutex<Tally>>) {
    let mut deal = 1u32;
    while Instant::now() < deadline {
        let asked = Instant::now();
        if let Err(e) = send(&mut ws, json!({"type": "replay", "deal": deal})).await {
            tally.lock().await.first_failure.get_or_insert(e);
            return;
        }
        match answer(&mut ws, "replay", Duration::from_secs(60)).await {
            Ok(frame) if frame["type"] == "replay" => {
                tally.lock().await.times.record(asked.elapsed());
                deal += 1;
            }
            Ok(frame) => {
                // Not over yet, or every permit taken: ask again in a moment.
                if frame["code"] == "server/busy" {
                    tally.lock().await.busy += 1;
                } else if frame["code"] != "replay/unavailable" {
                    tally.lock().await.first_failure.get_or_insert(format!("refused: {frame}"));
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => {
                tally.lock().await.first_failure.get_or_insert(e);
                return;
            }
        }
    }
}
