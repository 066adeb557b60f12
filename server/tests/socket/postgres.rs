//! The real binary on a PostgreSQL database (`--db postgres://…`): killed with SIGKILL mid-deal
//! and restarted on the same database, it loses nothing it acknowledged; its log names the
//! database without the password.
//!
//! The database is made on the server that `FIPSEN_TEST_POSTGRES` names (`scripts/postgres-temp`
//! starts one). Without that variable the test says it was skipped and passes, except under CI
//! (`CI` set), where it fails.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;

use common::pg::{Database, test_server};
use common::{Rng, Server, Table, play_through_kills};
use serde_json::json;

/// A series played on PostgreSQL, the server killed right after an acknowledged action at
/// several points and restarted on the same database: every seat resumes where it was, the
/// acknowledged action included, and every deal replays against the rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_on_postgres_loses_nothing_acknowledged_across_sigkill() {
    let Some(server_url) = test_server() else { return };
    let database = Database::create(server_url, "sigkill").await;
    let url = database.url_with_password();
    let db = Path::new(&url);
    // SQLite's options are ignored, with a warning; the database is logged without its password.
    let (mut server, log) = Server::start_logged(db, &["--log", "info", "--sync", "normal"]);
    let listening = log.line_containing("listening").await;
    assert!(listening.contains(&format!("@{}", url.rsplit_once('@').unwrap().1)), "{listening}");
    log.line_containing("ignored with PostgreSQL").await;
    let mut table =
        Table::open(&server, json!({"players": 4, "deals": 3}), json!({"next_deal_seconds": null}), 0).await;
    let mut rng = Rng(26);
    let kills =
        play_through_kills(&mut server, db, &[], &mut table, &mut rng, |gap| if gap == 0 { 2 } else { 3 }).await;
    assert!(kills >= 3, "only {kills} kills");
    let sheet =
        table.seats[0].game["scoresheet"].as_array().unwrap().iter().filter(|row| row["row"] != "round").count();
    assert_eq!(table.deals_replayed, sheet, "every deal replayed, across {kills} restarts");
    assert_eq!(log.count_containing("not-shown"), 0, "the password is never logged");
    let (status, body) = server.get("/metrics").await;
    assert!(status.contains("200") && body.contains("fipsen_rooms 1"), "{status}\n{body}");
}
