-- Accounts, sessions, games and their moves. A game is stored as its set-up
-- and the list of moves with the clocks after each, so that a restart can
-- replay it exactly.
CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    guest INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL
);

CREATE TABLE sessions (
    token TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_ms INTEGER NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    target INTEGER,
    start_fen TEXT,
    initial_ms INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    seats TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    reason TEXT,
    explanation TEXT,
    clocks TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    rematch_of TEXT
);
CREATE INDEX games_status ON games(status);

CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    mv TEXT NOT NULL,
    clocks TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE game_players (
    game_id TEXT NOT NULL REFERENCES games(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_players_user ON game_players(user_id);
