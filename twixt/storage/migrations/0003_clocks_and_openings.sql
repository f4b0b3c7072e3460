-- 0003: reminders sent for clocked games, each at most once per (game, version, stage), and
-- the opening of a game continued from an imported record ("seat: command" lines).

CREATE TABLE reminders (
    game_id INTEGER NOT NULL REFERENCES games (id),
    version INTEGER NOT NULL,
    stage   TEXT    NOT NULL,
    sent_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, version, stage)
) WITHOUT ROWID;

ALTER TABLE challenges ADD COLUMN opening TEXT;
ALTER TABLE games ADD COLUMN opening TEXT;
