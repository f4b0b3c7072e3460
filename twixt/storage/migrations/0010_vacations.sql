-- 0010: vacations, and the clock options that come with them.
--
-- A vacation stops a player's clocks in every game of its server that allows vacation. Each
-- row counts `days` against the server's days a year (the calendar year, UTC, in which it
-- starts): the days it was planned for, or the days begun when it was ended early. An
-- automatic row is the day used when a player's time ran out in `game_id`; a user's
-- vacations cannot start at the same moment twice, so such a day is taken once, however many
-- processes (or ticks after a restart) try.
CREATE TABLE vacations (
    id        INTEGER PRIMARY KEY,
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    starts_at TEXT    NOT NULL,
    ends_at   TEXT    NOT NULL CHECK (ends_at >= starts_at),
    days      INTEGER NOT NULL CHECK (days >= 0),
    automatic INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1)),
    game_id   INTEGER REFERENCES games (id),
    UNIQUE (guild_id, user_id, starts_at)
);
-- a player's vacations still running or to come, for the clocks
CREATE INDEX vacations_by_end ON vacations (guild_id, user_id, ends_at);

-- Whether a game (or a challenge's game) lets vacations and weekends off stop its clocks.
ALTER TABLE challenges ADD COLUMN vacation INTEGER NOT NULL DEFAULT 1 CHECK (vacation IN (0, 1));
ALTER TABLE games ADD COLUMN vacation INTEGER NOT NULL DEFAULT 1 CHECK (vacation IN (0, 1));
-- Whether the seat's player took weekends off when the game began (fixed for the game).
ALTER TABLE game_seats ADD COLUMN weekends_off INTEGER NOT NULL DEFAULT 0
    CHECK (weekends_off IN (0, 1));
