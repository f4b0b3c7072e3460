-- 0012 (SQLite's 0015): whose move each game waits for (`to_move_id`, the turn's deadline
-- `due_at`, `waiting_since`), indexed for `next` and the digest, and the players' daily
-- digests (`digests`, due by `next_at`); see SQLite's 0015 and storage/waiting.py.
ALTER TABLE games ADD COLUMN to_move_id bigint;
ALTER TABLE games ADD COLUMN due_at timestamptz;
ALTER TABLE games ADD COLUMN waiting_since timestamptz;
CREATE INDEX games_waiting_for ON games (to_move_id, due_at, waiting_since)
    WHERE status = 'active' AND to_move_id IS NOT NULL;

CREATE TABLE digests (
    user_id bigint      PRIMARY KEY,
    hour    integer     NOT NULL CHECK (hour BETWEEN 0 AND 23),
    zone    text        NOT NULL,
    locale  text        NOT NULL,
    next_at timestamptz NOT NULL
);
CREATE INDEX digests_due ON digests (next_at);
