-- 0004: a reminder is claimed before it is sent and marked once it was delivered, so one that
-- could not be delivered (Discord down, the bot stopped) is sent again later, never lost.
-- Reminders claimed before this version are taken as delivered.

ALTER TABLE reminders ADD COLUMN delivered_at TEXT;
UPDATE reminders SET delivered_at = sent_at;
CREATE INDEX reminders_undelivered ON reminders (sent_at) WHERE delivered_at IS NULL;
