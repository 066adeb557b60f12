//! The stored format over real restarts: a room holding a record this build cannot read (of a
//! newer format, or damaged) is not restored — it stays closed and unchanged, is logged at error
//! level with its code and the record's number, counted in `/metrics`, and answered with
//! `room/broken` — and a database from a newer build keeps the server from starting.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Client, PATIENCE, Server, short_rules, temp_db};
use fipsen_rules::GameId;
use serde_json::{Value, json};

/// A room created by a host with a second player joined: at least two records.
async fn room_of_two(server: &Server) -> (String, String) {
    let mut host = Client::greeted(server).await;
    let code = host.create("Ann", short_rules(GameId::ALL[0], 1), json!({})).await;
    let mut guest = Client::greeted(server).await;
    let joined = guest.join(&code, "Bob", "player").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    (code, host.token())
}

fn stored_records(db: &std::path::Path, room: &str) -> Vec<(i64, String, i64)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare("SELECT idx, record, format FROM records WHERE room = ?1 ORDER BY idx").unwrap();
    stmt.query_map([room], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?))).unwrap().map(Result::unwrap).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_with_a_record_it_cannot_read_stays_closed_and_is_reported() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let (newer, newer_token) = room_of_two(&server).await;
    let (damaged, _) = room_of_two(&server).await;
    let (sound, _) = room_of_two(&server).await;
    server.kill();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute("UPDATE records SET format = format + 1 WHERE room = ?1 AND idx = 1", [&newer]).unwrap();
        conn.execute(
            "UPDATE records SET record = '{\"record\":\"no_such_record\"}' WHERE room = ?1 AND idx = 1",
            [&damaged],
        )
        .unwrap();
    }
    let before = [stored_records(&db, &newer), stored_records(&db, &damaged)];

    let (server, log) = Server::start_logged(&db, &[]);
    for room in [&newer, &damaged] {
        let line = log.line_containing(room).await;
        assert!(line.contains("ERROR") && line.contains("record 1 cannot be read"), "{line}");
    }
    for room in [&newer, &damaged] {
        let mut client = Client::greeted(&server).await;
        let answer = client.join(room, "Cy", "spectator").await;
        assert_eq!(answer["type"], "error", "{answer}");
        assert_eq!(answer["code"], "room/broken", "{answer}");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "{answer}");
    }
    // The stored series is refused the same way, even to a seat token of the room.
    let mut client = Client::greeted(&server).await;
    client.send(json!({"type": "series", "room": newer, "key": newer_token})).await;
    let answer = client.recv_type_or_error("series").await;
    assert_eq!(answer["code"], "room/broken", "{answer}");
    // A sound room beside them comes back.
    let mut client = Client::greeted(&server).await;
    let answer: Value = client.join(&sound, "Cy", "spectator").await;
    assert_eq!(answer["type"], "joined", "{answer}");

    let (_, metrics) = server.get("/metrics").await;
    assert!(metrics.lines().any(|l| l == "fipsen_rooms_broken_total 2"), "{metrics}");
    drop(server);
    // Nothing of the broken rooms was changed.
    assert_eq!([stored_records(&db, &newer), stored_records(&db, &damaged)], before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_build_keeps_the_server_from_starting() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let (room, _) = room_of_two(&server).await;
    server.kill();
    let before = stored_records(&db, &room);
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(
            "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
             SELECT MAX(version) + 1, 'later', '2030-01-01T00:00:00Z', '1' FROM refinery_schema_history",
        )
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fipsen-server"))
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .args(["--log", "warn"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server runs on a database of a newer build");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!status.success());
    assert!(stderr.contains("newer build"), "{stderr}");
    assert_eq!(stored_records(&db, &room), before);
}
