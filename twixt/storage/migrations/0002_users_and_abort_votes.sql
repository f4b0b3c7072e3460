-- 0002: the names users go by (for boards, stats and challenges made to them) and the votes
-- of players who asked to abort a game (it is called off when all of them have asked).

CREATE TABLE users (
    user_id    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL
);

CREATE TABLE abort_votes (
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
