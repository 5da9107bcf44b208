-- Banqi (and later other games of chance): the hidden set-up a game drew at
-- its start and the room's base (基数, B17). Kept out of `games` so that no
-- code path that reads or sends a game row can carry the layout.
CREATE TABLE game_setups (
    game_id TEXT PRIMARY KEY,
    setup TEXT,
    base INTEGER NOT NULL DEFAULT 1
);

-- Game points (B13-B17) per user, game and family; a balance is the sum.
-- The key makes settling a game twice impossible.
CREATE TABLE game_points (
    game_id TEXT NOT NULL REFERENCES games(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    family TEXT NOT NULL,
    delta INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_points_family ON game_points(family, user_id);
