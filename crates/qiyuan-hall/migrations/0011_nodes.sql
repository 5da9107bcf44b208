-- The nodes sharing a database (issue 17): where each one is reached, so a
-- node can forward a game's changes to the node that holds its lease.
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    addr TEXT NOT NULL,
    seen_ms INTEGER NOT NULL
);
