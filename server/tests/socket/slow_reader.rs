//! A client that stops reading is disconnected with 4004, not buffered forever, and the table
//! it watched plays on.

use crate::common;

use common::{Client, Rng, Server, Table, temp_db};
use serde_json::json;

/// The server's count of clients dropped for not reading.
async fn slow_clients(server: &Server) -> u64 {
    let (_, body) = server.get("/metrics").await;
    body.lines()
        .find_map(|l| l.strip_prefix("fipsen_slow_clients_total "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_who_stops_reading_is_dropped_and_the_table_plays_on() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--outbound-queue", "8"]);
    let options = json!({"next_deal_seconds": 0, "public_replays": true});
    let mut table = Table::open(&server, json!({"players": 4}), options, 0).await;

    let mut slow = Client::connect_small(&server, 2048).await;
    slow.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
    slow.recv_type("welcome").await;
    let joined = slow.join(&table.room, "Sleepy", "spectator").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(slow_clients(&server).await, 0);

    // From here on the spectator reads nothing while the table plays. Updates are small (only
    // what changed), so the socket buffers would hold thousands of them: the sleeper also asks
    // for the replay of a finished deal now and then (a large answer) and reads it no more.
    let mut rng = Rng(11);
    let mut steps = 0u32;
    loop {
        if table.deal_over() {
            table.ask_next_deal().await;
        } else {
            assert!(table.step(&mut rng).await, "someone may act");
        }
        steps += 1;
        let finished = table.seats[0].game["number"].as_u64().unwrap_or(0) > 1 || table.deal_over();
        if finished && steps.is_multiple_of(2) {
            slow.send(json!({"type": "replay", "deal": 1})).await;
        }
        if steps.is_multiple_of(25) && slow_clients(&server).await > 0 {
            break;
        }
        assert!(steps < 5_000, "a client that reads nothing was never dropped");
    }
    // The players go on undisturbed and are told the watcher is gone.
    for _ in 0..10 {
        if table.deal_over() {
            table.ask_next_deal().await;
        } else {
            table.step(&mut rng).await;
        }
    }
    assert_eq!(table.seats[0].room["spectators"], 0, "{}", table.seats[0].room);

    // What reached the sleeper ends with the close (4004, or a cut connection if even the close
    // frame could not be written), far short of everything that happened meanwhile.
    let code = slow.recv_close().await;
    assert!(code == 4004 || code == 1006, "closed with {code}");
    let updates = slow.frames.iter().filter(|f| f.contains("\"type\":\"update\"")).count();
    assert!((updates as u32) < steps, "{updates} updates reached a client that read nothing, of {steps}");
}
