-- 0011 (SQLite's 0014): the bot as a player — what a challenge to the bot keeps beside its
-- seats (takebacks), and what its game needs after a restart: whether it awaits the bot (an
-- index of those games), the bot's hopeless turns in a row per team, and whether the game
-- was told the bot is busy (see SQLite's 0014 and storage/bots.py).
CREATE TABLE bot_games (
    challenge_id    bigint  PRIMARY KEY REFERENCES challenges (id),
    guild_id        bigint  NOT NULL,
    takebacks       boolean NOT NULL,
    game_id         bigint  UNIQUE REFERENCES games (id),
    awaiting        boolean NOT NULL DEFAULT false,
    hopeless0       integer NOT NULL DEFAULT 0 CHECK (hopeless0 >= 0),
    hopeless1       integer NOT NULL DEFAULT 0 CHECK (hopeless1 >= 0),
    counted_version integer NOT NULL DEFAULT -1,
    busy_version    integer
);
CREATE INDEX bot_games_awaiting ON bot_games (guild_id, game_id) WHERE awaiting;
