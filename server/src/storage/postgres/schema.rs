//! The schema: brought to this build's version through the PostgreSQL migration ladder.

use deadpool_postgres::Pool;

use crate::storage::{Ladder, StorageError, log_applied, migration_failed};

/// The schema's migration ladder, oldest first: `server/migrations/postgres/V<n>__<name>.sql`.
/// A migration, once released, is never edited: a change adds the next one.
const MIGRATIONS: [(&str, &str); 3] = [
    ("V1__initial", include_str!("../../../migrations/postgres/V1__initial.sql")),
    ("V2__room_leases", include_str!("../../../migrations/postgres/V2__room_leases.sql")),
    ("V3__deal_index", include_str!("../../../migrations/postgres/V3__deal_index.sql")),
];

/// The schema version this build brings a database to: the last migration's.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The advisory lock held while the schema is checked and migrated, so that servers starting
/// together on one database migrate it once, one after the other.
const MIGRATION_LOCK: i64 = 0x6669_7073_656e_0001;

/// Brings the database's schema to [`SCHEMA_VERSION`] through the migration ladder, oldest
/// first, each in its own transaction, holding [`MIGRATION_LOCK`]. A database at a version past
/// this build's is refused ([`StorageError::TooNew`]) and left unchanged.
///
/// # Errors
/// The database cannot be reached, is too new, or a migration failed (the database stays at the
/// last migration that succeeded).
pub(super) async fn migrate(pool: &Pool) -> Result<(), StorageError> {
    let mut client = pool.get().await?;
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK]).await?;
    let migrated = migrate_locked(&mut client).await;
    let unlocked = client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]).await;
    migrated?;
    unlocked?;
    Ok(())
}

async fn migrate_locked(client: &mut deadpool_postgres::Object) -> Result<(), StorageError> {
    let ladder = Ladder::new(&MIGRATIONS)?;
    let runner = ladder.runner();
    let client: &mut tokio_postgres::Client = client;
    let found: bool = client.query_one("SELECT to_regclass('refinery_schema_history') IS NOT NULL", &[]).await?.get(0);
    if found {
        ladder.refuse_newer(runner.get_last_applied_migration_async(client).await.map_err(migration_failed)?)?;
    }
    log_applied(&runner.run_async(client).await.map_err(migration_failed)?);
    Ok(())
}
