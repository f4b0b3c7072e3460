"""What the SQL of every subject stands on, on either back end: the transactions a back end
opens (`SqlBase`), and the reads and the check that several subjects share, run inside the
caller's transaction through the connection seam (`storage.connection`).

Each subject's module (`games`, `challenges`, `clocks`, …) holds its contract (a Protocol), its
statements and its `Sql…` half over `SqlBase`; `backends.shared.SqlStorage` puts the halves
together, and each back end subclasses it with what is really its own.
"""

from __future__ import annotations

import abc
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Self, TypeVar

from twixt.storage import model, rows
from twixt.storage.connection import Connection, Row
from twixt.storage.errors import GameFinishedError, NotFoundError, StaleVersionError

#: a page of rows, appended to an ordered SELECT: the limit, then the offset
PAGE = " LIMIT ? OFFSET ?"
#: the optimistic-concurrency check of a change that is not a turn, as one guarded UPDATE (see
#: `check_version`; a turn's own is in `games.MOVE_GAMES`)
T = TypeVar("T")

CHECK_VERSION = ("UPDATE games SET updated_at = coalesce(?, updated_at) "
                 "WHERE id = ? AND version = ? AND status = 'active'")


class SqlBase(abc.ABC):
    """What each subject's SQL asks of a back end: its transactions, and closing."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Finish pending work and release the database."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @abc.abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """One read snapshot, so that a game and its log agree."""

    @abc.abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """One write, atomic and durable when the block is left."""

    async def _read_by(self, work: Callable[[Connection], Coroutine[Any, Any, T]]) -> T:
        """One read snapshot given as a function that only runs statements on the
        connection (the reads a move makes: a game and its seats): `_read`'s block by
        default; SQLite runs it whole on its reader's thread, in one hand-over."""
        async with self._read() as db:
            return await work(db)

    async def _read_one_by(self, work: Callable[[Connection], Coroutine[Any, Any, T]]) -> T:
        """A read of one statement given as a function (as `_read_by`), which needs no snapshot
        to agree with itself: `_read_by` by default; SQLite runs it with no transaction."""
        return await self._read_by(work)

    def _read_one(self) -> AbstractAsyncContextManager[Connection]:
        """A read of one statement, which needs no snapshot to agree with itself."""
        return self._read()

    def _write_one(self) -> AbstractAsyncContextManager[Connection]:
        """A write of one statement, atomic on its own."""
        return self._write()

    async def _write_by(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """One write given as a function that only runs statements on the connection (the
        writes there are most of): `_write`'s block by default; SQLite's group commit runs it
        in its writer, with no hand-over between tasks."""
        async with self._write() as db:
            return await work(db)

    async def _column_of(self, table: str, key: str, column: str,
                         keys: Sequence[int]) -> dict[int, Any]:
        """`column` of the rows of `table` whose `key` is one of `keys`, by key, in one
        statement; keys without a row are left out."""
        if not keys:
            return {}
        async with self._read_one() as db:
            return await column_of(db, table, key, column, keys)


# --- reading (inside a transaction) ----------------------------------------------------------

async def column_of(db: Connection, table: str, key: str, column: str,
                    keys: Sequence[int]) -> dict[int, Any]:
    """`column` of the rows of `table` whose `key` is one of `keys`, by key, in one
    statement; keys without a row are left out."""
    wanted = list(dict.fromkeys(keys))
    if not wanted:
        return {}
    among, values = db.among(key, wanted)
    found = await db.fetch_all(f"SELECT {key}, {column} FROM {table} WHERE {among}", *values)
    return {row[0]: row[1] for row in found}


async def only_row(db: Connection, sql: str, *args: Any) -> Row:
    """The row of a query that always returns one: RETURNING from a row just written."""
    row = await db.fetch_one(sql, *args)
    assert row is not None, "the query returns exactly one row"
    return row


async def read_game(db: Connection, game_id: int) -> model.StoredGame:
    games = await read_games(db, "id = ?", [game_id], 1)
    if not games:
        raise NotFoundError(f"there is no game {game_id}")
    return games[0]


async def read_games(db: Connection, where: str, params: Sequence[Any], limit: int | None,
                 offset: int = 0, source: tuple[str, str, str] = ("games", "id", PAGE)
                 ) -> tuple[model.StoredGame, ...]:
    """Games matching `where`, newest first, skipping `offset`; `limit` None means all.

    `source` is the rows read and the column that orders them (see `SqlGames._PLAYER_GAMES`).
    Skipped games are stepped over in an index, not read in full: seats are read for the games
    returned.
    """
    table, newest, page = source
    if limit is None:
        page = ""
    found = await db.fetch_all(f"SELECT {rows.GAME_COLUMNS} FROM {table} WHERE {where} "
                               f"ORDER BY {newest} DESC{page}",
                               *params, *(() if limit is None else (limit, offset)))
    seats = await children_of(db, "game_seats", "game_id", rows.SEAT_COLUMNS, "seat",
                            [row[0] for row in found])
    return tuple(rows.game(row, seats.get(row[0], [])) for row in found)


async def games_by_id(db: Connection, ids: Sequence[int]) -> tuple[model.StoredGame, ...]:
    """The games of these ids, newest first: those a claim has just taken, read back."""
    where, values = db.among("id", ids)
    return await read_games(db, where, values, None)


async def children_of(db: Connection, table: str, parent: str, columns: str, order: str,
                    parent_ids: Sequence[int]) -> dict[int, list[Any]]:
    """The rows of `table` belonging to each parent id, in `order`, by parent id."""
    if not parent_ids:
        return {}
    parents, values = db.among(parent, parent_ids)
    found = await db.fetch_all(f"SELECT {parent}, {columns} FROM {table} "
                               f"WHERE {parents} ORDER BY {parent}, {order}", *values)
    return rows.children(found)


# --- the version check (inside a write transaction) -----------------------------------------

async def check_version(db: Connection, game_id: int, expected_version: int,
                        at: datetime | None) -> None:
    """The optimistic-concurrency check of a change that is not a turn (an offer, conditional
    moves, an end without a turn): the game must be active at `expected_version`.

    One guarded UPDATE, so the check and the change that follows cannot be separated (on
    PostgreSQL it also locks the game's row until the transaction ends). `at` None leaves
    `updated_at` (the time of the last move) alone.
    """
    if await db.execute(CHECK_VERSION, at, game_id, expected_version) != 1:
        await refuse(db, game_id, expected_version)


async def refuse(db: Connection, game_id: int, expected_version: int) -> None:
    """Say why a guarded change matched nothing: no game, a finished one, or another version."""
    row = await db.fetch_one("SELECT version, status FROM games WHERE id = ?", game_id)
    if row is None:
        raise NotFoundError(f"there is no game {game_id}")
    if row[1] != model.GameStatus.ACTIVE:
        raise GameFinishedError(game_id)
    raise StaleVersionError(game_id, expected_version, row[0])
