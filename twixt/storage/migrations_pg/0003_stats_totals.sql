-- 0003 (SQLite's 0006): running totals for `stats`, head-to-head and the leaderboard, so that
-- they cost the same at 100,000 finished games as at 100. The rules of what counts are those
-- of SQLite's 0006 (a finished game, not aborted, not continued from an imported opening);
-- storage adds each game to them in the transaction that records its result. The rows below
-- are the totals of the games finished before this version.

CREATE TABLE player_totals (
    guild_id bigint  NOT NULL,
    user_id  bigint  NOT NULL,
    games    integer NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins     integer NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses   integer NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws    integer NOT NULL DEFAULT 0 CHECK (draws >= 0),
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE pair_totals (
    guild_id bigint  NOT NULL,
    user_id  bigint  NOT NULL,
    other_id bigint  NOT NULL,
    wins     integer NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses   integer NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws    integer NOT NULL DEFAULT 0 CHECK (draws >= 0),
    PRIMARY KEY (guild_id, user_id, other_id)
);

INSERT INTO player_totals (guild_id, user_id, games, wins, losses, draws)
SELECT g.guild_id, s.user_id, count(*),
       count(*) FILTER (WHERE s.winner),
       count(*) FILTER (WHERE g.result <> 'draw' AND NOT s.winner),
       count(*) FILTER (WHERE g.result = 'draw')
FROM games g JOIN game_seats s ON s.game_id = g.id
WHERE g.status = 'finished' AND g.result <> 'aborted' AND g.opening IS NULL
GROUP BY g.guild_id, s.user_id;

INSERT INTO pair_totals (guild_id, user_id, other_id, wins, losses, draws)
SELECT g.guild_id, me.user_id, them.user_id,
       count(*) FILTER (WHERE me.winner),
       count(*) FILTER (WHERE g.result <> 'draw' AND NOT me.winner),
       count(*) FILTER (WHERE g.result = 'draw')
FROM games g JOIN game_seats me ON me.game_id = g.id
JOIN game_seats them ON them.game_id = g.id AND them.team <> me.team
WHERE g.status = 'finished' AND g.result <> 'aborted' AND g.opening IS NULL
GROUP BY g.guild_id, me.user_id, them.user_id;

-- The leaderboard reads a page in rating order straight from this index, ties by user id.
DROP INDEX ratings_by_guild;
CREATE INDEX ratings_by_rank ON ratings (guild_id, rating DESC, user_id);
