"""The `Storage` protocol on one SQLite file, through aiosqlite.

Two connections: one writer, owned by a group-commit task (storage.group_commit) that puts the
writes waiting together into one transaction, each in its own savepoint (SQLite has one writer
anyway, and interleaving two tasks' statements on one connection would mix their
transactions), and one reader, which in WAL mode never waits for the writer.

Durability: WAL with synchronous=FULL, so a turn is on disk (fsynced) before `append_turn`
returns; it survives a killed process and a lost machine alike. NORMAL would survive SIGKILL
too (the WAL write is in the OS cache), but not a power cut; with group commit one fsync
serves every turn that arrived together, so FULL costs little.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import fields
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite

from storage import bots, events, private, rows
from storage.bots import BotGame
from storage.errors import (
    ChannelBusyError,
    DatabaseError,
    DatabaseFault,
    EntrantTakenError,
    GameFinishedError,
    NotFoundError,
    PairingOpenedError,
    StaleVersionError,
)
from storage.events import Entrant, Event, EventGame, EventStatus
from storage.group_commit import GroupCommit, InlineConnection, connect_inline
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
from storage.schema import check_file, failed, migrate, migrations, unusable
from storage.shards import Shards

DEFAULT_PATH = Path("twixt.db")


async def _connect(path: Path, busy_timeout_ms: int, *, read_only: bool) -> aiosqlite.Connection:
    db = (await aiosqlite.connect(path, isolation_level=None) if read_only
          else await connect_inline(path))
    for pragma in ("foreign_keys = ON", f"busy_timeout = {int(busy_timeout_ms)}",
                   "synchronous = FULL", f"query_only = {int(read_only)}"):
        await db.execute(f"PRAGMA {pragma}")
    return db


class SqliteStorage:
    """Games, turns and the rest in one SQLite file. Open with `await SqliteStorage.open()`."""

    def __init__(self, path: Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        assert isinstance(writer, InlineConnection), "the writer comes from _connect"
        self._file = _identity(path)
        self._writes = GroupCommit(writer, before_commit=self._check_file_is_ours)
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
        await asyncio.to_thread(migrate, path, available)
        try:
            writer = await _connect(path, busy_timeout_ms, read_only=False)
        except sqlite3.DatabaseError as error:
            raise unusable(path, error) from error
        try:
            reader = await _connect(path, busy_timeout_ms, read_only=True)
        except BaseException as error:
            await writer.close()
            if isinstance(error, sqlite3.DatabaseError):
                raise unusable(path, error) from error
            raise
        return cls(path, writer, reader)

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

    async def __aenter__(self) -> SqliteStorage:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- transactions ------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write, atomic and durable when the block is left (group commit).

        The block runs in a savepoint of a transaction shared with the writes queued with it
        (BEGIN IMMEDIATE has taken SQLite's write lock before it reads); if it raises, its
        work alone is undone. It is left once the shared COMMIT has returned. The block must
        not wait for anything but its statements: the other writes wait for it.
        """
        try:
            async with self._writes.transaction() as db:
                yield db
        except BaseException as error:
            _reraise(error, self.path)
            raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """One read snapshot, so that a game and its log agree."""
        db = self._reader
        async with self._read_lock:
            try:
                await db.execute("BEGIN")
                yield db
            except BaseException as error:
                _reraise(error, self.path)
                raise
            finally:
                await _rollback(db)

    # --- challenges --------------------------------------------------------------------

    async def create_challenge(self, *, guild_id: int, channel_id: int, challenger_id: int,
                               invitees: Sequence[int], players: int, setup: GameSetup,
                               first: FirstMove, thread: bool, expires_at: datetime,
                               now: datetime | None = None) -> Challenge:
        slots = rows.challenge_slots(challenger_id, invitees, players)
        async with self._write() as db:
            cursor = await db.execute(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, players, "
                f"{rows.SETUP_COLUMNS}, first, thread, created_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, challenger_id, players, *rows.setup_values(setup),
                 FirstMove(first).value, int(thread), rows.stamp(now), rows.stamp(expires_at)))
            challenge_id = _new_id(cursor)
            await db.executemany(
                "INSERT INTO challenge_invitees (challenge_id, slot, user_id) VALUES (?, ?, ?)",
                [(challenge_id, slot, user_id) for slot, user_id in enumerate(slots)])
            return await _challenge(db, challenge_id)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        async with self._read() as db:
            return await _challenge(db, challenge_id)

    async def answer_challenge(self, challenge_id: int, user_id: int, accept: bool,
                               now: datetime | None = None) -> Challenge:
        when = rows.utc(now)
        at = rows.stamp(when)
        async with self._write() as db:
            challenge = await _challenge(db, challenge_id)
            rows.check_pending(challenge, when)
            slot = next((i.slot for i in challenge.invitees if i.user_id == user_id), None)
            if slot is None:
                slot = rows.open_slot(challenge, user_id, accept)
            answer = Answer.ACCEPTED if accept else Answer.DECLINED
            await db.execute(
                "UPDATE challenge_invitees SET user_id = ?, answer = ?, answered_at = ? "
                "WHERE challenge_id = ? AND slot = ?",
                (user_id, answer.value, at, challenge_id, slot))
            if not accept:
                await _set_challenge_status(db, challenge_id, ChallengeStatus.DECLINED)
            return await _challenge(db, challenge_id)

    async def cancel_challenge(self, challenge_id: int) -> Challenge:
        async with self._write() as db:
            challenge = await _challenge(db, challenge_id)
            rows.check_pending(challenge)
            await _set_challenge_status(db, challenge_id, ChallengeStatus.CANCELLED)
            return await _challenge(db, challenge_id)

    async def pending_challenges(self, *, channel_id: int | None = None,
                                 user_id: int | None = None,
                                 now: datetime | None = None) -> tuple[Challenge, ...]:
        where, params = rows.pending_filter(channel_id, user_id, now, rows.stamp)
        async with self._read() as db:
            return await _challenges(db, where, params)

    async def expire_challenges(self, now: datetime | None = None) -> int:
        at = rows.stamp(now)
        where = "status = 'pending' AND expires_at <= ?"  # the partial index by expiry
        async with self._read() as db:  # nothing to do is the usual case: no write lock
            cursor = await db.execute(f"SELECT 1 FROM challenges WHERE {where} LIMIT 1", (at,))
            if await cursor.fetchone() is None:
                return 0
        async with self._write() as db:
            cursor = await db.execute(f"UPDATE challenges SET status = 'expired' WHERE {where}",
                                      (at,))
            return cursor.rowcount

    # --- games and turns ---------------------------------------------------------------

    async def create_game(self, *, guild_id: int, channel_id: int, players: Sequence[Player],
                          setup: GameSetup, challenge_id: int | None = None,
                          now: datetime | None = None, event_game_id: int | None = None
                          ) -> StoredGame:
        rows.check_players(players)
        at = rows.stamp(now)
        async with self._write() as db:
            if challenge_id is not None:
                await _claim_challenge(db, challenge_id)
            try:
                cursor = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, challenge_id, "
                    f"{rows.SETUP_COLUMNS}, created_at, updated_at, wake_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, challenge_id, *rows.setup_values(setup), at, at,
                     at if setup.time_control else None))  # a clock: looked at at once
            except sqlite3.IntegrityError as error:
                if "games.channel_id" in str(error):
                    raise ChannelBusyError(channel_id) from None
                raise
            game_id = _new_id(cursor)
            await db.executemany(
                "INSERT INTO game_seats (game_id, seat, user_id, name, weekends_off) "
                "VALUES (?, ?, ?, ?, ?)",
                [(game_id, seat, p.user_id, p.name, int(p.weekends_off))
                 for seat, p in enumerate(players)])
            if event_game_id is not None and (await db.execute(
                    events.LINK_GAME, (game_id, event_game_id))).rowcount != 1:
                raise PairingOpenedError(event_game_id)
            return await _game(db, game_id)

    async def get_game(self, game_id: int) -> StoredGame:
        async with self._read() as db:
            return await _game(db, game_id)

    async def load_game(self, game_id: int) -> LoadedGame:
        async with self._read() as db:
            game = await _game(db, game_id)
            cursor = await db.execute(
                "SELECT number, actor_id, command, played_at FROM turns WHERE game_id = ? "
                "ORDER BY number", (game_id,))
            turns = tuple(rows.turn(row) for row in await cursor.fetchall())
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
        where: list[str] = ["1"]
        params: list[object] = []
        if visible_to is not None and visible_to[1] != user_id:  # own games: all visible
            # one seat looked up a game (a list of all the user's games would cost their count)
            where.append("(channel_id = ? OR EXISTS (SELECT 1 FROM game_seats AS seen "
                         "WHERE seen.game_id = games.id AND seen.user_id = ?))")
            params.extend(visible_to)
        source = _ALL_GAMES
        if user_id is not None:
            source = _PLAYER_GAMES
            where.append("game_seats.user_id = ?")
            params.append(user_id)
        for condition, value in (
                ("channel_id = ?", channel_id), ("guild_id = ?", guild_id),
                ("status = ?", None if status is None else GameStatus(status).value),
                ("id < ?", before_id)):
            if value is not None:
                where.append(condition)
                params.append(value)
        async with self._read() as db:
            return await _games(db, " AND ".join(where), params, limit, offset, source)

    async def append_turn(self, game_id: int, expected_version: int, actor_id: int,
                          command: str, *, finish: GameResult | None = None,
                          wake_at: datetime | None = None, now: datetime | None = None) -> int:
        at = rows.stamp(now)
        async with self._write() as db:
            await _advance(db, game_id, expected_version, at, step=1)
            await db.execute(
                "INSERT INTO turns (game_id, number, actor_id, command, played_at) "
                "VALUES (?, ?, ?, ?, ?)", (game_id, expected_version + 1, actor_id, command, at))
            if finish is not None:
                await _finish(db, game_id, finish, at)
            elif wake_at is None:  # due by now at the latest: an earlier wake-up stays
                await db.execute(
                    "UPDATE games SET wake_at = CASE WHEN time_control IS NULL THEN NULL "
                    "WHEN wake_at IS NULL OR wake_at > ? THEN ? ELSE wake_at END WHERE id = ?",
                    (at, at, game_id))
            else:
                await db.execute(
                    "UPDATE games SET wake_at = CASE WHEN time_control IS NULL THEN NULL "
                    "ELSE ? END WHERE id = ?", (rows.stamp(wake_at), game_id))
        return expected_version + 1

    async def finish_game(self, game_id: int, expected_version: int, result: GameResult,
                          now: datetime | None = None) -> StoredGame:
        at = rows.stamp(now)
        async with self._write() as db:
            await _advance(db, game_id, expected_version, at, step=0)
            await _finish(db, game_id, result, at)
            return await _game(db, game_id)

    # --- offers ------------------------------------------------------------------------

    async def make_offer(self, game_id: int, kind: OfferKind, user_id: int, at_version: int,
                         now: datetime | None = None) -> Offer:
        row = (game_id, OfferKind(kind).value, user_id, at_version, rows.stamp(now))
        async with self._write() as db:
            await _advance(db, game_id, at_version, None, step=0)
            await db.execute(f"INSERT OR REPLACE INTO offers ({rows.OFFER_COLUMNS}) "
                             "VALUES (?, ?, ?, ?, ?)", row)
        return rows.offer(row)

    async def open_offers(self, game_id: int) -> tuple[Offer, ...]:
        async with self._read() as db:
            cursor = await db.execute(
                f"SELECT {rows.OFFER_COLUMNS} FROM offers WHERE game_id = ? "
                "ORDER BY created_at", (game_id,))
            return tuple(rows.offer(row) for row in await cursor.fetchall())

    async def close_offer(self, game_id: int, kind: OfferKind) -> Offer | None:
        async with self._write() as db:
            cursor = await db.execute(
                "DELETE FROM offers WHERE game_id = ? AND kind = ? "
                f"RETURNING {rows.OFFER_COLUMNS}",
                (game_id, OfferKind(kind).value))
            row = await cursor.fetchone()
        return None if row is None else rows.offer(row)

    # --- conditional moves -------------------------------------------------------------

    async def store_conditionals(self, game_id: int, user_id: int, at_version: int,
                                 at_move: int, plan: str, now: datetime | None = None) -> None:
        async with self._write() as db:
            await _advance(db, game_id, at_version, None, step=0)
            await db.execute(rows.STORE_CONDITIONALS,
                             (game_id, user_id, at_version, at_move, plan, rows.stamp(now)))

    async def conditionals(self, game_id: int) -> tuple[StoredConditionals, ...]:
        async with self._read() as db:
            cursor = await db.execute(rows.CONDITIONALS, (game_id,))
            return tuple(rows.conditionals(row) for row in await cursor.fetchall())

    async def drop_conditionals(self, game_id: int, user_id: int | None = None) -> None:
        async with self._write() as db:
            await db.execute(rows.DROP_CONDITIONALS, (game_id, user_id))

    async def head_to_head(self, guild_id: int, user_id: int,
                           other_id: int) -> tuple[int, int, int]:
        async with self._read() as db:
            cursor = await db.execute(
                "SELECT wins, losses, draws FROM pair_totals "
                "WHERE guild_id = ? AND user_id = ? AND other_id = ?",
                (guild_id, user_id, other_id))
            row = await cursor.fetchone()
        if row is None:
            return 0, 0, 0
        wins, losses, draws = row
        return wins, losses, draws

    async def due_games(self, now: datetime, limit: int = 100) -> tuple[StoredGame, ...]:
        async with self._read() as db:
            # the earliest wake-ups from the partial index; only active games have one
            return await _games(db, "id IN (SELECT id FROM games WHERE wake_at IS NOT NULL "
                                    "AND wake_at <= ? ORDER BY wake_at LIMIT ?)",
                                [rows.stamp(now), limit], -1)

    async def claim_due_games(self, now: datetime, lease_until: datetime, limit: int = 100, *,
                              shards: Shards | None = None) -> tuple[StoredGame, ...]:
        due = ("wake_at IS NOT NULL AND wake_at <= ? AND "
               + ("1 = 1" if shards is None else shards.sql()))
        if not await self._exists("games", due, rows.stamp(now)):
            return ()  # nothing due (the usual case): no write at all
        async with self._write() as db:
            cursor = await db.execute(
                f"UPDATE games SET wake_at = ? WHERE id IN (SELECT id FROM games WHERE {due} "
                "ORDER BY wake_at LIMIT ?) RETURNING id",
                (rows.stamp(lease_until), rows.stamp(now), limit))
            claimed = [row[0] for row in await cursor.fetchall()]
            if not claimed:
                return ()
            return await _games(db, f"id IN ({', '.join('?' * len(claimed))})", claimed, -1)

    async def next_wake(self, *, shards: Shards | None = None) -> datetime | None:
        mine = "" if shards is None else f" AND {shards.sql()}"
        async with self._read() as db:
            cursor = await db.execute(
                f"SELECT min(wake_at) FROM games WHERE wake_at IS NOT NULL{mine}")
            (wake_at,) = await _only_row(cursor)
        return rows.maybe_moment(wake_at)

    async def set_wake(self, game_id: int, version: int, wake_at: datetime | None) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE games SET wake_at = ? WHERE id = ? AND version = ? AND status = 'active' "
                "AND time_control IS NOT NULL",
                (None if wake_at is None else rows.stamp(wake_at), game_id, version))
            return cursor.rowcount == 1

    async def claim_reminder(self, game_id: int, version: int, stage: str,
                             now: datetime | None = None) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "INSERT OR IGNORE INTO reminders (game_id, version, stage, sent_at) "
                "VALUES (?, ?, ?, ?)", (game_id, version, stage, rows.stamp(now)))
            return cursor.rowcount == 1

    async def reminder_delivered(self, game_id: int, version: int, stage: str,
                                 now: datetime | None = None) -> None:
        async with self._write() as db:
            await db.execute("UPDATE reminders SET delivered_at = ? WHERE game_id = ? AND "
                             "version = ? AND stage = ? AND delivered_at IS NULL",
                             (rows.stamp(now), game_id, version, stage))

    async def undelivered_reminders(self, claimed_before: datetime,
                                    limit: int = 100) -> tuple[tuple[int, int, str], ...]:
        async with self._read() as db:
            cursor = await db.execute(
                "SELECT game_id, version, stage FROM reminders WHERE delivered_at IS NULL "
                "AND sent_at < ? ORDER BY sent_at LIMIT ?", (rows.stamp(claimed_before), limit))
            return tuple((game_id, version, stage)
                         for game_id, version, stage in await cursor.fetchall())

    async def reclaim_reminders(self, claimed_before: datetime, now: datetime,
                                limit: int = 100, *, shards: Shards | None = None
                                ) -> tuple[tuple[int, int, str], ...]:
        mine = ("" if shards is None else
                f" AND game_id IN (SELECT id FROM games WHERE {shards.sql()})")
        stale = f"delivered_at IS NULL AND sent_at < ?{mine}"
        if not await self._exists("reminders", stale, rows.stamp(claimed_before)):
            return ()  # none waiting (the usual case): no write at all
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE reminders SET sent_at = ? WHERE (game_id, version, stage) IN "
                f"(SELECT game_id, version, stage FROM reminders WHERE {stale} "
                "ORDER BY sent_at LIMIT ?) RETURNING game_id, version, stage",
                (rows.stamp(now), rows.stamp(claimed_before), limit))
            found = await cursor.fetchall()
        return tuple(sorted((game_id, version, stage) for game_id, version, stage in found))

    async def _exists(self, table: str, where: str, *params: Any) -> bool:
        """Whether any row matches: a read that lets a claim skip its write when none would."""
        async with self._read() as db:
            cursor = await db.execute(f"SELECT 1 FROM {table} WHERE {where} LIMIT 1", params)
            return await cursor.fetchone() is not None

    async def vote_abort(self, game_id: int, user_id: int) -> frozenset[int]:
        async with self._write() as db:
            await db.execute("INSERT OR IGNORE INTO abort_votes (game_id, user_id) VALUES (?, ?)",
                             (game_id, user_id))
            cursor = await db.execute("SELECT user_id FROM abort_votes WHERE game_id = ?",
                                      (game_id,))
            return frozenset(row[0] for row in await cursor.fetchall())

    # --- vacations -----------------------------------------------------------------------

    async def add_vacation(self, guild_id: int, user_id: int, starts_at: datetime,
                           ends_at: datetime, days: int, *, allowed: int,
                           automatic: bool = False, game_id: int | None = None,
                           now: datetime | None = None) -> Vacation | None:
        begins = rows.utc(starts_at)
        start = rows.stamp(begins)
        async with self._write() as db:
            cursor = await db.execute(rows.VACATION_STARTING, (guild_id, user_id, start))
            row = await cursor.fetchone()
            if row is not None:
                return rows.vacation(row)
            first, last = rows.year_bounds(begins.year)
            cursor = await db.execute(rows.DAYS_USED, (guild_id, user_id, rows.stamp(first),
                                                       rows.stamp(last)))
            (used,) = await _only_row(cursor)
            if used + days > allowed:
                return None
            cursor = await db.execute(rows.ADD_VACATION, (guild_id, user_id, start,
                                                          rows.stamp(ends_at), days,
                                                          int(automatic), game_id))
            vacation = rows.vacation(await _only_row(cursor))
            at = rows.stamp(now)
            await db.execute(rows.WAKE_GAMES_OF, (at, guild_id, user_id, at))
            return vacation

    async def end_vacation(self, vacation_id: int, ends_at: datetime, days: int,
                           now: datetime | None = None) -> Vacation | None:
        end = rows.stamp(ends_at)
        async with self._write() as db:
            cursor = await db.execute(rows.END_VACATION, (end, days, vacation_id, end, end))
            row = await cursor.fetchone()
            if row is None:
                return None
            vacation = rows.vacation(row)
            at = rows.stamp(now)
            await db.execute(rows.WAKE_GAMES_OF, (at, vacation.guild_id, vacation.user_id, at))
            return vacation

    async def vacations(self, guild_id: int, user_ids: Sequence[int], since: datetime,
                        limit: int = 500) -> tuple[Vacation, ...]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return ()
        users = f"user_id IN ({', '.join('?' * len(ids))})"
        async with self._read() as db:
            cursor = await db.execute(rows.VACATIONS_SINCE.format(users=users),
                                      (guild_id, *ids, rows.stamp(since), limit))
            found = list(await cursor.fetchall())
        return tuple(rows.vacation(row) for row in reversed(found))

    async def vacation_days_used(self, guild_id: int, user_id: int, year: int) -> int:
        first, last = rows.year_bounds(year)
        async with self._read() as db:
            cursor = await db.execute(rows.DAYS_USED, (guild_id, user_id, rows.stamp(first),
                                                       rows.stamp(last)))
            (used,) = await _only_row(cursor)
        return int(used)

    # --- tournaments and leagues (storage.events) ---------------------------------------

    async def create_event(self, event: Event) -> Event:
        async with self._write() as db:
            cursor = await db.execute(events.ADD_EVENT, events.event_row(event, rows.stamp))
            return events.event(await _only_row(cursor))

    async def get_event(self, event_id: int) -> Event:
        async with self._read() as db:
            row = await (await db.execute(events.EVENT, (event_id,))).fetchone()
        if row is None:
            raise NotFoundError(f"no event {event_id}")
        return events.event(row)

    async def events(self, guild_id: int, *, status: EventStatus | None = None,
                     limit: int = 20) -> tuple[Event, ...]:
        wanted = None if status is None else status.value
        async with self._read() as db:
            cursor = await db.execute(events.EVENTS, (guild_id, wanted, wanted, limit))
            return tuple(events.event(row) for row in await cursor.fetchall())

    async def due_events(self, now: datetime, limit: int = 100) -> tuple[Event, ...]:
        async with self._read() as db:
            cursor = await db.execute(events.DUE_EVENTS, (rows.stamp(now), limit))
            return tuple(events.event(row) for row in await cursor.fetchall())

    async def event_looked(self, event_id: int, looks: int) -> bool:
        async with self._write() as db:
            return (await db.execute(events.LOOKED, (event_id, looks))).rowcount == 1

    async def move_event(self, event_id: int, status: EventStatus, round: int, *,
                         was: EventStatus, was_round: int) -> bool:
        async with self._write() as db:
            cursor = await db.execute(events.SET_EVENT, (status.value, round, 1, event_id,
                                                         was.value, was_round))
            return cursor.rowcount == 1

    async def save_entrant(self, entrant: Entrant) -> bool:
        async with self._write() as db:
            if await (await db.execute(events.SIGNING_UP, (entrant.event_id,))).fetchone() is None:
                return False
            await db.execute(events.DROP_ENTRANT, (entrant.event_id, entrant.user_id))
            await db.execute(events.DROP_PLAYERS, (entrant.event_id, entrant.user_id))
            await db.execute(events.ADD_ENTRANT, events.entrant_row(entrant, rows.stamp))
            for player in entrant.players:
                try:
                    await db.execute(events.ADD_PLAYER, (entrant.event_id, player,
                                                         entrant.user_id))
                except sqlite3.IntegrityError:
                    raise EntrantTakenError(player) from None
            return True

    async def drop_entrant(self, event_id: int, user_id: int) -> bool:
        async with self._write() as db:
            if await (await db.execute(events.SIGNING_UP, (event_id,))).fetchone() is None:
                return False
            await db.execute(events.DROP_PLAYERS, (event_id, user_id))
            cursor = await db.execute(events.DROP_ENTRANT, (event_id, user_id))
            return cursor.rowcount == 1

    async def entrants(self, event_id: int, limit: int) -> tuple[Entrant, ...]:
        async with self._read() as db:
            cursor = await db.execute(events.ENTRANTS, (event_id, limit))
            return tuple(events.entrant(row) for row in await cursor.fetchall())

    async def withdraw_entrant(self, event_id: int, user_id: int) -> bool:
        async with self._write() as db:
            cursor = await db.execute(events.WITHDRAW, (True, event_id, user_id, False))
            if cursor.rowcount != 1:
                return False
            await db.execute(events.LOOK, (event_id,))
            return True

    async def pair_round(self, event_id: int, games: Sequence[EventGame], *, round: int,
                         was_round: int) -> tuple[EventGame, ...] | None:
        stored = []
        running = EventStatus.RUNNING.value
        async with self._write() as db:
            cursor = await db.execute(events.SET_EVENT, (running, round, 0, event_id,
                                                         running, was_round))
            if cursor.rowcount != 1:
                return None
            for game in games:
                cursor = await db.execute(events.ADD_GAME, events.game_row(event_id, game))
                stored.append(events.event_game(await _only_row(cursor)))
        return tuple(game for game in stored if game is not None)

    async def event_games(self, event_id: int, limit: int) -> tuple[EventGame, ...]:
        async with self._read() as db:
            cursor = await db.execute(events.GAMES, (event_id, limit))
            found = [events.event_game(row) for row in await cursor.fetchall()]
        return tuple(game for game in found if game is not None)

    async def event_game_of(self, game_id: int) -> EventGame | None:
        async with self._read() as db:
            return events.event_game(await (await db.execute(events.GAME_OF,
                                                             (game_id,))).fetchone())

    async def ended_unscored(self, event_id: int, limit: int) -> tuple[int, ...]:
        async with self._read() as db:
            cursor = await db.execute(events.ENDED_UNSCORED, (event_id, limit))
            return tuple(row[0] for row in await cursor.fetchall())

    async def score_event_game(self, event_game_id: int, score: float, forfeit: bool) -> bool:
        async with self._write() as db:
            cursor = await db.execute(events.SCORE_GAME, (score, forfeit, event_game_id))
            if cursor.rowcount != 1:
                return False
            await db.execute(events.LOOK_PAIRING, (event_game_id,))
            return True

    # --- what a player keeps for themselves: notes, a move to confirm (storage.private) --

    async def add_note(self, game_id: int, user_id: int, text: str, *, most: int,
                       now: datetime | None = None) -> Note | None:
        async with self._write() as db:
            last = (await _only_row(await db.execute(private.LAST_NOTE,
                                                     (game_id, user_id))))[0]
            if last >= most:
                return None
            row = (game_id, user_id, last + 1, text, rows.stamp(now))
            await db.execute(private.ADD_NOTE, row)
        return private.note(row)

    async def notes(self, game_id: int, user_id: int, limit: int) -> tuple[Note, ...]:
        async with self._read() as db:
            cursor = await db.execute(private.NOTES, (game_id, user_id, limit))
            return tuple(private.note(row) for row in await cursor.fetchall())

    async def clear_notes(self, game_id: int, user_id: int) -> int:
        async with self._write() as db:
            cursor = await db.execute(private.CLEAR_NOTES, (game_id, user_id))
            return cursor.rowcount

    async def hold_move(self, game_id: int, user_id: int, command: str, at_version: int,
                        now: datetime | None = None) -> PendingMove:
        async with self._write() as db:
            await db.execute(private.DROP_PENDING, (game_id, user_id))
            cursor = await db.execute(private.HOLD_PENDING, (game_id, user_id, command,
                                                             at_version, rows.stamp(now)))
            held = private.pending(await _only_row(cursor))
        assert held is not None
        return held

    async def pending_move(self, game_id: int, user_id: int) -> PendingMove | None:
        async with self._read() as db:
            cursor = await db.execute(private.PENDING, (game_id, user_id))
            return private.pending(await cursor.fetchone())

    async def take_pending_move(self, pending_id: int) -> PendingMove | None:
        async with self._write() as db:
            cursor = await db.execute(private.TAKE_PENDING, (pending_id,))
            return private.pending(await cursor.fetchone())

    # --- the bot as a player (storage.bots) ---------------------------------------------

    async def add_bot_challenge(self, challenge_id: int, guild_id: int,
                                takebacks: bool) -> None:
        async with self._write() as db:
            await db.execute(bots.ADD, (challenge_id, guild_id, takebacks))

    async def start_bot_game(self, challenge_id: int, game_id: int) -> None:
        async with self._write() as db:
            await db.execute(bots.START, (game_id, True, challenge_id))

    async def bot_game(self, game_id: int) -> BotGame | None:
        async with self._read() as db:
            return bots.bot_game(await (await db.execute(bots.GET, (game_id,))).fetchone())

    async def await_bot(self, game_id: int, awaiting: bool) -> None:
        async with self._write() as db:
            await db.execute(bots.AWAIT, (awaiting, game_id))

    async def awaiting_bot_games(self, limit: int, *, shards: Shards | None = None
                                 ) -> tuple[int, ...]:
        async with self._read() as db:
            cursor = await db.execute(bots.awaiting(shards), (limit,))
            return tuple(row[0] for row in await cursor.fetchall())

    async def count_hopeless(self, game_id: int, team: int, version: int,
                             hopeless: bool) -> int:
        update, select = bots.count(team)
        async with self._write() as db:
            await db.execute(update, (hopeless, version, game_id, version))
            return int((await _only_row(await db.execute(select, (game_id,))))[0])

    async def claim_busy_notice(self, game_id: int, version: int) -> bool:
        async with self._write() as db:
            cursor = await db.execute(bots.BUSY, (version, game_id, version))
            return cursor.rowcount == 1

    async def open_bot_games(self, guild_id: int, user_id: int) -> int:
        async with self._read() as db:
            return int((await _only_row(await db.execute(bots.OPEN_OF,
                                                         (user_id, guild_id))))[0])

    # --- users, settings, preferences, stats -------------------------------------------

    async def remember_users(self, names: dict[int, str]) -> None:
        async with self._write() as db:
            await db.executemany(
                "INSERT INTO users (user_id, name) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name",
                list(names.items()))

    async def user_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        async with self._read() as db:
            cursor = await db.execute(
                f"SELECT user_id, name FROM users WHERE user_id IN ({','.join('?' * len(ids))})",
                ids)
            return {row[0]: row[1] for row in await cursor.fetchall()}

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._read() as db:
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
                    "(wake_at IS NULL OR wake_at > updated_at)", (guild_id,))
            return settings

    async def guilds_with(self, setting: str, value: Any) -> tuple[int, ...]:
        if setting not in {field.name for field in fields(GuildSettings)}:
            raise ValueError(f"there is no setting called {setting}")
        async with self._read() as db:
            cursor = await db.execute(
                "SELECT guild_id FROM guild_settings WHERE key = ? AND value = ? "
                "ORDER BY guild_id", (setting, json.dumps(value)))
            return tuple(row[0] for row in await cursor.fetchall())

    async def user_prefs(self, user_id: int) -> UserPrefs:
        async with self._read() as db:
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
        async with self._read() as db:
            # a page straight from the index ratings_by_rank, with each player's totals
            cursor = await db.execute(
                "SELECT r.user_id, coalesce(t.games, 0), coalesce(t.wins, 0), "
                f"coalesce(t.losses, 0), coalesce(t.draws, 0), {rows.RATING_COLUMNS} "
                "FROM ratings r LEFT JOIN player_totals t "
                "ON t.guild_id = r.guild_id AND t.user_id = r.user_id WHERE r.guild_id = ? "
                "ORDER BY r.rating DESC, r.user_id LIMIT ? OFFSET ?", (guild_id, limit, offset))
            return tuple(PlayerStats(guild_id, *row[:5], *rows.rating_fields(row[5:]))
                         for row in await cursor.fetchall())


async def _rollback(db: aiosqlite.Connection) -> None:
    """End whatever transaction is open, even one whose BEGIN is still queued.

    aiosqlite runs a connection's statements in order on its thread, so a ROLLBACK queued now
    runs after every statement of this task (also when the task was cancelled mid-way) and
    before those of the next lock holder. With nothing open it fails harmlessly.
    """
    with contextlib.suppress(sqlite3.OperationalError):
        await db.execute("ROLLBACK")


def _new_id(cursor: aiosqlite.Cursor) -> int:
    """The id of the row that the cursor's INSERT has just made."""
    row_id = cursor.lastrowid
    assert row_id is not None, "SQLite sets lastrowid on every INSERT"
    return row_id


async def _only_row(cursor: aiosqlite.Cursor) -> aiosqlite.Row:
    """The row of a query that always returns one: an aggregate, or RETURNING from a row known
    to exist."""
    row = await cursor.fetchone()
    assert row is not None, "the query returns exactly one row"
    return row


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


# --- reading stored values (used inside a transaction of either connection) --------------------

async def _game(db: aiosqlite.Connection, game_id: int) -> StoredGame:
    games = await _games(db, "id = ?", [game_id], 1)
    if not games:
        raise NotFoundError(f"there is no game {game_id}")
    return games[0]


#: where `_games` reads games from, and the column that orders them newest first: all games, or
#: one player's walked in the index game_seats_by_user (where `game_seats.user_id = ?`), which
#: is in that order already, so a page deep in the list steps over index entries, sorting none
_ALL_GAMES = ("games", "id")
_PLAYER_GAMES = ("game_seats CROSS JOIN games ON games.id = game_seats.game_id",
                 "game_seats.game_id")


async def _games(db: aiosqlite.Connection, where: str, params: Sequence[Any], limit: int,
                 offset: int = 0, source: tuple[str, str] = _ALL_GAMES
                 ) -> tuple[StoredGame, ...]:
    """Games matching `where`, newest first, skipping `offset`; a negative `limit` means all.

    Skipped games are stepped over, not read in full: seats are read for the games returned.
    """
    table, newest = source
    cursor = await db.execute(f"SELECT {rows.GAME_COLUMNS} FROM {table} WHERE {where} "
                              f"ORDER BY {newest} DESC LIMIT ? OFFSET ?",
                              [*params, limit, offset])
    found = await cursor.fetchall()
    seats = await _children(db, "game_seats", "game_id", rows.SEAT_COLUMNS, "seat",
                            [row[0] for row in found])
    return tuple(rows.game(row, seats.get(row[0], [])) for row in found)


async def _challenge(db: aiosqlite.Connection, challenge_id: int) -> Challenge:
    found = await _challenges(db, "id = ?", [challenge_id])
    if not found:
        raise NotFoundError(f"there is no challenge {challenge_id}")
    return found[0]


async def _challenges(db: aiosqlite.Connection, where: str,
                      params: Sequence[Any]) -> tuple[Challenge, ...]:
    cursor = await db.execute(f"SELECT {rows.CHALLENGE_COLUMNS} FROM challenges "
                              f"WHERE {where} ORDER BY id", params)
    found = await cursor.fetchall()
    invitees = await _children(db, "challenge_invitees", "challenge_id",
                               rows.INVITEE_COLUMNS, "slot", [row[0] for row in found])
    return tuple(rows.challenge(row, invitees.get(row[0], [])) for row in found)


async def _children(db: aiosqlite.Connection, table: str, parent: str, columns: str,
                    order: str, parent_ids: Sequence[int]) -> dict[int, list[Any]]:
    """The rows of `table` belonging to each parent id, in `order`, by parent id."""
    if not parent_ids:
        return {}
    marks = ", ".join("?" * len(parent_ids))
    cursor = await db.execute(f"SELECT {parent}, {columns} FROM {table} "
                              f"WHERE {parent} IN ({marks}) ORDER BY {parent}, {order}",
                              list(parent_ids))
    return rows.children(await cursor.fetchall())


async def _stats(db: aiosqlite.Connection, guild_id: int,
                 user_ids: Sequence[int]) -> dict[int, PlayerStats]:
    """The totals of the counted games (see `_add_totals`) and the stored rating."""
    if not user_ids:
        return {}
    marks = ", ".join("?" * len(user_ids))
    cursor = await db.execute(
        "SELECT user_id, games, wins, losses, draws FROM player_totals "
        f"WHERE guild_id = ? AND user_id IN ({marks})", [guild_id, *user_ids])
    counts = await cursor.fetchall()
    cursor = await db.execute(f"SELECT r.user_id, {rows.RATING_COLUMNS} FROM ratings r "
                              f"WHERE r.guild_id = ? AND r.user_id IN ({marks})",
                              [guild_id, *user_ids])
    return rows.player_stats(guild_id, user_ids, counts, await cursor.fetchall())


async def _settings(db: aiosqlite.Connection, table: str, owner: str, owner_id: int,
                    kind: type[rows.Settings]) -> rows.Settings:
    cursor = await db.execute(f"SELECT key, value FROM {table} WHERE {owner} = ?",
                              (owner_id,))
    return rows.settings(kind, {key: value for key, value in await cursor.fetchall()})


async def _update_settings(db: aiosqlite.Connection, table: str, owner: str, owner_id: int,
                           kind: type[rows.Settings], changes: dict[str, Any]) -> rows.Settings:
    encoded = rows.checked_changes(await _settings(db, table, owner, owner_id, kind), changes)
    await db.executemany(f"INSERT OR REPLACE INTO {table} ({owner}, key, value) "
                         "VALUES (?, ?, ?)",
                         [(owner_id, key, value) for key, value in encoded.items()])
    return await _settings(db, table, owner, owner_id, kind)


# --- writing (inside a write transaction) ------------------------------------------------

async def _advance(db: aiosqlite.Connection, game_id: int, expected_version: int,
                   at: str | None, *, step: int) -> None:
    """The optimistic-concurrency check: move an active game at `expected_version` on by `step`.

    Done as one guarded UPDATE, so the check and the change cannot be separated. `at` None
    leaves `updated_at` (the time of the last move) alone.
    """
    cursor = await db.execute(
        "UPDATE games SET version = version + ?, updated_at = coalesce(?, updated_at) "
        "WHERE id = ? AND version = ? AND status = 'active'",
        (step, at, game_id, expected_version))
    if cursor.rowcount == 1:
        return
    cursor = await db.execute("SELECT version, status FROM games WHERE id = ?", (game_id,))
    row = await cursor.fetchone()
    if row is None:
        raise NotFoundError(f"there is no game {game_id}")
    if row[1] != GameStatus.ACTIVE:
        raise GameFinishedError(game_id)
    raise StaleVersionError(game_id, expected_version, row[0])


async def _finish(db: aiosqlite.Connection, game_id: int, result: GameResult, at: str) -> None:
    cursor = await db.execute(
        "UPDATE games SET status = 'finished', result = ?, reason = ?, finished_at = ?, "
        "wake_at = NULL WHERE id = ? RETURNING guild_id",
        (Result(result.result).value, result.reason, at, game_id))
    (guild_id,) = await _only_row(cursor)
    await _owe_look(db, game_id)
    if result.winners:
        marks = ", ".join("?" * len(result.winners))
        cursor = await db.execute(f"UPDATE game_seats SET winner = 1 WHERE game_id = ? "
                                  f"AND user_id IN ({marks})", (game_id, *result.winners))
        if cursor.rowcount != len(set(result.winners)):
            raise ValueError("every winner must have a seat in the game")
    await db.execute("DELETE FROM offers WHERE game_id = ?", (game_id,))
    await _forget_unplayed(db, game_id)
    await _add_totals(db, game_id)
    if result.rated_sides is not None:
        await _rate(db, guild_id, result, result.rated_sides, at)


async def _owe_look(db: aiosqlite.Connection, game_id: int) -> None:
    """An event game's end owes its event a look from the clocks' tick (`events.LOOK_GAME`,
    migration 0013), in the transaction that records it: a crash right after leaves it owed."""
    await db.execute(events.LOOK_GAME, (game_id,))


async def _forget_unplayed(db: aiosqlite.Connection, game_id: int) -> None:
    """Drop the moves of a game that has just finished that can no longer be played
    (`private.UNPLAYED`), in the transaction that records its result."""
    for statement in private.UNPLAYED:
        await db.execute(statement, (game_id,))


async def _add_totals(db: aiosqlite.Connection, game_id: int) -> None:
    """Add a game that has just finished to its players' and pairs' totals (migration 0006,
    `rows.ADD_TOTALS`), in the transaction that records its result, so that the totals never
    drift from games."""
    for statement in rows.ADD_TOTALS:
        await db.execute(statement, (game_id,))


async def _rate(db: aiosqlite.Connection, guild_id: int, result: GameResult,
                sides: tuple[tuple[int, ...], tuple[int, ...]], at: str) -> None:
    """New ratings from the stored ones, read and written in the caller's transaction."""
    players = [*sides[0], *sides[1]]
    marks = ", ".join("?" * len(players))
    cursor = await db.execute(f"SELECT user_id, {rows.GLICKO_COLUMNS} FROM ratings "
                              f"WHERE guild_id = ? AND user_id IN ({marks})",
                              (guild_id, *players))
    current = {row[0]: rows.stored_rating(row[1:]) for row in await cursor.fetchall()}
    rated = rows.new_ratings(Result(result.result), sides, current, rows.moment(at))
    await db.executemany(
        "INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, rated_games, "
        "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
        "rating = excluded.rating, deviation = excluded.deviation, "
        "volatility = excluded.volatility, rated_games = rated_games + 1, "
        "updated_at = excluded.updated_at",
        [(guild_id, user_id, new.rating, new.deviation, new.volatility, at)
         for user_id, new in rated])


async def _set_challenge_status(db: aiosqlite.Connection, challenge_id: int,
                                status: ChallengeStatus) -> None:
    await db.execute("UPDATE challenges SET status = ? WHERE id = ?",
                     (status.value, challenge_id))


async def _claim_challenge(db: aiosqlite.Connection, challenge_id: int) -> None:
    rows.check_pending(await _challenge(db, challenge_id))
    await _set_challenge_status(db, challenge_id, ChallengeStatus.ACCEPTED)
