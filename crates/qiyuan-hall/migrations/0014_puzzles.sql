-- Puzzles (issue 40): the shipped sets, loaded at start (an upsert that
-- keeps a puzzle's rating), each player's puzzle rating per variant, and
-- each attempt with the player's rating after it. Themes are stored with a
-- space on each side so that one theme matches as LIKE '% theme %'.
CREATE TABLE puzzles (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    fen TEXT NOT NULL,
    moves TEXT NOT NULL,
    themes TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    plays INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX puzzles_by_rating ON puzzles (variant, rating);
CREATE TABLE puzzle_ratings (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    plays INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (user_id, variant)
);
CREATE TABLE puzzle_attempts (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL REFERENCES puzzles(id),
    variant TEXT NOT NULL,
    win INTEGER NOT NULL,
    rating_after REAL NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, at_ms);
CREATE UNIQUE INDEX puzzle_attempts_once ON puzzle_attempts (user_id, puzzle_id);
