-- 0016: `side_changes` counts the changes to a game that are no entry of its log: an offer
-- made or closed (a takeback request, its answer) and an end without a turn (an abort). With
-- `version` it makes the game's live version (`StoredGame.live_version`), which changes
-- whenever anything anyone does changes what a page of the game shows.
ALTER TABLE games ADD COLUMN side_changes INTEGER NOT NULL DEFAULT 0 CHECK (side_changes >= 0);
