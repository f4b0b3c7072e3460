-- 0008: what a player keeps beside a game for themselves alone (storage/private.py). Neither
-- table is part of the game: records, exports and replays read only the turn log.

-- Private notes, numbered 1, 2, … per player and game; only ever added, or cleared all
-- together. The service keeps a note to 1,000 characters and a player to 50 notes a game.
CREATE TABLE game_notes (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    text       TEXT    NOT NULL CHECK (length(text) BETWEEN 1 AND 1000),
    written_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id, number)
) WITHOUT ROWID;

-- A move checked and shown to its player (`settings confirm on`), played once they confirm
-- it while the game is still at `at_version`. One per player and game; a new one replaces it
-- and takes a new id (AUTOINCREMENT: never an old one's), which its Confirm button carries.
CREATE TABLE pending_moves (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    command    TEXT    NOT NULL,
    at_version INTEGER NOT NULL CHECK (at_version >= 0),
    created_at TEXT    NOT NULL,
    UNIQUE (game_id, user_id)
);
