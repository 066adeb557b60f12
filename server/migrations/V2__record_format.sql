-- Every stored record names the format it is written in. The records stored before are all of
-- the first format.
ALTER TABLE records ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tournament_records ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
