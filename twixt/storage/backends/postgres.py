"""The `Storage` protocol on PostgreSQL, through asyncpg: for a bot that outgrows one machine.
The statements both back ends share come from the subjects' modules (`backends.shared`), run through
`PostgresConnection`; what is PostgreSQL's own is here.

Same contract as `SqliteStorage`, different means. Connections come from a pool, so
transactions really run at once; what SQLite gets from its single writer is done here with
row locks and guarded statements:
- the version check is one guarded UPDATE (`version = expected AND status = 'active'`): of two
  racing turns the second waits for the first's row lock, re-reads the row and matches nothing;
- one active game per channel is a partial unique index, its violation `ChannelBusyError`;
- a challenge is locked (`FOR UPDATE`) while it is answered, cancelled or claimed, so an open
  place or the challenge itself is taken once;
- ratings are read `FOR UPDATE` (rows made first, in user order) in the result's transaction,
  so two games ending at once both count;
- reminders are claimed by `INSERT … ON CONFLICT DO NOTHING`: once, across every process.
Reads run in a read-only REPEATABLE READ transaction, so a game and its log agree.

Durability: a turn is acknowledged after COMMIT returns, which with PostgreSQL's defaults
(`fsync`, `synchronous_commit = on`) means its WAL record is flushed: it survives a killed bot
and a killed server alike. A turn without a result is a single statement (the guarded UPDATE
and the INSERT in one), so it costs one round trip and one commit; and the turns that wait in
line together share theirs (`postgres_line.TurnBatches`: one statement, each turn under its own
version check).

The pool, with a thousand games at once: every storage operation waits for a connection in
line (`_pooled`: `postgres_line.Line`, first come first served, in front of asyncpg's pool, whose
own queue lets a newcomer overtake a woken waiter, which then waits at the back again: the p99
of a turn was two and a half to four times its p50). And a connection goes back to the pool
without asyncpg's reset query, a second round trip a turn, because there is nothing to reset
(`PooledConnection`).

Times are `timestamptz`, ids `bigint`, flags `boolean`; the schema comes from the numbered
files in `twixt/storage/migrations_pg`, applied under an advisory lock so that processes starting
together apply each once.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any, Self, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from twixt.storage import challenges, clocks, ratings, rows, schema, sql, stats
from twixt.storage.backends.postgres_line import Line, PendingTurn, TurnBatches
from twixt.storage.backends.shared import SqlStorage
from twixt.storage.connection import Connection, DuplicateKeyError, Row
from twixt.storage.errors import (
    DatabaseError,
    DatabaseFault,
    StorageError,
    UnsupportedSchemaError,
)
from twixt.storage.games import write_turns
from twixt.storage.model import GameResult, Result, StoredGame
from twixt.storage.schema import Migration
from twixt.storage.shards import Shards

#: the advisory lock key under which migrations are applied ("twixt" in ASCII)
_MIGRATION_LOCK = 0x7477697874


def safe_url(url: str) -> str:
    """The URL without its password, fit for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def migrations() -> tuple[Migration, ...]:
    """The numbered SQL files shipped in `twixt/storage/migrations_pg`, in order, without gaps."""
    return schema.migrations("twixt.storage.migrations_pg")


@functools.lru_cache(maxsize=1024)
def _numbered(sql: str) -> str:
    """SQL written with `?` placeholders, as PostgreSQL's `$1, $2, …`."""
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _match: f"${next(counter)}", sql)


def _count(status: str) -> int:
    """The row count of a command status such as `UPDATE 1` or `INSERT 0 1` (0 for one without,
    such as `ANALYZE`)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _user_lock(owner_id: int, user_id: int) -> int:
    """The advisory lock key of one user's rows of an owner: their vacations in a guild, their
    notes or waiting move in a game (a signed 64-bit number; two users sharing one only wait
    for each other)."""
    return ((owner_id * 1_000_003) ^ user_id) % (1 << 63)


#: PostgreSQL's failures that name a fault (SQLSTATE classes, as asyncpg's exceptions)
_FAULTS = ((asyncpg.DiskFullError, DatabaseFault.FULL),
           (asyncpg.ReadOnlySQLTransactionError | asyncpg.InsufficientPrivilegeError,
            DatabaseFault.READ_ONLY),
           (asyncpg.PostgresConnectionError | asyncpg.OperatorInterventionError
            | asyncpg.InterfaceError | OSError, DatabaseFault.UNREACHABLE))


def _failed(error: BaseException) -> DatabaseError | None:
    """PostgreSQL's own failures (server gone, disk full, …) as our one-line error, with its
    fault; a broken constraint stays what it is."""
    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return None
    if isinstance(error, asyncpg.PostgresError | asyncpg.InterfaceError
                  | asyncpg.InternalClientError | OSError):
        fault = next((fault for kinds, fault in _FAULTS if isinstance(error, kinds)),
                     DatabaseFault.BROKEN)
        return DatabaseError(f"the database failed: {error.__class__.__name__}: {error}",
                             fault)
    return None


def _refusal(error: BaseException) -> BaseException:
    """What the callers of a batch of turns are told when writing it failed."""
    if isinstance(error, Exception):
        return _failed(error) or error
    return DatabaseError("the database failed: the storage closed before the turn was "
                         "written", DatabaseFault.UNREACHABLE)


def _reraise(error: BaseException) -> None:
    """Raise PostgreSQL's own failure as `_failed` names it; anything else is left to raise."""
    failed = _failed(error)
    if failed is not None:
        raise failed from error


class PostgresConnection:
    """An asyncpg connection behind the seam (`storage.connection`): `?` placeholders
    numbered, lists of ids passed as one array, and a broken unique key raised as
    `DuplicateKeyError`."""

    for_update = " FOR UPDATE"
    for_share = " FOR SHARE"
    #: a WITH may hold a write whose RETURNING the rest of the statement reads
    writes_in_with = True

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        return _count(await self._run(self.conn.execute, sql, args))

    async def execute_many(self, sql: str, args: Sequence[Sequence[Any]]) -> None:
        if args:
            await self._run(self.conn.executemany, sql, (args,))

    async def fetch_all(self, sql: str, *args: Any) -> list[Row]:
        return cast(list[Row], await self._run(self.conn.fetch, sql, args))

    async def fetch_one(self, sql: str, *args: Any) -> Row | None:
        return cast(Row | None, await self._run(self.conn.fetchrow, sql, args))

    async def fetch_value(self, sql: str, *args: Any) -> Any:
        return await self._run(self.conn.fetchval, sql, args)

    def among(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        return f"{column} = ANY(?::bigint[])", (list(values),)

    def table_of(self, name: str, columns: Sequence[tuple[str, str]],
                 values: Sequence[Sequence[Any]]) -> tuple[str, tuple[Any, ...]]:
        arrays = ", ".join(f"?::{kind}[]" for _column, kind in columns)
        names = ", ".join(column for column, _kind in columns)
        return (f"unnest({arrays}) AS {name}({names})",
                tuple([row[i] for row in values] for i in range(len(columns))))

    async def lock_user(self, owner_id: int, user_id: int) -> None:
        """Hold `_user_lock` until the transaction ends: what such a write reads and then
        writes must not race another process's write of the same user's rows (READ COMMITTED
        would let both read the same and one of them break a unique key)."""
        await self.execute("SELECT pg_advisory_xact_lock(?)", _user_lock(owner_id, user_id))

    async def _run(self, method: Any, sql: str, args: Sequence[Any]) -> Any:
        try:
            return await method(_numbered(sql), *args)
        except asyncpg.UniqueViolationError as error:
            raise DuplicateKeyError(error.constraint_name or "") from error


class PooledConnection(asyncpg.Connection):  # type: ignore[misc]  # asyncpg is untyped
    """A pooled asyncpg connection that goes back to the pool without a reset query unless a
    block left it by an error (`reset_on_release`).

    asyncpg's pool resets every connection handed back: it rolls back a transaction left
    open (known without asking the server) and then runs `pg_advisory_unlock_all(); CLOSE
    ALL; UNLISTEN *; RESET ALL`, a second round trip after a one-statement turn. That query
    has nothing to undo here, because the storage leaves nothing in a session: it never runs
    SET (a read's isolation and read-only are options of its BEGIN, gone at its end), LISTEN,
    a session advisory lock (its locks are `pg_advisory_xact_lock`, released at COMMIT or
    ROLLBACK), nor a cursor outside a transaction; its transactions are closed by their block
    (and asyncpg rolls back one left open, reset query or not); and the prepared statements
    asyncpg caches are meant to outlive a hand-back (the reset query leaves them too).
    `tests/storage/test_postgres_pool.py` holds the session clean after every kind of write.

    The safety net: a connection whose block raised, or was cancelled, may be left in a
    state we did not foresee, and gets the full reset on its way back. (The migrations, which
    may set anything, run on a connection of their own, never pooled.)
    """

    __slots__ = ("_reset_pending",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reset_pending = False

    def reset_on_release(self) -> None:
        """Run asyncpg's full reset query when this connection is next handed back."""
        self._reset_pending = True

    def get_reset_query(self) -> str:
        """What the pool runs on a hand-back: nothing, unless `reset_on_release` was asked."""
        if not self._reset_pending:
            return ""
        self._reset_pending = False
        return cast(str, super().get_reset_query())


@asynccontextmanager
async def _reaching(where: str) -> AsyncIterator[None]:
    """Connecting: a server that is down, refuses us or a URL that names none is one line
    (`DatabaseError`); a fault the table names more closely (a read-only role, a full disk)
    keeps its name."""
    try:
        yield
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, ValueError) as error:
        fault = next((fault for kinds, fault in _FAULTS if isinstance(error, kinds)),
                     DatabaseFault.UNREACHABLE)
        raise DatabaseError(f"cannot use the PostgreSQL database {where}: "
                            f"{error.__class__.__name__}: {error}", fault) from error


async def _ready_for_turns(conn: Any) -> None:
    """Prepare the turns' statement on a connection as the pool makes it (asyncpg keeps it for
    the connection's life), by running it with no turns, which writes nothing.

    Its first use on a connection costs a parse and asyncpg's look-up of the array types it
    takes: 10-60 ms on a connection just made, more on a busy machine. Paid by the first batch
    of turns, it delayed up to 256 players and every batch in line behind them (the first
    turns of a thousand games: the slowest 1% of a round at times). Paid here, it falls on
    `open` or on whatever made the pool grow.
    """
    await write_turns(PostgresConnection(conn), [])


class PostgresStorage(SqlStorage):
    """Games, turns and the rest in a PostgreSQL database. Open with `await
    PostgresStorage.open(url)`."""

    def __init__(self, url: str, pool: Any, connections: int) -> None:
        self.url = url
        self._pool = pool
        #: the line for a connection (`postgres_line`): no operation overtakes one that has waited
        #: longer; with a place a connection, one let through finds a connection free
        self._line = Line(connections)
        self._turns = TurnBatches(self._line, self._write_turns, _refusal)
        #: one batch of turns written at a time. Side by side, batches only share the
        #: server's cores and all finish late together; one after another, each lands as
        #: soon as it can, in the order asked (the p99 of a turn at 1,000 games: 1.6-2.2
        #: times its p50 side by side, 1.2-1.4 one at a time). A batch waits for at most
        #: one statement, and holds its connection meanwhile (one of the pool's).
        self._writing = Line(1)

    @classmethod
    async def open(cls, url: str, *, min_connections: int = 1,
                   max_connections: int = 10) -> Self:
        """Connect, upgrade the schema, then open the pool.

        The schema is upgraded on a connection of its own, before the pool: so every pooled
        connection is made on the current schema, ready for turns (`_ready_for_turns`).
        Raises `DatabaseError` (one line, database untouched) when the server cannot be
        reached or the database holds another program's tables, and `UnsupportedSchemaError`
        for a newer schema.
        """
        where = safe_url(url)
        async with _reaching(where):
            conn = await asyncpg.connect(url)
        try:
            await _migrate(PostgresConnection(conn), where, migrations())
        except BaseException as error:
            conn.terminate()
            _reraise(error)
            raise
        await conn.close()
        async with _reaching(where):
            pool = await asyncpg.create_pool(url, min_size=min_connections,
                                             max_size=max_connections,
                                             connection_class=PooledConnection,
                                             init=_ready_for_turns)
        return cls(url, pool, max_connections)

    async def close(self) -> None:
        await self._turns.close()
        await self._pool.close()

    # --- transactions ------------------------------------------------------------------

    @asynccontextmanager
    async def _pooled(self) -> AsyncIterator[Any]:
        """A connection of the pool, taken in turn: first come, first served."""
        async with self._line.place(), self._connected() as conn:
            yield conn

    @asynccontextmanager
    async def _connected(self) -> AsyncIterator[Any]:
        """A connection of the pool, for the holder of a place in line. A block that raises
        hands it back reset in full (see `PooledConnection`)."""
        async with self._pool.acquire() as conn:
            # bound to the connection itself: the pool's proxy lets go of one that was closed
            reset_on_release = conn.reset_on_release
            try:
                yield conn
            except BaseException:
                reset_on_release()
                raise

    @asynccontextmanager
    async def _connection(self, **transaction: Any) -> AsyncIterator[PostgresConnection]:
        """A pooled connection, in a transaction with these options unless given None;
        PostgreSQL's own failures come out as `DatabaseError`."""
        try:
            async with self._pooled() as conn:
                if transaction.get("isolation", "") is None:
                    yield PostgresConnection(conn)
                else:
                    async with conn.transaction(**transaction):
                        yield PostgresConnection(conn)
        except Exception as error:
            _reraise(error)
            raise

    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """One READ COMMITTED write transaction; what it must not race is guarded or locked."""
        return self._connection()

    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """One read-only snapshot, so that a game and its log agree."""
        return self._connection(isolation="repeatable_read", readonly=True)

    def _single(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for one statement, which commits (atomically) on its own."""
        return self._connection(isolation=None)

    _read_one = _write_one = _single

    #: one player's games walked in the index game_seats_by_user, newest first, each game
    #: then looked up by its key, so a page deep in the list costs its offset in index
    #: entries however many games there are. The look-up is a subquery run for each seat
    #: (LATERAL, kept apart by `OFFSET 0`, which PostgreSQL never pulls up into a join): as
    #: a join or an `IN`, the planner may merge the player's seats with every game of the
    #: guild, newest first, and the more games the guild has the more it steps over.
    #: The player, the limit and the offset are subqueries, values the planner does not see.
    #: A prepared statement is planned for its values (a custom plan) until a plan for any
    #: values (a generic one) is estimated no dearer; for a player of many games, knowing
    #: the page's 11 rows, a custom plan looked the cheaper, so the page was planned anew at
    #: every call once the tables were large (a third of a millisecond at 100k games, where
    #: it is read in half that). Hidden, they leave both plans the same: one plan for all
    _PLAYER_GAMES = ("game_seats CROSS JOIN LATERAL (SELECT * FROM games "
                     "WHERE games.id = game_seats.game_id OFFSET 0) AS games",
                     "game_seats.game_id", "game_seats.user_id = (SELECT ?::bigint)",
                     " LIMIT (SELECT ?::bigint) OFFSET (SELECT ?::bigint)")

    # --- what PostgreSQL does its own way ---------------------------------------------------

    async def expire_challenges(self, now: datetime | None = None) -> int:
        # one statement on the partial index by expiry: with nothing expired it writes nothing
        async with self._single() as db:
            return await db.execute(challenges.EXPIRE, rows.utc(now))

    async def _append_turn(self, *turn: Any) -> int:
        # with the turns waiting beside it: one statement, one commit (`postgres_line`)
        return await self._turns.append(PendingTurn(*turn))

    async def _write_turns(self, turns: list[PendingTurn]) -> None:
        """Write a batch of turns in one statement (`games.write_turns`), each under its own
        version check, once the batch before it is written (`_writing`); a turn that matched
        nothing is told why (`sql.refuse`, which asks again, alone)."""
        if not turns:
            return
        async with self._writing.place(), self._connected() as conn:
            db = PostgresConnection(conn)
            landed = await write_turns(db, turns)
            for turn in turns:
                if turn.game_id in landed:
                    turn.answer(turn.expected_version + 1)
                    continue
                try:
                    await sql.refuse(db, turn.game_id, turn.expected_version)
                except StorageError as refusal:
                    turn.refuse(refusal)

    async def claim_due_games(self, now: datetime, lease_until: datetime, limit: int = 100, *,
                              shards: Shards | None = None) -> tuple[StoredGame, ...]:
        mine = "" if shards is None else f" AND {shards.sql()}"
        async with self._single() as db:  # one statement: nothing due costs one round trip
            # rows another process is claiming are skipped, not waited for; a row it claimed
            # and committed meanwhile is looked at again and no longer due
            claimed = await db.fetch_all(
                "UPDATE games SET wake_at = ? WHERE id IN (SELECT id FROM games "
                f"WHERE wake_at IS NOT NULL AND wake_at <= ?{mine} ORDER BY wake_at LIMIT ? "
                "FOR UPDATE SKIP LOCKED) RETURNING id",
                rows.utc(lease_until), rows.utc(now), limit)
        if not claimed:
            return ()
        async with self._read() as db:
            return await sql.games_by_id(db, [row[0] for row in claimed])

    async def reclaim_reminders(self, claimed_before: datetime, now: datetime,
                                limit: int = 100, *, shards: Shards | None = None
                                ) -> tuple[tuple[int, int, str], ...]:
        mine = clocks.reminders_of(shards)
        async with self._single() as db:
            # one statement: a reminder another process is claiming again is skipped, one it
            # has claimed again and committed is no longer old enough
            found = await db.fetch_all(
                "UPDATE reminders SET sent_at = ? WHERE (game_id, version, stage) IN "
                "(SELECT game_id, version, stage FROM reminders WHERE delivered_at IS NULL "
                f"AND sent_at < ?{mine} ORDER BY sent_at LIMIT ? FOR UPDATE SKIP LOCKED) "
                "AND delivered_at IS NULL AND sent_at < ? RETURNING game_id, version, stage",
                rows.utc(now), rows.utc(claimed_before), limit, rows.utc(claimed_before))
        return tuple(sorted((game_id, version, stage) for game_id, version, stage in found))

    async def _rate(self, db: Connection, guild_id: int, result: GameResult,
                    sides: tuple[tuple[int, ...], tuple[int, ...]], at: datetime) -> None:
        """New ratings from the stored ones, read and written in the caller's transaction.

        The players' rows are made first (in user order, so that two results at once cannot
        deadlock) and then read `FOR UPDATE`: a second game ending at once waits and reads the
        first one's ratings. A row made here holds a newcomer's start values.
        """
        ordered = sorted({*sides[0], *sides[1]})
        start = ratings.Rating()
        await db.execute(
            "INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, "
            "rated_games, updated_at) SELECT ?, u, ?, ?, ?, 0, ? FROM unnest(?::bigint[]) AS u "
            "ORDER BY u ON CONFLICT DO NOTHING", guild_id, start.rating, start.deviation,
            start.volatility, at, ordered)
        users, values = db.among("user_id", ordered)
        found = await db.fetch_all(stats.RATINGS.format(users=users)
                                   + " ORDER BY user_id FOR UPDATE", guild_id, *values)
        current = {row[0]: stats.stored_rating(tuple(row)[1:]) for row in found}
        rated = stats.new_ratings(Result(result.result), sides, current, at)
        await db.execute_many(
            "UPDATE ratings SET rating = ?, deviation = ?, volatility = ?, "
            "rated_games = rated_games + 1, updated_at = ? WHERE guild_id = ? AND user_id = ?",
            [(new.rating, new.deviation, new.volatility, at, guild_id, user_id)
             for user_id, new in rated])


# --- the schema ------------------------------------------------------------------------------

async def _migrate(db: PostgresConnection, where: str, available: tuple[Migration, ...]) -> int:
    """Apply the pending migrations in one transaction; return the version.

    An advisory lock makes processes that start together take turns, and each reads the
    version inside it, so none applies a migration twice. A database with tables but no
    record of ours belongs to another program and is left untouched.
    """
    async with db.conn.transaction():
        await db.execute("SELECT pg_advisory_xact_lock(?)", _MIGRATION_LOCK)
        if not await db.fetch_value("SELECT to_regclass('schema_migrations') IS NOT NULL"):
            if await db.fetch_value("SELECT count(*) FROM pg_tables "
                                 "WHERE schemaname = current_schema()"):
                raise DatabaseError(f"{where} holds the tables of another program; it was "
                                    "left untouched")
            await db.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY, "
                             "name text NOT NULL, applied_at timestamptz NOT NULL "
                             "DEFAULT now())")
        current: int = await db.fetch_value(schema.APPLIED_VERSION)
        if current > len(available):
            raise UnsupportedSchemaError(
                f"{where} has schema version {current} but this bot knows only up to "
                f"{len(available)}: upgrade the bot; the database was left untouched")
        for migration in available[current:]:
            await db.conn.execute(migration.sql)  # no arguments: several statements may run
            await db.execute(schema.RECORD_MIGRATION, migration.version, migration.name)
        # a write that changes nothing: a database or role that may not write is refused
        # here, at the start, not at the first move
        await db.execute("DELETE FROM schema_migrations WHERE false")
    return len(available)
