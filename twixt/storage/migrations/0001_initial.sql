-- 0001: games and their append-only turn logs, challenges, offers, settings, ratings.
-- Times are ISO 8601 text in UTC; ids are Discord snowflakes.

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    challenger_id INTEGER NOT NULL,
    players       INTEGER NOT NULL CHECK (players IN (2, 4)),
    size          TEXT    NOT NULL,
    rules         TEXT    NOT NULL CHECK (rules IN ('classic', 'pp')),
    swap          INTEGER CHECK (swap IN (0, 1)),
    handicap      INTEGER NOT NULL DEFAULT 0 CHECK (handicap >= 0),
    time_control  TEXT,
    first         TEXT    NOT NULL CHECK (first IN ('me', 'them', 'random')),
    thread        INTEGER NOT NULL CHECK (thread IN (0, 1)),
    status        TEXT    NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at    TEXT    NOT NULL,
    expires_at    TEXT    NOT NULL
);
CREATE INDEX challenges_pending_by_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_by_channel ON challenges (channel_id, status);
CREATE INDEX challenges_by_challenger ON challenges (challenger_id, status);

-- One row per place to fill; user_id NULL is an open place until someone accepts it.
CREATE TABLE challenge_invitees (
    challenge_id INTEGER NOT NULL REFERENCES challenges (id),
    slot         INTEGER NOT NULL,
    user_id      INTEGER,
    answer       TEXT    NOT NULL DEFAULT 'pending'
                 CHECK (answer IN ('pending', 'accepted', 'declined')),
    answered_at  TEXT,
    PRIMARY KEY (challenge_id, slot),
    UNIQUE (challenge_id, user_id)
) WITHOUT ROWID;
CREATE INDEX challenge_invitees_by_user ON challenge_invitees (user_id);

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    challenge_id INTEGER REFERENCES challenges (id),
    status       TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    size         TEXT    NOT NULL,
    rules        TEXT    NOT NULL CHECK (rules IN ('classic', 'pp')),
    swap         INTEGER CHECK (swap IN (0, 1)),
    handicap     INTEGER NOT NULL DEFAULT 0 CHECK (handicap >= 0),
    time_control TEXT,
    -- the number of turns in the log: the optimistic-concurrency token
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL,
    result       TEXT    CHECK (result IN ('red', 'black', 'draw', 'aborted')),
    reason       TEXT,
    finished_at  TEXT,
    CHECK ((status = 'finished') = (result IS NOT NULL))
);
-- At most one active game per channel (a thread is a channel); finished games are kept.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE INDEX games_by_guild ON games (guild_id, id);

CREATE TABLE game_seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id INTEGER NOT NULL,
    name    TEXT    NOT NULL,
    team    INTEGER NOT NULL GENERATED ALWAYS AS (seat % 2) VIRTUAL,
    winner  INTEGER NOT NULL DEFAULT 0 CHECK (winner IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX game_seats_by_user ON game_seats (user_id, game_id);

-- The truth of every game: its state is the replay of these canonical commands in order.
CREATE TABLE turns (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    number    INTEGER NOT NULL CHECK (number >= 1),
    actor_id  INTEGER NOT NULL,
    command   TEXT    NOT NULL,
    played_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, number)
) WITHOUT ROWID;

CREATE TRIGGER turns_are_never_changed BEFORE UPDATE ON turns
BEGIN
    SELECT RAISE(ABORT, 'the turn log is append-only');
END;

CREATE TRIGGER turns_are_never_deleted BEFORE DELETE ON turns
BEGIN
    SELECT RAISE(ABORT, 'the turn log is append-only');
END;

-- Open offers only: an accepted draw is a turn in the log, a closed offer is deleted.
CREATE TABLE offers (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL CHECK (kind IN ('draw', 'takeback')),
    user_id    INTEGER NOT NULL,
    at_version INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;

-- Settings and preferences as key/value (JSON values): a new key needs no migration.
CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

CREATE TABLE user_prefs (
    user_id INTEGER NOT NULL,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (user_id, key)
) WITHOUT ROWID;

-- Wins, losses and draws are counted from games; ratings are sequential, so they are stored.
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    rating      REAL    NOT NULL,
    rated_games INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_by_guild ON ratings (guild_id, rating DESC);
