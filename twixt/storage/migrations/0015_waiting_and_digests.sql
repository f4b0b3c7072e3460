-- 0015: whose move each game waits for, and the players' daily digests — so that "where is
-- it my move?" (`next`, the digest) is an index lookup of the player's own games, whatever
-- the number of games and players.
-- - `to_move_id`: the person whose move the game waits for (NULL: the bot's seat to move,
--   the game over, or a game in progress from before this migration until its next turn),
--   `due_at`: that turn's deadline in a clocked game, `waiting_since`: when the turn began.
--   Written with each turn, in the statement that stores it.
-- - `digests`: a player's digest at `hour` (0-23) in time zone `zone`, said in `locale`; `next_at` is the next
--   one in UTC, moved on once a day by the process that sends it (a claim: sent once).
ALTER TABLE games ADD COLUMN to_move_id INTEGER;
ALTER TABLE games ADD COLUMN due_at TEXT;
ALTER TABLE games ADD COLUMN waiting_since TEXT;
CREATE INDEX games_waiting_for ON games (to_move_id, due_at, waiting_since)
    WHERE status = 'active' AND to_move_id IS NOT NULL;

CREATE TABLE digests (
    user_id INTEGER PRIMARY KEY,
    hour    INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
    zone    TEXT    NOT NULL,
    locale  TEXT    NOT NULL,
    next_at TEXT    NOT NULL
);
CREATE INDEX digests_due ON digests (next_at);
