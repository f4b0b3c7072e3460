"""The `Storage` protocol on one SQLite file, through aiosqlite: the statements both back ends
share come from the subjects' modules (`backends.shared`), run through `SqliteConnection`; what
is SQLite's own is here.

Three connections: one writer, owned by a group-commit task (`sqlite_group_commit`) that puts
the writes waiting together into one transaction, each in its own savepoint (SQLite has one writer
anyway, and interleaving two tasks' statements on one connection would mix their
transactions); one reader on aiosqlite's thread, which in WAL mode never waits for the
writer; and one for the reads by key a move makes (`_read_by`: a game and its seats, in one
snapshot; `_read_one_by`: a game's version, a player's settings, one statement and no
transaction), run at once on the event loop's thread, where a hand-over to a thread would cost
more than the read, and never waiting for a lock (what would wait goes to the reader).

Durability: WAL with synchronous=FULL, so a turn is on disk (fsynced) before `append_turn`
returns; it survives a killed process and a lost machine alike. NORMAL would survive SIGKILL
too (the WAL write is in the OS cache), but not a power cut; with group commit one fsync
serves every turn that arrived together, so FULL costs little.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from twixt.storage import challenges, clocks, rows, sql, stats
from twixt.storage.backends.shared import SqlStorage
from twixt.storage.backends.sqlite_group_commit import (
    Alike,
    GroupCommit,
    InlineConnection,
    connect_inline,
)
from twixt.storage.connection import Connection, DuplicateKeyError, Row
from twixt.storage.errors import DatabaseError, DatabaseFault
from twixt.storage.games import LOG_TURN, MOVE_GAME, TURN_COLUMNS, NewTurn, TurnFields, turn_row
from twixt.storage.model import GameResult, Result, StoredGame
from twixt.storage.schema import apply_migrations, check_file, failed, migrations, unusable
from twixt.storage.shards import Shards

DEFAULT_PATH = Path("twixt.db")

T = TypeVar("T")

#: the start of SQLite's message for a broken unique key, before the columns it names
_UNIQUE = "UNIQUE constraint failed: "


class SqliteConnection:
    """An aiosqlite connection behind the seam (`storage.connection`): moments pass as
    `rows.stamp` text, and a broken unique key raises `DuplicateKeyError`. A statement and its
    rows are one hand-over to aiosqlite's thread (`_run`): a hand-over costs more than a
    statement that reads a game."""

    #: one writer: what a write transaction reads stays as it is until it ends
    for_update = for_share = ""
    #: SQLite's WITH holds reads only
    writes_in_with = False

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, *args: Any) -> int:
        return await self._run(sql, args, _changed)

    async def execute_many(self, sql: str, args: Sequence[Sequence[Any]]) -> None:
        try:
            await self.db.executemany(sql, [_values(row) for row in args])
        except sqlite3.IntegrityError as error:
            raise _duplicate(error) from error

    async def fetch_all(self, sql: str, *args: Any) -> list[Row]:
        return await self._run(sql, args, sqlite3.Cursor.fetchall)

    async def fetch_one(self, sql: str, *args: Any) -> Row | None:
        return await self._run(sql, args, sqlite3.Cursor.fetchone)

    async def fetch_value(self, sql: str, *args: Any) -> Any:
        row = await self.fetch_one(sql, *args)
        return None if row is None else row[0]

    def among(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        return f"{column} IN ({', '.join('?' * len(values))})", tuple(values)

    def table_of(self, name: str, columns: Sequence[tuple[str, str]],
                 values: Sequence[Sequence[Any]]) -> tuple[str, tuple[Any, ...]]:
        first = ", ".join(f"? AS {column}" for column, _kind in columns)
        more = ", ".join("?" * len(columns))
        selects = [f"SELECT {first}", *(f"SELECT {more}" for _ in values[1:])]
        return (f"({' UNION ALL '.join(selects)}) AS {name}",
                tuple(value for row in values for value in row))

    async def lock_user(self, owner_id: int, user_id: int) -> None:
        """Nothing to take: a write transaction holds SQLite's one write lock already."""

    async def _run(self, sql: str, args: Sequence[Any], result: Callable[[sqlite3.Cursor], T]
                   ) -> T:
        """A statement run on aiosqlite's thread, and what `result` takes of its cursor there
        (its rows, or how many it changed), in the same hand-over."""
        values = _values(args)
        try:
            return await _on_its_thread(self.db, lambda raw: result(raw.execute(sql, values)))
        except sqlite3.IntegrityError as error:
            raise _duplicate(error) from error


class RawConnection(SqliteConnection):
    """Statements straight through a sqlite3 connection, on the thread that calls them: the
    group-commit writer's on the event loop's (a turn's two statements are the most frequent
    work of the bot), a whole read on the reader's (`SqliteStorage._read_by`). Its coroutines
    never wait, so a read of several statements can run to its end on the reader's thread."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, *args: Any) -> int:
        return self._raw(sql, args).rowcount

    async def execute_many(self, sql: str, args: Sequence[Sequence[Any]]) -> None:
        try:
            self.raw.executemany(sql, [_values(row) for row in args])
        except sqlite3.IntegrityError as error:
            raise _duplicate(error) from error

    async def fetch_all(self, sql: str, *args: Any) -> list[Row]:
        return self._raw(sql, args).fetchall()

    async def fetch_one(self, sql: str, *args: Any) -> Row | None:
        row: Row | None = self._raw(sql, args).fetchone()
        return row

    def _raw(self, sql: str, args: Sequence[Any]) -> sqlite3.Cursor:
        try:
            return self.raw.execute(sql, _values(args))
        except sqlite3.IntegrityError as error:
            raise _duplicate(error) from error


class WriterConnection(RawConnection):
    """The group-commit writer's connection (`InlineConnection`), whose statements run on the
    event loop's thread."""

    def __init__(self, db: InlineConnection) -> None:
        super().__init__(db.raw)


async def _on_its_thread(db: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """`work` of the sqlite3 connection under `db`, run on aiosqlite's thread: one hand-over
    there and back (through `_execute`, the method every statement of aiosqlite's goes
    through)."""
    return await db._execute(work, db._conn)  # type: ignore[no-untyped-call, no-any-return]


def _changed(cursor: sqlite3.Cursor) -> int:
    return cursor.rowcount


def _to_the_end(raw: sqlite3.Connection, work: Callable[[Connection], Coroutine[Any, Any, T]],
                snapshot: bool) -> T:
    """`work` run whole on the calling thread, its statements straight through
    (`RawConnection`: its coroutine never waits, so it runs to its end here): in one read
    snapshot (BEGIN ... ROLLBACK), or, for a read of one statement, in the snapshot SQLite
    gives each statement of its own (no transaction: two statements fewer)."""
    if not snapshot:
        return _run_whole(raw, work)
    raw.execute("BEGIN")
    try:
        return _run_whole(raw, work)
    finally:
        raw.execute("ROLLBACK")


def _run_whole(raw: sqlite3.Connection,
               work: Callable[[Connection], Coroutine[Any, Any, T]]) -> T:
    reading = work(RawConnection(raw))
    try:
        reading.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    reading.close()
    raise RuntimeError("a read waited for something other than its statements")


#: what SQLite says of a read it would have to wait for: the glance leaves it to the thread
_WOULD_WAIT = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def _glancer(path: Path) -> sqlite3.Connection:
    """The connection of the reads run at once on the event loop's thread: read only, and
    never waiting for a lock (busy_timeout 0: SQLITE_BUSY at once, the read then goes to the
    reader's thread)."""
    glancer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in ("foreign_keys = ON", "busy_timeout = 0", "query_only = 1"):
        glancer.execute(f"PRAGMA {pragma}")
    return glancer


def _values(args: Sequence[Any]) -> tuple[Any, ...]:
    """Statement values with each moment as sortable UTC text (`rows.stamp`)."""
    return tuple([rows.stamp(value) if isinstance(value, datetime) else value
                  for value in args])


def _duplicate(error: sqlite3.IntegrityError) -> Exception:
    """A broken unique key as `DuplicateKeyError`, naming its columns; other breaks stay as
    they are."""
    text = str(error)
    if text.startswith(_UNIQUE):
        return DuplicateKeyError(text.removeprefix(_UNIQUE))
    return error


async def _connect(path: Path, busy_timeout_ms: int, *, read_only: bool) -> aiosqlite.Connection:
    if read_only:
        db = await aiosqlite.connect(path, isolation_level=None)
        await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    else:  # waits for a lock only in its BEGIN, on its thread
        db = await connect_inline(path, busy_timeout_ms)
    for pragma in ("foreign_keys = ON", "synchronous = FULL", f"query_only = {int(read_only)}"):
        await db.execute(f"PRAGMA {pragma}")
    return db


class SqliteStorage(SqlStorage):
    """Games, turns and the rest in one SQLite file. Open with `await SqliteStorage.open()`."""

    def __init__(self, path: Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection, glancer: sqlite3.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        #: reads a game and the like at once, on the event loop's thread (`_read_by`)
        self._glancer = glancer
        assert isinstance(writer, InlineConnection), "the writer comes from _connect"
        self._file = _identity(path)
        self._writes = GroupCommit(writer, before_commit=self._check_file_is_ours,
                                   failed=functools.partial(_reraise, path=path))
        #: the writer's statements, for the group-commit writer alone
        self._writing = WriterConnection(writer)
        #: a turn that does not end its game, the write there are most of: the writer runs
        #: those queued together at once (`_turns_together`)
        self._turns = Alike(self._turns_together, self._turn_alone)
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | os.PathLike[str] = DEFAULT_PATH, *,
                   busy_timeout_ms: int = 5000) -> SqliteStorage:
        """Check the file, upgrade its schema, and connect.

        Raises `DatabaseError` (one clear line, file untouched) for a file that is not SQLite,
        is corrupt or belongs to another program, and `UnsupportedSchemaError` for a newer schema.
        """
        path = Path(path)
        available = migrations()
        await asyncio.to_thread(check_file, path, len(available))
        await asyncio.to_thread(apply_migrations, path, available)
        async with contextlib.AsyncExitStack() as opened:  # all three, or none left open
            try:
                writer = await _connect(path, busy_timeout_ms, read_only=False)
                opened.push_async_callback(writer.close)
                reader = await _connect(path, busy_timeout_ms, read_only=True)
                opened.push_async_callback(reader.close)
                glancer = await asyncio.to_thread(_glancer, path)
            except sqlite3.DatabaseError as error:
                raise unusable(path, error) from error
            opened.pop_all()
        return cls(path, writer, reader, glancer)

    def _check_file_is_ours(self) -> None:
        """Refuse to commit once the file was removed or replaced while the bot had it open:
        SQLite would go on writing to the removed file, and every turn acknowledged since
        would be gone at the next start. (A stat, a few microseconds a commit.)"""
        if _identity(self.path) != self._file:
            raise DatabaseError(f"{self.path} was removed or replaced while the bot was "
                                "running: nothing more is stored until the bot is restarted",
                                DatabaseFault.GONE)

    async def close(self) -> None:
        await self._writes.close()  # the writes already queued are committed first
        async with self._read_lock:
            await self._reader.close()
            await self._writer.close()
            self._glancer.close()

    # --- transactions ------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[SqliteConnection]:
        """One write, atomic and durable when the block is left (group commit).

        The block runs in a savepoint of a transaction shared with the writes queued with it
        (BEGIN IMMEDIATE has taken SQLite's write lock before it reads); if it raises, its
        work alone is undone. It is left once the shared COMMIT has returned. The block must
        not wait for anything but its statements: the other writes wait for it.
        """
        try:
            async with self._writes.transaction():
                yield self._writing
        except BaseException as error:
            _reraise(error, self.path)
            raise

    async def _write_by(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """One write run by the group-commit writer itself (`GroupCommit.run`): its caller is
        woken once, when the commit has returned."""
        try:
            return await self._writes.run(functools.partial(work, self._writing))
        except BaseException as error:
            _reraise(error, self.path)
            raise

    def _append_turn(self, *turn: Any) -> asyncio.Future[int]:
        # the writer's job itself, the future its caller awaits (SQLite's failures turned into
        # ours by `GroupCommit`'s `failed`): a turn's wait, the most frequent of all, with no
        # coroutine of its own to resume
        return self._writes.run_alike(self._turns, turn)

    async def _turn_given_up(self) -> None:
        await self._writes.settled()

    def _turn_alone(self, turn: TurnFields) -> Awaitable[int]:
        """A turn (`NewTurn`'s fields) in the caller's write (`_write_turn`)."""
        return self._write_turn(self._writing, NewTurn(*turn))

    def _turns_together(self, turns: list[TurnFields]) -> list[int] | None:
        """Turns (`NewTurn`'s fields) queued together, in two statements for them all
        (`executemany`), each turn under its version check; None when not every one moved its
        game on (a stale version, a finished game, one game's turn twice), which the writer
        then undoes to run each alone. Their new versions."""
        values = [turn_row(*turn, rows.utc_text) for turn in turns]
        (move, move_width), (log, log_width) = MOVE_GAME, LOG_TURN
        raw = self._writing.raw
        moves = values if move_width == len(TURN_COLUMNS) else [row[:move_width] for row in values]
        if raw.executemany(move, moves).rowcount != len(turns):
            return None
        raw.executemany(log, [row[:log_width] for row in values])
        return [turn[1] + 1 for turn in turns]

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[SqliteConnection]:
        """One read snapshot, so that a game and its log agree."""
        db = self._reader
        async with self._read_lock:
            try:
                await db.execute("BEGIN")
                yield SqliteConnection(db)
            except BaseException as error:
                _reraise(error, self.path)
                raise
            finally:
                await _rollback(db)

    @asynccontextmanager
    async def _read_one(self) -> AsyncIterator[SqliteConnection]:
        """A read of one statement: its own snapshot, with no BEGIN and ROLLBACK to hand over
        to the reader's thread."""
        async with self._read_lock:
            try:
                yield SqliteConnection(self._reader)
            except BaseException as error:
                _reraise(error, self.path)
                raise

    async def _read_by(self, work: Callable[[Connection], Coroutine[Any, Any, T]], *,
                       snapshot: bool = True) -> T:
        """One read snapshot of statements alone (a game and its seats), run at once on the
        event loop's thread: a read by key takes SQLite a few microseconds, a hand-over to a
        thread and back several times that, as for the writer's statements. In WAL mode a read
        waits for no writer; where SQLite would make it wait all the same (another process
        recovering the file), the glance gives up at once and the read runs whole on the
        reader's thread instead, in one hand-over (`_to_the_end`), which may wait. Without
        `snapshot`, a read of one statement (`_read_one_by`), with no transaction around it."""
        try:
            return _to_the_end(self._glancer, work, snapshot)
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode not in _WOULD_WAIT:
                _reraise(error, self.path)
                raise
        except sqlite3.DatabaseError as error:
            _reraise(error, self.path)
            raise
        async with self._read_lock:
            try:
                return await _on_its_thread(self._reader,
                                            lambda raw: _to_the_end(raw, work, snapshot))
            except BaseException as error:
                _reraise(error, self.path)
                raise

    def _read_one_by(self, work: Callable[[Connection], Coroutine[Any, Any, T]]
                     ) -> Coroutine[Any, Any, T]:
        """A read by key of one statement (a game's version, a player's settings): as
        `_read_by`, with no BEGIN and ROLLBACK around it, since SQLite reads each statement in
        a snapshot of its own. (A plain function returning the read: one coroutine fewer.)"""
        return self._read_by(work, snapshot=False)

    #: one player's games walked in the index game_seats_by_user, which is in newest-first
    #: order already, so a page deep in the list steps over index entries, sorting none
    _PLAYER_GAMES = ("game_seats CROSS JOIN games ON games.id = game_seats.game_id",
                     "game_seats.game_id", "game_seats.user_id = ?", sql.PAGE)

    # --- what SQLite does its own way ------------------------------------------------------

    async def expire_challenges(self, now: datetime | None = None) -> int:
        at = rows.utc(now)
        if not await self._exists("challenges", challenges.EXPIRED, at):
            return 0  # nothing to do is the usual case: no write lock
        async with self._write() as db:
            return await db.execute(challenges.EXPIRE, at)

    async def claim_due_games(self, now: datetime, lease_until: datetime, limit: int = 100, *,
                              shards: Shards | None = None) -> tuple[StoredGame, ...]:
        due = ("wake_at IS NOT NULL AND wake_at <= ? AND "
               + ("1 = 1" if shards is None else shards.sql()))
        if not await self._exists("games", due, rows.utc(now)):
            return ()  # nothing due (the usual case): no write at all
        async with self._write() as db:
            found = await db.fetch_all(
                f"UPDATE games SET wake_at = ? WHERE id IN (SELECT id FROM games WHERE {due} "
                "ORDER BY wake_at LIMIT ?) RETURNING id",
                rows.utc(lease_until), rows.utc(now), limit)
            claimed = [row[0] for row in found]
            if not claimed:
                return ()
            return await sql.games_by_id(db, claimed)

    async def reclaim_reminders(self, claimed_before: datetime, now: datetime,
                                limit: int = 100, *, shards: Shards | None = None
                                ) -> tuple[tuple[int, int, str], ...]:
        mine = clocks.reminders_of(shards)
        stale = f"delivered_at IS NULL AND sent_at < ?{mine}"
        if not await self._exists("reminders", stale, rows.utc(claimed_before)):
            return ()  # none waiting (the usual case): no write at all
        async with self._write() as db:
            found = await db.fetch_all(
                "UPDATE reminders SET sent_at = ? WHERE (game_id, version, stage) IN "
                f"(SELECT game_id, version, stage FROM reminders WHERE {stale} "
                "ORDER BY sent_at LIMIT ?) RETURNING game_id, version, stage",
                rows.utc(now), rows.utc(claimed_before), limit)
        return tuple(sorted((game_id, version, stage) for game_id, version, stage in found))

    async def _exists(self, table: str, where: str, *params: Any) -> bool:
        """Whether any row matches: a read that lets a claim skip its write when none would."""
        async with self._read() as db:
            return await db.fetch_one(f"SELECT 1 FROM {table} WHERE {where} LIMIT 1",
                                      *params) is not None

    async def _rate(self, db: Connection, guild_id: int, result: GameResult,
                    sides: tuple[tuple[int, ...], tuple[int, ...]], at: datetime) -> None:
        """New ratings from the stored ones, read and written in the caller's transaction
        (which holds the one write lock: nothing can change them in between)."""
        users, values = db.among("user_id", [*sides[0], *sides[1]])
        found = await db.fetch_all(stats.RATINGS.format(users=users), guild_id, *values)
        current = {row[0]: stats.stored_rating(row[1:]) for row in found}
        rated = stats.new_ratings(Result(result.result), sides, current, at)
        await db.execute_many(
            "INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, "
            "rated_games, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET "
            "rating = excluded.rating, deviation = excluded.deviation, "
            "volatility = excluded.volatility, rated_games = rated_games + 1, "
            "updated_at = excluded.updated_at",
            [(guild_id, user_id, new.rating, new.deviation, new.volatility, at)
             for user_id, new in rated])


async def _rollback(db: aiosqlite.Connection) -> None:
    """End whatever transaction is open, even one whose BEGIN is still queued.

    aiosqlite runs a connection's statements in order on its thread, so a ROLLBACK queued now
    runs after every statement of this task (also when the task was cancelled mid-way) and
    before those of the next lock holder. With nothing open it fails harmlessly.
    """
    with contextlib.suppress(sqlite3.OperationalError):
        await db.execute("ROLLBACK")


def _identity(path: Path) -> tuple[int, int] | None:
    """The file's device and inode, which stay while it is the same file (None: no file)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _reraise(error: BaseException, path: Path) -> None:
    """Turn SQLite's own failures (corruption, disk full, ...) into our one-line error."""
    if isinstance(error, sqlite3.DatabaseError) and not isinstance(error, sqlite3.IntegrityError):
        raise failed(path, error) from error
