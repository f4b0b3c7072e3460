"""The bot's facts beside a game (SQLite's migration 0014, PostgreSQL's 0011): whether it
grants takebacks, whether the game awaits it, its hopeless turns in a row, and whether the
game was told it is busy.

The rows are keyed by the challenge (a Double TwixT challenge with bot seats waits for its
people before there is a game) and joined to the game when it starts. The SQL is the same on
both back ends (written with `?`, run by `storage.common` through either back end's
connection; flags are 0/1 in SQLite and booleans in PostgreSQL, written as bare conditions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twixt.storage.shards import Shards

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


def engine_game(row: Sequence[Any] | None) -> EngineGame | None:
    if row is None:
        return None
    game_id, guild_id, takebacks, waiting, hopeless0, hopeless1, busy_version = row
    return EngineGame(game_id, guild_id, bool(takebacks), bool(waiting), (hopeless0, hopeless1),
                   busy_version)
