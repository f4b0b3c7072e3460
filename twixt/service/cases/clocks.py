"""Clocks at work: reminders, the end of a player's time, claims and forfeits.

`tick()` is called by a dispatcher (the Discord front end, which sleeps in `wait()` until the
earliest wake-up; the terminal table at start with its `--clock`). Deadlines come from when
the turn passed, and each reminder is claimed in storage before it is sent, so a restart
neither loses nor repeats one.

Storage keeps each clocked game's next wake-up (the timers-table pattern): a commit stores
the first mark of the new turn, and a tick reads only the games that are due, acts on the
mark each has passed, and stores its next one. A tick with nothing due is two index looks,
however many games are running.

Several processes (shards, see docs/deployment.md) may tick over one database: a tick claims
the due games it takes for a lease (`claim_due_games`), keeps to its own shards' guilds
(`shards`), and claims each reminder, time-up notice and forfeit announcement once per game,
version and stage; one never marked delivered is claimed again and resent by one process.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Protocol

from twixt.language import Translation
from twixt.rules import Action, Command, Game
from twixt.service import commands as cmd
from twixt.service.cases.vacations import (
    day_notice,
    day_stage,
    game_day,
    is_day_stage,
    use_days,
)
from twixt.service.commands.options import either
from twixt.service.desk.after_turn import Played
from twixt.service.desk.desk import Desk, private_home, seat_to_move
from twixt.service.desk.engine_seats import is_engine_seat
from twixt.service.errors import ConflictError, NotAllowedError, ServiceError
from twixt.service.failures import log_failure
from twixt.service.model import Button, ButtonKind, Receipt, Reply, Request, User
from twixt.service.pure.clock.banks import TurnClock
from twixt.service.pure.clock.texts import moment_text
from twixt.service.pure.clock.timecontrol import FINAL_WARNING, describe_span
from twixt.service.texts import result_sentence
from twixt.storage import (
    ChallengeStore,
    ClockStore,
    GameStore,
    GuildSettings,
    Seat,
    SettingStore,
    StoredGame,
    VacationStore,
)


class ClocksStorage(ClockStore, ChallengeStore, GameStore, SettingStore, VacationStore, Protocol):
    """The subjects of storage the clocks read and write."""


log = logging.getLogger(__name__)

__all__ = ["FINAL_WARNING", "LONGEST_SLEEP", "RESEND_AFTER", "Clocks"]

#: a reminder claimed this long ago and not yet delivered is sent again
RESEND_AFTER = timedelta(minutes=5)
#: the dispatcher looks at least this often (undelivered reminders are sent again on this
#: beat), however far off the next wake-up is
LONGEST_SLEEP = timedelta(seconds=60)
SHORTEST_SLEEP = timedelta(seconds=1)
#: the due games a tick takes from storage at a time
BATCH = 200
#: a game whose clock failed is looked at again this much later, not at every tick
RETRY_AFTER = timedelta(minutes=5)
#: a tick claims the due games it takes for this long (their wake-up moves on by as much until
#: it stores the real one): no other process takes them meanwhile, and if this one dies they
#: are due again this much later
LEASE = timedelta(minutes=5)
_TIMEOUT = Command(actions=(Action.TIMEOUT,))
#: the receipt stage of the announcement of a forfeit on time (at the version before it)
FORFEIT = "forfeit"


class Clocks:
    """Claims on time and the scheduler's tick."""

    def __init__(self, desk: Desk, store: ClocksStorage) -> None:
        self._desk = desk
        self._store = store
        desk.turn_played.append(self.turn_played)

    async def turn_played(self, played: Played) -> None:
        """A turn was played or taken back (`Desk.turn_played`): its wake-up, stored with
        it, rings the dispatcher's alarm when it is earlier than the dispatcher planned."""
        self._desk.alarm.wake_by(played.wake_at)

    @cmd.handles(cmd.Claim)
    async def claim(self, request: Request) -> Reply:
        """An opponent of the player to move claims the win once that player's time is up."""
        desk = self._desk
        async with desk.lock(request.channel_id):
            stored, game = await desk.active(request.channel_id)
            turn_clock = await desk.turn_clock(stored)
            if not stored.setup.time_control:
                raise ConflictError("this game has no clock")
            late = seat_to_move(stored, game)
            seat = stored.seat_of(request.user.id)
            if seat is None or seat.team == late.team:
                raise NotAllowedError("only an opponent of {name} can claim on time",
                                      name=late.name)
            now = desk.clock()
            if turn_clock is not None and now >= turn_clock.due:  # a day first, if they have one
                settings = await self._store.guild_settings(stored.guild_id)
                turn_clock = await use_days(desk, self._store, stored, turn_clock, settings, now)
                if now < turn_clock.due:
                    desk.alarm.wake_by(now)  # the tick announces the day taken here
            if turn_clock is not None and now < turn_clock.due:
                pause = turn_clock.own.covering(now)
                if pause is not None and turn_clock.own.vacation_at(now):  # an automatic day, say
                    raise ConflictError("{name} is on vacation until {moment}: their time is "
                                        "not up", name=late.name, moment=moment_text(pause[1]))
                raise ConflictError("{name} still has {left} to move", name=late.name,
                                    left=describe_span(turn_clock.left_at(now)))
            return await self._time_out(request, stored, request.tr)

    async def tick(self, now: datetime | None = None) -> list[Reply]:
        """Act on every clock that has passed a mark: remind, announce, or forfeit, in the
        language of the game's server (`Port.language`). Only the games whose stored
        wake-up has come are read; each gets its next one.

        Games are isolated: one that fails is logged, looked at again a while later, and the
        others go on.
        """
        now = now or self._desk.clock()
        storage = self._store
        # marked once here, so that answering never has to load expired challenges again
        await storage.expire_challenges(now)
        replies = await self._undelivered(now)
        seen: set[tuple[int, int]] = set()
        while True:
            # claimed, not only read: of several processes (or ticks) each due game goes to
            # one, and a reminder's own claim and the version check guard the rest
            claimed = await storage.claim_due_games(now, now + LEASE, BATCH,
                                                    shards=self._desk.port.shards)
            due = [stored for stored in claimed if (stored.id, stored.version) not in seen]
            for stored in due:
                seen.add((stored.id, stored.version))
                reply = await self._wake(stored, now, self._desk.server_tr(stored.guild_id))
                if reply is not None:
                    replies.append(reply)
            if len(claimed) < BATCH:  # all done
                return replies

    async def wait(self, longest: timedelta = LONGEST_SLEEP) -> None:
        """Sleep until the earliest stored wake-up, at most `longest`; a commit that sets an
        earlier one (see `Desk.alarm`) ends the sleep at once."""
        alarm = self._desk.alarm
        alarm.forget()  # from here on, every commit's wake-up rings until the plan is made
        now = self._desk.clock()
        wake = await self._store.next_wake(shards=self._desk.port.shards)
        delay = longest if wake is None else min(wake - now, longest)
        # a moment at least: a wake-up that could not be stored must not spin the loop
        delay = max(delay, min(SHORTEST_SLEEP, longest))
        await alarm.sleep(now + delay, delay.total_seconds())

    async def delivered(self, receipt: Receipt) -> None:
        """A front end delivered a reminder: it is not sent again."""
        await self._store.reminder_delivered(receipt.game_id, receipt.version,
                                                    receipt.stage, now=self._desk.clock())

    async def _undelivered(self, now: datetime) -> list[Reply]:
        """Reminders claimed a while ago and never marked delivered, sent again while they
        still apply (the same turn of a game in progress); obsolete ones are let go. Each is
        claimed again first, so that of several processes one sends it."""
        storage = self._store
        replies = []
        for game_id, version, stage in await storage.reclaim_reminders(
                now - RESEND_AFTER, now, shards=self._desk.port.shards):
            try:
                stored = await storage.get_game(game_id)
                tr = self._desk.server_tr(stored.guild_id)
                if stage == FORFEIT:
                    again = await self._forfeit_again(stored, version, tr)
                    if again is not None:
                        replies.append(again)
                    elif not (stored.is_active and stored.version == version):
                        await storage.reminder_delivered(game_id, version, stage, now=now)
                    # still at that version: the forfeit itself is yet to come (its process
                    # died before it); the tick that makes it announces it
                    continue
                turn_clock = await self._desk.turn_clock(stored) if stored.is_active else None
                if turn_clock is None or stored.version != version:
                    await storage.reminder_delivered(game_id, version, stage, now=now)
                    continue
                late = stored.seats[turn_clock.seat]
                if is_day_stage(stage):  # again while that day runs
                    day = await game_day(self._store, stored, turn_clock, now)
                    if day is None or day_stage(day) != stage:
                        await storage.reminder_delivered(game_id, version, stage, now=now)
                    else:
                        replies.append(await day_notice(self._store, stored, late, day, tr))
                    continue
                replies.append(await self._notice(stored, late, stage, turn_clock.left_at(now),
                                                  tr))
            except Exception:
                log_failure(log, "undelivered reminder failed", {"game_id": game_id})
        return replies

    async def _wake(self, stored: StoredGame, now: datetime, tr: Translation) -> Reply | None:
        """A due game: the reply its clock calls for now, and its next wake-up stored."""
        storage = self._store
        try:
            reply, wake = await self._check_clock(stored, now, tr)
        except Exception:
            log_failure(log, "clock of one game failed", {"game_id": stored.id})
            reply, wake = None, now + RETRY_AFTER
        try:
            # under the version check: a turn that landed meanwhile keeps its own wake-up
            await storage.set_wake(stored.id, stored.version, wake)
        except Exception:
            log_failure(log, "wake-up of one game not stored", {"game_id": stored.id})
        return reply

    async def _check_clock(self, stored: StoredGame, now: datetime,
                           tr: Translation) -> tuple[Reply | None, datetime | None]:
        """The reply a game's clock calls for now, said by `tr` (its server's language), and
        its next mark (None: nothing more until a turn, or a change of the settings)."""
        desk = self._desk
        turn_clock = await desk.turn_clock(stored)
        if turn_clock is None:
            return None, None
        settings = await self._store.guild_settings(stored.guild_id)
        turn_clock = await use_days(desk, self._store, stored, turn_clock, settings, now)
        marks = turn_clock.marks(settings.reminder_hours)
        day = await game_day(self._store, stored, turn_clock, now)
        if day is not None:  # announced once, also after a restart between the two
            reply = await self._claimed(stored, day_stage(day), now,
                                        day_notice(self._store, stored,
                                                   stored.seats[turn_clock.seat],
                                                   day, tr))
        elif now >= marks.due:
            reply = await self._expired(stored, settings, turn_clock, now, tr)
        elif now >= marks.final:
            reply = await self._remind(stored, "final", turn_clock, now, tr)
        elif marks.first is not None and now >= marks.first:
            reply = await self._remind(stored, "first", turn_clock, now, tr)
        else:
            reply = None
        return reply, marks.next_after(now)

    async def _remind(self, stored: StoredGame, stage: str, turn_clock: TurnClock,
                      now: datetime, tr: Translation) -> Reply | None:
        notice = self._notice(stored, stored.seats[turn_clock.seat], stage,
                              turn_clock.left_at(now), tr)
        return await self._claimed(stored, stage, now, notice)

    async def _claimed(self, stored: StoredGame, stage: str, now: datetime,
                       notice: Awaitable[Reply]) -> Reply | None:
        """A notice of a stage of the game's turn, if this is the first claim of it."""
        reply = await notice
        # claimed last, so that nothing after the claim can fail before the reply exists;
        # a reply that is claimed but never delivered is sent again (`_undelivered`)
        if not await self._store.claim_reminder(stored.id, stored.version, stage,
                                                       now=now):
            return None
        return reply

    async def _notice(self, stored: StoredGame, late: Seat, stage: str, left: timedelta,
                      tr: Translation) -> Reply:
        """The message of a reminder stage (`first`, `final`) or of the time being up."""
        receipt = Receipt(stored.id, stored.version, stage)
        if stage == "expired":
            others = [s for s in stored.seats if s.team != late.team]
            opponents = tuple(s.user_id for s in others)
            return Reply(tr("{name}'s time to move in game {game} is up: {names} may claim the "
                            "win.", name=late.name, game=stored.id,
                            names=either([s.name for s in others])),
                         mentions=opponents, channel_id=stored.channel_id,
                         private_home=private_home(stored),
                         buttons=(Button(ButtonKind.CLAIM, stored.id, tr("Claim the win"),
                                         opponents),), receipt=receipt)
        text = tr("{name}, it is your move in game {game} ({left} left).", name=late.name,
                  game=stored.id, left=describe_span(left))
        # the bot's seat (late when its search failed) has no inbox: its reminder is said
        # in the channel, where its opponents see that it is late
        if (not is_engine_seat(late.user_id)
                and (await self._store.user_prefs(late.user_id)).dm_reminders):
            # the channel is where a front end says it if the DM cannot be delivered
            return Reply(text, dm_user_id=late.user_id, channel_id=stored.channel_id,
                         private_home=private_home(stored),
                         receipt=receipt)
        return Reply(text, mentions=(late.user_id,), channel_id=stored.channel_id,
                     private_home=private_home(stored),
                     receipt=receipt)

    async def _expired(self, stored: StoredGame, settings: GuildSettings, turn_clock: TurnClock,
                       now: datetime, tr: Translation) -> Reply | None:
        desk = self._desk
        if settings.forfeit_on_timeout:
            # The announcement is claimed before the forfeit is committed, so that a process
            # that dies between the two, or while it sends, leaves it to be sent again
            # (`_undelivered`); the forfeit itself happens once, by the version check.
            await self._store.claim_reminder(stored.id, stored.version, FORFEIT, now=now)
            async with desk.lock(stored.channel_id):
                if await self._store.active_game(stored.channel_id) != stored:
                    return None  # a turn landed meanwhile
                try:
                    reply = await self._time_out(None, stored, tr)
                except ServiceError:
                    if await self._store.get_game(stored.id) != stored:
                        return None  # a turn landed meanwhile, in another process
                    raise
            return replace(reply, channel_id=stored.channel_id,
                           private_home=private_home(stored),
                           receipt=Receipt(stored.id, stored.version, FORFEIT))
        return await self._remind(stored, "expired", turn_clock, now, tr)

    async def _time_out(self, request: Request | None, stored: StoredGame,
                        tr: Translation) -> Reply:
        """Record `timeout` for the player to move, said by `tr` (the claimer's language, or
        the server's when the clock forfeits); the caller holds the channel's lock."""
        desk = self._desk
        late = seat_to_move(stored, await desk.position(stored))
        claimer = request or Request(stored.guild_id, stored.channel_id,
                                     User(late.user_id, late.name), locale=tr.locale)
        played = await desk.commit(claimer, _TIMEOUT, actor=late)
        await desk.after_turn(played)  # a game over: nothing is played in answer
        return await self._forfeit_notice(stored, played.game, late, tr,
                                          None if request is None else request.user.id)

    async def _forfeit_notice(self, stored: StoredGame, game: Game, late: Seat,
                              tr: Translation, claimer_id: int | None) -> Reply:
        """What is said when `late` ran out of time and lost `game` (now over)."""
        assert game.outcome is not None
        image = await self._desk.render(game, None, locale=tr.locale)
        # everyone is told, the one who ran out first; a claimer needs no ping of their own
        told = tuple(s.user_id for s in stored.seats if s.user_id != claimer_id)
        return Reply(tr("{name} ran out of time.", name=late.name) + "\n"
                     + result_sentence(game.outcome, game, tr),
                     image=image, mentions=told,
                     buttons=await self._desk.rematch_buttons(stored, tr))

    async def _forfeit_again(self, stored: StoredGame, version: int,
                             tr: Translation) -> Reply | None:
        """The announcement of a forfeit on time made at `version`, to send again; None if
        the game did not end that way there."""
        if stored.is_active or stored.version != version + 1:
            return None
        last = (await self._store.load_game(stored.id)).turns[-1]
        late = stored.seat_of(last.actor_id)
        if last.command != Action.TIMEOUT.value or late is None:
            return None
        reply = await self._forfeit_notice(stored, await self._desk.position(stored), late,
                                           tr, None)
        return replace(reply, channel_id=stored.channel_id,
                           private_home=private_home(stored),
                       receipt=Receipt(stored.id, version, FORFEIT))
