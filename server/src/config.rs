//! The server's configuration: every setting is a flag and an environment variable.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

/// How far a commit is pushed to the disk (a storage setting, `--sync`).
pub use crate::storage::SyncMode;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// Where the rooms are stored, as `--db` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Database<'a> {
    /// A SQLite file.
    Sqlite(&'a Path),
    /// A PostgreSQL database, by its URL (`postgres://…` or `postgresql://…`).
    Postgres(&'a str),
}

/// What the binary does besides serving.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// Asks the server at `--addr` (on the loopback address when it listens on every interface)
    /// for `/healthz`, prints its answer, and exits with 0 when it is healthy, 1 when not: for a
    /// container's HEALTHCHECK.
    Health {
        /// Seconds to wait for the answer.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=600))]
        timeout: u64,
    },
}

/// The authoritative Fipsen server: serves the web client, `/healthz`, `/metrics` and the
/// WebSocket `/ws` on one port, and keeps every room in a SQLite file (or a PostgreSQL database).
#[derive(Debug, Clone, Parser)]
#[command(name = "fipsen-server", version, about, args_override_self = true)]
pub struct Config {
    /// Address and port to listen on (port 0 picks a free port).
    #[arg(long, env = "FIPSEN_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// The SQLite database file (created if missing), or a PostgreSQL database's URL
    /// (`postgres://user:password@host:port/name` or `postgresql://…`; plain, without TLS).
    #[arg(long, env = "FIPSEN_DB", default_value = "fipsen.sqlite3")]
    pub db: PathBuf,

    /// How commits reach the disk: `full` (fsync before every acknowledgement) or `normal`
    /// (survives a crash of the server, not a power cut or an operating-system crash). SQLite
    /// only: ignored, with a warning, with PostgreSQL.
    #[arg(long, env = "FIPSEN_SYNC", value_enum, default_value = "full")]
    pub sync: SyncMode,

    /// Milliseconds between the checkpoints that copy the write-ahead log into the database file
    /// (taken beside the writer, never inside a commit; only when something was committed).
    /// SQLite only.
    #[arg(long = "checkpoint-ms", env = "FIPSEN_CHECKPOINT_MS", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub checkpoint_ms: u64,

    /// Pages (4 KiB) the write-ahead log may grow to before the writer finishes a checkpoint
    /// between two commits, so that the log starts over (16,384: 64 MiB). SQLite only.
    #[arg(long = "wal-limit-pages", env = "FIPSEN_WAL_LIMIT_PAGES", default_value_t = 16_384,
          value_parser = clap::value_parser!(u64).range(256..=4_194_304))]
    pub wal_limit_pages: u64,

    /// Most simultaneous WebSocket connections; more are refused with close code 1013.
    #[arg(long, env = "FIPSEN_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,

    /// Most open TCP sockets of any kind (page loads, upgrades under way, WebSockets); a socket
    /// beyond is closed at once. Default: `--max-connections` + 1024. Lowered to fit the
    /// process's open-file limit.
    #[arg(long, env = "FIPSEN_MAX_SOCKETS")]
    pub max_sockets: Option<usize>,

    /// Most open TCP sockets from one address (IPv6: one /64 network); a socket beyond is closed
    /// at once. A trusted proxy's sockets are not counted under its own address: each request
    /// and WebSocket that comes through it counts under its client's address instead (503
    /// beyond). 0: no limit.
    #[arg(long, env = "FIPSEN_MAX_PER_ADDRESS", default_value_t = 256)]
    pub max_per_address: usize,

    /// Reverse proxies whose `X-Forwarded-For` names the client, comma-separated addresses or
    /// networks (`127.0.0.1,10.0.0.0/8,fd00::/8`). A request from one of them is limited and
    /// logged under the client's address; from anyone else the header is ignored. Empty: no
    /// proxy is trusted.
    #[arg(long = "trusted-proxy", env = "FIPSEN_TRUSTED_PROXY", value_delimiter = ',')]
    pub trusted_proxies: Vec<crate::proxy::Network>,

    /// Seconds a socket has to send a complete HTTP request head (and an idle keep-alive socket
    /// waits for the next one) before it is closed.
    #[arg(long = "header-timeout", env = "FIPSEN_HEADER_TIMEOUT", default_value_t = 10)]
    pub header_timeout_secs: u64,

    /// Seconds a new connection has to send `hello` (close code 4002 after).
    #[arg(long = "handshake-timeout", env = "FIPSEN_HANDSHAKE_TIMEOUT", default_value_t = 10)]
    pub handshake_timeout_secs: u64,

    /// Messages a connection may send per second on average (close code 1008 beyond).
    #[arg(long = "rate", env = "FIPSEN_RATE", default_value_t = 10)]
    pub rate_per_sec: u32,

    /// Messages a connection may send in a burst.
    #[arg(long = "burst", env = "FIPSEN_BURST", default_value_t = 30)]
    pub rate_burst: u32,

    /// Frames queued for one connection before it counts as too slow and is dropped (4004).
    #[arg(long, env = "FIPSEN_OUTBOUND_QUEUE", default_value_t = 64)]
    pub outbound_queue: usize,

    /// Seconds a connection in no room may send nothing but pings before it is closed (4005).
    /// 0: never.
    #[arg(long = "idle-timeout", env = "FIPSEN_IDLE_TIMEOUT", default_value_t = 600)]
    pub idle_timeout_secs: u64,

    /// Seconds between the WebSocket pings the server sends; a connection that answers nothing
    /// for three of them is closed (4004). 0: no pings.
    #[arg(long = "ping-interval", env = "FIPSEN_PING_INTERVAL", default_value_t = 30)]
    pub ping_interval_secs: u64,

    /// The largest frame the server sends. A reply that would be larger is not sent: it is
    /// logged and counted, and the connection is closed with 1011.
    #[arg(long, env = "FIPSEN_MAX_REPLY_BYTES", default_value_t = 256 * 1024)]
    pub max_reply_bytes: usize,

    /// Seconds a room with nobody connected stays in memory (it stays in storage).
    #[arg(long = "room-idle", env = "FIPSEN_ROOM_IDLE", default_value_t = 600)]
    pub room_idle_secs: u64,

    /// Days a series is kept after its room last closed in memory; older series are deleted
    /// with their replays (checked at start and every hour). 0: kept for ever. Fractions are
    /// allowed (0.5 is twelve hours).
    #[arg(long = "retention-days", env = "FIPSEN_RETENTION_DAYS", default_value_t = 0.0)]
    pub retention_days: f64,

    /// Origins allowed to open the WebSocket, comma-separated (e.g. `https://fipsen.example`).
    /// Empty: any origin.
    #[arg(long, env = "FIPSEN_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Rooms one address may create in a burst; it earns one more every minute. 0: no limit
    /// (for load tests). Each connection may also create at most 5 in a burst.
    #[arg(long, env = "FIPSEN_ROOMS_PER_ADDRESS", default_value_t = 30)]
    pub rooms_per_address: u32,

    /// Most players a tournament may take (2 to 128): an organiser chooses his tournament's cap
    /// up to this, and a tournament created without one takes this many.
    #[arg(long, env = "FIPSEN_MAX_TOURNAMENT_ENTRANTS", default_value_t = fipsen_tournament::MAX_ENTRANTS,
          value_parser = clap::value_parser!(u32).range(2..=i64::from(fipsen_tournament::MAX_ENTRANTS)))]
    pub max_tournament_entrants: u32,

    /// Registrations one address may make for one tournament in a burst; it earns one more every
    /// 15 seconds. The organiser's own connection registers players without this limit (at the
    /// door). 0: no limit.
    #[arg(long, env = "FIPSEN_REGISTRATIONS_PER_ADDRESS", default_value_t = 16)]
    pub registrations_per_address: u32,

    /// Most spectators one room lets watch at once (1 to 100000); one more is refused with
    /// `room/full_audience`. Players, seated or not, are not counted. A room tells its members
    /// the spectators' count at most once a second, however many come and go.
    #[arg(long, env = "FIPSEN_MAX_SPECTATORS", default_value_t = crate::room::DEFAULT_AUDIENCE_CAP,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_spectators: u32,

    /// Bot moves a second that the rooms of bots watched from one address make between them (a
    /// room where no seated person is connected: bots playing only for those watching). 0: no
    /// limit (for tests). A table where a person plays keeps its own pace.
    #[arg(long = "watched-bots-rate", env = "FIPSEN_WATCHED_BOTS_RATE", default_value_t = 20)]
    pub watched_bots_rate: u32,

    /// This server's name in a cluster (1 to 64 letters, digits, `-`, `_` or `.`): turns
    /// cluster mode on, where several servers share one PostgreSQL `--db` and each room is
    /// served by the one server holding its lease. Unset: the server is alone.
    #[arg(long = "node-id", env = "FIPSEN_NODE_ID", value_parser = parse_node_id)]
    pub node_id: Option<String>,

    /// Milliseconds a room's lease lasts in cluster mode without being renewed (renewed every
    /// third of it): a server that stops for longer loses its rooms to the others.
    #[arg(long = "lease-ms", env = "FIPSEN_LEASE_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1_000..=600_000))]
    pub lease_ms: u64,

    /// Seconds a server sent SIGTERM (or Ctrl-C) goes on serving before it hands its rooms over
    /// and closes its connections: `/healthz` answers 503 `stopping` at once and no room is
    /// claimed here any more, but the rooms here play on and new connections are accepted, so
    /// that a load balancer checking `/healthz` takes the server out of rotation before it stops
    /// accepting. Default: 5 in cluster mode (`--node-id`; longer than two failed checks two
    /// seconds apart, as in deploy/haproxy.cfg), 0 for a server alone.
    #[arg(long = "stop-drain-seconds", env = "FIPSEN_STOP_DRAIN_SECONDS",
          value_parser = clap::value_parser!(u64).range(0..=600))]
    pub stop_drain_secs: Option<u64>,

    /// The NATS server of the cluster (`nats://host:port`), with `--node-id`: any server then
    /// accepts any client, relaying a room another server holds to that server (no sticky
    /// sessions needed at the proxy). Without it, a client must reach the server holding its
    /// room (others answer `server/busy`).
    #[arg(long, env = "FIPSEN_NATS")]
    pub nats: Option<String>,

    /// With `--nats`: a server holding clearly more rooms than the least loaded one hands it
    /// rooms at rest, a few at a time (see docs/OPERATING.md). On by default;
    /// `--rebalance false` keeps every room on the server that has it until it closes.
    #[arg(
        long,
        env = "FIPSEN_REBALANCE",
        default_value_t = true,
        action = clap::ArgAction::Set,
        num_args = 0..=1,
        default_missing_value = "true"
    )]
    pub rebalance: bool,

    /// The cluster's name (same rules as `--node-id`): the first part of every NATS subject
    /// the servers use, so that several clusters (or tests) may share one NATS server.
    #[arg(long = "cluster-name", env = "FIPSEN_CLUSTER_NAME", default_value = "fipsen", value_parser = parse_node_id)]
    pub cluster_name: String,

    /// Log format.
    #[arg(long, env = "FIPSEN_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,

    /// Log filter, e.g. `info` or `fipsen_server=debug` (RUST_LOG works too).
    #[arg(long, env = "FIPSEN_LOG", default_value = "info")]
    pub log: String,

    /// For tests and demonstrations only: every new room is dealt from this master seed (64
    /// hexadecimal digits), so its deals are known in advance. Never set it for real play.
    #[arg(long = "insecure-fixed-seed", env = "FIPSEN_INSECURE_FIXED_SEED", value_parser = parse_seed)]
    pub insecure_fixed_seed: Option<fipsen_rules::Seed>,

    /// Without one, the server runs.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The drain at a graceful stop in cluster mode, in seconds: longer than two failed checks of
/// the shipped HAProxy configuration (every 2 s, `fall 2`), so that the proxy has taken the
/// server out of rotation before it stops accepting.
pub const DEFAULT_CLUSTER_STOP_DRAIN_SECS: u64 = 5;

fn parse_seed(hex: &str) -> Result<fipsen_rules::Seed, String> {
    fipsen_rules::Seed::from_hex(hex).ok_or_else(|| "a seed is 64 hexadecimal digits".to_string())
}

fn parse_node_id(name: &str) -> Result<String, String> {
    let fits = (1..=64).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if fits { Ok(name.to_string()) } else { Err("a node id is 1 to 64 letters, digits, '-', '_' or '.'".to_string()) }
}

impl Config {
    /// How the storage writes: the sync mode and the checkpoints.
    pub fn storage(&self) -> crate::storage::StorageOptions {
        crate::storage::StorageOptions {
            sync: self.sync,
            checkpoint_interval: Duration::from_millis(self.checkpoint_ms),
            wal_limit_frames: i64::try_from(self.wal_limit_pages).unwrap_or(i64::MAX),
        }
    }

    /// The database `--db` names: a PostgreSQL URL, or else a SQLite file.
    pub fn database(&self) -> Database<'_> {
        match self.db.to_str() {
            Some(url) if crate::storage::postgres::is_url(url) => Database::Postgres(url),
            _ => Database::Sqlite(&self.db),
        }
    }

    /// Cluster mode's settings, if `--node-id` turns it on.
    pub fn cluster(&self) -> Option<crate::lease::Cluster> {
        let node = self.node_id.as_deref()?;
        Some(crate::lease::Cluster::new(node, Duration::from_millis(self.lease_ms)))
    }

    /// How long a stopping server goes on serving before it hands over and closes
    /// (`--stop-drain-seconds`; 5 s in cluster mode, none for a server alone unless set).
    pub fn stop_drain(&self) -> Duration {
        let default = if self.node_id.is_some() { DEFAULT_CLUSTER_STOP_DRAIN_SECS } else { 0 };
        Duration::from_secs(self.stop_drain_secs.unwrap_or(default))
    }

    /// The handshake timeout.
    pub fn handshake_timeout(&self) -> Duration {
        Duration::from_secs(self.handshake_timeout_secs)
    }

    /// How long a closed series is kept (`None`: for ever).
    pub fn retention(&self) -> Option<Duration> {
        (self.retention_days > 0.0).then(|| Duration::from_secs_f64(self.retention_days.min(1e6) * 86_400.0))
    }

    /// How long an empty room stays in memory.
    pub fn room_idle(&self) -> Duration {
        Duration::from_secs(self.room_idle_secs)
    }

    /// How long a socket may take to send an HTTP request head.
    pub fn header_timeout(&self) -> Duration {
        Duration::from_secs(self.header_timeout_secs.max(1))
    }

    /// How long a connection in no room may stay silent, if it is ever closed for that.
    pub fn idle_timeout(&self) -> Option<Duration> {
        (self.idle_timeout_secs > 0).then(|| Duration::from_secs(self.idle_timeout_secs))
    }

    /// How often the server pings each WebSocket, if it does.
    pub fn ping_interval(&self) -> Option<Duration> {
        (self.ping_interval_secs > 0).then(|| Duration::from_secs(self.ping_interval_secs))
    }

    /// The socket cap asked for (before it is fitted to the open-file limit).
    pub fn max_sockets(&self) -> usize {
        self.max_sockets.unwrap_or_else(|| self.max_connections.saturating_add(1024))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::StorageOptions;

    /// The storage flags' defaults are the storage's defaults, the flags set them, and values
    /// out of range are refused with the flag's name.
    #[test]
    fn the_storage_flags_reach_the_storage() {
        let config = Config::try_parse_from(["fipsen-server"]).expect("defaults");
        assert_eq!(config.storage(), StorageOptions::default());
        let config = Config::try_parse_from([
            "fipsen-server",
            "--sync",
            "normal",
            "--checkpoint-ms",
            "50",
            "--wal-limit-pages",
            "65536",
        ])
        .expect("flags");
        assert_eq!(
            config.storage(),
            StorageOptions {
                sync: SyncMode::Normal,
                checkpoint_interval: Duration::from_millis(50),
                wal_limit_frames: 65_536
            }
        );
        let refused = Config::try_parse_from(["fipsen-server", "--checkpoint-ms", "0"]).expect_err("out of range");
        assert!(refused.to_string().contains("--checkpoint-ms"), "{refused}");
    }

    /// `--db` (or `FIPSEN_DB`) names a SQLite file, or a PostgreSQL database by its URL.
    #[test]
    fn the_database_is_a_file_or_a_postgres_url() {
        let config = Config::try_parse_from(["fipsen-server"]).expect("defaults");
        assert_eq!(config.database(), Database::Sqlite(Path::new("fipsen.sqlite3")));
        for url in ["postgres://fipsen@db:5432/fipsen", "postgresql://fipsen@%2Frun%2Fpostgresql/fipsen"] {
            let config = Config::try_parse_from(["fipsen-server", "--db", url]).expect("a URL");
            assert_eq!(config.database(), Database::Postgres(url));
        }
        let config = Config::try_parse_from(["fipsen-server", "--db", "/data/rooms.sqlite3"]).expect("a file");
        assert_eq!(config.database(), Database::Sqlite(Path::new("/data/rooms.sqlite3")));
    }

    /// `--node-id` turns cluster mode on with `--lease-ms` (10 s unless set, at least 1 s);
    /// a node id that is empty or holds other characters is refused with the flag's name.
    #[test]
    fn the_node_id_turns_cluster_mode_on() {
        let config = Config::try_parse_from(["fipsen-server"]).expect("defaults");
        assert!(config.cluster().is_none());
        let config = Config::try_parse_from(["fipsen-server", "--node-id", "node-a.1"]).expect("a node id");
        let cluster = config.cluster().expect("cluster mode");
        assert_eq!(&*cluster.node, "node-a.1");
        assert_eq!(cluster.lease, Duration::from_secs(10));
        let config =
            Config::try_parse_from(["fipsen-server", "--node-id", "b", "--lease-ms", "1500"]).expect("a lease");
        assert_eq!(config.cluster().expect("cluster mode").lease, Duration::from_millis(1500));
        for bad in [&["--node-id", ""][..], &["--node-id", "a b"], &["--node-id", "a/b"]] {
            let refused = Config::try_parse_from(["fipsen-server"].iter().chain(bad)).expect_err("refused");
            assert!(refused.to_string().contains("--node-id"), "{refused}");
        }
        let refused = Config::try_parse_from(["fipsen-server", "--lease-ms", "999"]).expect_err("too short");
        assert!(refused.to_string().contains("--lease-ms"), "{refused}");
    }

    /// `--stop-drain-seconds` is 5 s in cluster mode and none for a server alone unless set;
    /// set, it holds in both; above 600 it is refused with the flag's name.
    #[test]
    fn the_stop_drain_defaults_to_five_seconds_in_cluster_mode() {
        let config = Config::try_parse_from(["fipsen-server"]).expect("defaults");
        assert_eq!(config.stop_drain(), Duration::ZERO);
        let config = Config::try_parse_from(["fipsen-server", "--node-id", "a"]).expect("a node");
        assert_eq!(config.stop_drain(), Duration::from_secs(5));
        let config =
            Config::try_parse_from(["fipsen-server", "--node-id", "a", "--stop-drain-seconds", "0"]).expect("no drain");
        assert_eq!(config.stop_drain(), Duration::ZERO);
        let config = Config::try_parse_from(["fipsen-server", "--stop-drain-seconds", "3"]).expect("alone");
        assert_eq!(config.stop_drain(), Duration::from_secs(3));
        let refused = Config::try_parse_from(["fipsen-server", "--stop-drain-seconds", "601"]).expect_err("too long");
        assert!(refused.to_string().contains("--stop-drain-seconds"), "{refused}");
    }

    /// Rebalancing is on unless turned off; `--rebalance` alone still turns it on.
    #[test]
    fn rebalancing_is_on_by_default_and_can_be_turned_off() {
        let parse = |args: &[&str]| {
            Config::try_parse_from(std::iter::once("fipsen-server").chain(args.iter().copied())).expect("flags")
        };
        assert!(parse(&[]).rebalance);
        assert!(parse(&["--rebalance"]).rebalance);
        assert!(parse(&["--rebalance", "--node-id", "a"]).rebalance);
        assert!(!parse(&["--rebalance", "false"]).rebalance);
        assert!(!parse(&["--rebalance=false", "--node-id", "a"]).rebalance);
    }

    /// A server takes at most as many entrants in a tournament as a tournament can have.
    #[test]
    fn the_tournament_cap_is_within_what_a_tournament_can_take() {
        let config = Config::try_parse_from(["fipsen-server"]).expect("defaults");
        assert_eq!(config.max_tournament_entrants, fipsen_tournament::MAX_ENTRANTS);
        assert_eq!(config.registrations_per_address, 16);
        let config = Config::try_parse_from(["fipsen-server", "--max-tournament-entrants", "40"]).expect("flag");
        assert_eq!(config.max_tournament_entrants, 40);
        for bad in ["129", "1"] {
            let refused = Config::try_parse_from(["fipsen-server", "--max-tournament-entrants", bad]).expect_err(bad);
            assert!(refused.to_string().contains("--max-tournament-entrants"), "{refused}");
        }
    }

    /// `--trusted-proxy` takes comma-separated addresses and networks, and refuses anything else
    /// with the flag's name; `health` is a subcommand beside the flags.
    #[test]
    fn trusted_proxies_and_the_health_subcommand_parse() {
        let config = Config::try_parse_from(["fipsen-server", "--trusted-proxy", "127.0.0.1, 10.0.0.0/8,::1"])
            .expect("three proxies");
        let shown: Vec<String> = config.trusted_proxies.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["127.0.0.1/32", "10.0.0.0/8", "::1/128"]);
        assert_eq!(config.command, None);
        let refused =
            Config::try_parse_from(["fipsen-server", "--trusted-proxy", "proxy.example"]).expect_err("a name");
        assert!(refused.to_string().contains("--trusted-proxy"), "{refused}");
        let config = Config::try_parse_from(["fipsen-server", "--addr", "0.0.0.0:9000", "health"]).expect("health");
        assert_eq!(config.command, Some(Command::Health { timeout: 5 }));
        assert_eq!(config.addr.port(), 9000);
    }
}
