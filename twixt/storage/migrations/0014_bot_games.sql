-- 0014: the bot as a player. A challenge to the bot (or a Double TwixT one with bot seats)
-- keeps here what its seats' ids do not say (they say the level, see bot/service/bot_seats.py):
-- whether the bot grants takebacks; and, once its game has started, what the bot needs to
-- act after a restart:
-- - `awaiting`: the game may need the bot (a bot seat to move, a draw offer or takeback
--   request to answer). Set before the bot is asked and cleared once it has nothing to do,
--   so that a process that starts (or ticks) reads only these rows — an index of the games
--   awaiting the bot, not a scan of all games. When in doubt it is set: a look costs little.
-- - `hopeless0`/`hopeless1`: per team, the bot's turns in a row that it judged lost (it
--   resigns at the third), counted once per version (`counted_version`), so a search
--   repeated after a restart does not count twice.
-- - `busy_version`: the version at which the game was told the bot is busy (said once).
CREATE TABLE bot_games (
    challenge_id    INTEGER PRIMARY KEY REFERENCES challenges (id),
    guild_id        INTEGER NOT NULL,
    takebacks       INTEGER NOT NULL CHECK (takebacks IN (0, 1)),
    game_id         INTEGER UNIQUE REFERENCES games (id),
    awaiting        INTEGER NOT NULL DEFAULT 0 CHECK (awaiting IN (0, 1)),
    hopeless0       INTEGER NOT NULL DEFAULT 0 CHECK (hopeless0 >= 0),
    hopeless1       INTEGER NOT NULL DEFAULT 0 CHECK (hopeless1 >= 0),
    counted_version INTEGER NOT NULL DEFAULT -1,
    busy_version    INTEGER
);
CREATE INDEX bot_games_awaiting ON bot_games (guild_id, game_id) WHERE awaiting;
