-- 0009: conditional moves, each player's stored replies to the opponent's next moves (text
-- that the service writes and reads), one row a player and game. Kept apart from the turn
-- log, so that no record or export ever shows them; a row holds what the player stored when
-- the game was at `at_version` with `at_move` moves made. A game's end drops its rows, in
-- the transaction that ends it.

CREATE TABLE conditional_moves (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    at_version INTEGER NOT NULL,
    at_move    INTEGER NOT NULL,
    plan       TEXT    NOT NULL CHECK (length(plan) <= 4000),
    stored_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
