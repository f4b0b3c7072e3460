"""The `Storage` protocol on PostgreSQL, through asyncpg: for a bot that outgrows one machine.

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
and the INSERT in one), so it costs one round trip and one commit.

Times are `timestamptz`, ids `bigint`, flags `boolean`; the schema comes from the numbered
files in `storage/migrations_pg`, applied under an advisory lock so that processes starting
together apply each once.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import fields
from datetime import datetime
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage import bots, events, private, ratings, rows, schema
from storage.bots import BotGame
from storage.errors import (
    ChallengeClosedError,
    ChannelBusyError,
    DatabaseError,
    DatabaseFault,
    EntrantTakenError,
    GameFinishedError,
    NotFoundError,
    PairingOpenedError,
    StaleVersionError,
    UnsupportedSchemaError,
)
from storage.events import Entrant, Event, EventGame, EventStatus
from storage.model import (
    CLOCK_SETTINGS,
    Answer,
    Challenge,
    ChallengeStatus,
    FirstMove,
    GameResult,
    GameSetup,
    GameStatus,
    GuildSettings,
    LoadedGame,
    Note,
    Offer,
    OfferKind,
    PendingMove,
    Player,
    PlayerStats,
    Result,
    StoredConditionals,
    StoredGame,
    UserPrefs,
    Vacation,
)
from storage.schema import Migration
from storage.shards import Shards

#: the advisory lock key under which migrations are applied ("twixt" in ASCII)
_MIGRATION_LOCK = 0x7477697874

Record = Any  # an asyncpg.Record: a tuple-like row (asyncpg ships no type information)


def safe_url(url: str) -> str:
    """The URL without its password, fit for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def migrations() -> tuple[Migration, ...]:
    """The numbered SQL files shipped in `storage/migrations_pg`, in order, without gaps."""
    return schema.migrations("storage.migrations_pg")


@functools.lru_cache(maxsize=1024)
def _numbered(sql: str) -> str:
    """SQL written with `?` placeholders, as PostgreSQL's `$1, $2, …`."""
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _match: f"${next(counter)}", sql)


#: a read that waits for, and holds off, a concurrent change of the row (an event's start
#: and its sign-ups)
_SHARE = " FOR SHARE"


def _count(status: str) -> int:
    """The row count of a command status such as `UPDATE 1` or `INSERT 0 1`."""
    return int(status.rsplit(" ", 1)[-1])


def _setup_values(setup: GameSetup) -> tuple[Any, ...]:
    """The setup as `rows.SETUP_COLUMNS`, with PostgreSQL's boolean for swap."""
    return (setup.size, setup.rules, setup.swap, setup.handicap, setup.time_control,
            setup.opening, setup.vacation)


def _user_lock(owner_id: int, user_id: int) -> int:
    """The advisory lock key of one user's rows of an owner: their vacations in a guild, their
    notes or waiting move in a game (a signed 64-bit number; two users sharing one only wait
    for each other)."""
    return ((owner_id * 1_000_003) ^ user_id) % (1 << 63)


async def _lock_user(db: _Db, owner_id: int, user_id: int) -> None:
    """Hold `_user_lock` until the transaction ends: what such a write reads and then writes
    must not race another process's write of the same user's rows (READ COMMITTED would let
    both read the same and one of them break a unique key)."""
    await db.execute("SELECT pg_advisory_xact_lock(?)", _user_lock(owner_id, user_id))


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


class _Db:
    """One connection, taking SQL with `?` placeholders."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> str:
        return cast(str, await self.conn.execute(_numbered(sql), *args))

    async def executemany(self, sql: str, args: Sequence[Sequence[Any]]) -> None:
        if args:
            await self.conn.executemany(_numbered(sql), args)

    async def fetch(self, sql: str, *args: Any) -> list[Record]:
        return cast(list[Record], await self.conn.fetch(_numbered(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Record | None:
        return await self.conn.fetchrow(_numbered(sql), *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self.conn.fetchval(_numbered(sql), *args)


class PostgresStorage:
    """Games, turns and the rest in a PostgreSQL database. Open with `await
    PostgresStorage.open(url)`."""

    def __init__(self, url: str, pool: Any) -> None:
        self.url = url
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, min_connections: int = 1,
                   max_connections: int = 10) -> PostgresStorage:
        """Connect and upgrade the schema.

        Raises `DatabaseError` (one line, database untouched) when the server cannot be
        reached or the database holds another program's tables, and `UnsupportedSchemaError`
        for a newer schema.
        """
        where = safe_url(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=min_connections,
                                             max_size=max_connections)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, ValueError) as error:
            raise DatabaseError(f"cannot use the PostgreSQL database {where}: "
                                f"{error.__class__.__name__}: {error}") from error
        try:
            async with pool.acquire() as conn:
                await _migrate(_Db(conn), where, migrations())
        except BaseException as error:
            await pool.close()
            failed = _failed(error)
            if failed is not None:
                raise failed from error
            raise
        return cls(url, pool)

    async def close(self) -> None:
        await self._pool.close()

    async def __aenter__(self) -> PostgresStorage:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- transactions ------------------------------------------------------------------

    @asynccontextmanager
    async def _connection(self, **transaction: Any) -> AsyncIterator[_Db]:
        """A pooled connection, in a transaction with these options unless given None;
        PostgreSQL's own failures come out as `DatabaseError`."""
        try:
            async with self._pool.acquire() as conn:
                if transaction.get("isolation", "") is None:
                    yield _Db(conn)
                else:
                    async with conn.transaction(**transaction):
                        yield _Db(conn)
        except Exception as error:
            failed = _failed(error)
            if failed is not None:
                raise failed from error
            raise

    def _write(self) -> AbstractAsyncContextManager[_Db]:
        """One READ COMMITTED write transaction; what it must not race is guarded or locked."""
        return self._connection()

    def _read(self) -> AbstractAsyncContextManager[_Db]:
        """One read-only snapshot, so that a game and its log agree."""
        return self._connection(isolation="repeatable_read", readonly=True)

    def _single(self) -> AbstractAsyncContextManager[_Db]:
        """A connection for one statement, which commits (atomically) on its own."""
        return self._connection(isolation=None)

    # --- challenges --------------------------------------------------------------------

    async def create_challenge(self, *, guild_id: int, channel_id: int, challenger_id: int,
                               invitees: Sequence[int], players: int, setup: GameSetup,
                               first: FirstMove, thread: bool, expires_at: datetime,
                               now: datetime | None = None) -> Challenge:
        slots = rows.challenge_slots(challenger_id, invitees, players)
        async with self._write() as db:
            challenge_id = await db.fetchval(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, players, "
                f"{rows.SETUP_COLUMNS}, first, thread, created_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id, channel_id, challenger_id, players, *_setup_values(setup),
                FirstMove(first).value, thread, rows.utc(now), rows.utc(expires_at))
            await db.executemany(
                "INSERT INTO challenge_invitees (challenge_id, slot, user_id) VALUES (?, ?, ?)",
                [(challenge_id, slot, user_id) for slot, user_id in enumerate(slots)])
            return await _challenge(db, challenge_id)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        async with self._read() as db:
            return await _challenge(db, challenge_id)

    async def answer_challenge(self, challenge_id: int, user_id: int, accept: bool,
                               now: datetime | None = None) -> Challenge:
        at = rows.utc(now)
        async with self._write() as db:
            challenge = await _challenge(db, challenge_id, lock=True)
            rows.check_pending(challenge, at)
            slot = next((i.slot for i in challenge.invitees if i.user_id == user_id), None)
            if slot is None:
                slot = rows.open_slot(challenge, user_id, accept)
            answer = Answer.ACCEPTED if accept else Answer.DECLINED
            await db.execute(
                "UPDATE challenge_invitees SET user_id = ?, answer = ?, answered_at = ? "
                "WHERE challenge_id = ? AND slot = ?",
                user_id, answer.value, at, challenge_id, slot)
            if not accept:
                await _set_challenge_status(db, challenge_id, ChallengeStatus.DECLINED)
            return await _challenge(db, challenge_id)

    async def cancel_challenge(self, challenge_id: int) -> Challenge:
        async with self._write() as db:
            challenge = await _challenge(db, challenge_id, lock=True)
            rows.check_pending(challenge)
            await _set_challenge_status(db, challenge_id, ChallengeStatus.CANCELLED)
            return await _challenge(db, challenge_id)

    async def pending_challenges(self, *, channel_id: int | None = None,
                                 user_id: int | None = None,
                                 now: datetime | None = None) -> tuple[Challenge, ...]:
        where, params = rows.pending_filter(channel_id, user_id, now, rows.utc)
        async with self._read() as db:
            return await _challenges(db, where, params)

    async def expire_challenges(self, now: datetime | None = None) -> int:
        # one statement on the partial index by expiry: with nothing expired it writes nothing
        async with self._single() as db:
            return _count(await db.execute(
                "UPDATE challenges SET status = 'expired' "
                "WHERE status = 'pending' AND expires_at <= ?", rows.utc(now)))

    # --- games and turns ---------------------------------------------------------------

    async def create_game(self, *, guild_id: int, channel_id: int, players: Sequence[Player],
                          setup: GameSetup, challenge_id: int | None = None,
                          now: datetime | None = None, event_game_id: int | None = None
                          ) -> StoredGame:
        rows.check_players(players)
        at = rows.utc(now)
        async with self._write() as db:
            if challenge_id is not None:
                await _claim_challenge(db, challenge_id)
            try:
                game_id = await db.fetchval(
                    "INSERT INTO games (guild_id, channel_id, challenge_id, "
                    f"{rows.SETUP_COLUMNS}, created_at, updated_at, wake_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    guild_id, channel_id, challenge_id, *_setup_values(setup), at, at,
                    at if setup.time_control else None)  # a clock: looked at at once
            except asyncpg.UniqueViolationError as error:
                if error.constraint_name == "games_one_active_per_channel":
                    raise ChannelBusyError(channel_id) from None
                raise
            await db.executemany(
                "INSERT INTO game_seats (game_id, seat, user_id, name, weekends_off) "
                "VALUES (?, ?, ?, ?, ?)",
                [(game_id, seat, p.user_id, p.name, p.weekends_off)
                 for seat, p in enumerate(players)])
            if event_game_id is not None and _count(await db.execute(
                    events.LINK_GAME, game_id, event_game_id)) != 1:
                raise PairingOpenedError(event_game_id)
            return await _game(db, game_id)

    async def get_game(self, game_id: int) -> StoredGame:
        async with self._read() as db:
            return await _game(db, game_id)

    async def load_game(self, game_id: int) -> LoadedGame:
        async with self._read() as db:
            game = await _game(db, game_id)
            found = await db.fetch(
                "SELECT number, actor_id, command, played_at FROM turns WHERE game_id = ? "
                "ORDER BY number", game_id)
            turns = tuple(rows.turn(row) for row in found)
        return LoadedGame(game, turns)

    async def active_game(self, channel_id: int) -> StoredGame | None:
        async with self._read() as db:
            games = await _games(db, "channel_id = ? AND status = 'active'", [channel_id], 1)
        return games[0] if games else None

    async def list_games(self, *, user_id: int | None = None, channel_id: int | None = None,
                         guild_id: int | None = None, status: GameStatus | None = None,
                         limit: int = 20, before_id: int | None = None,
                         visible_to: tuple[int, int] | None = None, offset: int = 0
                         ) -> tuple[StoredGame, ...]:
        where: list[str] = ["TRUE"]
        params: list[object] = []
        if visible_to is not None and visible_to[1] != user_id:  # own games: all visible
            # one seat looked up a game: `id IN (…)` would first collect all the user's seats
            where.append("(channel_id = ? OR EXISTS (SELECT 1 FROM game_seats AS seen "
                         "WHERE seen.game_id = games.id AND seen.user_id = ?))")
            params.extend(visible_to)
        for condition, value in (
                ("id IN (SELECT game_id FROM game_seats WHERE user_id = ?)", user_id),
                ("channel_id = ?", channel_id), ("guild_id = ?", guild_id),
                ("status = ?", None if status is None else GameStatus(status).value),
                ("id < ?", before_id)):
            if value is not None:
                where.append(condition)
                params.append(value)
        async with self._read() as db:
            return await _games(db, " AND ".join(where), params, limit, offset)

    async def append_turn(self, game_id: int, expected_version: int, actor_id: int,
                          command: str, *, finish: GameResult | None = None,
                          wake_at: datetime | None = None, now: datetime | None = None) -> int:
        at = rows.utc(now)
        if finish is None:
            # the version check, the wake-up and the turn in one statement: one round trip,
            # one commit. No `wake_at`: due by now at the latest, an earlier wake-up stays.
            wake = None if wake_at is None else rows.utc(wake_at)
            async with self._single() as db:
                landed = await db.execute(
                    "WITH moved AS (UPDATE games SET version = version + 1, updated_at = ?, "
                    "wake_at = CASE WHEN time_control IS NULL THEN NULL "
                    "WHEN ?::timestamptz IS NOT NULL THEN ? "
                    "WHEN wake_at IS NULL OR wake_at > ? THEN ? ELSE wake_at END "
                    "WHERE id = ? AND version = ? AND status = 'active' RETURNING id) "
                    "INSERT INTO turns (game_id, number, actor_id, command, played_at) "
                    "SELECT id, ?, ?, ?, ? FROM moved",
                    at, wake, wake, at, at, game_id, expected_version,
                    expected_version + 1, actor_id, command, at)
                if _count(landed) != 1:
                    await _refuse(db, game_id, expected_version)
            return expected_version + 1
        async with self._write() as db:
            await _advance(db, game_id, expected_version, at, step=1)
            await db.execute(
                "INSERT INTO turns (game_id, number, actor_id, command, played_at) "
                "VALUES (?, ?, ?, ?, ?)", game_id, expected_version + 1, actor_id, command, at)
            await _finish(db, game_id, finish, at)
        return expected_version + 1

    async def finish_game(self, game_id: int, expected_version: int, result: GameResult,
                          now: datetime | None = None) -> StoredGame:
        at = rows.utc(now)
        async with self._write() as db:
            await _advance(db, game_id, expected_version, at, step=0)
            await _finish(db, game_id, result, at)
            return await _game(db, game_id)

    # --- offers ------------------------------------------------------------------------

    async def make_offer(self, game_id: int, kind: OfferKind, user_id: int, at_version: int,
                         now: datetime | None = None) -> Offer:
        offer = Offer(game_id, OfferKind(kind), user_id, at_version, rows.utc(now))
        async with self._write() as db:
            await _advance(db, game_id, at_version, None, step=0)
            await db.execute(
                f"INSERT INTO offers ({rows.OFFER_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, kind) DO UPDATE SET user_id = excluded.user_id, "
                "at_version = excluded.at_version, created_at = excluded.created_at",
                game_id, offer.kind.value, user_id, at_version, offer.created_at)
        return offer

    async def open_offers(self, game_id: int) -> tuple[Offer, ...]:
        async with self._single() as db:
            found = await db.fetch(f"SELECT {rows.OFFER_COLUMNS} FROM offers "
                                   "WHERE game_id = ? ORDER BY created_at", game_id)
        return tuple(rows.offer(row) for row in found)

    async def close_offer(self, game_id: int, kind: OfferKind) -> Offer | None:
        async with self._single() as db:
            row = await db.fetchrow("DELETE FROM offers WHERE game_id = ? AND kind = ? "
                                    f"RETURNING {rows.OFFER_COLUMNS}", game_id,
                                    OfferKind(kind).value)
        return None if row is None else rows.offer(row)

    # --- conditional moves -------------------------------------------------------------

    async def store_conditionals(self, game_id: int, user_id: int, at_version: int,
                                 at_move: int, plan: str, now: datetime | None = None) -> None:
        async with self._write() as db:
            await _advance(db, game_id, at_version, None, step=0)
            await db.execute(rows.STORE_CONDITIONALS, game_id, user_id, at_version, at_move,
                             plan, rows.utc(now))

    async def conditionals(self, game_id: int) -> tuple[StoredConditionals, ...]:
        async with self._single() as db:
            found = await db.fetch(rows.CONDITIONALS, game_id)
        return tuple(rows.conditionals(row) for row in found)

    async def drop_conditionals(self, game_id: int, user_id: int | None = None) -> None:
        async with self._single() as db:
            await db.execute(rows.DROP_CONDITIONALS, game_id, user_id)

    async def head_to_head(self, guild_id: int, user_id: int,
                           other_id: int) -> tuple[int, int, int]:
        async with self._single() as db:
            row = await db.fetchrow("SELECT wins, losses, draws FROM pair_totals "
                                    "WHERE guild_id = ? AND user_id = ? AND other_id = ?",
                                    guild_id, user_id, other_id)
        return (0, 0, 0) if row is None else (row[0], row[1], row[2])

    async def due_games(self, now: datetime, limit: int = 100) -> tuple[StoredGame, ...]:
        async with self._read() as db:
            # the earliest wake-ups from the partial index; only active games have one
            return await _games(db, "id IN (SELECT id FROM games WHERE wake_at IS NOT NULL "
                                    "AND wake_at <= ? ORDER BY wake_at LIMIT ?)",
                                [rows.utc(now), limit], None)

    async def claim_due_games(self, now: datetime, lease_until: datetime, limit: int = 100, *,
                              shards: Shards | None = None) -> tuple[StoredGame, ...]:
        mine = "" if shards is None else f" AND {shards.sql()}"
        async with self._single() as db:  # one statement: nothing due costs one round trip
            # rows another process is claiming are skipped, not waited for; a row it claimed
            # and committed meanwhile is looked at again and no longer due
            claimed = await db.fetch(
                "UPDATE games SET wake_at = ? WHERE id IN (SELECT id FROM games "
                f"WHERE wake_at IS NOT NULL AND wake_at <= ?{mine} ORDER BY wake_at LIMIT ? "
                "FOR UPDATE SKIP LOCKED) RETURNING id",
                rows.utc(lease_until), rows.utc(now), limit)
        if not claimed:
            return ()
        async with self._read() as db:
            return await _games(db, "id = ANY(?::bigint[])", [[row[0] for row in claimed]],
                                None)

    async def next_wake(self, *, shards: Shards | None = None) -> datetime | None:
        mine = "" if shards is None else f" AND {shards.sql()}"
        async with self._single() as db:
            wake_at: datetime | None = await db.fetchval(
                f"SELECT min(wake_at) FROM games WHERE wake_at IS NOT NULL{mine}")
        return wake_at

    async def set_wake(self, game_id: int, version: int, wake_at: datetime | None) -> bool:
        async with self._single() as db:
            return _count(await db.execute(
                "UPDATE games SET wake_at = ? WHERE id = ? AND version = ? "
                "AND status = 'active' AND time_control IS NOT NULL",
                None if wake_at is None else rows.utc(wake_at), game_id, version)) == 1

    async def claim_reminder(self, game_id: int, version: int, stage: str,
                             now: datetime | None = None) -> bool:
        async with self._single() as db:
            status = await db.execute(
                "INSERT INTO reminders (game_id, version, stage, sent_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING", game_id, version, stage, rows.utc(now))
        return _count(status) == 1

    async def reminder_delivered(self, game_id: int, version: int, stage: str,
                                 now: datetime | None = None) -> None:
        async with self._single() as db:
            await db.execute("UPDATE reminders SET delivered_at = ? WHERE game_id = ? AND "
                             "version = ? AND stage = ? AND delivered_at IS NULL",
                             rows.utc(now), game_id, version, stage)

    async def undelivered_reminders(self, claimed_before: datetime,
                                    limit: int = 100) -> tuple[tuple[int, int, str], ...]:
        async with self._single() as db:
            found = await db.fetch(
                "SELECT game_id, version, stage FROM reminders WHERE delivered_at IS NULL "
                "AND sent_at < ? ORDER BY sent_at LIMIT ?", rows.utc(claimed_before), limit)
        return tuple((game_id, version, stage) for game_id, version, stage in found)

    async def reclaim_reminders(self, claimed_before: datetime, now: datetime,
                                limit: int = 100, *, shards: Shards | None = None
                                ) -> tuple[tuple[int, int, str], ...]:
        mine = ("" if shards is None else
                f" AND game_id IN (SELECT id FROM games WHERE {shards.sql()})")
        async with self._single() as db:
            # one statement: a reminder another process is claiming again is skipped, one it
            # has claimed again and committed is no longer old enough
            found = await db.fetch(
                "UPDATE reminders SET sent_at = ? WHERE (game_id, version, stage) IN "
                "(SELECT game_id, version, stage FROM reminders WHERE delivered_at IS NULL "
                f"AND sent_at < ?{mine} ORDER BY sent_at LIMIT ? FOR UPDATE SKIP LOCKED) "
                "AND delivered_at IS NULL AND sent_at < ? RETURNING game_id, version, stage",
                rows.utc(now), rows.utc(claimed_before), limit, rows.utc(claimed_before))
        return tuple(sorted((game_id, version, stage) for game_id, version, stage in found))

    async def vote_abort(self, game_id: int, user_id: int) -> frozenset[int]:
        async with self._write() as db:
            await db.execute("INSERT INTO abort_votes (game_id, user_id) VALUES (?, ?) "
                             "ON CONFLICT DO NOTHING", game_id, user_id)
            found = await db.fetch("SELECT user_id FROM abort_votes WHERE game_id = ?", game_id)
        return frozenset(row[0] for row in found)

    # --- vacations -----------------------------------------------------------------------

    async def add_vacation(self, guild_id: int, user_id: int, starts_at: datetime,
                           ends_at: datetime, days: int, *, allowed: int,
                           automatic: bool = False, game_id: int | None = None,
                           now: datetime | None = None) -> Vacation | None:
        start = rows.utc(starts_at)
        async with self._write() as db:
            # one user's vacations of a guild at a time: the days counted and the new row
            # must not race another process adding one (READ COMMITTED would let both count)
            await _lock_user(db, guild_id, user_id)
            row = await db.fetchrow(rows.VACATION_STARTING, guild_id, user_id, start)
            if row is not None:
                return rows.vacation(row)
            first, last = rows.year_bounds(start.year)
            used = await db.fetchval(rows.DAYS_USED, guild_id, user_id, first, last)
            if used + days > allowed:
                return None
            added = await db.fetch(rows.ADD_VACATION, guild_id, user_id, start,
                                   rows.utc(ends_at), days, automatic, game_id)
            at = rows.utc(now)
            await db.execute(rows.WAKE_GAMES_OF, at, guild_id, user_id, at)
            return rows.vacation(added[0])

    async def end_vacation(self, vacation_id: int, ends_at: datetime, days: int,
                           now: datetime | None = None) -> Vacation | None:
        end = rows.utc(ends_at)
        async with self._write() as db:
            row = await db.fetchrow(rows.END_VACATION, end, days, vacation_id, end, end)
            if row is None:
                return None
            vacation = rows.vacation(row)
            at = rows.utc(now)
            await db.execute(rows.WAKE_GAMES_OF, at, vacation.guild_id, vacation.user_id, at)
            return vacation

    async def vacations(self, guild_id: int, user_ids: Sequence[int], since: datetime,
                        limit: int = 500) -> tuple[Vacation, ...]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return ()
        async with self._single() as db:
            found = await db.fetch(
                rows.VACATIONS_SINCE.format(users="user_id = ANY(?::bigint[])"),
                guild_id, ids, rows.utc(since), limit)
        return tuple(rows.vacation(row) for row in reversed(found))

    async def vacation_days_used(self, guild_id: int, user_id: int, year: int) -> int:
        first, last = rows.year_bounds(year)
        async with self._single() as db:
            return int(await db.fetchval(rows.DAYS_USED, guild_id, user_id, first, last))

    # --- tournaments and leagues (storage.events) ---------------------------------------

    async def create_event(self, event: Event) -> Event:
        async with self._single() as db:
            row = await db.fetchrow(events.ADD_EVENT, *events.event_row(event, rows.utc))
        assert row is not None
        return events.event(row)

    async def get_event(self, event_id: int) -> Event:
        async with self._single() as db:
            row = await db.fetchrow(events.EVENT, event_id)
        if row is None:
            raise NotFoundError(f"no event {event_id}")
        return events.event(row)

    async def events(self, guild_id: int, *, status: EventStatus | None = None,
                     limit: int = 20) -> tuple[Event, ...]:
        wanted = None if status is None else status.value
        async with self._single() as db:
            found = await db.fetch(events.EVENTS, guild_id, wanted, wanted, limit)
        return tuple(events.event(row) for row in found)

    async def due_events(self, now: datetime, limit: int = 100) -> tuple[Event, ...]:
        async with self._single() as db:
            found = await db.fetch(events.DUE_EVENTS, rows.utc(now), limit)
        return tuple(events.event(row) for row in found)

    async def event_looked(self, event_id: int, looks: int) -> bool:
        async with self._single() as db:
            return _count(await db.execute(events.LOOKED, event_id, looks)) == 1

    async def move_event(self, event_id: int, status: EventStatus, round: int, *,
                         was: EventStatus, was_round: int) -> bool:
        async with self._single() as db:
            return _count(await db.execute(events.SET_EVENT, status.value, round, 1,
                                           event_id, was.value, was_round)) == 1

    async def save_entrant(self, entrant: Entrant) -> bool:
        async with self._write() as db:
            if await db.fetchval(events.SIGNING_UP + _SHARE, entrant.event_id) is None:
                return False
            await db.execute(events.DROP_ENTRANT, entrant.event_id, entrant.user_id)
            await db.execute(events.DROP_PLAYERS, entrant.event_id, entrant.user_id)
            await db.execute(events.ADD_ENTRANT, *events.entrant_row(entrant, rows.utc))
            for player in entrant.players:
                try:
                    await db.execute(events.ADD_PLAYER, entrant.event_id, player,
                                     entrant.user_id)
                except asyncpg.UniqueViolationError:
                    raise EntrantTakenError(player) from None
            return True

    async def drop_entrant(self, event_id: int, user_id: int) -> bool:
        async with self._write() as db:
            if await db.fetchval(events.SIGNING_UP + _SHARE, event_id) is None:
                return False
            await db.execute(events.DROP_PLAYERS, event_id, user_id)
            return _count(await db.execute(events.DROP_ENTRANT, event_id, user_id)) == 1

    async def entrants(self, event_id: int, limit: int) -> tuple[Entrant, ...]:
        async with self._single() as db:
            found = await db.fetch(events.ENTRANTS, event_id, limit)
        return tuple(events.entrant(row) for row in found)

    async def withdraw_entrant(self, event_id: int, user_id: int) -> bool:
        async with self._write() as db:
            if _count(await db.execute(events.WITHDRAW, True, event_id, user_id, False)) != 1:
                return False
            await db.execute(events.LOOK, event_id)
            return True

    async def pair_round(self, event_id: int, games: Sequence[EventGame], *, round: int,
                         was_round: int) -> tuple[EventGame, ...] | None:
        stored = []
        running = EventStatus.RUNNING.value
        async with self._write() as db:
            if _count(await db.execute(events.SET_EVENT, running, round, 0, event_id,
                                       running, was_round)) != 1:
                return None
            for game in games:
                stored.append(events.event_game(
                    await db.fetchrow(events.ADD_GAME, *events.game_row(event_id, game))))
        return tuple(game for game in stored if game is not None)

    async def event_games(self, event_id: int, limit: int) -> tuple[EventGame, ...]:
        async with self._single() as db:
            found = [events.event_game(row) for row in await db.fetch(events.GAMES, event_id,
                                                                      limit)]
        return tuple(game for game in found if game is not None)

    async def event_game_of(self, game_id: int) -> EventGame | None:
        async with self._single() as db:
            return events.event_game(await db.fetchrow(events.GAME_OF, game_id))

    async def ended_unscored(self, event_id: int, limit: int) -> tuple[int, ...]:
        async with self._single() as db:
            return tuple(row[0] for row in await db.fetch(events.ENDED_UNSCORED, event_id,
                                                          limit))

    async def score_event_game(self, event_game_id: int, score: float, forfeit: bool) -> bool:
        async with self._write() as db:
            if _count(await db.execute(events.SCORE_GAME, score, forfeit, event_game_id)) != 1:
                return False
            await db.execute(events.LOOK_PAIRING, event_game_id)
            return True

    # --- what a player keeps for themselves: notes, a move to confirm (storage.private) --

    async def add_note(self, game_id: int, user_id: int, text: str, *, most: int,
                       now: datetime | None = None) -> Note | None:
        async with self._write() as db:
            await _lock_user(db, game_id, user_id)  # one note of theirs on the game at a time
            last = await db.fetchval(private.LAST_NOTE, game_id, user_id)
            if last >= most:
                return None
            row = (game_id, user_id, last + 1, text, rows.utc(now))
            await db.execute(private.ADD_NOTE, *row)
        return private.note(row)

    async def notes(self, game_id: int, user_id: int, limit: int) -> tuple[Note, ...]:
        async with self._single() as db:
            found = await db.fetch(private.NOTES, game_id, user_id, limit)
        return tuple(private.note(row) for row in found)

    async def clear_notes(self, game_id: int, user_id: int) -> int:
        async with self._single() as db:
            return _count(await db.execute(private.CLEAR_NOTES, game_id, user_id))

    async def hold_move(self, game_id: int, user_id: int, command: str, at_version: int,
                        now: datetime | None = None) -> PendingMove:
        async with self._write() as db:
            await _lock_user(db, game_id, user_id)  # else two at once: one breaks the unique
            await db.execute(private.DROP_PENDING, game_id, user_id)
            held = private.pending(await db.fetchrow(private.HOLD_PENDING, game_id, user_id,
                                                     command, at_version, rows.utc(now)))
        assert held is not None
        return held

    async def pending_move(self, game_id: int, user_id: int) -> PendingMove | None:
        async with self._single() as db:
            return private.pending(await db.fetchrow(private.PENDING, game_id, user_id))

    async def take_pending_move(self, pending_id: int) -> PendingMove | None:
        async with self._single() as db:
            return private.pending(await db.fetchrow(private.TAKE_PENDING, pending_id))

    # --- the bot as a player (storage.bots) ---------------------------------------------

    async def add_bot_challenge(self, challenge_id: int, guild_id: int,
                                takebacks: bool) -> None:
        async with self._single() as db:
            await db.execute(bots.ADD, challenge_id, guild_id, takebacks)

    async def start_bot_game(self, challenge_id: int, game_id: int) -> None:
        async with self._single() as db:
            await db.execute(bots.START, game_id, True, challenge_id)

    async def bot_game(self, game_id: int) -> BotGame | None:
        async with self._single() as db:
            return bots.bot_game(await db.fetchrow(bots.GET, game_id))

    async def await_bot(self, game_id: int, awaiting: bool) -> None:
        async with self._single() as db:
            await db.execute(bots.AWAIT, awaiting, game_id)

    async def awaiting_bot_games(self, limit: int, *, shards: Shards | None = None
                                 ) -> tuple[int, ...]:
        async with self._single() as db:
            return tuple(row[0] for row in await db.fetch(bots.awaiting(shards), limit))

    async def count_hopeless(self, game_id: int, team: int, version: int,
                             hopeless: bool) -> int:
        update, select = bots.count(team)
        async with self._write() as db:
            await db.execute(update, hopeless, version, game_id, version)
            return int(await db.fetchval(select, game_id))

    async def claim_busy_notice(self, game_id: int, version: int) -> bool:
        async with self._single() as db:
            return _count(await db.execute(bots.BUSY, version, game_id, version)) == 1

    async def open_bot_games(self, guild_id: int, user_id: int) -> int:
        async with self._single() as db:
            return int(await db.fetchval(bots.OPEN_OF, user_id, guild_id))

    # --- users, settings, preferences, stats -------------------------------------------

    async def remember_users(self, names: dict[int, str]) -> None:
        async with self._write() as db:
            # in one order, so that two of these at once cannot deadlock
            await db.executemany(
                "INSERT INTO users (user_id, name) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name",
                sorted(names.items()))

    async def user_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        async with self._single() as db:
            found = await db.fetch("SELECT user_id, name FROM users "
                                   "WHERE user_id = ANY(?::bigint[])", ids)
        return {row[0]: row[1] for row in found}

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._single() as db:
            return await _settings(db, "guild_settings", "guild_id", guild_id, GuildSettings)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        async with self._write() as db:
            settings = await _update_settings(db, "guild_settings", "guild_id", guild_id,
                                              GuildSettings, changes)
            if changes.keys() & CLOCK_SETTINGS:
                # due at once (as of the last move), so the clocks work the marks out again
                await db.execute(
                    "UPDATE games SET wake_at = updated_at WHERE guild_id = ? AND "
                    "status = 'active' AND time_control IS NOT NULL AND "
                    "(wake_at IS NULL OR wake_at > updated_at)", guild_id)
            return settings

    async def guilds_with(self, setting: str, value: Any) -> tuple[int, ...]:
        if setting not in {field.name for field in fields(GuildSettings)}:
            raise ValueError(f"there is no setting called {setting}")
        async with self._single() as db:
            found = await db.fetch(
                "SELECT guild_id FROM guild_settings WHERE key = ? AND value = ? "
                "ORDER BY guild_id", setting, json.dumps(value))
        return tuple(row[0] for row in found)

    async def user_prefs(self, user_id: int) -> UserPrefs:
        async with self._single() as db:
            return await _settings(db, "user_prefs", "user_id", user_id, UserPrefs)

    async def update_user_prefs(self, user_id: int, **changes: Any) -> UserPrefs:
        async with self._write() as db:
            return await _update_settings(db, "user_prefs", "user_id", user_id, UserPrefs,
                                          changes)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        async with self._read() as db:
            found = await _stats(db, guild_id, [user_id])
        return found.get(user_id, PlayerStats(guild_id, user_id))

    async def leaderboard(self, guild_id: int, limit: int = 10,
                          offset: int = 0) -> tuple[PlayerStats, ...]:
        async with self._single() as db:
            # a page straight from the index ratings_by_rank, with each player's totals
            found = await db.fetch(
                "SELECT r.user_id, coalesce(t.games, 0), coalesce(t.wins, 0), "
                f"coalesce(t.losses, 0), coalesce(t.draws, 0), {rows.RATING_COLUMNS} "
                "FROM ratings r LEFT JOIN player_totals t "
                "ON t.guild_id = r.guild_id AND t.user_id = r.user_id WHERE r.guild_id = ? "
                "ORDER BY r.rating DESC, r.user_id LIMIT ? OFFSET ?", guild_id, limit, offset)
        return tuple(PlayerStats(guild_id, *row[:5], *rows.rating_fields(row[5:]))
                     for row in found)


# --- the schema ------------------------------------------------------------------------------

async def _migrate(db: _Db, where: str, available: tuple[Migration, ...]) -> int:
    """Apply the pending migrations in one transaction; return the version.

    An advisory lock makes processes that start together take turns, and each reads the
    version inside it, so none applies a migration twice. A database with tables but no
    record of ours belongs to another program and is left untouched.
    """
    async with db.conn.transaction():
        await db.execute("SELECT pg_advisory_xact_lock(?)", _MIGRATION_LOCK)
        if not await db.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
            if await db.fetchval("SELECT count(*) FROM pg_tables "
                                 "WHERE schemaname = current_schema()"):
                raise DatabaseError(f"{where} holds the tables of another program; it was "
                                    "left untouched")
            await db.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY, "
                             "name text NOT NULL, applied_at timestamptz NOT NULL "
                             "DEFAULT now())")
        current: int = await db.fetchval(
            "SELECT coalesce(max(version), 0) FROM schema_migrations")
        if current > len(available):
            raise UnsupportedSchemaError(
                f"{where} has schema version {current} but this bot knows only up to "
                f"{len(available)}: upgrade the bot; the database was left untouched")
        for migration in available[current:]:
            await db.conn.execute(migration.sql)  # no arguments: several statements may run
            await db.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                             migration.version, migration.name)
        # a write that changes nothing: a database or role that may not write is refused
        # here, at the start, not at the first move
        await db.execute("DELETE FROM schema_migrations WHERE false")
    return len(available)


# --- reading stored values (inside a transaction) -------------------------------------------

async def _game(db: _Db, game_id: int) -> StoredGame:
    games = await _games(db, "id = ?", [game_id], 1)
    if not games:
        raise NotFoundError(f"there is no game {game_id}")
    return games[0]


async def _games(db: _Db, where: str, params: Sequence[Any], limit: int | None,
                 offset: int = 0) -> tuple[StoredGame, ...]:
    """Games matching `where`, newest first, skipping `offset`; `limit` None means all.

    Skipped games are stepped over in the index on ids, not read in full."""
    found = await db.fetch(f"SELECT {rows.GAME_COLUMNS} FROM games WHERE {where} "
                           "ORDER BY id DESC LIMIT ? OFFSET ?", *params, limit, offset)
    seats = await _children(db, "game_seats", "game_id", rows.SEAT_COLUMNS, "seat",
                            [row[0] for row in found])
    return tuple(rows.game(row, seats.get(row[0], [])) for row in found)


async def _challenge(db: _Db, challenge_id: int, *, lock: bool = False) -> Challenge:
    found = await _challenges(db, "id = ?", [challenge_id], lock=lock)
    if not found:
        raise NotFoundError(f"there is no challenge {challenge_id}")
    return found[0]


async def _challenges(db: _Db, where: str, params: Sequence[Any], *,
                      lock: bool = False) -> tuple[Challenge, ...]:
    found = await db.fetch(f"SELECT {rows.CHALLENGE_COLUMNS} FROM challenges WHERE {where} "
                           f"ORDER BY id{' FOR UPDATE' if lock else ''}", *params)
    invitees = await _children(db, "challenge_invitees", "challenge_id",
                               rows.INVITEE_COLUMNS, "slot", [row[0] for row in found])
    return tuple(rows.challenge(row, invitees.get(row[0], [])) for row in found)


async def _children(db: _Db, table: str, parent: str, columns: str, order: str,
                    parent_ids: Sequence[int]) -> dict[int, list[Any]]:
    """The rows of `table` belonging to each parent id, in `order`, by parent id."""
    if not parent_ids:
        return {}
    found = await db.fetch(f"SELECT {parent}, {columns} FROM {table} "
                           f"WHERE {parent} = ANY(?::bigint[]) ORDER BY {parent}, {order}",
                           list(parent_ids))
    return rows.children(found)


async def _stats(db: _Db, guild_id: int, user_ids: Sequence[int]) -> dict[int, PlayerStats]:
    """The totals of the counted games (see `_add_totals`) and the stored rating."""
    if not user_ids:
        return {}
    counts = await db.fetch("SELECT user_id, games, wins, losses, draws FROM player_totals "
                            "WHERE guild_id = ? AND user_id = ANY(?::bigint[])",
                            guild_id, list(user_ids))
    rated = await db.fetch(f"SELECT r.user_id, {rows.RATING_COLUMNS} FROM ratings r "
                           "WHERE r.guild_id = ? AND r.user_id = ANY(?::bigint[])",
                           guild_id, list(user_ids))
    return rows.player_stats(guild_id, user_ids, counts, rated)


async def _settings(db: _Db, table: str, owner: str, owner_id: int,
                    kind: type[rows.Settings]) -> rows.Settings:
    found = await db.fetch(f"SELECT key, value FROM {table} WHERE {owner} = ?", owner_id)
    return rows.settings(kind, {key: value for key, value in found})


async def _update_settings(db: _Db, table: str, owner: str, owner_id: int,
                           kind: type[rows.Settings], changes: dict[str, Any]) -> rows.Settings:
    encoded = rows.checked_changes(await _settings(db, table, owner, owner_id, kind), changes)
    await db.executemany(f"INSERT INTO {table} ({owner}, key, value) VALUES (?, ?, ?) "
                         f"ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                         [(owner_id, key, value) for key, value in sorted(encoded.items())])
    return await _settings(db, table, owner, owner_id, kind)


# --- writing (inside a write transaction) ----------------------------------------------------

async def _advance(db: _Db, game_id: int, expected_version: int, at: datetime | None, *,
                   step: int) -> None:
    """The optimistic-concurrency check: move an active game at `expected_version` on by `step`.

    One guarded UPDATE, which also locks the game's row until the transaction ends. `at`
    None leaves `updated_at` (the time of the last move) alone.
    """
    moved = await db.execute(
        "UPDATE games SET version = version + ?, updated_at = coalesce(?, updated_at) "
        "WHERE id = ? AND version = ? AND status = 'active'",
        step, at, game_id, expected_version)
    if _count(moved) != 1:
        await _refuse(db, game_id, expected_version)


async def _refuse(db: _Db, game_id: int, expected_version: int) -> None:
    """Say why a guarded change matched nothing: no game, a finished one, or another version."""
    row = await db.fetchrow("SELECT version, status FROM games WHERE id = ?", game_id)
    if row is None:
        raise NotFoundError(f"there is no game {game_id}")
    if row[1] != GameStatus.ACTIVE:
        raise GameFinishedError(game_id)
    raise StaleVersionError(game_id, expected_version, row[0])


async def _finish(db: _Db, game_id: int, result: GameResult, at: datetime) -> None:
    guild_id = await db.fetchval(
        "UPDATE games SET status = 'finished', result = ?, reason = ?, finished_at = ?, "
        "wake_at = NULL WHERE id = ? RETURNING guild_id",
        Result(result.result).value, result.reason, at, game_id)
    await db.execute(events.LOOK_GAME, game_id)  # an event game's end: the event owes a look
    if result.winners:
        marked = await db.execute("UPDATE game_seats SET winner = true WHERE game_id = ? "
                                  "AND user_id = ANY(?::bigint[])", game_id,
                                  list(result.winners))
        if _count(marked) != len(set(result.winners)):
            raise ValueError("every winner must have a seat in the game")
    await db.execute("DELETE FROM offers WHERE game_id = ?", game_id)
    await _forget_unplayed(db, game_id)
    await _add_totals(db, game_id)
    if result.rated_sides is not None:
        await _rate(db, guild_id, result, result.rated_sides, at)


async def _forget_unplayed(db: _Db, game_id: int) -> None:
    """Drop the moves of a game that has just finished that can no longer be played
    (`private.UNPLAYED`), in the transaction that records its result."""
    for statement in private.UNPLAYED:
        await db.execute(statement, game_id)


async def _add_totals(db: _Db, game_id: int) -> None:
    """Add a game that has just finished to its players' and pairs' totals (`rows.ADD_TOTALS`).
    An upsert adds under the row's lock, so two games ending at once both count."""
    for statement in rows.ADD_TOTALS:
        await db.execute(statement, game_id)


async def _rate(db: _Db, guild_id: int, result: GameResult,
                sides: tuple[tuple[int, ...], tuple[int, ...]], at: datetime) -> None:
    """New ratings from the stored ones, read and written in the caller's transaction.

    The players' rows are made first (in user order, so that two results at once cannot
    deadlock) and then read `FOR UPDATE`: a second game ending at once waits and reads the
    first one's ratings. A row made here holds a newcomer's start values.
    """
    ordered = sorted({*sides[0], *sides[1]})
    start = ratings.Rating()
    await db.execute(
        "INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, rated_games, "
        "updated_at) SELECT ?, u, ?, ?, ?, 0, ? FROM unnest(?::bigint[]) AS u ORDER BY u "
        "ON CONFLICT DO NOTHING", guild_id, start.rating, start.deviation, start.volatility,
        at, ordered)
    found = await db.fetch(f"SELECT user_id, {rows.GLICKO_COLUMNS} FROM ratings "
                           "WHERE guild_id = ? AND user_id = ANY(?::bigint[]) "
                           "ORDER BY user_id FOR UPDATE", guild_id, ordered)
    current = {row[0]: rows.stored_rating(tuple(row)[1:]) for row in found}
    rated = rows.new_ratings(Result(result.result), sides, current, at)
    await db.executemany(
        "UPDATE ratings SET rating = ?, deviation = ?, volatility = ?, "
        "rated_games = rated_games + 1, updated_at = ? WHERE guild_id = ? AND user_id = ?",
        [(new.rating, new.deviation, new.volatility, at, guild_id, user_id)
         for user_id, new in rated])


async def _set_challenge_status(db: _Db, challenge_id: int, status: ChallengeStatus) -> None:
    await db.execute("UPDATE challenges SET status = ? WHERE id = ?", status.value,
                     challenge_id)


async def _claim_challenge(db: _Db, challenge_id: int) -> None:
    """Accept a pending challenge; its row stays locked, so it is claimed once."""
    status = await db.fetchval("SELECT status FROM challenges WHERE id = ? FOR UPDATE",
                               challenge_id)
    if status is None:
        raise NotFoundError(f"there is no challenge {challenge_id}")
    if status != ChallengeStatus.PENDING:
        raise ChallengeClosedError(status)
    await _set_challenge_status(db, challenge_id, ChallengeStatus.ACCEPTED)
