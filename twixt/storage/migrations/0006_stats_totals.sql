-- 0006: running totals for `stats`, head-to-head and the leaderboard, so that they cost the
-- same at 100,000 finished games as at 100 (before, each read every game of the guild).
--
-- A game counts when it is finished, not aborted, and not continued from an imported opening
-- (games.opening IS NULL: a continued import is nobody's win or loss). Each seat of such a
-- game adds to its player's totals in the game's guild:
--   games  1
--   wins   1 if the seat is a winner (game_seats.winner)
--   losses 1 if the result is not a draw and the seat is not a winner
--   draws  1 if the result is a draw
-- and, for every player on the other team (both opponents in Double TwixT), the same wins,
-- losses and draws to the pair (user_id, other_id). Partners are not a pair.
--
-- The totals are added in the transaction that records the result (storage's _finish), and
-- only then: a game is finished once and never changes after. The rows below are the totals of
-- the games finished before this version, counted by the same rules. Ratings stay in `ratings`
-- (with rated_games); a player with totals but no rating is simply not on the leaderboard.
--
-- Portable SQL on purpose (CASE rather than summing comparisons; winner is 0/1 here, a boolean
-- in PostgreSQL, where `CASE WHEN winner` replaces `winner = 1`).

CREATE TABLE player_totals (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins     INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses   INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws    INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE pair_totals (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    other_id INTEGER NOT NULL,
    wins     INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses   INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws    INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    PRIMARY KEY (guild_id, user_id, other_id)
) WITHOUT ROWID;

-- The same totals counted from every game, the slow way: the backfill below, and what
-- `twixt check` compares the kept totals with.
CREATE VIEW counted_player_totals AS
SELECT g.guild_id, s.user_id, count(*) AS games,
       sum(CASE WHEN s.winner = 1 THEN 1 ELSE 0 END) AS wins,
       sum(CASE WHEN g.result <> 'draw' AND s.winner = 0 THEN 1 ELSE 0 END) AS losses,
       sum(CASE WHEN g.result = 'draw' THEN 1 ELSE 0 END) AS draws
FROM games g JOIN game_seats s ON s.game_id = g.id
WHERE g.status = 'finished' AND g.result <> 'aborted' AND g.opening IS NULL
GROUP BY g.guild_id, s.user_id;

CREATE VIEW counted_pair_totals AS
SELECT g.guild_id, me.user_id, them.user_id AS other_id,
       sum(CASE WHEN me.winner = 1 THEN 1 ELSE 0 END) AS wins,
       sum(CASE WHEN g.result <> 'draw' AND me.winner = 0 THEN 1 ELSE 0 END) AS losses,
       sum(CASE WHEN g.result = 'draw' THEN 1 ELSE 0 END) AS draws
FROM games g JOIN game_seats me ON me.game_id = g.id
JOIN game_seats them ON them.game_id = g.id AND them.team <> me.team
WHERE g.status = 'finished' AND g.result <> 'aborted' AND g.opening IS NULL
GROUP BY g.guild_id, me.user_id, them.user_id;

INSERT INTO player_totals (guild_id, user_id, games, wins, losses, draws)
SELECT guild_id, user_id, games, wins, losses, draws FROM counted_player_totals;

INSERT INTO pair_totals (guild_id, user_id, other_id, wins, losses, draws)
SELECT guild_id, user_id, other_id, wins, losses, draws FROM counted_pair_totals;

-- The leaderboard reads a page in rating order straight from this index, ties by user id.
DROP INDEX ratings_by_guild;
CREATE INDEX ratings_by_rank ON ratings (guild_id, rating DESC, user_id);
