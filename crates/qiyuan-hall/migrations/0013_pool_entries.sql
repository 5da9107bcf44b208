-- Pairing pools across nodes (issue 36): who waits in which pool, written
-- by the node the player is connected to and paired by the one node that
-- holds the pools' lease. One row per user (a player waits in one pool).
CREATE TABLE pool_entries (
    user_id INTEGER PRIMARY KEY,
    pool TEXT NOT NULL,
    username TEXT NOT NULL,
    guest INTEGER NOT NULL,
    rating REAL NOT NULL,
    node TEXT NOT NULL,
    since_ms INTEGER NOT NULL,
    seen_ms INTEGER NOT NULL
);
