-- The schema as the server kept it before the ladder: rooms, their records and tokens, the
-- health probe, tournaments and their records. A file written before the ladder already holds
-- these tables (the server adopts it: see `storage::migrate`), so every statement here leaves an
-- existing table alone.
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    title TEXT NOT NULL,
    rules TEXT NOT NULL,
    options TEXT NOT NULL,
    master_seed TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    tournament TEXT,
    closed_at INTEGER
);
CREATE TABLE IF NOT EXISTS records (
    room TEXT NOT NULL REFERENCES rooms(code),
    idx INTEGER NOT NULL,
    seq_before INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (room, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms(code),
    participant INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS health (
    id INTEGER PRIMARY KEY,
    checked_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tournament_records (
    tournament TEXT NOT NULL REFERENCES tournaments(id),
    idx INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (tournament, idx)
) WITHOUT ROWID;
