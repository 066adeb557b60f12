//! Behind a reverse proxy: the proxy's connections come from one address, and the clients it
//! serves are told apart by the `X-Forwarded-For` it adds — only when the operator trusts it
//! (`--trusted-proxy`). Here the tests themselves are the proxy: they connect from 127.0.0.1
//! and name a different client in each connection's header.

use crate::common;

use common::{Client, PATIENCE, Server, short_rules, temp_db};
use fipsen_rules::GameId;
use serde_json::json;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// Opens `/ws` with this `X-Forwarded-For`; the HTTP status when the upgrade is refused.
async fn connect_as(server: &Server, forwarded_for: &str) -> Result<Client, u16> {
    connect_with(server, forwarded_for.parse().expect("a header value")).await
}

/// Opens `/ws` with this `X-Forwarded-For` value, which need not be text; the HTTP status when
/// the upgrade is refused.
async fn connect_with(server: &Server, forwarded_for: HeaderValue) -> Result<Client, u16> {
    let mut request = server.url().into_client_request().expect("a request");
    request.headers_mut().insert("x-forwarded-for", forwarded_for);
    match tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(request)).await.expect("an answer in time") {
        Ok((ws, _)) => Ok(Client::over(ws)),
        Err(tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
        // A socket closed at once at accept: no status to read.
        Err(_) => Err(0),
    }
}

async fn greeted_as(server: &Server, forwarded_for: &str) -> Client {
    greeted_with(server, forwarded_for.parse().expect("a header value")).await
}

async fn greeted_with(server: &Server, forwarded_for: HeaderValue) -> Client {
    let mut client = connect_with(server, forwarded_for).await.expect("connected");
    client.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
    assert_eq!(client.recv().await.expect("welcome")["type"], "welcome");
    client
}

/// Whether creating a room is allowed (`joined`) or refused as one too many from here.
async fn creates_room(client: &mut Client) -> bool {
    let rules = short_rules(GameId::Prisdorf, 1);
    client.send(json!({"type": "create_room", "name": "Hanne", "rules": rules, "options": {}})).await;
    let answer = client.recv_type_or_error("joined").await;
    if answer["type"] == "error" {
        assert_eq!(answer["code"], "room/too_many", "{answer}");
        return false;
    }
    true
}

#[tokio::test]
async fn clients_behind_a_trusted_proxy_have_an_allowance_each_and_are_logged_by_their_address() {
    let (_dir, db) = temp_db();
    let flags = ["--rooms-per-address", "1", "--trusted-proxy", "10.9.9.9,127.0.0.0/8", "--log", "info"];
    let (server, log) = Server::start_logged(&db, &flags);

    let mut first = greeted_as(&server, "203.0.113.77, 198.51.100.1").await;
    assert!(creates_room(&mut first).await, "the first client's first room");
    let mut first_again = greeted_as(&server, "198.51.100.1").await;
    assert!(!creates_room(&mut first_again).await, "the first client has used his allowance");
    let line = log.line_containing("room creation refused").await;
    assert!(line.contains("198.51.100.1"), "the client is logged by his own address: {line}");
    assert!(!line.contains("127.0.0.1"), "not by the proxy's: {line}");

    let mut second = greeted_as(&server, "198.51.100.2").await;
    assert!(creates_room(&mut second).await, "the second client behind the same proxy has his own allowance");
    let mut forged = greeted_as(&server, "198.51.100.1, 198.51.100.3").await;
    assert!(creates_room(&mut forged).await, "what the proxy appends is read, not what the client wrote before");
}

/// An IPv6 host has a whole /64 to choose its address from: the room allowance, like the sockets
/// per address, counts one /64 as one address.
#[tokio::test]
async fn one_ipv6_64_network_has_one_room_allowance() {
    let (_dir, db) = temp_db();
    let (server, _log) =
        Server::start_logged(&db, &["--rooms-per-address", "1", "--trusted-proxy", "127.0.0.0/8", "--log", "info"]);

    let mut first = greeted_as(&server, "2001:db8:0:7::1").await;
    assert!(creates_room(&mut first).await, "the network's first room");
    let mut same_network = greeted_as(&server, "2001:db8:0:7:ffff::2").await;
    assert!(!creates_room(&mut same_network).await, "another address of the same /64 shares its allowance");
    let mut next_network = greeted_as(&server, "2001:db8:0:8::1").await;
    assert!(creates_room(&mut next_network).await, "the next /64 has its own");
}

#[tokio::test]
async fn an_untrusted_peers_forwarded_header_is_ignored() {
    let (_dir, db) = temp_db();
    let flags = ["--rooms-per-address", "1", "--trusted-proxy", "10.9.9.9", "--log", "info"];
    let (server, log) = Server::start_logged(&db, &flags);

    let mut first = greeted_as(&server, "198.51.100.1").await;
    assert!(creates_room(&mut first).await);
    let mut second = greeted_as(&server, "198.51.100.2").await;
    assert!(!creates_room(&mut second).await, "a header from a peer that is no trusted proxy names nobody");
    let line = log.line_containing("room creation refused").await;
    assert!(line.contains("127.0.0.1") && !line.contains("198.51.100"), "logged by the socket's address: {line}");
}

#[tokio::test]
async fn sockets_per_address_count_each_client_behind_a_trusted_proxy() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--max-per-address", "2", "--trusted-proxy", "127.0.0.1"]);

    let held = [greeted_as(&server, "198.51.100.1").await, greeted_as(&server, "198.51.100.1").await];
    assert_eq!(connect_as(&server, "198.51.100.1").await.err(), Some(503), "the client's third WebSocket");
    let mut others = Vec::new();
    for client in ["198.51.100.2", "198.51.100.2", "198.51.100.3"] {
        others.push(greeted_as(&server, client).await);
    }
    let (status, body) = server.get("/healthz").await;
    assert!(
        status.contains("200"),
        "a request without the header counts under the proxy's own address: {status} {body}"
    );

    // A closed WebSocket gives its client's place back.
    let [gone, _kept] = held;
    gone.close().await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match connect_as(&server, "198.51.100.1").await {
            Ok(_) => break,
            Err(status) => assert!(tokio::time::Instant::now() < deadline, "the place never came back ({status})"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn without_a_trusted_proxy_every_socket_counts_under_its_own_address() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--max-per-address", "2"]);
    let _held = [greeted_as(&server, "198.51.100.1").await, greeted_as(&server, "198.51.100.2").await];
    assert!(connect_as(&server, "198.51.100.3").await.is_err(), "one address, whatever the header says");
}

/// A header from a trusted proxy that names no address (garbled, not text, or ending in
/// something that is no address) is no error to the client: he is served, counted and logged
/// under the proxy's own address, as if the header were missing.
#[tokio::test]
async fn a_malformed_forwarded_header_falls_back_to_the_proxys_address() {
    let (_dir, db) = temp_db();
    let flags = ["--max-per-address", "2", "--rooms-per-address", "1", "--trusted-proxy", "127.0.0.1", "--log", "info"];
    let (server, log) = Server::start_logged(&db, &flags);

    let mut garbled = greeted_as(&server, "not an address").await;
    assert!(creates_room(&mut garbled).await, "the proxy's own address has its first room");
    let mut binary = greeted_with(&server, HeaderValue::from_bytes(b"\xff\xfe198.51.100.1").expect("obs-text")).await;
    assert!(!creates_room(&mut binary).await, "a header that is not text names the proxy as well");
    let line = log.line_containing("room creation refused").await;
    assert!(line.contains("127.0.0.1") && !line.contains("198.51.100"), "logged by the proxy's address: {line}");

    assert_eq!(
        connect_as(&server, "198.51.100.1, ???").await.err(),
        Some(503),
        "an entry that is no address stops the walk at the proxy, whose two places are taken"
    );
    let mut named = greeted_as(&server, "198.51.100.1").await;
    assert!(creates_room(&mut named).await, "a well-formed header still names its client");
}
