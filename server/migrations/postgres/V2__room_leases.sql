-- Cluster mode: each room's lease (the server that owns it, the fencing epoch its writes carry,
-- until when, by the database's clock), and the epoch of the lease each record was written under
-- (NULL for a server alone, which takes no lease).
CREATE TABLE room_leases (
    room TEXT COLLATE "C" PRIMARY KEY,
    holder TEXT NOT NULL,
    epoch BIGINT NOT NULL CHECK (epoch > 0),
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX room_leases_holder ON room_leases (holder);
ALTER TABLE records ADD COLUMN epoch BIGINT;
