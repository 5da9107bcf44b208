-- Bot accounts (issue 36): an account its owner upgraded to a bot before
-- its first game; shown as BOT everywhere, kept out of the pools.
ALTER TABLE users ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
