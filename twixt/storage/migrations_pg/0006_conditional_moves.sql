-- 0006 (SQLite's 0009): conditional moves, each player's stored replies to the opponent's
-- next moves (text that the service writes and reads), one row a player and game. Kept apart
-- from the turn log, so that no record or export ever shows them; a row holds what the player
-- stored when the game was at `at_version` with `at_move` moves made. A game's end drops
-- its rows, in the transaction that ends it.

CREATE TABLE conditional_moves (
    game_id    bigint      NOT NULL REFERENCES games (id),
    user_id    bigint      NOT NULL,
    at_version integer     NOT NULL,
    at_move    integer     NOT NULL,
    plan       text        NOT NULL CHECK (length(plan) <= 4000),
    stored_at  timestamptz NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
