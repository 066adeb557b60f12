//! The baseline: a bare tokio-tungstenite fan-out server with no game logic and no storage.
//!
//! It speaks just enough of the protocol's shapes for the load generator to drive it with the
//! same traffic as the real server: `hello` → `welcome`; `create_room` / `join_room` →
//! `joined` (players get the next seat); `start` and every `act` → `ack` to the sender and one
//! `update` to every connection at the table, padded to the real server's frame size, whose
//! `game.deal` names the next seat to move and offers it `pass`. It checks nothing and
//! stores nothing: it is what the machine can do at all with the same connections and frames.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use fipsen_protocol::{ClientMessage, ConnectionMessage, Role, RoomMessage};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

/// How the baseline behaves.
#[derive(Debug, Clone, Copy)]
pub struct BaselineConfig {
    /// The size to pad every `update` frame to, in bytes (the real server's mean).
    pub update_bytes: usize,
    /// Each connection's WebSocket read buffer (allocated up front), bytes. The real server
    /// uses 1 KiB.
    pub read_buffer_bytes: usize,
}

impl Default for BaselineConfig {
    fn default() -> Self {
        BaselineConfig { update_bytes: DEFAULT_UPDATE_BYTES, read_buffer_bytes: 1024 }
    }
}

/// The mean `update` frame of the real server in the scenarios (measured by the generator:
/// four players, two spectators, Prisdorf rules).
pub const DEFAULT_UPDATE_BYTES: usize = 2400;

type Outbox = mpsc::UnboundedSender<Message>;

#[derive(Debug, Default)]
struct Room {
    seq: u64,
    started: bool,
    turn: u8,
    members: Vec<(u64, Outbox, Option<u8>)>,
}

#[derive(Debug, Default)]
struct Rooms {
    next: AtomicU64,
    rooms: Mutex<HashMap<String, Arc<Mutex<Room>>>>,
}

/// Serves connections from `listener` until the process ends.
pub async fn serve(listener: TcpListener, config: BaselineConfig) {
    let rooms = Arc::new(Rooms::default());
    let ids = AtomicU64::new(1);
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let _ = stream.set_nodelay(true);
        let id = ids.fetch_add(1, Ordering::Relaxed);
        tokio::spawn(connection(stream, id, rooms.clone(), config));
    }
}

/// Binds `addr` and serves in a background task; returns the bound address.
///
/// # Errors
/// The address cannot be bound.
pub async fn start(addr: SocketAddr, config: BaselineConfig) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    tokio::spawn(serve(listener, config));
    Ok(bound)
}

fn ws_config(config: BaselineConfig) -> WebSocketConfig {
    // By default the same buffer sizes as the real server's WebSocket upgrade.
    WebSocketConfig::default()
        .read_buffer_size(config.read_buffer_bytes.max(256))
        .write_buffer_size(16 * 1024)
        .max_message_size(Some(32 * 1024))
}

struct Conn {
    id: u64,
    rooms: Arc<Rooms>,
    config: BaselineConfig,
    outbox: Outbox,
    room: Option<(String, Arc<Mutex<Room>>)>,
}

async fn connection(stream: TcpStream, id: u64, rooms: Arc<Rooms>, config: BaselineConfig) {
    let Ok(mut ws) = tokio_tungstenite::accept_async_with_config(stream, Some(ws_config(config))).await else { return };
    let (outbox, mut inbox) = mpsc::unbounded_channel::<Message>();
    let mut conn = Conn { id, rooms, config, outbox, room: None };
    loop {
        tokio::select! {
            incoming = ws.next() => match incoming {
                Some(Ok(Message::Text(text))) => conn.handle(text.as_str()),
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            Some(out) = inbox.recv() => {
                if ws.send(out).await.is_err() {
                    break;
                }
            }
        }
    }
    conn.leave();
}

fn text(s: String) -> Message {
    Message::Text(Utf8Bytes::from(s))
}

impl Conn {
    fn reply(&self, s: String) {
        let _ = self.outbox.send(text(s));
    }

    fn error(&self, id: Option<u64>, code: &str) {
        let id = id.map_or_else(|| "null".to_string(), |id| id.to_string());
        self.reply(format!(r#"{{"type":"error","id":{id},"code":"{code}","message":"{code}"}}"#));
    }

    fn handle(&mut self, frame: &str) {
        let Ok(message) = serde_json::from_str::<ClientMessage>(frame) else {
            return self.error(None, "proto/malformed");
        };
        match message {
            ClientMessage::Connection(ConnectionMessage::Hello { protocol, .. }) => self.reply(format!(
                r#"{{"type":"welcome","protocol":{protocol},"server":"baseline","max_message_bytes":16384}}"#
            )),
            ClientMessage::Connection(ConnectionMessage::Ping) => self.reply(r#"{"type":"pong"}"#.into()),
            ClientMessage::Connection(ConnectionMessage::CreateRoom { .. }) => {
                let code = format!("b{}", self.rooms.next.fetch_add(1, Ordering::Relaxed));
                let room = Arc::new(Mutex::new(Room::default()));
                self.rooms.rooms.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(code.clone(), room);
                self.join(&code, Role::Player);
            }
            ClientMessage::Connection(ConnectionMessage::JoinRoom { room, role, .. }) => self.join(&room, role),
            ClientMessage::Connection(ConnectionMessage::LeaveRoom) => {
                self.leave();
                self.reply(r#"{"type":"left"}"#.into());
            }
            ClientMessage::Room(RoomMessage::Start) => self.broadcast(None, &["started", "game"], true),
            ClientMessage::Room(RoomMessage::Act { id, .. }) => self.broadcast(Some(id), &["game"], false),
            _ => self.error(None, "proto/unknown_type"),
        }
    }

    fn join(&mut self, code: &str, role: Role) {
        let room = self.rooms.rooms.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(code).cloned();
        let Some(room) = room else { return self.error(None, "room/not_found") };
        let mut r = room.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let seat = match role {
            Role::Player => Some(r.members.iter().filter(|m| m.2.is_some()).count() as u8),
            Role::Spectator => None,
        };
        r.seq += 1;
        let seq = r.seq;
        let kind = if seat.is_some() { "seated" } else { "spectators" };
        let update = self.update(seq, &[(seq, kind)], &r);
        for (_, outbox, _) in &r.members {
            let _ = outbox.send(update.clone());
        }
        let seat_json = seat.map_or_else(|| "null".to_string(), |s| s.to_string());
        let token = if seat.is_some() { format!(r#""tok{}""#, self.id) } else { "null".into() };
        self.reply(format!(
            r#"{{"type":"joined","room":{{"room":"{code}","status":"waiting"}},"you":{{"seat":{seat_json},"token":{token},"last_act_id":null}},"seq":{seq},"game":null,"missed":[],"resync":false,"chat":[]}}"#
        ));
        r.members.push((self.id, self.outbox.clone(), seat));
        drop(r);
        self.room = Some((code.to_string(), room));
    }

    /// Numbers the events, answers `ack` to an action, and sends one update to everyone.
    fn broadcast(&self, ack: Option<u64>, kinds: &[&str], start: bool) {
        let Some((_, room)) = &self.room else { return self.error(ack, "room/not_in") };
        let mut r = room.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let players = r.members.iter().filter(|m| m.2.is_some()).count().max(1) as u8;
        if start {
            r.started = true;
            r.turn = 0;
        } else {
            r.turn = (r.turn + 1) % players;
        }
        let first = r.seq + 1;
        r.seq += kinds.len() as u64;
        let events: Vec<(u64, &str)> = kinds.iter().enumerate().map(|(i, k)| (first + i as u64, *k)).collect();
        let update = self.update(r.seq, &events, &r);
        if let Some(id) = ack {
            self.reply(format!(r#"{{"type":"ack","id":{id},"seq":{}}}"#, r.seq));
        }
        for (_, outbox, _) in &r.members {
            let _ = outbox.send(update.clone());
        }
    }

    /// One `update` frame, padded to the configured size.
    fn update(&self, seq: u64, events: &[(u64, &str)], r: &Room) -> Message {
        let events: Vec<String> =
            events.iter().map(|(seq, kind)| format!(r#"{{"seq":{seq},"kind":"{kind}"}}"#)).collect();
        let (status, game) = if r.started {
            ("playing", format!(r#"{{"over":false,"deal":{{"turn":{},"prompt":{{"pass":true}}}}}}"#, r.turn))
        } else {
            ("waiting", "null".to_string())
        };
        let head = format!(
            r#"{{"type":"update","seq":{seq},"events":[{}],"patches":[{{"op":"set","path":["room","status"],"value":"{status}"}},{{"op":"set","path":["game"],"value":{game}}},{{"op":"set","path":["room","pad"],"value":""#,
            events.join(",")
        );
        let tail = String::from(r#""}]}"#);
        let pad = self.config.update_bytes.saturating_sub(head.len() + tail.len());
        let mut frame = String::with_capacity(head.len() + pad + tail.len());
        frame.push_str(&head);
        frame.extend(std::iter::repeat_n('x', pad));
        frame.push_str(&tail);
        text(frame)
    }

    fn leave(&mut self) {
        if let Some((code, room)) = self.room.take() {
            let mut r = room.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            r.members.retain(|m| m.0 != self.id);
            if r.members.is_empty() {
                drop(r);
                self.rooms.rooms.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&code);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{Frame, Kind, State};

    #[test]
    fn updates_are_padded_and_readable_by_the_generator() {
        let (outbox, _inbox) = mpsc::unbounded_channel();
        let conn = Conn {
            id: 1,
            rooms: Arc::new(Rooms::default()),
            config: BaselineConfig { update_bytes: 2000, ..BaselineConfig::default() },
            outbox,
            room: None,
        };
        let room = Room { seq: 9, started: true, turn: 2, members: Vec::new() };
        let Message::Text(frame) = conn.update(9, &[(9, "game")], &room) else { panic!("a text frame") };
        assert_eq!(frame.len(), 2000);
        let parsed = Frame::parse(frame.as_str()).unwrap();
        assert_eq!(parsed.kind, Kind::Update);
        assert_eq!(parsed.seq, Some(9));
        let joined = serde_json::json!({"room": "b1", "status": "waiting"});
        let mut state = State::snapshot(Some(joined), None);
        state.patch(parsed.patches().unwrap()).unwrap();
        assert_eq!(state.room().unwrap().status, "playing");
        let deal = state.game().unwrap().deal;
        assert_eq!(deal.turn, Some(fipsen_rules::Seat(2)));
        assert_eq!(deal.prompt.get("pass"), &serde_json::Value::Bool(true));
    }
}
