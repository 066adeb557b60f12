//! The connection: the URL read, the pool of plain connections, and the driver's errors as
//! [`StorageError::Postgres`] (without the values a refused row held).

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;
use tokio_postgres::config::Host;

use crate::storage::StorageError;

/// Connections the engine keeps open at most: one for the writer, the others for reads.
const POOL_SIZE: usize = 8;

/// How long a new connection may take when the URL does not say (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a transaction may wait idle for the server before the database ends it.
const STALLED_TRANSACTION: Duration = Duration::from_secs(5);

/// How long one statement may run before the database cancels it (a lock never released, a
/// query gone wrong): its write or read fails with an error instead of holding a connection.
const STATEMENT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long an operation waits for a connection of the pool before it fails.
const WAIT_TIMEOUT: Duration = Duration::from_secs(30);

/// Whether `db` (the `--db` setting) names a PostgreSQL database rather than a SQLite file.
pub fn is_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// The URL as it may be logged: user, hosts, ports and database, never the password or the
/// other parameters.
pub fn display_url(url: &str) -> String {
    let Ok(config) = url.parse::<tokio_postgres::Config>() else {
        return "postgres://(an unreadable URL)".to_string();
    };
    let user = config.get_user().map(|user| format!("{user}@")).unwrap_or_default();
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let host = match host {
                Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                Host::Unix(path) => path.display().to_string(),
            };
            match ports.get(i).or(ports.first()) {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        })
        .collect();
    format!("postgres://{user}{}/{}", hosts.join(","), config.get_dbname().unwrap_or_default())
}

/// Reads the URL, with [`CONNECT_TIMEOUT`] unless it sets one.
pub(super) fn config(url: &str) -> Result<tokio_postgres::Config, StorageError> {
    let mut config: tokio_postgres::Config =
        url.parse().map_err(|e| StorageError::Postgres(format!("{}: {}", display_url(url), message(&e))))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_application_name().is_none() {
        config.application_name("fipsen-server");
    }
    // A server stalled inside a transaction (a pause, a lost network) would hold its room's lease
    // row locked and keep the others from taking the room over: the database ends such a
    // transaction after a while (nothing of it is stored; the stalled server's write fails). The
    // URL's own `options` come after, and win. A statement that runs too long is cancelled too.
    let stall = format!(
        "-c idle_in_transaction_session_timeout={} -c statement_timeout={}",
        STALLED_TRANSACTION.as_millis(),
        STATEMENT_TIMEOUT.as_millis()
    );
    let options = match config.get_options() {
        Some(given) => format!("{stall} {given}"),
        None => stall,
    };
    config.options(&options);
    Ok(config)
}

/// The pool of plain (not TLS) connections. A connection found closed is replaced when next
/// taken, so the engine reconnects by itself after the database was restarted.
pub(super) fn pool(config: tokio_postgres::Config) -> Result<Pool, StorageError> {
    let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
    Pool::builder(manager)
        .max_size(POOL_SIZE)
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(WAIT_TIMEOUT))
        .create_timeout(Some(CONNECT_TIMEOUT + Duration::from_secs(5)))
        .build()
        .map_err(|e| StorageError::Postgres(format!("cannot make the connection pool: {e}")))
}

/// The driver's error, with its causes; a database's error as its code and message only: the
/// detail it may add names the values of the row refused (a token hash, a seed).
fn message(error: &tokio_postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        return format!("{} {}: {}", db.severity(), db.code().code(), db.message());
    }
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

impl From<tokio_postgres::Error> for StorageError {
    fn from(error: tokio_postgres::Error) -> StorageError {
        StorageError::Postgres(message(&error))
    }
}

impl From<PoolError> for StorageError {
    fn from(error: PoolError) -> StorageError {
        match error {
            PoolError::Backend(e) => e.into(),
            PoolError::Closed => StorageError::Closed,
            other => StorageError::Postgres(format!("no connection: {other}")),
        }
    }
}
