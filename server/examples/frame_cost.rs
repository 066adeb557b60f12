//! Builds the five `update` frames of one move (four seats and the spectators) `N` times, the
//! way of protocol version 2 (each viewer's whole room and game view serialised) or with
//! `UpdateFrames` (version 3: each viewer's state compared with the state before the move, only
//! the patches sent), so that an instruction counter can compare the two without the machine's
//! noise:
//!
//! ```sh
//! cargo build --release -p fipsen-server --example frame_cost
//! valgrind --tool=callgrind target/release/examples/frame_cost whole 20 1000
//! valgrind --tool=callgrind target/release/examples/frame_cost lean 20 1000
//! ```
//! (arguments: the way, the deals played before the move, the repetitions; run with 0
//! repetitions to count the set-up alone). Two more ways take the `lean` frames on to a table's
//! six connections (four seats, two spectators) as the socket's messages: `queued` as the
//! server does (the frame's shared bytes), `copied` as it did before (each connection's
//! message a copy of the frame).

use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes};
use fipsen_protocol::{RoomEvent, RoomOptions, RoomState, RoomStatus, SeatInfo, SeqEvent};
use fipsen_rules::{AnyGame, GameEvent, GameRules, Seat, Seed, Series};
use fipsen_server::frames::{Base, UpdateFrames, first_row, redact};

const VIEWERS: [Option<Seat>; 5] = [Some(Seat(0)), Some(Seat(1)), Some(Seat(2)), Some(Seat(3)), None];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let way = args.get(1).map_or("lean", String::as_str);
    let deals: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let repeat: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let (before, series, events) = position(deals);
    let game = AnyGame::Prisdorf(series);
    let state = room();
    // The bases as a room holds them after the move before: made by one change, so that the
    // viewers share one room text.
    let mut previous = UpdateFrames::new(100, &[], &state, Some(&before));
    let bases: Vec<Arc<Base>> = VIEWERS.iter().map(|&v| previous.state(v)).collect();
    // A room works out what tells its scoresheet from another's once.
    let sheet = first_row(Some(&game));
    let mut bytes = 0;
    for _ in 0..repeat {
        bytes += match way {
            "whole" => VIEWERS
                .iter()
                .map(|&viewer| {
                    let update = serde_json::json!({
                        "type": "update",
                        "seq": 101,
                        "events": events.iter().map(|e| redact(e, viewer)).collect::<Vec<_>>(),
                        "room": state,
                        "game": game.view(viewer),
                    });
                    update.to_string().len()
                })
                .sum::<usize>(),
            "queued" | "copied" => {
                let mut frames = UpdateFrames::with_sheet(101, &events, &state, Some(&game), sheet);
                // The second spectator has the first's base, and so the same frame.
                let connections = VIEWERS.iter().zip(&bases).chain(std::iter::once((&VIEWERS[4], &bases[4])));
                let messages: Vec<Message> = connections
                    .map(|(&viewer, base)| {
                        let frame = frames.frame(viewer, base).0;
                        match way {
                            "copied" => Message::Text(Utf8Bytes::from(&*frame)),
                            _ => Message::Text(frame),
                        }
                    })
                    .collect();
                messages.iter().map(|m| std::hint::black_box(m).to_text().map_or(0, str::len)).sum::<usize>()
            }
            "print" => {
                let mut frames = UpdateFrames::with_sheet(101, &events, &state, Some(&game), sheet);
                for (&viewer, base) in VIEWERS.iter().zip(&bases) {
                    println!("{viewer:?}: {}", frames.frame(viewer, base).0);
                }
                for &viewer in &VIEWERS {
                    println!("{viewer:?} now: {}", serde_json::to_string(&game.view(viewer)).unwrap_or_default());
                }
                0
            }
            _ => {
                let mut frames = UpdateFrames::with_sheet(101, &events, &state, Some(&game), sheet);
                VIEWERS.iter().zip(&bases).map(|(&viewer, base)| frames.frame(viewer, base).0.len()).sum::<usize>()
            }
        };
    }
    println!("{way}: {repeat} moves after {deals} deals, {} bytes per move", bytes / repeat.max(1));
}

/// A series after `deals` whole deals, stopped after two tricks of the next: the series before
/// its last move, after it, and the move's events.
fn position(deals: u32) -> (AnyGame, Series, Vec<SeqEvent>) {
    let (mut series, _) = Series::new(Default::default(), Seed::from_u64(3)).expect("rules");
    let mut step = 0usize;
    let mut last = Vec::new();
    let mut previous = series.clone();
    loop {
        let deal = series.deal();
        if deal.is_over() {
            series.next_deal().expect("next deal");
            continue;
        }
        if series.number() > deals && deal.trick_winners().len() >= 2 {
            break;
        }
        let seat = deal.turn().expect("a turn");
        let legal = series.legal_actions(seat);
        step += 1;
        previous = series.clone();
        last = series.apply(seat, legal[step % legal.len()]).expect("legal");
    }
    let events = last.into_iter().enumerate();
    (
        AnyGame::Prisdorf(previous),
        series,
        events
            .map(|(i, event)| SeqEvent {
                seq: 100 + i as u64,
                event: RoomEvent::Game { event: GameEvent::Prisdorf(event) },
            })
            .collect(),
    )
}

fn room() -> RoomState {
    let seat = |s: u8| SeatInfo {
        seat: Seat(s),
        name: Some(format!("Player {s}")),
        connected: true,
        open: false,
        host: s == 0,
        bot: None,
        stand_in: None,
    };
    RoomState {
        room: "k3JX9a2LqP0vWm4Zb7Ya".into(),
        title: "Friday table".into(),
        host: "Player 0".into(),
        rules: GameRules::default(),
        options: RoomOptions::default(),
        seats: (0..4).map(seat).collect(),
        spectators: 2,
        status: RoomStatus::Playing,
        turn: None,
        next_deal_asked: vec![],
        next_deal_in_ms: None,
        next_deal_paused: false,
        reading: vec![],
        tournament: None,
        delete_votes: vec![],
        rematch: None,
    }
}
