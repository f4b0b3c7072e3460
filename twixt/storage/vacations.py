"""Vacations, when players' clocks stand still (SQLite's migration 0010, PostgreSQL's 0007):
the contract (`VacationStore`) and its SQL, the same on both back ends (written with `?`).

A vacation's days count within the calendar year (UTC) it starts in, at most what the guild
allows; storing or ending one makes the player's clocked games in the guild due at once, in the
same transaction, so that the clocks work their marks out again.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from twixt.storage import rows
from twixt.storage.model import StoredVacation
from twixt.storage.rows import moment
from twixt.storage.sql import SqlBase, only_row

#: a vacation row, as `vacation` reads it
VACATION_COLUMNS = "id, guild_id, user_id, starts_at, ends_at, days, automatic, game_id"


def vacation(row: Sequence[Any]) -> StoredVacation:
    """A vacation from a `VACATION_COLUMNS` row."""
    vacation_id, guild_id, user_id, starts_at, ends_at, days, automatic, game_id = row
    return StoredVacation(vacation_id, guild_id, user_id, moment(starts_at), moment(ends_at), days,
                    bool(automatic), game_id)


def year_bounds(year: int) -> tuple[datetime, datetime]:
    """The first moment of a calendar year (UTC) and of the next."""
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


#: the SQL that makes a user's active clocked games of a guild due by a moment (params: the
#: moment, guild id, user id, the moment): their clocks' marks are worked out again
WAKE_GAMES_OF = (
    "UPDATE games SET wake_at = ? WHERE guild_id = ? AND status = 'active' AND "
    "time_control IS NOT NULL AND id IN (SELECT game_id FROM game_seats WHERE user_id = ?) "
    "AND (wake_at IS NULL OR wake_at > ?)")
#: the days counted by a user's vacations in a guild that start within a span (params: guild
#: id, user id, the span's start and end)
DAYS_USED = ("SELECT coalesce(sum(days), 0) FROM vacations WHERE guild_id = ? AND user_id = ? "
             "AND starts_at >= ? AND starts_at < ?")
#: the vacations of some users of a guild ending after a moment, the latest ending first and
#: of those ending together the newest (by id: without it each back end orders ties its own
#: way) (params: the moment, the limit; the users' condition goes in `{users}`)
VACATIONS_SINCE = (f"SELECT {VACATION_COLUMNS} FROM vacations WHERE guild_id = ? AND "
                   "{users} AND ends_at > ? ORDER BY ends_at DESC, id DESC LIMIT ?")


#: a user's vacation in a guild that starts at a moment (params: guild id, user id, start)
VACATION_STARTING = (f"SELECT {VACATION_COLUMNS} FROM vacations WHERE guild_id = ? AND "
                     "user_id = ? AND starts_at = ?")
#: a new vacation, read back (params: guild id, user id, start, end, days, automatic, game id)
ADD_VACATION = ("INSERT INTO vacations (guild_id, user_id, starts_at, ends_at, days, automatic, "
                f"game_id) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {VACATION_COLUMNS}")
#: a vacation ended at a moment, counting new days, if it has begun and not ended by then
#: (params: the moment, the days, the id, the moment, the moment)
END_VACATION = ("UPDATE vacations SET ends_at = ?, days = ? WHERE id = ? AND ends_at > ? AND "
                f"starts_at <= ? RETURNING {VACATION_COLUMNS}")


class VacationStore(Protocol):
    """When players' clocks stand still."""

    async def add_vacation(self, guild_id: int, user_id: int, starts_at: datetime,
                           ends_at: datetime, days: int, *, allowed: int,
                           automatic: bool = False, game_id: int | None = None,
                           now: datetime | None = None) -> StoredVacation | None:
        """Store a user's vacation in a guild if, with its `days`, their vacations there that
        start in the same calendar year (UTC) count no more than `allowed` days; None, storing
        nothing, if they would. A vacation that starts when one of the user's already does is
        that one, returned as stored: so an automatic day is taken once, however many
        processes try. Storing one makes every active clocked game of the user in the guild
        due by `now`, in the same transaction, so the clocks work its marks out again."""

    async def end_vacation(self, vacation_id: int, ends_at: datetime, days: int,
                           now: datetime | None = None) -> StoredVacation | None:
        """End a vacation early at `ends_at`, from then on counting `days`; None, changing
        nothing, if it had already ended by then. The user's clocked games in the guild
        become due by `now`, as with `add_vacation`."""

    async def vacations(self, guild_id: int, user_ids: Sequence[int], since: datetime,
                        limit: int = 500) -> tuple[StoredVacation, ...]:
        """The vacations of these users in the guild that end after `since` (running, to
        come, or ended since), oldest first (by end, then id): of many, the `limit` that end
        last."""

    async def vacation_days_used(self, guild_id: int, user_id: int, year: int) -> int:
        """The days counted by the user's vacations in the guild that start in `year` (UTC)."""


class SqlVacations(SqlBase):
    """`VacationStore` in SQL."""

    async def add_vacation(self, guild_id: int, user_id: int, starts_at: datetime,
                           ends_at: datetime, days: int, *, allowed: int,
                           automatic: bool = False, game_id: int | None = None,
                           now: datetime | None = None) -> StoredVacation | None:
        start = rows.utc(starts_at)
        async with self._write() as db:
            # the days counted and the new row must not race another writer adding one
            await db.lock_user(guild_id, user_id)
            row = await db.fetch_one(VACATION_STARTING, guild_id, user_id, start)
            if row is not None:
                return vacation(row)
            first, last = year_bounds(start.year)
            used = await db.fetch_value(DAYS_USED, guild_id, user_id, first, last)
            if used + days > allowed:
                return None
            added = await only_row(db, ADD_VACATION, guild_id, user_id, start,
                                    rows.utc(ends_at), days, automatic, game_id)
            at = rows.utc(now)
            await db.execute(WAKE_GAMES_OF, at, guild_id, user_id, at)
            return vacation(added)

    async def end_vacation(self, vacation_id: int, ends_at: datetime, days: int,
                           now: datetime | None = None) -> StoredVacation | None:
        end = rows.utc(ends_at)
        async with self._write() as db:
            row = await db.fetch_one(END_VACATION, end, days, vacation_id, end, end)
            if row is None:
                return None
            ended = vacation(row)
            at = rows.utc(now)
            await db.execute(WAKE_GAMES_OF, at, ended.guild_id, ended.user_id, at)
            return ended

    async def vacations(self, guild_id: int, user_ids: Sequence[int], since: datetime,
                        limit: int = 500) -> tuple[StoredVacation, ...]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return ()
        async with self._read_one() as db:
            users, values = db.among("user_id", ids)
            found = await db.fetch_all(VACATIONS_SINCE.format(users=users), guild_id,
                                       *values, rows.utc(since), limit)
        return tuple(vacation(row) for row in reversed(found))

    async def vacation_days_used(self, guild_id: int, user_id: int, year: int) -> int:
        first, last = year_bounds(year)
        async with self._read_one() as db:
            return int(await db.fetch_value(DAYS_USED, guild_id, user_id, first, last))
