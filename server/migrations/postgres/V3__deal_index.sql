-- The deal index: one row per finished deal of a room, written when the deal ends, so that a
-- series page or a replay reads the rows and records of the deals it shows, never the room's
-- whole log. `data` is JSON the server writes and reads (the series as the deal left it).
CREATE TABLE room_deals (
    room TEXT COLLATE "C" NOT NULL REFERENCES rooms (code),
    number BIGINT NOT NULL,
    first_idx BIGINT NOT NULL,
    last_idx BIGINT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (room, number)
);
