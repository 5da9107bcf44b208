-- Leases (issue 17): the node that owns a game in play, until when, and a
-- fencing token that grows by one each time another node takes the game
-- over. Every move is committed only if its node still holds the token, so
-- a node that lost its lease (paused, cut off, restarted) cannot commit.
-- Rows are never deleted: a token never goes back.
CREATE TABLE leases (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    token INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
