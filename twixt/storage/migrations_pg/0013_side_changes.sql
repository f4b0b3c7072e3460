-- 0013 (SQLite's 0016): `side_changes`, the changes to a game that are no entry of its log
-- (an offer made or closed, an end without a turn); with `version`, its live version.
ALTER TABLE games ADD COLUMN side_changes integer NOT NULL DEFAULT 0 CHECK (side_changes >= 0);
