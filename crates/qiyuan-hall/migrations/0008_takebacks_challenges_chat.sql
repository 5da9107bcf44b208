-- Takebacks (issue 18): the moves an accepted takeback removed from `moves`,
-- kept with who asked for it, so the game replays without them after a
-- restart and the record of what was taken back is not lost.
CREATE TABLE takebacks (
    game_id TEXT NOT NULL REFERENCES games(id),
    from_ply INTEGER NOT NULL,
    by_seat INTEGER NOT NULL,
    moves TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX takebacks_game ON takebacks(game_id);

-- A challenge: the open seat of a waiting game that only this user may take.
CREATE TABLE challenges (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    at_ms INTEGER NOT NULL
);
CREATE INDEX challenges_user ON challenges(user_id);

-- Chat messages players reported, with the text as it was sent.
CREATE TABLE chat_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    reporter_id INTEGER NOT NULL REFERENCES users(id),
    author_id INTEGER NOT NULL,
    text TEXT NOT NULL,
    sent_ms INTEGER NOT NULL,
    at_ms INTEGER NOT NULL
);
