//! One WebSocket connection: the handshake, the rate limit, reading and checking frames, and
//! passing requests to the registry or the connection's room.
//!
//! A connection is two tasks. The reader owns the socket's receiving half and talks to the
//! room; the writer owns the sending half and drains the connection's bounded outbound queue.
//! Whoever closes first tells the other through the kick switch.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use fipsen_protocol::{
    ClientMessage, CloseCode, ConnectionMessage, ErrorCode, MAX_MESSAGE_BYTES, MAX_TOKENS_PER_QUERY, PROTOCOL_VERSION,
    Role, RoomMessage, SUPPORTED_VERSIONS, SeriesMessage, ServerMessage, TournamentMessage,
};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot, watch};
use tracing::{Instrument, debug, info_span, warn};

use crate::config::Config;
use crate::metrics::{dec, inc};
use crate::quota::{Bucket, ROOMS_PER_CONNECTION_BURST};
use crate::room::RoomHandle;
use crate::room::{ConnLink, Join, JoinKind, JoinRefusal, Kick, Outgoing, RoomCommand, request_time};
use crate::state::AppState;
use crate::text::clean_name;
use crate::tournaments::{Command as TournamentCommand, OrganiserAction, TournamentHandle};

/// How long one frame may take to go out before the client counts as not reading.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Frames a connection may send while it waits to enter a room, kept to be handled once it is
/// in; past them the socket is not read until then.
const HELD_FRAMES: usize = 16;

/// A timer that is not meant to fire.
const FAR_AWAY: Duration = Duration::from_secs(365 * 24 * 3600);

/// A token bucket: `burst` messages at once, `rate` per second on average.
#[derive(Debug)]
struct RateLimit {
    tokens: f64,
    burst: f64,
    rate: f64,
    last: Instant,
}

impl RateLimit {
    fn new(rate: u32, burst: u32) -> RateLimit {
        RateLimit { tokens: f64::from(burst), burst: f64::from(burst), rate: f64::from(rate), last: Instant::now() }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Runs a connection to its end. `peer` is the address the socket came from.
///
/// Everything the connection needs is made before its future, so that the future (kept for
/// the connection's whole life) holds each part once: an `async fn` would keep its arguments
/// beside what it moves them into.
pub fn serve(
    socket: WebSocket,
    state: Arc<AppState>,
    permit: tokio::sync::OwnedSemaphorePermit,
    peer: IpAddr,
) -> impl Future<Output = ()> {
    let id = crate::room::new_conn_id();
    let metrics = state.metrics.clone();
    inc(&metrics.connections);
    inc(&metrics.connections_total);
    let span = info_span!("conn", conn = id, room = tracing::field::Empty, seat = tracing::field::Empty);
    let (sink, stream) = socket.split();
    let (tx, rx) = mpsc::channel(state.config.outbound_queue.max(4));
    let link = ConnLink { id, tx, kick: Arc::new(Kick::default()), addr: peer };
    let writer = tokio::spawn(write_loop(sink, rx, link.kick.clone(), state.clone()).instrument(span.clone()));
    let mut reader = Reader {
        state,
        link,
        stream,
        held: VecDeque::new(),
        gone: false,
        room: None,
        watching: None,
        greeted: false,
        peer,
        rooms_quota: Bucket::with_burst(ROOMS_PER_CONNECTION_BURST, Instant::now()),
    };
    async move {
        reader.run().await;
        drop(reader);
        let _ = writer.await;
        debug!("connection closed");
        dec(&metrics.connections);
        drop(permit);
    }
    .instrument(span)
}

/// Sends queued frames until the queue ends, a close is queued, or a kick arrives; pings the
/// client every ping interval.
async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Outgoing>,
    kick: Arc<Kick>,
    state: Arc<AppState>,
) {
    let max_reply = state.config.max_reply_bytes;
    let ping_every = state.config.ping_interval();
    let ping = tokio::time::sleep(ping_every.unwrap_or(FAR_AWAY));
    tokio::pin!(ping);
    let close = loop {
        let message = tokio::select! {
            biased;
            code = kick.wait() => break Some(code),
            frame = rx.recv() => match frame {
                Some(Outgoing::Text(text)) => {
                    if text.len() > max_reply {
                        reply_too_large(&state, &text);
                        break Some(CloseCode::Internal);
                    }
                    Message::Text(*text)
                }
                Some(Outgoing::Close(code)) => break Some(code),
                None => break Some(CloseCode::Normal),
            },
            () = &mut ping, if ping_every.is_some() => {
                ping.as_mut().reset(tokio::time::Instant::now() + ping_every.unwrap_or(FAR_AWAY));
                Message::Ping(Bytes::new())
            }
        };
        match tokio::time::timeout(SEND_TIMEOUT, sink.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                debug!(error = %e, "cannot send");
                break None;
            }
            Err(_) => {
                inc(&state.metrics.slow_clients);
                break Some(CloseCode::TooSlow);
            }
        }
    };
    if let Some(code) = close {
        let frame = CloseFrame { code: code.code(), reason: Utf8Bytes::from_static(code.reason()) };
        let _ = tokio::time::timeout(Duration::from_secs(2), sink.send(Message::Close(Some(frame)))).await;
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), sink.close()).await;
    // Tell the reader, if it is still reading.
    kick.set(CloseCode::Normal);
}

/// A reply larger than the writer takes is never dropped silently: the client learns it from
/// the close (1011), the operator from the log and the counter. Its content may hold secrets
/// (hands, tokens): only its type and size are logged.
fn reply_too_large(state: &AppState, text: &str) {
    warn!(
        kind = frame_type(text),
        bytes = text.len(),
        max = state.config.max_reply_bytes,
        "reply too large to send: closing the connection with 1011"
    );
    inc(&state.metrics.replies_too_large);
    state.metrics.error("close/reply_too_large");
}

/// The `type` of a frame the server built (serde writes the tag first), for logs that must not
/// show a frame's content.
fn frame_type(text: &str) -> &str {
    text.strip_prefix("{\"type\":\"")
        .and_then(|rest| rest.split_once('"'))
        .map(|(kind, _)| kind)
        .filter(|kind| kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        .unwrap_or("unknown")
}

/// The close code for an error reading from the socket — the client broke the WebSocket
/// protocol (1002), sent text that is not UTF-8 (1007) or a frame over the size limit (1009) —
/// and the code it is counted under; `None` when the socket is simply gone.
fn read_error_close(error: axum::Error) -> Option<(CloseCode, &'static str)> {
    use tungstenite::error::{CapacityError, ProtocolError};
    let error = error.into_inner();
    match error.downcast_ref::<tungstenite::Error>()? {
        tungstenite::Error::Capacity(CapacityError::MessageTooLong { .. }) => {
            Some((CloseCode::TooBig, ErrorCode::TooLarge.code()))
        }
        tungstenite::Error::Utf8(_) => Some((CloseCode::InvalidData, "close/invalid_utf8")),
        tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => None,
        tungstenite::Error::Protocol(_) | tungstenite::Error::Capacity(_) => {
            Some((CloseCode::ProtocolError, "close/protocol_error"))
        }
        _ => None,
    }
}

async fn shutting_down(shutdown: &mut watch::Receiver<bool>) {
    if shutdown.wait_for(|stop| *stop).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// When a connection last sent anything, and anything but pings: a connection that answers
/// nothing for three ping intervals is gone (its socket died without a word); one in no room
/// that sends nothing but pings for the idle timeout is idle. A player in a room may think
/// for as long as he likes. (Two instants only: every idle connection carries one.)
#[derive(Debug)]
struct Liveness {
    heard: Instant,
    active: Instant,
}

impl Liveness {
    fn new() -> Liveness {
        let now = Instant::now();
        Liveness { heard: now, active: now }
    }

    /// Any frame came.
    fn heard(&mut self) {
        self.heard = Instant::now();
    }

    /// A frame other than a ping or pong came.
    fn active(&mut self) {
        self.active = self.heard;
    }

    /// When to look again: often enough that either limit is noticed within a third of it.
    fn next_check(config: &Config) -> tokio::time::Instant {
        let every = [config.ping_interval().map(|every| every * 3), config.idle_timeout()]
            .into_iter()
            .flatten()
            .map(|limit| limit / 3)
            .min()
            .unwrap_or(FAR_AWAY)
            .max(Duration::from_millis(100));
        tokio::time::Instant::now() + every
    }

    /// Whether to close the connection now, with which code and which metrics reason.
    fn verdict(&self, config: &Config, in_room: bool) -> Option<(CloseCode, &'static str)> {
        if config.ping_interval().is_some_and(|every| self.heard.elapsed() >= every * 3) {
            return Some((CloseCode::TooSlow, "close/unresponsive"));
        }
        if !in_room && config.idle_timeout().is_some_and(|limit| self.active.elapsed() >= limit) {
            return Some((CloseCode::Idle, "close/idle"));
        }
        None
    }
}

struct Reader {
    state: Arc<AppState>,
    link: ConnLink,
    /// The socket's receiving half.
    stream: SplitStream<WebSocket>,
    /// Frames that came while the connection waited to enter a room, handled next.
    held: VecDeque<Message>,
    /// The socket closed while the connection waited to enter a room: nothing is left to do.
    gone: bool,
    room: Option<RoomHandle>,
    /// The tournament this connection watches.
    watching: Option<TournamentHandle>,
    greeted: bool,
    /// The client's address.
    pub peer: IpAddr,
    /// Rooms this connection may still create.
    rooms_quota: Bucket,
}

/// What to do after a frame.
enum Flow {
    Continue,
    Close(CloseCode),
}

impl Reader {
    async fn run(&mut self) {
        // Its own handle on the switch: waiting on it must not borrow the reader.
        let kick = self.link.kick.clone();
        let mut limit = RateLimit::new(self.state.config.rate_per_sec, self.state.config.rate_burst);
        let mut shutdown = self.state.shutdown.clone();
        let handshake_deadline = tokio::time::Instant::now() + self.state.config.handshake_timeout();
        let mut liveness = Liveness::new();
        // One timer for the handshake and the liveness checks.
        let check = tokio::time::sleep_until(Liveness::next_check(&self.state.config).min(handshake_deadline));
        tokio::pin!(check);
        let flow = loop {
            let frame = if let Some(held) = self.held.pop_front() {
                Some(Ok(held))
            } else {
                tokio::select! {
                _ = kick.wait() => break Flow::Continue,
                () = shutting_down(&mut shutdown) => break Flow::Close(CloseCode::Restart),
                () = &mut check => {
                    if !self.greeted && tokio::time::Instant::now() >= handshake_deadline {
                        self.state.metrics.error("close/handshake_timeout");
                        break Flow::Close(CloseCode::HandshakeTimeout);
                    }
                    let busy = self.room.is_some() || self.watching.is_some();
                    if let Some((code, reason)) = liveness.verdict(&self.state.config, busy) {
                        self.state.metrics.error(reason);
                        debug!(peer = %self.peer, reason, "closing");
                        break Flow::Close(code);
                    }
                    let next = Liveness::next_check(&self.state.config);
                    check.as_mut().reset(if self.greeted { next } else { next.min(handshake_deadline) });
                    continue;
                }
                frame = self.stream.next() => frame,
                }
            };
            liveness.heard();
            let text = match frame {
                None => break Flow::Continue,
                Some(Err(e)) => match read_error_close(e) {
                    Some((code, reason)) => {
                        self.state.metrics.error(reason);
                        break Flow::Close(code);
                    }
                    None => break Flow::Continue,
                },
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Binary(_))) => {
                    inc(&self.state.metrics.messages_in);
                    if !limit.allow() {
                        break self.rate_limited();
                    }
                    liveness.active();
                    self.refuse(ErrorCode::Malformed, "send JSON in text frames".into());
                    continue;
                }
                Some(Ok(Message::Close(_))) => break Flow::Continue,
                // WebSocket pings and pongs cost as much to take in as messages: they count too.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {
                    inc(&self.state.metrics.messages_in);
                    if !limit.allow() {
                        break self.rate_limited();
                    }
                    continue;
                }
            };
            inc(&self.state.metrics.messages_in);
            if !limit.allow() {
                break self.rate_limited();
            }
            if text.len() > MAX_MESSAGE_BYTES {
                self.refuse(ErrorCode::TooLarge, format!("a message has at most {MAX_MESSAGE_BYTES} bytes"));
                break Flow::Close(CloseCode::TooBig);
            }
            match ClientMessage::parse(text.as_str()) {
                Ok(message) => {
                    if !matches!(message, ClientMessage::Connection(ConnectionMessage::Ping)) {
                        liveness.active();
                    }
                    // Boxed: handling a message (joining a room, reading storage) needs a large
                    // future, ~2.4 KB; inline it would stay allocated for every idle connection.
                    if let Flow::Close(code) = Box::pin(self.handle(message)).await {
                        break Flow::Close(code);
                    }
                    if self.gone {
                        break Flow::Continue;
                    }
                }
                Err((code, sentence)) => {
                    liveness.active();
                    // An `act` of the wrong shape still names its id when it can be read.
                    let id = serde_json::from_str::<serde_json::Value>(text.as_str())
                        .ok()
                        .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64));
                    self.state.metrics.error(code.code());
                    self.send(&ServerMessage::error_with(code, id, sentence));
                }
            }
        };
        self.leave_room().await;
        self.unwatch().await;
        if let Flow::Close(code) = flow {
            if code == CloseCode::Restart {
                self.state.metrics.error("close/restart");
            }
            let _ = self.link.tx.send(Outgoing::Close(code)).await;
            // The closing handshake: read (and ignore) until the client answers the close, so
            // that unread frames do not reset the connection before the close frame arrives.
            let _ = tokio::time::timeout(Duration::from_secs(2), async {
                while let Some(Ok(frame)) = self.stream.next().await {
                    if matches!(frame, Message::Close(_)) {
                        break;
                    }
                }
            })
            .await;
        }
    }

    fn rate_limited(&mut self) -> Flow {
        self.state.metrics.error("close/rate_limited");
        self.send(&ServerMessage::error(ErrorCode::RateLimited, None));
        Flow::Close(CloseCode::Policy)
    }

    fn send(&self, message: &ServerMessage) {
        if self.link.send(message.to_json(), &self.state.metrics) {
            inc(&self.state.metrics.messages_out);
        }
    }

    fn refuse(&self, code: ErrorCode, sentence: String) {
        self.state.metrics.error(code.code());
        self.send(&ServerMessage::error_with(code, None, sentence));
    }

    async fn handle(&mut self, message: ClientMessage) -> Flow {
        if !self.greeted {
            return match message {
                ClientMessage::Connection(ConnectionMessage::Hello { protocol, .. })
                    if SUPPORTED_VERSIONS.contains(&protocol) =>
                {
                    self.greeted = true;
                    self.send(&ServerMessage::Welcome {
                        protocol,
                        server: format!("fipsen/{}", env!("CARGO_PKG_VERSION")),
                        max_message_bytes: MAX_MESSAGE_BYTES as u32,
                    });
                    Flow::Continue
                }
                ClientMessage::Connection(ConnectionMessage::Hello { protocol, .. }) => {
                    let sentence =
                        format!("this server speaks protocol version {PROTOCOL_VERSION}, not version {protocol}");
                    self.refuse(ErrorCode::Version, sentence);
                    Flow::Close(CloseCode::UnsupportedVersion)
                }
                _ => {
                    self.refuse(ErrorCode::HandshakeRequired, ErrorCode::HandshakeRequired.to_string());
                    Flow::Continue
                }
            };
        }
        match message {
            ClientMessage::Connection(message) => self.on_connection(message).await,
            ClientMessage::Room(message) => self.on_room(message).await,
            ClientMessage::Tournament(message) => self.on_tournament(message).await,
            ClientMessage::Series(message) => self.on_series(message).await,
        }
    }

    /// A message of the connection family: answered here.
    async fn on_connection(&mut self, message: ConnectionMessage) -> Flow {
        match message {
            ConnectionMessage::Hello { .. } => self.fail(ErrorCode::AlreadyGreeted),
            ConnectionMessage::Ping => {
                self.send(&ServerMessage::Pong);
                Flow::Continue
            }
            ConnectionMessage::Lobby { offset } => {
                let (total, rooms) = self.state.registry.lobby(offset);
                self.send(&ServerMessage::Lobby { total, offset, rooms });
                Flow::Continue
            }
            ConnectionMessage::Peek { room } => {
                match self.state.registry.peek(&room).await {
                    Ok(room) => self.send(&ServerMessage::RoomInfo { room }),
                    Err(code) => self.refuse(code, code.to_string()),
                }
                Flow::Continue
            }
            ConnectionMessage::MyRooms { tokens } => {
                let tokens: Vec<String> = tokens.into_iter().take(MAX_TOKENS_PER_QUERY).collect();
                let rooms = self.state.registry.my_rooms(&tokens).await;
                self.send(&ServerMessage::MyRooms { rooms });
                Flow::Continue
            }
            ConnectionMessage::CreateRoom { name, rules, options } => {
                let name = match self.newcomer(&name) {
                    Ok(name) => name,
                    Err(code) => return self.fail(code),
                };
                // A refused rule set costs nothing of the allowance: only rooms that can be made count.
                if let Err((code, sentence)) = crate::registry::check_new_room(&rules, &options) {
                    self.refuse(code, sentence);
                    return Flow::Continue;
                }
                let quota = self.state.config.rooms_per_address > 0;
                if quota && (!self.rooms_quota.take(Instant::now()) || !self.state.registry.may_create_room(self.peer))
                {
                    self.state.metrics.error(ErrorCode::TooManyRooms.code());
                    tracing::info!(peer = %self.peer, "room creation refused: too many rooms from here");
                    return self.fail(ErrorCode::TooManyRooms);
                }
                match self.state.registry.create(&name, rules, options).await {
                    Ok(handle) => {
                        let kind = JoinKind::Player { name, token: None, key: None };
                        self.enter(Some(handle), String::new(), kind).await;
                    }
                    Err((code, sentence)) => self.refuse(code, sentence),
                }
                Flow::Continue
            }
            ConnectionMessage::JoinRoom { room, name, role, token, key } => {
                let name = match self.newcomer(&name) {
                    Ok(name) => name,
                    Err(code) => return self.fail(code),
                };
                let kind = match role {
                    Role::Player => JoinKind::Player { name, token, key },
                    Role::Spectator => JoinKind::Spectator { name },
                };
                self.enter(None, room, kind).await;
                Flow::Continue
            }
            ConnectionMessage::Resume { room, token, last_seq } => {
                if self.room.is_some() {
                    return self.fail(ErrorCode::AlreadyInRoom);
                }
                self.enter(None, room, JoinKind::Resume { token, last_seq }).await;
                Flow::Continue
            }
            ConnectionMessage::LeaveRoom => {
                if self.room.is_none() {
                    return self.fail(ErrorCode::NotInRoom);
                }
                self.leave_room().await;
                self.send(&ServerMessage::Left);
                Flow::Continue
            }
        }
    }

    /// A message of the tournament family: passed to the tournament's task.
    async fn on_tournament(&mut self, message: TournamentMessage) -> Flow {
        match message {
            TournamentMessage::CreateTournament { name, settings, tables } => {
                // A refused tournament costs nothing of the allowance: only tournaments that can be
                // made count.
                let new = match self.state.tournaments.check(&name, settings, tables) {
                    Ok(new) => new,
                    Err(refusal) => {
                        self.state.metrics.error(refusal.code());
                        self.send(&refusal.message());
                        return Flow::Continue;
                    }
                };
                let quota = self.state.config.rooms_per_address > 0;
                if quota && (!self.rooms_quota.take(Instant::now()) || !self.state.registry.may_create_room(self.peer))
                {
                    tracing::info!(peer = %self.peer, "tournament creation refused: too many from here");
                    return self.fail(ErrorCode::TooManyTournaments);
                }
                match self.state.tournaments.create(new).await {
                    Ok((handle, token)) => {
                        let tournament = handle.id.to_string();
                        self.send(&ServerMessage::TournamentCreated { tournament, token: token.clone() });
                        self.watch(handle, Some(token)).await;
                    }
                    Err(refusal) => {
                        self.state.metrics.error(refusal.code());
                        self.send(&refusal.message());
                    }
                }
                Flow::Continue
            }
            TournamentMessage::PeekTournament { tournament } => {
                if let Some(handle) = self.tournament(&tournament).await {
                    self.tell(&handle, TournamentCommand::Peek { link: self.link.clone() }).await;
                }
                Flow::Continue
            }
            TournamentMessage::WatchTournament { tournament, token } => {
                if let Some(handle) = self.tournament(&tournament).await {
                    self.watch(handle, token).await;
                }
                Flow::Continue
            }
            TournamentMessage::UnwatchTournament => {
                self.unwatch().await;
                self.send(&ServerMessage::Unwatched);
                Flow::Continue
            }
            TournamentMessage::Register { tournament, name } => {
                if let Some(handle) = self.tournament(&tournament).await {
                    if self.watching.as_ref().is_some_and(|w| w.id != handle.id) {
                        self.unwatch().await;
                    }
                    let (reply, answer) = oneshot::channel();
                    let command = TournamentCommand::Register { link: self.link.clone(), peer: self.peer, name, reply };
                    if self.tell(&handle, command).await && answer.await.unwrap_or(false) {
                        self.watching = Some(handle);
                    }
                }
                Flow::Continue
            }
            TournamentMessage::RemoveEntrant { tournament, token, entrant } => {
                self.organise(&tournament, token, OrganiserAction::Remove(entrant)).await;
                Flow::Continue
            }
            TournamentMessage::CloseRegistration { tournament, token } => {
                self.organise(&tournament, token, OrganiserAction::Close).await;
                Flow::Continue
            }
            TournamentMessage::StartTournament { tournament, token, fill_with_bots } => {
                self.organise(&tournament, token, OrganiserAction::Start { fill_with_bots }).await;
                Flow::Continue
            }
            TournamentMessage::NextRound { tournament, token } => {
                self.organise(&tournament, token, OrganiserAction::NextRound).await;
                Flow::Continue
            }
            TournamentMessage::TournamentResults { tournament, round } => {
                if let Some(handle) = self.tournament(&tournament).await {
                    self.tell(&handle, TournamentCommand::Results { link: self.link.clone(), round }).await;
                }
                Flow::Continue
            }
            TournamentMessage::Tournaments { offset } => {
                let (total, tournaments) = self.state.tournaments.list(offset);
                self.send(&ServerMessage::Tournaments { total, offset, tournaments });
                Flow::Continue
            }
        }
    }

    /// A message of the series family: answered from storage, in or out of a room.
    async fn on_series(&self, message: SeriesMessage) -> Flow {
        match message {
            SeriesMessage::Series { room, key, from, count } => {
                let page = crate::room::replay::SeriesPage::asked(from, count);
                match self.state.registry.series(self.peer, &room, &key, page).await {
                    Ok((series, share_key)) => self.send(&ServerMessage::Series { series, share_key }),
                    Err(code) => self.refuse(code, code.to_string()),
                }
                Flow::Continue
            }
            SeriesMessage::SeriesReplay { room, key, deal } => {
                match self.state.registry.series_replay(self.peer, &room, &key, deal).await {
                    Ok(replay) => self.send(&ServerMessage::Replay { replay }),
                    Err(code) => self.refuse(code, code.to_string()),
                }
                Flow::Continue
            }
        }
    }

    /// A message of the room family: passed to the connection's room.
    async fn on_room(&mut self, message: RoomMessage) -> Flow {
        let id = message.id();
        let Some(room) = &self.room else {
            self.state.metrics.error(ErrorCode::NotInRoom.code());
            self.send(&ServerMessage::error(ErrorCode::NotInRoom, id));
            return Flow::Continue;
        };
        // Playing again opens a room: it counts against the rooms this connection and its
        // address may open, as `create_room` does.
        if matches!(message, RoomMessage::Rematch)
            && self.state.config.rooms_per_address > 0
            && (!self.rooms_quota.take(Instant::now()) || !self.state.registry.may_create_room(self.peer))
        {
            self.state.metrics.error(ErrorCode::TooManyRooms.code());
            tracing::info!(peer = %self.peer, "playing again refused: too many rooms from here");
            self.send(&ServerMessage::error(ErrorCode::TooManyRooms, id));
            return Flow::Continue;
        }
        let command = RoomCommand::Request { conn: self.link.id, request: Box::new(message), received: Instant::now() };
        if room.tx.send(command).await.is_err() {
            // The room task is gone (it never is while someone is in it, short of a bug).
            self.state.registry.forget_handle(room);
            self.room = None;
            self.send(&ServerMessage::error(ErrorCode::NotInRoom, id));
        }
        Flow::Continue
    }

    /// The tournament of a link code, or `None` after telling the client why not.
    async fn tournament(&self, code: &str) -> Option<TournamentHandle> {
        match self.state.tournaments.open(code).await {
            Ok(handle) => Some(handle),
            Err(code) => {
                self.refuse(code, code.to_string());
                None
            }
        }
    }

    /// Passes a command to a tournament's task; false (and the client told) if the task is gone.
    async fn tell(&self, handle: &TournamentHandle, command: TournamentCommand) -> bool {
        if handle.tx.send(command).await.is_ok() {
            true
        } else {
            self.refuse(ErrorCode::TournamentNotFound, ErrorCode::TournamentNotFound.to_string());
            false
        }
    }

    /// Watches a tournament (and no longer the one watched before).
    async fn watch(&mut self, handle: TournamentHandle, token: Option<String>) {
        self.unwatch().await;
        let (reply, answer) = oneshot::channel();
        let command = TournamentCommand::Watch { link: self.link.clone(), token, reply };
        if self.tell(&handle, command).await && answer.await.unwrap_or(false) {
            self.watching = Some(handle);
        }
    }

    /// Stops watching the tournament watched, if any.
    async fn unwatch(&mut self) {
        if let Some(handle) = self.watching.take() {
            let _ = handle.tx.send(TournamentCommand::Unwatch { conn: self.link.id }).await;
        }
    }

    /// An organiser's request.
    async fn organise(&self, code: &str, token: String, action: OrganiserAction) {
        if let Some(handle) = self.tournament(code).await {
            self.tell(&handle, TournamentCommand::Organise { link: self.link.clone(), token, action }).await;
        }
    }

    /// Checks that this connection may enter a room under this name.
    fn newcomer(&self, name: &str) -> Result<String, ErrorCode> {
        if self.room.is_some() {
            return Err(ErrorCode::AlreadyInRoom);
        }
        clean_name(name)
    }

    fn fail(&self, code: ErrorCode) -> Flow {
        self.refuse(code, code.to_string());
        Flow::Continue
    }

    /// Waits for `wait` while reading the socket: frames that come meanwhile are held for later
    /// (up to [`HELD_FRAMES`]; past them the socket is left unread until `wait` is done), and a
    /// close ends the wait at once. `None` when the socket closed (the connection is `gone`).
    async fn or_gone<T>(&mut self, wait: impl Future<Output = T>) -> Option<T> {
        tokio::pin!(wait);
        loop {
            if self.held.len() >= HELD_FRAMES {
                return Some(wait.await);
            }
            tokio::select! {
                biased;
                out = &mut wait => return Some(out),
                frame = self.stream.next() => match frame {
                    Some(Ok(Message::Close(_)) | Err(_)) | None => {
                        self.gone = true;
                        return None;
                    }
                    Some(Ok(frame)) => self.held.push_back(frame),
                },
            }
        }
    }

    /// Joins a room (the given handle, or the one with this invite code), retrying if the room
    /// closed in memory at that very moment or is served elsewhere now. While the room is asked,
    /// the socket is read: a client that gives up (closes) ends the attempts, and a join the
    /// room carries out after that leaves at once, so that a join or `resume` is never carried
    /// out for a connection that is gone.
    async fn enter(&mut self, handle: Option<RoomHandle>, code: String, kind: JoinKind) {
        // Every attempt is the one request, as first seen here: the room orders the
        // connections of a seat by it.
        let seen = request_time();
        let mut handle = handle;
        let mut kind = Some(kind);
        for attempt in 0..10u64 {
            let room = match handle.take() {
                Some(room) => room,
                None => match self.state.registry.open(&code).await {
                    Ok(room) => room,
                    Err(error) => return self.refuse(error, error.to_string()),
                },
            };
            let Some(join) = kind.take() else { return };
            let (reply, mut answer) = oneshot::channel();
            let command = RoomCommand::Join(Box::new(Join { link: self.link.clone(), kind: join, seen, reply }));
            if let Err(mpsc::error::SendError(RoomCommand::Join(join))) = room.tx.send(command).await {
                self.state.registry.forget_handle(&room);
                kind = Some(join.kind);
                continue;
            }
            let Some(answer) = self.or_gone(&mut answer).await else {
                // Gone: the room can no longer answer (and leaves a join it carries out from now
                // on); one it made just before is left here as the connection ends.
                answer.close();
                if let Ok(Ok(())) = answer.try_recv() {
                    self.room = Some(room);
                }
                return;
            };
            match answer {
                Ok(Ok(())) => {
                    tracing::Span::current().record("room", room.code.as_ref());
                    self.room = Some(room);
                    return;
                }
                Ok(Err(JoinRefusal::Refused(error))) => return self.refuse(error, error.to_string()),
                Ok(Err(JoinRefusal::Elsewhere(join))) => {
                    // Another server serves the room now, or its server is gone (cluster
                    // mode): look for it again, after a moment.
                    self.state.registry.forget_handle(&room);
                    kind = Some(join);
                    let pause = tokio::time::sleep(Duration::from_millis((100 * (attempt + 1)).min(500)));
                    if self.or_gone(pause).await.is_none() {
                        return;
                    }
                }
                Ok(Err(JoinRefusal::Closed)) | Err(_) => {
                    self.state.registry.forget_handle(&room);
                    return self.refuse(ErrorCode::RoomNotFound, "the room was closing: try again".into());
                }
            }
        }
        self.refuse(ErrorCode::RoomNotFound, ErrorCode::RoomNotFound.to_string());
    }

    /// Leaves the room, after the room has handled everything this connection sent it; once
    /// this returns, the room sends this connection nothing more (so `left` is its last frame).
    async fn leave_room(&mut self) {
        if let Some(room) = self.room.take() {
            let (reply, done) = oneshot::channel();
            if room.tx.send(RoomCommand::Leave { conn: self.link.id, reply: Some(reply) }).await.is_ok() {
                let _ = done.await;
            }
        }
    }
}
