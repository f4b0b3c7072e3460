"""Clocks at work: reminders, the end of a player's time, claims and forfeits.

`tick()` is called by a scheduler (the Discord front end every minute; the terminal table at
start with its `--clock`). Deadlines are derived from the stored log and each reminder is
claimed in storage before it is sent, so a restart neither loses nor repeats one.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bot.service.core import ServiceCore, rematch_button
from bot.service.model import Button, ButtonKind, Context, Reply, ServiceError, User
from bot.service.texts import result_sentence
from bot.service.timecontrol import describe_span, time_per_move
from storage import GuildSettings, StoredGame

FINAL_WARNING = timedelta(hours=24)


class ClockCommands(ServiceCore):
    """Claims on time and the scheduler's tick."""

    async def claim(self, ctx: Context) -> Reply:
        """An opponent of the player to move claims the win once that player's time is up."""
        async with self._locks(ctx.channel_id):
            record, game = await self._active(ctx.channel_id)
            due = await self._due(record)
            if due is None:
                raise ServiceError("this game has no clock")
            seat = record.seat_of(ctx.user.id)
            late = record.seats[game.seat_to_move]  # type: ignore[index]
            if seat is None or seat.team == late.team:
                raise ServiceError(f"only an opponent of {late.name} can claim on time")
            now = self._clock()
            if now < due:
                raise ServiceError(f"{late.name} still has {describe_span(due - now)} to move")
            return await self._time_out(ctx, record)

    async def tick(self, now: datetime | None = None) -> list[Reply]:
        """Act on every clock that has passed a mark: remind, announce, or forfeit."""
        now = now or self._clock()
        replies = []
        for record in await self.storage.timed_games():
            reply = await self._check_clock(record, now)
            if reply is not None:
                replies.append(reply)
        return replies

    async def _check_clock(self, record: StoredGame, now: datetime) -> Reply | None:
        due = await self._due(record)
        if due is None:
            return None
        settings = await self.storage.guild_settings(record.guild_id)
        started = due - time_per_move(record.setup.time_control or "")
        first = started + timedelta(hours=settings.reminder_hours)
        final = due - FINAL_WARNING
        if now >= due:
            return await self._expired(record, settings, now)
        if now >= final > started:
            return await self._remind(record, "final", due, now)
        if now >= first and first < final:
            return await self._remind(record, "first", due, now)
        return None

    async def _remind(self, record: StoredGame, stage: str, due: datetime,
                      now: datetime) -> Reply | None:
        game = await self._position(record)
        late = record.seats[game.seat_to_move]  # type: ignore[index]
        if not await self.storage.claim_reminder(record.id, record.version, stage, now=now):
            return None
        text = (f"{late.name}, it is your move in game {record.id} "
                f"({describe_span(due - now)} left).")
        if (await self.storage.user_prefs(late.user_id)).dm_reminders:
            # the channel is where a front end says it if the DM cannot be delivered
            return Reply(text, dm_user_id=late.user_id, channel_id=record.channel_id)
        return Reply(text, mentions=(late.user_id,), channel_id=record.channel_id)

    async def _expired(self, record: StoredGame, settings: GuildSettings,
                       now: datetime) -> Reply | None:
        if settings.forfeit_on_timeout:
            async with self._locks(record.channel_id):
                if await self.storage.active_game(record.channel_id) != record:
                    return None  # a turn landed meanwhile
                reply = await self._time_out(None, record)
            return replace(reply, channel_id=record.channel_id)
        if not await self.storage.claim_reminder(record.id, record.version, "expired", now=now):
            return None
        game = await self._position(record)
        late = record.seats[game.seat_to_move]  # type: ignore[index]
        opponents = tuple(s.user_id for s in record.seats if s.team != late.team)
        names = " or ".join(s.name for s in record.seats if s.team != late.team)
        return Reply(f"{late.name}'s time to move in game {record.id} is up: {names} may "
                     "claim the win.", mentions=opponents, channel_id=record.channel_id,
                     buttons=(Button(ButtonKind.CLAIM, record.id, "Claim the win",
                                     opponents),))

    async def _time_out(self, ctx: Context | None, record: StoredGame) -> Reply:
        """Record `timeout` for the player to move; the caller holds the channel's lock."""
        _record, game = await self._active(record.channel_id)
        late = record.seats[game.seat_to_move]  # type: ignore[index]
        claimer = ctx or Context(record.guild_id, record.channel_id,
                                 User(late.user_id, late.name))
        _record, game, _turn = await self._commit(claimer, "timeout", actor=late)
        assert game.outcome is not None
        image = await self._render(game, None)
        # everyone is told, the one who ran out first; a claimer needs no ping of their own
        told = tuple(s.user_id for s in record.seats if ctx is None or s.user_id != ctx.user.id)
        return Reply(f"{late.name} ran out of time.\n{result_sentence(game.outcome, game)}",
                     image=image, mentions=told, buttons=(rematch_button(record),))

