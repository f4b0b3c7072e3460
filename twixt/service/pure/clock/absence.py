"""Vacations and weekends off as the clocks see them: each seat's pauses in a game, and the
vacation days a player has left.

A player's vacations belong to a server and stop their clocks in every game of it that allows
vacation (the game's `vacation` option); weekends off are fixed per game, as the player's
preference stood when the game began (so that changing it never rewrites time already
used). A game that does not allow vacation has no pauses at all. Days are counted per
calendar year (UTC) of a vacation's start: the days asked for, or the days begun when a
vacation is ended early.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from twixt.service.pure.clock.pauses import NO_PAUSES, Pauses
from twixt.storage import StoredGame, StoredVacation, VacationStore

DAY = timedelta(days=1)


async def pauses_of(storage: VacationStore, stored: StoredGame,
                    since: datetime) -> tuple[Pauses, ...]:
    """Each seat's pauses in a game from `since` on (their vacations in its server and
    weekends off), or none where the game does not allow vacation."""
    if not stored.setup.vacation:
        return (NO_PAUSES,) * len(stored.seats)
    found = await storage.vacations(stored.guild_id, [s.user_id for s in stored.seats], since)
    return tuple(Pauses(tuple((v.starts_at, v.ends_at) for v in found
                              if v.user_id == seat.user_id), seat.weekends_off)
                 for seat in stored.seats)


async def days_left(storage: VacationStore, guild_id: int, user_id: int, allowed: int,
                    now: datetime) -> int:
    """The vacation days a player has left in the calendar year (UTC) of `now`."""
    used = await storage.vacation_days_used(guild_id, user_id, now.astimezone(UTC).year)
    return max(0, allowed - used)


def current(vacations: tuple[StoredVacation, ...], user_id: int,
            now: datetime) -> StoredVacation | None:
    """The user's vacation running at `now`, of those found."""
    return next((v for v in vacations if v.user_id == user_id and v.starts_at <= now < v.ends_at),
                None)


def days_begun(vacation: StoredVacation, end: datetime) -> int:
    """The days a vacation counts when it ends at `end`: every day begun, at least one."""
    return max(1, math.ceil((end - vacation.starts_at) / DAY))
