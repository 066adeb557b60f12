//! Builds the `update` frames of one move for every viewer (each seat and the spectators) `N`
//! times, the way of protocol version 2 (each viewer's whole room and game view serialised) or
//! with `UpdateFrames` (version 3: each viewer's state compared with the state before the move,
//! only the patches sent), so that an instruction counter can compare the two without the
//! machine's noise:
//!
//! ```sh
//! cargo build --release -p fipsen-server --example frame_cost
//! valgrind --tool=callgrind target/release/examples/frame_cost whole 20 1000
//! valgrind --tool=callgrind target/release/examples/frame_cost lean 20 1000
//! valgrind --tool=callgrind target/release/examples/frame_cost lean 0 200 tippen 6
//! ```
//! (arguments: the way, the deals played before the move, the repetitions, the game and its
//! seats, by default Prisdorf at 4; run with 0 repetitions to count the set-up alone). The move
//! is picked alike in every game: in the deal after those, a card played after at least as many
//! cards as there are seats, one that leaves its trick unfinished (any card in a game without
//! tricks). Two more ways take the `lean` frames on to a table's connections (the seats and two
//! spectators) as the socket's messages: `queued` as the server does (the frame's shared
//! bytes), `copied` as it did before (each connection's message a copy of the frame). `print`
//! writes each viewer's frame and view now. The room has a turn clock, as a room in play does:
//! the move hands the turn on, and the turn's waited time is measured anew, so each frame also
//! patches the room's `turn`.

use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes};
use fipsen_protocol::{RoomEvent, RoomOptions, RoomState, RoomStatus, SeatInfo, SeqEvent, TurnClock};
use fipsen_rules::{AnyGame, GameEvents, GameId, GameRules, Seat, Seed};
use fipsen_server::frames::{Base, UpdateFrames, first_row, redact};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let way = args.get(1).map_or("lean", String::as_str);
    let deals: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let repeat: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let code = args.get(4).map_or("prisdorf", String::as_str);
    let Some(id) = GameId::from_code(code) else {
        eprintln!("unknown game `{code}`");
        std::process::exit(2);
    };
    let seats: Option<u8> = args.get(5).and_then(|a| a.parse().ok());
    let rules = match rules(id, seats) {
        Ok(rules) => rules,
        Err(e) => {
            eprintln!("{code} at {seats:?} seats: {e}");
            std::process::exit(2);
        }
    };
    let (before, game, events) = position(&rules, deals);
    // The seats, then the spectators.
    let viewers: Vec<Option<Seat>> =
        (0..rules.seats() as u8).map(|s| Some(Seat(s))).chain(std::iter::once(None)).collect();
    let spectators = viewers.len() - 1;
    // The turn clock as a room sends it: the mover's turn had lasted a while; the next seat's
    // has just begun (a room measures it anew in every frame).
    let state_before = room(&rules, before.turn(), 4_200);
    let state = room(&rules, game.turn(), 3);
    // The bases as a room holds them after the move before: made by one change, so that the
    // viewers share one room text.
    let mut previous = UpdateFrames::new(100, &[], &state_before, Some(&before));
    let bases: Vec<Arc<Base>> = viewers.iter().map(|&v| previous.state(v)).collect();
    // A room works out what tells its scoresheet from another's once.
    let sheet = first_row(Some(&game));
    let mut bytes = 0;
    for _ in 0..repeat {
        bytes += match way {
            "whole" => viewers
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
                let connections =
                    viewers.iter().zip(&bases).chain(std::iter::once((&viewers[spectators], &bases[spectators])));
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
                for (&viewer, base) in viewers.iter().zip(&bases) {
                    println!("{viewer:?}: {}", frames.frame(viewer, base).0);
                }
                for &viewer in &viewers {
                    println!("{viewer:?} now: {}", serde_json::to_string(&game.view(viewer)).unwrap_or_default());
                }
                0
            }
            _ => {
                let mut frames = UpdateFrames::with_sheet(101, &events, &state, Some(&game), sheet);
                viewers.iter().zip(&bases).map(|(&viewer, base)| frames.frame(viewer, base).0.len()).sum::<usize>()
            }
        };
    }
    println!(
        "{way}: {} at {} seats, {repeat} moves after {deals} deals, {} bytes per move",
        id.code(),
        rules.seats(),
        bytes / repeat.max(1)
    );
}

/// The game's default rules at `seats` seats (its default where `None`).
fn rules(game: GameId, seats: Option<u8>) -> Result<GameRules, String> {
    let rules = GameRules::default_for(game);
    let Some(seats) = seats else { return Ok(rules) };
    let mut options = serde_json::to_value(&rules).map_err(|e| e.to_string())?;
    match options.get_mut("players") {
        Some(players) => *players = seats.into(),
        None if seats as usize == rules.seats() => return Ok(rules),
        None => return Err("the game is played at one table size only".into()),
    }
    let rules: GameRules = serde_json::from_value(options).map_err(|e| e.to_string())?;
    rules.validate().map_err(|e| e.to_string())?;
    Ok(rules)
}

/// Whether an action of `kind` in `game` plays a card: in Wippen every move plays a hand card,
/// in the other games a `play`.
fn card_play(game: GameId, kind: &str) -> bool {
    game == GameId::Wippen || kind == "play"
}

/// A series of `rules` played from seed 3 (each seat taking the legal action the step's number
/// picks) to the measured move: the first card played in a deal after the first `deals`, with
/// at least as many cards played before it in that deal as there are seats, that leaves its
/// trick unfinished (any card in Wippen, which has no tricks). Returns the series before the
/// move, after it, and the move's events.
fn position(rules: &GameRules, deals: u32) -> (AnyGame, AnyGame, Vec<SeqEvent>) {
    let (mut series, _) = AnyGame::start(rules, Seed::from_u64(3)).expect("rules");
    let id = series.game();
    let mut step = 0usize;
    let mut played = 0usize;
    loop {
        assert!(!series.series_over(), "the series ended before the move was found");
        if series.deal_over() {
            series.next_deal().expect("next deal");
            played = 0;
            continue;
        }
        let seat = series.turn().expect("a turn");
        let legal = series.legal_actions(seat);
        step += 1;
        let action = legal.get(step % legal.len()).expect("an action");
        let previous = series.clone();
        let events = series.apply(seat, &action).expect("legal");
        if !card_play(id, action.kind()) {
            continue;
        }
        played += 1;
        let unfinished = id == GameId::Wippen || series.trick_in_progress();
        if previous.deal_number() > deals && played > rules.seats() && unfinished {
            return (previous, series, numbered(events));
        }
    }
}

/// The events numbered from 100.
fn numbered(events: GameEvents) -> Vec<SeqEvent> {
    events
        .into_iter()
        .enumerate()
        .map(|(i, event)| SeqEvent { seq: 100 + i as u64, event: RoomEvent::Game { event } })
        .collect()
}

/// A room of `rules` in play, every seat taken and connected, two spectators; `turn`'s turn has
/// lasted `waited_ms` (no move clock).
fn room(rules: &GameRules, turn: Option<Seat>, waited_ms: u64) -> RoomState {
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
        rules: rules.clone(),
        options: RoomOptions::default(),
        seats: (0..rules.seats() as u8).map(seat).collect(),
        spectators: 2,
        status: RoomStatus::Playing,
        turn: turn.map(|seat| TurnClock { seat, waited_ms, left_ms: None }),
        next_deal_asked: vec![],
        next_deal_in_ms: None,
        next_deal_paused: false,
        reading: vec![],
        tournament: None,
        delete_votes: vec![],
        rematch: None,
    }
}
