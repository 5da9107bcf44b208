-- Studies (issue 39): a player's saved analysis boards. The tree is the
-- page's own JSON text (start position, moves, comments), at most 256 KiB;
-- anyone with the id reads a study, only its owner changes it.
CREATE TABLE studies (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    tree TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE INDEX studies_of_user ON studies (user_id, updated_ms);
-- The opening explorer: one row per move of a finished rated game (its
-- first plies), keyed by the spectator's view of the position before it
-- without move counters; score is the mover's result (2 won, 1 drawn,
-- 0 lost), rating the mover's rating when the game ended.
CREATE TABLE explorer_moves (
    variant TEXT NOT NULL,
    position TEXT NOT NULL,
    mv TEXT NOT NULL,
    game_id TEXT NOT NULL,
    score INTEGER NOT NULL,
    rating REAL
);
CREATE INDEX explorer_moves_at ON explorer_moves (variant, position);
-- The named opening a finished game reached (the kind's classification).
CREATE TABLE game_openings (
    game_id TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL
);
-- Finished games already read for the two tables above (each once).
CREATE TABLE games_indexed (
    game_id TEXT PRIMARY KEY
);
