-- Sessions expire (sliding renewal) and can be listed and revoked by their
-- owner: each gets a public id (the token itself is never shown again), an
-- expiry, the time of its last use and the client's user agent. Sessions
-- made before this migration expire 30 days after they were made.
ALTER TABLE sessions ADD COLUMN id TEXT;
ALTER TABLE sessions ADD COLUMN expires_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN last_seen_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN agent TEXT;
UPDATE sessions SET id = lower(hex(randomblob(8))),
    expires_ms = created_ms + 2592000000,
    last_seen_ms = created_ms;
CREATE UNIQUE INDEX sessions_id ON sessions(id);
CREATE INDEX sessions_user ON sessions(user_id, last_seen_ms);
CREATE INDEX sessions_expiry ON sessions(expires_ms);

-- Names are unique by their key (case folded, UTS #39 skeleton), filled in
-- by the server for accounts made before this migration.
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX users_name_key ON users(name_key);
