-- 0002 (SQLite's 0005): each clocked game's next wake-up (the earlier of its next reminder and
-- its deadline), so that the clocks read only the games that are due. Active clocked games
-- from before are due at once (as of their last move). Finished games and games without a
-- clock have none.

ALTER TABLE games ADD COLUMN wake_at timestamptz;
UPDATE games SET wake_at = updated_at WHERE status = 'active' AND time_control IS NOT NULL;
CREATE INDEX games_by_wake ON games (wake_at) WHERE wake_at IS NOT NULL;
