-- 0010 (SQLite's 0013): each event's count of looks owed (the timers-table pattern of the
-- clocks' wake-ups), so that the clocks' tick reads only the events that may need a step
-- instead of walking every running event's pairings.
--
-- Every write after which a running event may need a step (a start closing its sign-up, an
-- event game's end, a pairing scored, a withdrawal) adds one in its own transaction; the
-- tick looks at the events with looks owed and clears the count only if it is still the one
-- it read. Running events from before are looked at once by the first tick after the upgrade,
-- so no step a crash cut short is missed.
ALTER TABLE events ADD COLUMN looks INTEGER NOT NULL DEFAULT 0;
UPDATE events SET looks = 1 WHERE status = 'running';
CREATE INDEX events_by_looks ON events (status, looks);
