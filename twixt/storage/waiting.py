"""Whose move each game waits for, and the players' daily digests (SQLite's migration 0015,
PostgreSQL's 0012): what "where is it my move?" reads.

A game's row says which person it waits for (`to_move_id`), until when (`due_at`, a clocked
turn's deadline) and since when (`waiting_since`); the service writes them with each turn, in
the statement that stores it, and a partial index on them holds only the games in progress
that wait for a person. So a player's waiting games are one index lookup of their own rows,
whatever the number of games and players (benchmarks/digest_bench.py measures it at 100,000
games). The SQL is the same on both back ends (written with `?`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from twixt.storage import rows
from twixt.storage.model import StoredGame
from twixt.storage.rows import moment
from twixt.storage.sql import SqlBase, games_by_id


@dataclass(frozen=True)
class Waiting:
    """Whose move a game waits for: a person (`user_id`; None for the bot's seat or a game
    over), until when in a clocked game (`due_at`) and since when (`since`)."""

    user_id: int | None
    due_at: datetime | None
    since: datetime


@dataclass(frozen=True)
class WaitingGame:
    """A game in progress that waits for a player's move, with its deadline and since when."""

    game: StoredGame
    due_at: datetime | None
    since: datetime


@dataclass(frozen=True)
class StoredDigest:
    """A player's daily digest: at `hour` (0-23) in time zone `zone` (an IANA name), said in
    `locale` (the player's language when they asked for it), next at `next_at` (UTC)."""

    user_id: int
    hour: int
    zone: str
    locale: str
    next_at: datetime


#: a game's waiting state, set beside the turn that leads to it (the game's id last)
SET = "to_move_id = ?, due_at = ?, waiting_since = ?"
#: the games that wait for a person's move, most urgent first: a clocked turn's deadline,
#: soonest first, then the longest waiting (through the partial index `games_waiting_for`)
WAITING_FOR = ("SELECT id, due_at, waiting_since FROM games WHERE to_move_id = ? "
               "AND status = 'active' AND to_move_id IS NOT NULL "
               "ORDER BY due_at IS NULL, due_at, waiting_since, id LIMIT ?")
DIGEST_COLUMNS = "user_id, hour, zone, locale, next_at"
GET_DIGEST = f"SELECT {DIGEST_COLUMNS} FROM digests WHERE user_id = ?"
SET_DIGEST = ("INSERT INTO digests (user_id, hour, zone, locale, next_at) "
              "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET hour = excluded.hour, "
              "zone = excluded.zone, locale = excluded.locale, next_at = excluded.next_at")
DROP_DIGEST = "DELETE FROM digests WHERE user_id = ?"
#: the digests due by a time, soonest first (through `digests_due`)
DUE_DIGESTS = f"SELECT {DIGEST_COLUMNS} FROM digests WHERE next_at <= ? ORDER BY next_at LIMIT ?"
#: a digest moved on to its next day, once: by the process whose claim this is
ADVANCE_DIGEST = "UPDATE digests SET next_at = ? WHERE user_id = ? AND next_at = ?"


def read_digest(row: Sequence[Any]) -> StoredDigest:
    """A digest from a `DIGEST_COLUMNS` row."""
    user_id, hour, zone, locale, next_at = row
    return StoredDigest(int(user_id), int(hour), str(zone), str(locale), moment(next_at))


class WaitingStore(Protocol):
    """Whose move each game waits for, and the daily digests."""

    async def set_waiting(self, game_id: int, waiting: Waiting) -> None:
        """Say whose move an active game waits for (a game just begun; turns say it in
        `append_turn`)."""

    async def waiting_games(self, user_id: int, limit: int) -> tuple[WaitingGame, ...]:
        """The games in progress, in any server or DM, that wait for `user_id`'s move, most
        urgent first (the soonest deadline, then the longest waiting), at most `limit`: one
        index lookup of the player's own games."""

    async def digest(self, user_id: int) -> StoredDigest | None:
        """A player's daily digest, if they asked for one."""

    async def set_digest(self, digest: StoredDigest) -> None:
        """Ask for a daily digest (or change its hour or zone)."""

    async def drop_digest(self, user_id: int) -> bool:
        """No more digests; whether there was one."""

    async def due_digests(self, now: datetime, limit: int) -> tuple[StoredDigest, ...]:
        """The digests due by `now`, soonest first, at most `limit` (an index range)."""

    async def advance_digests(self, moves: Sequence[tuple[StoredDigest, datetime]]
                              ) -> tuple[int, ...]:
        """Move due digests on, each to its next time, in one transaction; the players whose
        digest this call moved — not one another process (or an earlier round) moved
        already — so that each is sent once."""


class SqlWaiting(SqlBase):
    """`WaitingStore` in SQL."""

    async def set_waiting(self, game_id: int, waiting: Waiting) -> None:
        async with self._write_one() as db:
            await db.execute(f"UPDATE games SET {SET} WHERE id = ?", waiting.user_id,
                             None if waiting.due_at is None else rows.utc(waiting.due_at),
                             rows.utc(waiting.since), game_id)

    async def waiting_games(self, user_id: int, limit: int) -> tuple[WaitingGame, ...]:
        async with self._read() as db:
            found = await db.fetch_all(WAITING_FOR, user_id, limit)
            games = {game.id: game for game in
                     await games_by_id(db, [row[0] for row in found])} if found else {}
        return tuple(WaitingGame(games[row[0]], rows.maybe_moment(row[1]), rows.moment(row[2]))
                     for row in found if row[0] in games)

    async def digest(self, user_id: int) -> StoredDigest | None:
        async with self._read() as db:
            row = await db.fetch_one(GET_DIGEST, user_id)
        return None if row is None else read_digest(row)

    async def set_digest(self, digest: StoredDigest) -> None:
        async with self._write() as db:
            await db.execute(SET_DIGEST, digest.user_id, digest.hour, digest.zone,
                             digest.locale, rows.utc(digest.next_at))

    async def drop_digest(self, user_id: int) -> bool:
        async with self._write() as db:
            return await db.execute(DROP_DIGEST, user_id) == 1

    async def due_digests(self, now: datetime, limit: int) -> tuple[StoredDigest, ...]:
        async with self._read() as db:
            found = await db.fetch_all(DUE_DIGESTS, rows.utc(now), limit)
        return tuple(read_digest(row) for row in found)

    async def advance_digests(self, moves: Sequence[tuple[StoredDigest, datetime]]
                              ) -> tuple[int, ...]:
        moved = []
        async with self._write() as db:
            for digest, next_at in moves:
                if await db.execute(ADVANCE_DIGEST, rows.utc(next_at), digest.user_id,
                                    rows.utc(digest.next_at)) == 1:
                    moved.append(digest.user_id)
        return tuple(moved)
