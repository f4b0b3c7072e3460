"""The bot's facts beside a game (SQLite's migration 0014, PostgreSQL's 0011): whether it
grants takebacks, whether the game awaits it, its hopeless turns in a row, and whether the
game was told it is busy.

The rows are keyed by the challenge (a Double TwixT challenge with bot seats waits for its
people before there is a game) and joined to the game when it starts. The SQL is the same on
both back ends (written with `?`, run through either back end's connection; flags are 0/1 in
SQLite and booleans in PostgreSQL, written as bare conditions): the contract is
`EngineGameStore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from twixt.storage.shards import Shards
from twixt.storage.sql import SqlBase

COLUMNS = "game_id, guild_id, takebacks, awaiting, hopeless0, hopeless1, busy_version"

ADD = "INSERT INTO bot_games (challenge_id, guild_id, takebacks) VALUES (?, ?, ?)"
#: the game of a challenge to the bot has started: it awaits the bot until it is looked at
START = "UPDATE bot_games SET game_id = ?, awaiting = ? WHERE challenge_id = ?"
GET = f"SELECT {COLUMNS} FROM bot_games WHERE game_id = ?"
AWAIT = "UPDATE bot_games SET awaiting = ? WHERE game_id = ?"
#: a player's games in progress against the bot in a guild (through their seats' index)
OPEN_OF = ("SELECT count(*) FROM game_seats s JOIN games g ON g.id = s.game_id "
           "JOIN bot_games b ON b.game_id = g.id "
           "WHERE s.user_id = ? AND g.guild_id = ? AND g.status = 'active'")
#: note that the game was told the bot is busy at a version, unless it was already
BUSY = ("UPDATE bot_games SET busy_version = ? WHERE game_id = ? "
        "AND (busy_version IS NULL OR busy_version <> ?)")


def awaiting(shards: Shards | None) -> str:
    """The games awaiting the bot (of the guilds of `shards` only, when given), through the
    partial index on them: the cost follows how many await it, not how many games exist."""
    mine = "" if shards is None else f" AND {shards.sql()}"
    return f"SELECT game_id FROM bot_games WHERE awaiting{mine} ORDER BY game_id LIMIT ?"


def count(team: int) -> tuple[str, str]:
    """Count a bot turn of `team` as hopeless or not (a hopeless one adds one, any other
    starts again from 0), once per version: the UPDATE matches nothing when that version was
    counted already; the SELECT reads the count either way."""
    if team not in (0, 1):
        raise ValueError(f"a team is 0 or 1, not {team}")
    column = f"hopeless{team}"
    return (f"UPDATE bot_games SET {column} = CASE WHEN ? THEN {column} + 1 ELSE 0 END, "
            "counted_version = ? WHERE game_id = ? AND counted_version <> ?",
            f"SELECT {column} FROM bot_games WHERE game_id = ?")


@dataclass(frozen=True)
class EngineGame:
    """What the bot keeps beside a game it plays in: `takebacks` (whether it grants them),
    `awaiting` (the game may need it), `hopeless` (per team: its turns in a row judged lost)
    and `busy_version` (the version at which the game was told it is busy)."""

    game_id: int
    guild_id: int
    takebacks: bool
    awaiting: bool
    hopeless: tuple[int, int]
    busy_version: int | None


def engine_game_of(row: Sequence[Any] | None) -> EngineGame | None:
    if row is None:
        return None
    game_id, guild_id, takebacks, waiting, hopeless0, hopeless1, busy_version = row
    return EngineGame(game_id, guild_id, bool(takebacks), bool(waiting), (hopeless0, hopeless1),
                   busy_version)


class EngineGameStore(Protocol):
    """What the engine keeps beside the games it plays."""

    async def add_engine_challenge(self, challenge_id: int, guild_id: int,
                                takebacks: bool) -> None:
        """Keep what a challenge with bot seats says beyond its setup: whether the bot grants
        takebacks in its game."""

    async def start_engine_game(self, challenge_id: int, game_id: int) -> None:
        """The game of a challenge with bot seats has started: it awaits the bot (see
        `awaiting_bot_games`) until the bot has looked at it. Nothing for another challenge."""

    async def engine_game(self, game_id: int) -> EngineGame | None:
        """What the bot keeps beside a game; None for a game without bot seats."""

    async def await_engine(self, game_id: int, awaiting: bool) -> None:
        """Mark that a game may need the bot now (a bot seat to move, an offer to answer), or
        that it has nothing to do for it."""

    async def awaiting_engine_games(self, limit: int, *, shards: Shards | None = None
                                 ) -> tuple[int, ...]:
        """The ids of the games marked as awaiting the bot (of the guilds of `shards` only,
        when given), `limit` at most: an index of those, whatever the number of games."""

    async def count_hopeless(self, game_id: int, team: int, version: int,
                             hopeless: bool) -> int:
        """Count the bot's turn at `version` for `team` (0, 1): a hopeless one adds one to its
        turns in a row judged lost, any other starts them again; return the count. A version
        counted already is not counted again (a search repeated after a restart)."""

    async def claim_busy_notice(self, game_id: int, version: int) -> bool:
        """True the first time the game is to be told, at `version`, that the bot is busy;
        False ever after at that version."""

    async def open_engine_games(self, guild_id: int, user_id: int) -> int:
        """How many games in progress in the guild the user plays against (or beside) the
        bot."""


class SqlEngineGames(SqlBase):
    """`EngineGameStore` in SQL."""

    async def add_engine_challenge(self, challenge_id: int, guild_id: int,
                                takebacks: bool) -> None:
        async with self._write_one() as db:
            await db.execute(ADD, challenge_id, guild_id, takebacks)

    async def start_engine_game(self, challenge_id: int, game_id: int) -> None:
        async with self._write_one() as db:
            await db.execute(START, game_id, True, challenge_id)

    async def engine_game(self, game_id: int) -> EngineGame | None:
        async with self._read_one() as db:
            return engine_game_of(await db.fetch_one(GET, game_id))

    async def await_engine(self, game_id: int, awaiting: bool) -> None:
        async with self._write_one() as db:
            await db.execute(AWAIT, awaiting, game_id)

    async def awaiting_engine_games(self, limit: int, *, shards: Shards | None = None
                                 ) -> tuple[int, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(awaiting(shards), limit)
        return tuple(row[0] for row in found)

    async def count_hopeless(self, game_id: int, team: int, version: int,
                             hopeless: bool) -> int:
        update, select = count(team)
        async with self._write() as db:
            await db.execute(update, hopeless, version, game_id, version)
            return int(await db.fetch_value(select, game_id))

    async def claim_busy_notice(self, game_id: int, version: int) -> bool:
        async with self._write_one() as db:
            return await db.execute(BUSY, version, game_id, version) == 1

    async def open_engine_games(self, guild_id: int, user_id: int) -> int:
        async with self._read_one() as db:
            return int(await db.fetch_value(OPEN_OF, user_id, guild_id))
