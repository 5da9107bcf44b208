-- Every game's options as one JSON object (a Jifen target, a Banqi room's
-- base, whatever a kind declares), instead of a target column here and the
-- base in game_setups; old rows are carried over.
ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
UPDATE games SET options = json_object('target', target) WHERE target IS NOT NULL;
UPDATE games
   SET options = json_set(options, '$.base',
                          (SELECT base FROM game_setups s WHERE s.game_id = games.id))
 WHERE id IN (SELECT game_id FROM game_setups WHERE base != 1);

-- The chance draws a move made (a JSON list of numbers), fed back to the
-- game when it is replayed so it comes out the same.
ALTER TABLE moves ADD COLUMN draws TEXT;
