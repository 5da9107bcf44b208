-- The final ranking of a finished game (JSON seat groups, best first), for
-- games of more than two seats; NULL where the result names a winner or a draw.
ALTER TABLE games ADD COLUMN placings TEXT;
