//! A PostgreSQL database of its own for a server test, on the server that `FIPSEN_TEST_POSTGRES`
//! names (`scripts/postgres-temp` starts one). Without that variable a test says it was skipped
//! and passes, except under CI (`CI` set), where it fails: a check skipped there would be one
//! that cannot fail.

use tokio_postgres::NoTls;

/// The test server's URL, or `None` (said) when the test is skipped.
///
/// # Panics
/// The variable is unset under CI.
pub fn test_server() -> Option<String> {
    match std::env::var("FIPSEN_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!("FIPSEN_TEST_POSTGRES is not set, and CI is: this test needs a PostgreSQL server")
        }
        _ => {
            println!("skipped: FIPSEN_TEST_POSTGRES is not set (scripts/postgres-temp starts a server)");
            None
        }
    }
}

/// A database of its own on the test server, dropped at the end.
pub struct Database {
    server: String,
    name: String,
}

impl Database {
    /// A new database named after `test` and this process.
    pub async fn create(server: String, test: &str) -> Database {
        let name = format!("fipsen_server_test_{test}_{}", std::process::id());
        run(&server, &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
        run(&server, &format!("CREATE DATABASE {name}")).await;
        Database { server, name }
    }

    /// Its URL.
    pub fn url(&self) -> String {
        let base = self.server.split_once('?').map_or(self.server.as_str(), |(base, _)| base);
        let (prefix, _) = base.rsplit_once('/').unwrap();
        format!("{prefix}/{}", self.name)
    }

    /// Its URL with a password the trusting test server does not ask for: a log must not show it.
    pub fn url_with_password(&self) -> String {
        let base = self.server.split_once('?').map_or(self.server.as_str(), |(base, _)| base);
        let (scheme, rest) = base.split_once("://").unwrap();
        let authority = rest.split('/').next().unwrap();
        let (user, host) = authority.rsplit_once('@').unwrap_or(("fipsen", authority));
        let user = user.split(':').next().unwrap();
        format!("{scheme}://{user}:not-shown@{host}/{}", self.name)
    }

    /// Runs `sql` on it (a test damaging what a server stored).
    pub async fn execute(&self, sql: &str) {
        run(&self.url(), sql).await;
    }

    /// The epochs of a room's records (the lease each was written under), in the order of the log.
    pub async fn epochs(&self, room: &str) -> Vec<Option<i64>> {
        let (client, connection) = tokio_postgres::connect(&self.url(), NoTls).await.unwrap();
        tokio::spawn(connection);
        let rows = client.query("SELECT epoch FROM records WHERE room = $1 ORDER BY idx", &[&room]).await.unwrap();
        rows.iter().map(|row| row.get(0)).collect()
    }
}

impl Drop for Database {
    /// Drops the database; a backend still ending (a killed node's, or autovacuum's, which a
    /// plain role may not end) can hold it a moment, so this tries again for a few seconds, then
    /// leaves it on the throwaway server with a note.
    fn drop(&mut self) {
        let (server, sql) = (self.server.clone(), format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name));
        std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
                let mut last = String::new();
                for _ in 0..20 {
                    match try_run(&server, &sql).await {
                        Ok(()) => return,
                        Err(e) => last = e,
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                }
                eprintln!("note: the test database was left on the test server: {sql}: {last}");
            });
        })
        .join()
        .unwrap();
    }
}

async fn run(url: &str, sql: &str) {
    try_run(url, sql).await.unwrap_or_else(|e| panic!("{e}"));
}

async fn try_run(url: &str, sql: &str) -> Result<(), String> {
    let (client, connection) = tokio_postgres::connect(url, NoTls).await.map_err(|e| format!("connect: {e}"))?;
    tokio::spawn(connection);
    client.batch_execute(sql).await.map_err(|e| format!("{sql}: {e:?}"))
}
