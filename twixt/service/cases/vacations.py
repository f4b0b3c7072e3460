"""Vacations: a player's days off in a server (`vacation 3d`, `vacation`, `vacation end`), and
the day used automatically when a player's time runs out while they have days left.

Each server gives its players `vacation_days` a calendar year (UTC; 0: no vacation there). A
vacation stops the player's clocks in every game of the server that allows vacation, from now
for whole days. Ended early, it counts the days begun. When a player's time runs out in a game
that allows vacation and they have a day left, the clocks take one automatically, starting at
the deadline (stored once, however many ticks or processes try, see `Storage.add_vacation`),
and say so in the game's channel instead of the time-up notice; a claim on time takes that
day first if no tick has yet, and is refused while it runs. Starting or ending a vacation
makes the player's clocked games due at once, so their marks are worked out again with it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from twixt.language import Translation, plural_message
from twixt.service import commands as cmd
from twixt.service.desk.desk import Desk, private_home
from twixt.service.errors import ConflictError, LimitError, MalformedError, NotAllowedError
from twixt.service.model import Receipt, Reply, Request
from twixt.service.pure.clock.absence import DAY, current, days_begun, days_left
from twixt.service.pure.clock.banks import TurnClock
from twixt.service.pure.clock.texts import moment_text
from twixt.storage import (
    GuildSettings,
    Seat,
    SettingStore,
    StoredGame,
    StoredVacation,
    VacationStore,
)


class VacationsStorage(VacationStore, SettingStore, Protocol):
    """The subjects of storage vacations read and write."""


#: the receipt stage of an automatic day's announcement starts so (then the day's start)
_DAY_STAGE = "day "


class Vacations:
    """`vacation`: show, start or end one's vacation in this server."""

    def __init__(self, desk: Desk, store: VacationsStorage) -> None:
        self._desk = desk
        self._store = store

    @cmd.handles(cmd.Vacation)
    async def vacation(self, request: Request, days: int | None = None,
                       end: bool = False) -> Reply:
        """With `days`, start a vacation of that many days now; with `end`, end the running
        one; with neither, say how many days are left this year and any running vacation."""
        desk = self._desk
        if end and days is not None:  # Discord's two options, both given
            raise MalformedError("vacation takes a number of days or end, not both")
        settings = await self._store.guild_settings(request.guild_id)
        now = desk.clock()
        found = await self._store.vacations(request.guild_id, [request.user.id], now)
        running = current(found, request.user.id, now)
        if end:
            return await self._end(request, running, settings)
        if days is None:
            return await self._show(request, running, settings)
        if settings.vacation_days <= 0:
            raise NotAllowedError("this server has no vacation")
        if running is not None and running.automatic:  # which vacation end cannot end
            raise ConflictError("your vacation day used when your time ran out lasts until "
                                "{moment}: start a vacation after it",
                                moment=moment_text(running.ends_at))
        if running is not None:
            raise ConflictError("you are on vacation until {moment}; vacation end ends it",
                                moment=moment_text(running.ends_at))
        left = await days_left(self._store, request.guild_id, request.user.id,
                               settings.vacation_days, now)
        started = (None if not 1 <= days <= left else await self._store.add_vacation(
            request.guild_id, request.user.id, now, now + days * DAY, days,
            allowed=settings.vacation_days, now=now))
        if started is None:
            raise _days_left_refusal(left)
        if started.ends_at <= now:
            # one that ended as it began, at this same moment (the terminal table's clock
            # stands still): a user's vacations start at different moments, so that is it
            raise ConflictError("your last vacation ended at this very moment: start the next "
                                "one later")
        desk.alarm.wake_by(now)  # the player's clocks are due at once
        return Reply(request.tr.plural(
            "{name} is on vacation until {moment}: their clocks stop in this server's games "
            "that allow vacation. {n} day left this year.",
            "{name} is on vacation until {moment}: their clocks stop in this server's games "
            "that allow vacation. {n} days left this year.", left - days,
            name=request.user.name, moment=moment_text(started.ends_at)))

    async def _end(self, request: Request, running: StoredVacation | None,
                   settings: GuildSettings) -> Reply:
        desk = self._desk
        now = desk.clock()
        if running is None:
            raise ConflictError("you are not on vacation")
        if running.automatic:
            raise ConflictError("this vacation day was used when your time ran out; it ends by "
                                "itself at {moment}", moment=moment_text(running.ends_at))
        if await self._store.end_vacation(running.id, now, days_begun(running, now),
                                           now=now) is None:
            raise ConflictError("you are not on vacation")
        desk.alarm.wake_by(now)
        left = await days_left(self._store, request.guild_id, request.user.id,
                               settings.vacation_days, now)
        return Reply(request.tr.plural(
            "{name}'s vacation is over; their clocks run again. {n} day left this year.",
            "{name}'s vacation is over; their clocks run again. {n} days left this year.",
            left, name=request.user.name))

    async def _show(self, request: Request, running: StoredVacation | None,
                    settings: GuildSettings) -> Reply:
        tr = request.tr
        if settings.vacation_days <= 0:
            # a vacation begun before the server ended them runs on: it is still said
            text = tr("This server has no vacation.")
        else:
            left = await days_left(self._store, request.guild_id, request.user.id,
                                   settings.vacation_days, self._desk.clock())
            text = tr.plural("You have {n} vacation day left this year (of {days}).",
                             "You have {n} vacation days left this year (of {days}).", left,
                             days=settings.vacation_days)
        if running is not None:
            text += " " + tr("You are on vacation until {moment}.",
                             moment=moment_text(running.ends_at))
        return Reply(text, ephemeral=True)


def _days_left_refusal(left: int) -> LimitError:
    if left <= 0:
        return LimitError("you have no vacation days left this year")
    return LimitError(plural_message(
        "a vacation is {n} day at most: that is what you have left this year",
        "a vacation is 1 to {n} days: that is what you have left this year", left))


# --- the day used when a player's time runs out ------------------------------------------

async def use_days(desk: Desk, store: VacationsStorage, stored: StoredGame, turn_clock: TurnClock,
                   settings: GuildSettings, now: datetime) -> TurnClock:
    """The turn_clock of the turn in progress once the late player has used a vacation day for
    each day since the deadline (more than one if no tick looked for a while) that they
    have, so that a tick and a claim on time see the same: the day, never the timeout."""
    for _day in range(settings.vacation_days):
        if now < turn_clock.due or not await take_day(store, stored, turn_clock, settings, now):
            break
        turn_clock = await desk.turn_clock(stored) or turn_clock  # it stands still for the day
    return turn_clock


async def take_day(store: VacationsStorage, stored: StoredGame, turn_clock: TurnClock,
                   settings: GuildSettings, now: datetime) -> bool:
    """Use one of the late player's vacation days from the deadline on, if the game allows
    vacation and they have one left; whether one is now stored there."""
    if not stored.setup.vacation or settings.vacation_days <= 0:
        return False
    late = stored.seats[turn_clock.seat]
    due = turn_clock.due
    day = await store.add_vacation(stored.guild_id, late.user_id, due, due + DAY, 1,
                                          allowed=settings.vacation_days, automatic=True,
                                          game_id=stored.id, now=now)
    return day is not None


async def game_day(store: VacationsStorage, stored: StoredGame, turn_clock: TurnClock,
                   now: datetime) -> StoredVacation | None:
    """The automatic day the player to move is on at `now` because their time ran out in
    this game's turn in progress, if any."""
    if not turn_clock.own.vacation_at(now):
        return None
    late = stored.seats[turn_clock.seat]
    found = await store.vacations(stored.guild_id, [late.user_id], now)
    return next((v for v in found if v.automatic and v.game_id == stored.id
                 and turn_clock.started <= v.starts_at <= now < v.ends_at), None)


def day_stage(day: StoredVacation) -> str:
    """The receipt stage of an automatic day's announcement: one per day and turn."""
    return _DAY_STAGE + day.starts_at.isoformat()


def is_day_stage(stage: str) -> bool:
    return stage.startswith(_DAY_STAGE)


async def day_notice(store: VacationsStorage, stored: StoredGame, late: Seat, day: StoredVacation,
                     tr: Translation) -> Reply:
    """What the channel is told instead of the time-up notice, said by `tr`."""
    settings = await store.guild_settings(stored.guild_id)
    left = await days_left(store, stored.guild_id, late.user_id,
                           settings.vacation_days, day.starts_at)
    text = tr.plural("{name}'s time to move in game {game} ran out: a vacation day is used, "
                     "so the clock stands still until {moment}. {n} day left this year.",
                     "{name}'s time to move in game {game} ran out: a vacation day is used, "
                     "so the clock stands still until {moment}. {n} days left this year.",
                     left, name=late.name, game=stored.id, moment=moment_text(day.ends_at))
    return Reply(text, mentions=(late.user_id,), channel_id=stored.channel_id,
                 private_home=private_home(stored),
                 receipt=Receipt(stored.id, stored.version, day_stage(day)))
