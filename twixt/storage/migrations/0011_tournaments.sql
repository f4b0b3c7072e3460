-- 0011: tournaments and leagues (events), who plays in them, and their games.
--
-- An event is announced in a channel, takes sign-ups until `signup_until` (or a manager's
-- start), then runs: its games are ordinary games, linked from `event_games` once opened. A
-- league's season links the season before it. An entrant is a player, or a Double TwixT team
-- named by its first player (`user_id`) with its `partner_id`, counted once the partner has
-- joined too. An event game without `game_id` is a bye or not yet opened; `score` is Red's
-- (1, 0.5, 0) once decided, `forfeit` when decided without play.
CREATE TABLE events (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('roundrobin', 'swiss', 'league')),
    size         TEXT    NOT NULL,
    rules        TEXT    NOT NULL,
    time_control TEXT,
    vacation     INTEGER NOT NULL CHECK (vacation IN (0, 1)),
    rounds       INTEGER NOT NULL CHECK (rounds >= 0),
    both_colours INTEGER NOT NULL CHECK (both_colours IN (0, 1)),
    teams        INTEGER NOT NULL CHECK (teams IN (0, 1)),
    signup_until TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished')),
    round        INTEGER NOT NULL DEFAULT 0,
    season       INTEGER NOT NULL DEFAULT 1,
    previous_id  INTEGER REFERENCES events (id),
    created_by   INTEGER NOT NULL,
    created_at   TEXT    NOT NULL
);
-- the sign-ups that close: the clocks' tick looks here
CREATE INDEX events_by_deadline ON events (status, signup_until);
CREATE INDEX events_by_guild ON events (guild_id, id);

CREATE TABLE event_entrants (
    event_id   INTEGER NOT NULL REFERENCES events (id),
    user_id    INTEGER NOT NULL,
    partner_id INTEGER,
    confirmed  INTEGER NOT NULL CHECK (confirmed IN (0, 1)),
    withdrawn  INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    joined_at  TEXT    NOT NULL,
    PRIMARY KEY (event_id, user_id)
);

CREATE TABLE event_games (
    id        INTEGER PRIMARY KEY,
    event_id  INTEGER NOT NULL REFERENCES events (id),
    round     INTEGER NOT NULL,
    group_no  INTEGER NOT NULL DEFAULT 0,
    red       INTEGER NOT NULL,
    black     INTEGER,
    game_id   INTEGER UNIQUE REFERENCES games (id),
    score     REAL,
    forfeit   INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1))
);
CREATE INDEX event_games_by_event ON event_games (event_id, round, id);
