-- The uncertainty of a multi-player (Weng-Lin) rating, on the shown scale;
-- NULL for the two-player Elo ratings, which have none.
ALTER TABLE ratings ADD COLUMN deviation REAL;
