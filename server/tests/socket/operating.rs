//! What an operator relies on: the database kept private, `fipsen-server health` for a
//! container's health check, and client files a browser revalidates so that it never runs old
//! and new modules together after an upgrade.

use crate::common;

use std::io::{BufRead as _, BufReader};
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{Client, Server, short_rules, temp_db};
use fipsen_rules::GameId;
use serde_json::json;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

const BINARY: &str = env!("CARGO_BIN_EXE_fipsen-server");

/// The server binary started under the usual umask (022: files readable by everyone unless the
/// program asks otherwise), whatever the test's own is. Killed when dropped.
struct Umasked(std::process::Child);

impl Drop for Umasked {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_umask_022(db: &Path) -> (Umasked, std::net::SocketAddr) {
    let mut child = Command::new("sh")
        .args(["-c", "umask 022 && exec \"$0\" \"$@\""])
        .arg(BINARY)
        .args(["--addr", "127.0.0.1:0", "--log", "warn", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the server binary");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the listening line");
    let addr = line.trim().rsplit("http://").next().unwrap_or_default().parse().expect("an address");
    (Umasked(child), addr)
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).permissions().mode() & 0o777
}

fn companion(db: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

#[tokio::test]
async fn the_database_and_its_log_are_readable_by_their_owner_only() {
    let (_dir, db) = temp_db();
    let (_server, addr) = start_umask_022(&db);
    // A room written: the write-ahead log and its index exist while the server runs.
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.expect("connect");
    let mut client = Client::over(ws);
    client.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
    client.create("Hanne", short_rules(GameId::Prisdorf, 1), json!({})).await;
    for file in [db.clone(), companion(&db, "-wal"), companion(&db, "-shm")] {
        assert_eq!(mode(&file), 0o600, "{} is the owner's only", file.display());
    }
}

#[tokio::test]
async fn a_database_readable_by_others_is_made_private_when_opened() {
    let (_dir, db) = temp_db();
    std::fs::write(&db, b"").expect("an empty file (SQLite makes it a database)");
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let (server, _addr) = start_umask_022(&db);
    assert_eq!(mode(&db), 0o600);
    assert_eq!(mode(&companion(&db, "-wal")), 0o600, "SQLite gives the log the database's mode");
    drop(server);
}

fn health(addr: &str) -> Output {
    Command::new(BINARY).args(["--addr", addr, "health", "--timeout", "5"]).output().expect("run health")
}

#[tokio::test]
async fn the_health_subcommand_says_whether_the_server_is_healthy() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--addr", "0.0.0.0:0"]);
    // Listening on every interface: the probe asks over loopback.
    let output = health(&server.addr.to_string());
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("ok"), "{output:?}");

    // Nobody listening: unhealthy, and says why.
    let free = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr");
    let output = health(&free.to_string());
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("no answer"), "{output:?}");

    // A server that answers 503 (as `/healthz` does when storage cannot write): unhealthy, with
    // its answer.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let failing = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        // The whole request head first (it may come in several writes), as a server reads it.
        let mut head = Vec::new();
        let mut buf = [0_u8; 1024];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            match socket.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
        let answer = "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 27\r\n\r\nstorage cannot write: full\n";
        let _ = socket.write_all(answer.as_bytes()).await;
        let _ = socket.shutdown().await;
        // Kept open until the prober is done with it.
        while matches!(socket.read(&mut buf).await, Ok(n) if n > 0) {}
    });
    let output = tokio::task::spawn_blocking(move || health(&failing.to_string())).await.expect("the probe ran");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("storage cannot write"), "{output:?}");
    drop(server);
}

/// A GET with extra header lines; the status code, the head's lines and the body.
async fn get(server: &Server, path: &str, extra: &str) -> (u16, Vec<String>, Vec<u8>) {
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = Vec::new();
    tokio::time::timeout(common::PATIENCE, stream.read_to_end(&mut response)).await.expect("in time").expect("read");
    let end = response.windows(4).position(|w| w == b"\r\n\r\n").expect("a head") + 4;
    let head = String::from_utf8_lossy(&response[..end]).to_string();
    let lines: Vec<String> = head.lines().map(str::to_ascii_lowercase).collect();
    let status = lines[0].split(' ').nth(1).and_then(|code| code.parse().ok()).expect("a status");
    (status, lines, response[end..].to_vec())
}

fn header<'a>(lines: &'a [String], name: &str) -> Option<&'a str> {
    lines.iter().find_map(|line| line.strip_prefix(&format!("{name}: ")))
}

#[tokio::test]
async fn client_files_are_revalidated_by_their_entity_tags() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut tags = Vec::new();
    for path in ["/", "/js/app.js", "/js/table.js", "/style.css", "/r/ABCDEF"] {
        let (status, lines, body) = get(&server, path, "").await;
        assert_eq!(status, 200, "{path}");
        assert!(!body.is_empty(), "{path}");
        assert_eq!(header(&lines, "cache-control"), Some("no-cache"), "{path}: the browser asks every time");
        let etag = header(&lines, "etag").unwrap_or_else(|| panic!("{path} has an entity tag")).to_string();
        assert!(etag.starts_with('"') && etag.ends_with('"') && etag.len() > 10, "{etag}");

        let (status, lines, body) = get(&server, path, &format!("If-None-Match: {etag}\r\n")).await;
        assert_eq!(status, 304, "{path}: still current");
        assert!(body.is_empty(), "{path}: 304 has no body");
        assert_eq!(header(&lines, "etag"), Some(etag.as_str()));
        assert_eq!(header(&lines, "cache-control"), Some("no-cache"));

        let (status, _, body) = get(&server, path, "If-None-Match: \"0123456789abcdef\", W/\"other\"\r\n").await;
        assert_eq!(status, 200, "{path}: another version's tag gets the file");
        assert!(!body.is_empty());
        tags.push(etag);
    }
    assert_eq!(tags[0], tags[4], "a room link is index.html");
    assert_ne!(tags[1], tags[2], "each file has its own tag");
}
