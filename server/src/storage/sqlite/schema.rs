//! The SQLite file itself: kept private to its owner, and its schema brought to this build's
//! version through the migration ladder.

use std::path::Path;

use rusqlite::Connection;

use crate::storage::{Ladder, StorageError, log_applied, migration_failed};

/// The schema's migration ladder, oldest first: `server/migrations/V<n>__<name>.sql`. A
/// migration, once released, is never edited: a change adds the next one.
const MIGRATIONS: [(&str, &str); 3] = [
    ("V1__initial", include_str!("../../../migrations/V1__initial.sql")),
    ("V2__record_format", include_str!("../../../migrations/V2__record_format.sql")),
    ("V3__deal_index", include_str!("../../../migrations/V3__deal_index.sql")),
];

/// The schema version this build brings a file to: the last migration's.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the file's schema to [`SCHEMA_VERSION`] through the migration ladder, oldest first,
/// each in its own transaction.
///
/// A file written before the ladder (its tables exist, but no migration is recorded) is adopted:
/// the columns later added by hand are added if it lacks them, so that it holds the first
/// migration's schema, which then finds every table in place. A file at a version past this
/// build's is refused ([`StorageError::TooNew`]) and left unchanged.
///
/// # Errors
/// The file is too new, or a migration failed (the file stays at the last migration that
/// succeeded).
pub(super) fn migrate(conn: &mut Connection) -> Result<(), StorageError> {
    let ladder = Ladder::new(&MIGRATIONS)?;
    let runner = ladder.runner();
    let found = conn
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refinery_schema_history'")?
        .exists([])?;
    if found {
        ladder.refuse_newer(runner.get_last_applied_migration(conn).map_err(migration_failed)?)?;
    } else {
        adopt_unversioned(conn)?;
    }
    log_applied(&runner.run(conn).map_err(migration_failed)?);
    Ok(())
}

/// Gives a file written before the migration ladder the first migration's schema: builds before
/// tournaments and before closing times were kept lack a column of `rooms` each.
fn adopt_unversioned(conn: &Connection) -> Result<(), StorageError> {
    let has_rooms = conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rooms'")?.exists([])?;
    if !has_rooms {
        return Ok(());
    }
    for (column, kind) in [("tournament", "TEXT"), ("closed_at", "INTEGER")] {
        let has = conn.prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = ?1")?.exists([column])?;
        if !has {
            conn.execute_batch(&format!("ALTER TABLE rooms ADD COLUMN {column} {kind}"))?;
        }
    }
    tracing::info!("adopting a database written before schema migrations were recorded");
    Ok(())
}

/// The database holds every room's secret seed and the hashes of its tokens: the file is
/// created readable and writable by its owner only, and an existing one readable by others is
/// made so too. SQLite gives its `-wal` and `-shm` files the database file's mode, so they follow
/// (existing ones are corrected here as well).
///
/// # Errors
/// The file cannot be created or its mode changed.
pub(super) fn keep_private(path: &Path) -> Result<(), StorageError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        let failed = |e: std::io::Error| StorageError::File(format!("cannot keep {} private: {e}", path.display()));
        match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(failed(e)),
        }
        let mut companions = [path.as_os_str().to_owned(), path.as_os_str().to_owned()];
        companions[0].push("-wal");
        companions[1].push("-shm");
        for file in std::iter::once(path).chain(companions.iter().map(Path::new)) {
            let Ok(metadata) = std::fs::metadata(file) else { continue };
            let mode = metadata.permissions().mode();
            if mode & 0o077 != 0 {
                std::fs::set_permissions(file, std::fs::Permissions::from_mode(mode & 0o700)).map_err(failed)?;
                tracing::warn!(
                    file = %file.display(),
                    was = format_args!("{:o}", mode & 0o777),
                    now = format_args!("{:o}", mode & 0o700),
                    "the database was readable by others than its owner: it is no longer"
                );
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}
