-- The PostgreSQL engine's schema: the tables SQLite's ladder ends with (rooms, their records and
-- tokens, the health probe, tournaments and their records), each record with the format it is
-- written in. Keys compare byte by byte (COLLATE "C"), as SQLite's do, whatever the database's
-- collation; `seq` numbers rooms and tournaments in the order they were created (SQLite's rowid),
-- which orders those created in the same millisecond.
CREATE TABLE rooms (
    code TEXT COLLATE "C" PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    created_at BIGINT NOT NULL,
    title TEXT NOT NULL,
    rules TEXT NOT NULL,
    options TEXT NOT NULL,
    master_seed TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    tournament TEXT,
    closed_at BIGINT
);
CREATE INDEX rooms_active ON rooms (active, created_at, seq);
CREATE TABLE records (
    room TEXT COLLATE "C" NOT NULL REFERENCES rooms (code),
    idx BIGINT NOT NULL,
    seq_before BIGINT NOT NULL,
    record TEXT NOT NULL,
    format BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (room, idx)
);
CREATE TABLE tokens (
    hash TEXT COLLATE "C" PRIMARY KEY,
    room TEXT COLLATE "C" NOT NULL REFERENCES rooms (code),
    participant BIGINT NOT NULL
);
CREATE INDEX tokens_room ON tokens (room);
CREATE TABLE health (
    id INTEGER PRIMARY KEY,
    checked_at BIGINT NOT NULL
);
CREATE TABLE tournaments (
    id TEXT COLLATE "C" PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    created_at BIGINT NOT NULL,
    finished BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE tournament_records (
    tournament TEXT COLLATE "C" NOT NULL REFERENCES tournaments (id),
    idx BIGINT NOT NULL,
    record TEXT NOT NULL,
    format BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (tournament, idx)
);
