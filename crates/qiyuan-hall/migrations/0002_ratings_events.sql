-- Ratings per user and game family (H1), their history for profile charts,
-- events (stored as the JSON of their state so they resume after a restart)
-- and technical fouls per game and seat (X8).
CREATE TABLE ratings (
    user_id INTEGER NOT NULL REFERENCES users(id),
    family TEXT NOT NULL,
    value REAL NOT NULL,
    rated_games INTEGER NOT NULL,
    reached_top INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (user_id, family)
);
CREATE INDEX ratings_family ON ratings(family, value);

-- One row per rated game and player; the unique key makes rating a game twice impossible.
CREATE TABLE rating_history (
    user_id INTEGER NOT NULL REFERENCES users(id),
    family TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    before REAL NOT NULL,
    after REAL NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX rating_history_user ON rating_history(user_id, family, at_ms);

CREATE TABLE events (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    data TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
);

CREATE TABLE game_fouls (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    fouls INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
