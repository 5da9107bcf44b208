-- Presets: opening actions a player keeps between games (Junqi set-ups),
-- named; at most one per kind is played for the player whose time runs out.
CREATE TABLE presets (
    user_id INTEGER NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    on_timeout INTEGER NOT NULL DEFAULT 0,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind, name)
);
