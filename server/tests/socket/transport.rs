//! The transport under hostile or broken clients: sockets that never finish their request, too
//! many sockets in all or from one address, broken WebSocket frames, floods of pings, idle and
//! dead connections, a reply too large to send; and the HTTP side: security headers on every
//! response, `/healthz` failing when storage cannot write.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use common::{Client, PATIENCE, Server, temp_db};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

// ----- raw sockets -----

/// A TCP connection to the server from `source` (a loopback address).
async fn connect_from(server: &Server, source: Ipv4Addr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(IpAddr::V4(source), 0)).unwrap();
    socket.connect(server.addr).await.unwrap()
}

/// A socket that sent the beginning of a request head and stopped.
async fn half_open(server: &Server, source: Ipv4Addr) -> TcpStream {
    let mut stream = connect_from(server, source).await;
    stream.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Unfinished: ").await.unwrap();
    stream
}

/// Reads until the server closes the socket; returns what it sent, or `None` if it did not
/// close it within `patience`.
async fn read_to_close(stream: &mut TcpStream, patience: Duration) -> Option<Vec<u8>> {
    let mut received = Vec::new();
    let read = tokio::time::timeout(patience, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    read.ok().map(|()| received)
}

/// Whether the socket is still served: the rest of its request gets an answer.
async fn still_served(stream: &mut TcpStream) -> bool {
    if stream.write_all(b"1\r\nConnection: close\r\n\r\n").await.is_err() {
        return false;
    }
    let answer = read_to_close(stream, PATIENCE).await.unwrap_or_default();
    String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200")
}

/// A plain GET: the status line and the headers (names in lower case).
async fn head(server: &Server, path: &str) -> (String, Vec<(String, String)>) {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", server.addr);
    stream.write_all(request.as_bytes()).await.unwrap();
    let response = read_to_close(&mut stream, PATIENCE).await.expect("an answer in time");
    let response = String::from_utf8_lossy(&response);
    let head = response.split("\r\n\r\n").next().unwrap_or_default();
    let mut lines = head.lines();
    let status = lines.next().unwrap_or_default().to_string();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    (status, headers)
}

/// The value of a counter or gauge line of `/metrics` (0 if absent).
async fn metric(server: &Server, line: &str) -> u64 {
    let (_, metrics) = server.get("/metrics").await;
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(line).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(0)
}

/// Whether `/healthz` answers 200 on a new socket; `false` when the socket is refused or reset.
async fn healthz_answers(server: &Server) -> bool {
    let Ok(mut stream) = TcpStream::connect(server.addr).await else { return false };
    let request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    if stream.write_all(request.as_bytes()).await.is_err() {
        return false;
    }
    let mut response = Vec::new();
    matches!(tokio::time::timeout(PATIENCE, stream.read_to_end(&mut response)).await, Ok(Ok(_)))
        && response.starts_with(b"HTTP/1.1 200")
}

/// Retries `probe` until it holds, for at most [`PATIENCE`].
async fn eventually<F: AsyncFnMut() -> bool>(what: &str, mut probe: F) {
    let deadline = Instant::now() + PATIENCE;
    while !probe().await {
        assert!(Instant::now() < deadline, "{what}: not within {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

// ----- a raw WebSocket client, to send what a well-behaved library never would -----

/// A socket upgraded to a WebSocket by hand.
async fn raw_websocket(server: &Server) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.addr
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let byte = tokio::time::timeout(PATIENCE, stream.read_u8()).await.expect("the upgrade in time").unwrap();
        head.push(byte);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    stream
}

/// One final frame; masked as a client must (unless `masked` is false).
fn frame(opcode: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    let mut out = vec![0x80 | opcode];
    let mask_bit = if masked { 0x80 } else { 0 };
    match payload.len() {
        n if n < 126 => out.push(mask_bit | n as u8),
        n => {
            out.push(mask_bit | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
    }
    if masked {
        out.extend_from_slice(&mask);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    } else {
        out.extend_from_slice(payload);
    }
    out
}

/// Reads server frames (never answering a ping) until a close frame; returns its code and the
/// opcodes seen before it, or `None` if the socket ended without one.
async fn read_until_close(stream: &mut TcpStream) -> Option<(u16, Vec<u8>)> {
    let mut seen = Vec::new();
    tokio::time::timeout(PATIENCE, async {
        loop {
            let first = stream.read_u8().await.ok()?;
            let length = stream.read_u8().await.ok()? & 0x7f;
            let length = match length {
                126 => u64::from(stream.read_u16().await.ok()?),
                127 => stream.read_u64().await.ok()?,
                n => u64::from(n),
            };
            let mut payload = vec![0; length as usize];
            stream.read_exact(&mut payload).await.ok()?;
            let opcode = first & 0x0f;
            if opcode == 0x8 {
                let code = u16::from_be_bytes([*payload.first()?, *payload.get(1)?]);
                return Some((code, seen));
            }
            seen.push(opcode);
        }
    })
    .await
    .expect("the server closes in time")
}

const LOCALHOST: Ipv4Addr = Ipv4Addr::LOCALHOST;

// ----- half-open HTTP -----

/// A socket that sends part of a request head and stops is closed after the header timeout
/// (and not before), and counted; a complete request on another socket is answered meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_head_that_never_ends_is_closed_after_the_header_timeout() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--header-timeout", "2"]);
    let started = Instant::now();
    let mut stalled = half_open(&server, LOCALHOST).await;
    let (status, _) = server.get("/healthz").await;
    assert!(status.contains("200"), "{status}");
    read_to_close(&mut stalled, PATIENCE).await.expect("the stalled socket is closed");
    assert!(started.elapsed() >= Duration::from_secs(2), "closed before the timeout: {:?}", started.elapsed());
    assert_eq!(metric(&server, "fipsen_errors_total{code=\"http/header_timeout\"}").await, 1);
}

/// A request head over 16 KiB gets 431 and the socket is closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_head_over_16_kib_gets_431() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request = format!("GET / HTTP/1.1\r\nHost: localhost\r\nX-Padding: {}\r\n\r\n", "x".repeat(17 * 1024));
    // The server may close before it has read everything: a failed write is fine.
    let _ = stream.write_all(request.as_bytes()).await;
    let answer = read_to_close(&mut stream, PATIENCE).await.expect("closed in time");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
    // Just under the cap is fine.
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request = format!(
        "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Padding: {}\r\n\r\n",
        "x".repeat(15 * 1024)
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = read_to_close(&mut stream, PATIENCE).await.expect("closed in time");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    assert_eq!(metric(&server, "fipsen_errors_total{code=\"http/header_too_large\"}").await, 1);
}

/// Every socket counts toward the socket cap, half-open ones too: beyond it a new socket is
/// closed at once (with a 503 when it can take one) and counted; the sockets that got in are
/// still served, and once they close there is room again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_beyond_the_socket_cap_are_closed_at_once() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--max-sockets", "4", "--header-timeout", "600"]);
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(half_open(&server, LOCALHOST).await);
    }
    let mut extra = half_open(&server, LOCALHOST).await;
    let answer = read_to_close(&mut extra, PATIENCE).await.expect("the socket over the cap is closed at once");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(still_served(&mut held[0]).await, "a socket under the cap is served");
    drop(held);
    // Until the server has seen the held sockets close, a new one is still refused (reset).
    eventually("room for new sockets", async || healthz_answers(&server).await).await;
    assert!(metric(&server, "fipsen_sockets_refused_total{reason=\"cap\"}").await >= 1);
    assert_eq!(metric(&server, "fipsen_sockets_refused_total{reason=\"address\"}").await, 0);
}

/// One address holds at most `--max-per-address` sockets; another address still gets in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_its_share_of_sockets() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--max-per-address", "3", "--header-timeout", "600"]);
    let crowd = Ipv4Addr::new(127, 0, 0, 2);
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(half_open(&server, crowd).await);
    }
    let mut fourth = half_open(&server, crowd).await;
    read_to_close(&mut fourth, PATIENCE).await.expect("the fourth socket of one address is closed at once");
    let mut other = half_open(&server, LOCALHOST).await;
    assert!(still_served(&mut other).await, "another address is served");
    assert!(still_served(&mut held[2]).await, "the address's first sockets are served");
    assert_eq!(metric(&server, "fipsen_sockets_refused_total{reason=\"address\"}").await, 1);
    // Its places are given back as its sockets close.
    drop(held);
    eventually("the address gets in again", async || {
        let mut again = half_open(&server, crowd).await;
        still_served(&mut again).await
    })
    .await;
}

// ----- WebSocket frames -----

/// WebSocket pings and pongs count toward the rate limit like messages: a flood is closed 1008.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_websocket_pings_is_closed_with_1008() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--rate", "10", "--burst", "30"]);
    for flood in [Message::Ping(Default::default()), Message::Pong(Default::default())] {
        let (mut ws, _) = tokio_tungstenite::connect_async(server.url()).await.unwrap();
        for _ in 0..200 {
            if ws.send(flood.clone()).await.is_err() {
                break;
            }
        }
        let code = tokio::time::timeout(PATIENCE, async {
            while let Some(Ok(message)) = ws.next().await {
                if let Message::Close(close) = message {
                    return close.map(|c| u16::from(c.code));
                }
            }
            None
        })
        .await
        .expect("closed in time");
        assert_eq!(code, Some(1008), "{flood:?} flood");
    }
}

/// A frame that breaks the WebSocket protocol is answered with close 1002, text that is not
/// UTF-8 with 1007.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_frames_are_closed_with_1002_and_bad_text_with_1007() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let hello = br#"{"type":"hello","protocol":3}"#;
    let cases: [(&str, Vec<u8>, u16); 4] = [
        ("an unmasked client frame", frame(0x1, hello, false), 1002),
        ("a reserved opcode", frame(0x3, b"x", true), 1002),
        ("a continuation with nothing to continue", frame(0x0, b"x", true), 1002),
        ("text that is not UTF-8", frame(0x1, &[0x7b, 0xff, 0xfe, 0x7d], true), 1007),
    ];
    for (what, bytes, expected) in cases {
        let mut stream = raw_websocket(&server).await;
        stream.write_all(&bytes).await.unwrap();
        let (code, _) = read_until_close(&mut stream).await.unwrap_or_else(|| panic!("{what}: no close frame"));
        assert_eq!(code, expected, "{what}");
    }
    assert_eq!(metric(&server, "fipsen_errors_total{code=\"close/protocol_error\"}").await, 3);
    assert_eq!(metric(&server, "fipsen_errors_total{code=\"close/invalid_utf8\"}").await, 1);
}

// ----- idle and dead connections -----

/// A connection in no room that sends nothing but pings is closed with 4005 after the idle
/// timeout; one in a room is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_connection_outside_a_room_is_closed_with_4005() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--idle-timeout", "2"]);
    let mut player = Client::greeted(&server).await;
    player.create("Player", json!({"players": 3}), json!({})).await;
    let started = Instant::now();
    let mut idle = Client::greeted(&server).await;
    let code = loop {
        idle.send(json!({"type": "ping"})).await;
        match idle.recv().await {
            Some(pong) => assert_eq!(pong["type"], "pong"),
            None => break idle.closed,
        }
        assert!(started.elapsed() < PATIENCE, "never closed");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(code, Some(4005));
    assert!(started.elapsed() >= Duration::from_secs(2), "closed before the timeout");
    // The player in his room, silent for as long, is still there.
    player.send(json!({"type": "ping"})).await;
    assert_eq!(player.recv_type("pong").await["type"], "pong");
    assert_eq!(metric(&server, "fipsen_errors_total{code=\"close/idle\"}").await, 1);
}

/// The server pings every connection; one that answers nothing for three intervals is closed
/// (4004), even in a room, while one that answers stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_answers_no_ping_is_closed() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--ping-interval", "2"]);
    // A client that reads (and so answers pings) all along, in a room.
    let mut player = Client::greeted(&server).await;
    player.create("Player", json!({"players": 3}), json!({})).await;
    let listening = tokio::spawn(async move {
        let closed = tokio::time::timeout(Duration::from_secs(12), player.recv()).await;
        (closed.is_err(), player)
    });
    // A client that never answers a ping.
    let mut deaf = raw_websocket(&server).await;
    deaf.write_all(&frame(0x1, br#"{"type":"hello","protocol":3}"#, true)).await.unwrap();
    let (code, seen) = read_until_close(&mut deaf).await.expect("a close frame");
    assert_eq!(code, 4004);
    assert!(seen.contains(&0x9), "pinged before being closed: {seen:?}");
    let (still_open, mut player) = listening.await.unwrap();
    assert!(still_open, "the client answering pings was closed ({:?})", player.closed);
    player.send(json!({"type": "ping"})).await;
    assert_eq!(player.recv_type("pong").await["type"], "pong");
    assert_eq!(metric(&server, "fipsen_errors_total{code=\"close/unresponsive\"}").await, 1);
}

// ----- replies -----

/// A reply larger than the writer takes is never dropped silently: the connection is closed
/// with 1011, the reply is counted and logged by its type and size, not its content.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_too_large_to_send_closes_the_connection_with_1011() {
    let (_dir, db) = temp_db();
    let (server, log) = Server::start_logged(&db, &["--max-reply-bytes", "512", "--log-format", "json"]);
    let mut client = Client::greeted(&server).await;
    client.send(json!({"type": "create_room", "name": "Zebulon"})).await;
    assert_eq!(client.recv_close().await, 1011);
    assert_eq!(metric(&server, "fipsen_replies_too_large_total").await, 1);
    let line = log.line_containing("reply too large").await;
    assert!(line.contains("\"kind\":\"joined\""), "{line}");
    assert!(line.contains("\"bytes\":"), "{line}");
    assert!(!line.contains("Zebulon"), "the content is not logged: {line}");
    // Small replies still go out.
    let mut other = Client::greeted(&server).await;
    other.send(json!({"type": "ping"})).await;
    assert_eq!(other.recv_type("pong").await["type"], "pong");
}

// ----- HTTP -----

/// Every response carries the security headers: the page, deep links, scripts, 404s,
/// `/healthz`, `/metrics`, a refused upgrade.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_the_security_headers() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--allowed-origins", "https://fipsen.example"]);
    for path in
        ["/", "/r/AAAAAAAAAAAAAAAAAAAA", "/js/app.js", "/style.css", "/nothing-here.png", "/healthz", "/metrics", "/ws"]
    {
        let (status, headers) = head(&server, path).await;
        let get = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).unwrap_or("");
        let policy = get("content-security-policy");
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "img-src 'self' data:",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "object-src 'none'",
        ] {
            assert!(policy.contains(directive), "{path} ({status}): {directive} missing from {policy:?}");
        }
        let host = server.addr.to_string();
        assert!(policy.contains(&format!("connect-src 'self' ws://{host} wss://{host}")), "{path}: {policy}");
        assert_eq!(get("x-frame-options"), "DENY", "{path}");
        assert_eq!(get("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(get("referrer-policy"), "no-referrer", "{path}");
    }
}

/// `/healthz` answers 503 with the reason while storage cannot write (here another process
/// holds the database's write lock), and `ok` again once it can.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_fails_while_storage_cannot_write() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let (status, body) = server.get("/healthz").await;
    assert!(status.contains("200") && body.starts_with("ok"), "{status} {body}");
    let blocker = rusqlite::Connection::open(&db).unwrap();
    blocker.busy_timeout(PATIENCE).unwrap();
    blocker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    // The answer of the probe before the lock may be reused for a moment.
    eventually("/healthz reports the storage", async || {
        let (status, body) = server.get("/healthz").await;
        status.contains("503") && body.contains("storage")
    })
    .await;
    blocker.execute_batch("COMMIT").unwrap();
    eventually("/healthz recovers", async || server.get("/healthz").await.0.contains("200")).await;
    assert!(metric(&server, "fipsen_errors_total{code=\"health/storage\"}").await >= 1);
}
