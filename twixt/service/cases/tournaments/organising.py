"""Tournaments and leagues: `tournament create|join|leave|start|withdraw|standings|list|info|
next-season`, the start at the sign-up deadline (the clocks' tick), and the standings posted
as games end.

What tournament rules leave open, settled here: a Double TwixT team signs up with
`join with PARTNER` and counts once the partner joins too (`join`, or `join with` the
first); a withdrawal scores every game of the player not yet decided as a forfeit and calls
off their games in progress (unrated: a game nobody finished says nothing of strength); a
league's next season is made by a manager (`next-season`), the players of the last season
signed up again (they may `leave`), its groups carried over with the top two of each group
up and the bottom two down.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from twixt.language import Message, Translation, message, translation
from twixt.service import commands as cmd
from twixt.service.cases.tournaments.crosstables import (
    crosstables,
    group_standings,
    groups_of,
    pictures,
)
from twixt.service.cases.tournaments.rounds import EventPlay, Notice, capacity, said, team_name
from twixt.service.commands.options import describe_setup
from twixt.service.commands.tournament_options import EventOptions
from twixt.service.desk.desk import ServiceCore
from twixt.service.failures import log_failure
from twixt.service.model import (
    Attachment,
    Button,
    ButtonKind,
    Reply,
    Request,
    ServiceError,
    User,
    require_private,
)
from twixt.service.names import shown_length
from twixt.service.pure.clock.texts import moment_text
from twixt.service.pure.tournaments import pairing
from twixt.storage import (
    Entrant,
    EntrantTakenError,
    Event,
    EventFormat,
    EventStatus,
    GameResult,
    NotFoundError,
    Result,
)

log = logging.getLogger(__name__)

#: the events `list` shows, and that are searched for a channel's own
LISTED = 10
#: the due events the tick starts at a time
BATCH = 20
#: the pictures a message carries (Discord's limit of files)
FILES = 10
#: characters of the entrants `info` names (64 teams of long names would not fit one
#: message): the rest are counted
ENTRANTS_SHOWN = 1500
_FORMATS = {EventFormat.ROUND_ROBIN: message("round robin"), EventFormat.SWISS: message("swiss"),
            EventFormat.LEAGUE: message("league")}
_STATUS = {EventStatus.SIGNUP: message("sign-up"), EventStatus.RUNNING: message("running"),
           EventStatus.FINISHED: message("finished")}


class Events:
    """The tournament commands over the core, and what the clocks' tick does for events."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core
        self.play = EventPlay(core)
        self.play.standings_notice = self._standings_notice
        core.game_ended.append(self.play.game_ended)

    async def run(self, request: Request, asked: cmd.EventAction) -> Reply:
        """One `tournament …` command."""
        match asked.action:
            case "create":
                assert asked.options is not None
                return await self.create(request, asked.name, asked.options)
            case "join":
                return await self.join(request, asked.event_id, asked.partner)
            case "leave":
                return await self.leave(request, asked.event_id)
            case "start":
                return await self.start(request, asked.event_id)
            case "withdraw":
                return await self.withdraw(request, asked.event_id)
            case "standings":
                return await self.standings(request, asked.event_id)
            case "list":
                return await self.listing(request)
            case "info":
                return await self.info(request, asked.event_id)
            case "next-season":
                return await self.next_season(request, asked.event_id)
        raise AssertionError(f"unhandled tournament action {asked.action!r}")  # pragma: no cover

    # --- before the start ------------------------------------------------------------------

    async def create(self, request: Request, name: str, options: EventOptions,
                     previous: Event | None = None) -> Reply:
        """A channel manager announces an event here, sign-up open until the deadline."""
        return self._announcement(await self._create(request, name, options, previous),
                                  request.tr)

    async def _create(self, request: Request, name: str, options: EventOptions,
                      previous: Event | None) -> Event:
        if not request.can_manage:
            raise ServiceError("only a channel manager can create a tournament")
        if self._core.port.threads is None:
            raise ServiceError("threads are not available here")
        settings = await self._core.storage.guild_settings(request.guild_id)
        vacation = (settings.vacation_default if options.game.vacation is None
                    else options.game.vacation)
        now = self._core.clock()
        return await self._core.storage.create_event(Event(
            0, request.guild_id, request.channel_id, name, options.format,
            replace(options.game.setup, vacation=vacation), options.rounds, options.double,
            options.teams, now + options.signup, EventStatus.SIGNUP, 0,
            previous.season + 1 if previous else 1, previous.id if previous else None,
            request.user.id, now))

    async def join(self, request: Request, event_id: int | None,
                   partner: User | None = None) -> Reply:
        """Sign up (with `partner`, a team of a Double TwixT event)."""
        event = await self._event(request, event_id)
        async with self._core.lock(event.channel_id):
            event = await self._core.storage.get_event(event.id)
            _signing_up(event)
            entrants = await self.play.entrants(event)
            me = request.user.id
            if any(me in e.players and e.confirmed for e in entrants):
                raise ServiceError("you are already signed up")
            asked = next((e for e in entrants if e.partner_id == me), None)
            if asked is not None and (partner is None or partner.id == asked.user_id):
                await self._sign_up(event, replace(asked, confirmed=True))
                names = await self._core.names(asked.players)
                return Reply(request.tr("{names} join {event} as a team.",
                                        names=team_name(asked.players, names),
                                        event=event.name))
            if len(entrants) >= capacity(event):
                raise ServiceError("{event} is full", event=event.name)
            if event.teams and partner is None:
                raise ServiceError("this is a Double TwixT event: join with your partner, "
                                   "like tournament join with bob")
            if partner is not None and not event.teams:
                raise ServiceError("this event is for single players: join without a partner")
            if partner is not None and (partner.id == me or any(
                    partner.id in e.players for e in entrants)):
                raise ServiceError("{name} cannot be your partner here", name=partner.name)
            await self._sign_up(event, Entrant(
                event.id, me, partner.id if partner else None, confirmed=partner is None,
                joined_at=self._core.clock()), partner)
            await self._core.remember(request.user, *((partner,) if partner else ()))
        if partner is not None:
            return Reply(request.tr("{name} asks {partner} to play {event} as a team: "
                                    "{partner}, join too.", name=request.user.name,
                                    partner=partner.name, event=event.name),
                         mentions=(partner.id,))
        return Reply(request.tr("{name} joins {event}.", name=request.user.name,
                                event=event.name))

    async def _sign_up(self, event: Event, entrant: Entrant,
                       partner: User | None = None) -> None:
        """Store a sign-up; refused if the event has started meanwhile, or a player is in
        another team already (another process signed them up first)."""
        try:
            saved = await self._core.storage.save_entrant(entrant)
        except EntrantTakenError as taken:
            if partner is not None and taken.user_id == partner.id:
                raise ServiceError("{name} cannot be your partner here",
                                   name=partner.name) from None
            raise ServiceError("you are already signed up") from None
        if not saved:
            raise ServiceError("{event} has started: sign-up is closed", event=event.name)

    async def leave(self, request: Request, event_id: int | None) -> Reply:
        """Take one's sign-up back (a team's, for both) while sign-up runs."""
        event = await self._event(request, event_id)
        async with self._core.lock(event.channel_id):
            _signing_up(await self._core.storage.get_event(event.id))
            mine = next((e for e in await self.play.entrants(event)
                         if request.user.id in e.players), None)
            if mine is None:
                raise ServiceError("you are not signed up for {event}", event=event.name)
            if not await self._core.storage.drop_entrant(event.id, mine.user_id):
                _signing_up(await self._core.storage.get_event(event.id))
                raise ServiceError("you are not signed up for {event}", event=event.name)
        return Reply(request.tr("{name} leaves {event}.", name=request.user.name,
                                event=event.name))

    async def start(self, request: Request, event_id: int | None) -> Reply:
        """A channel manager starts an event before its deadline (on a running event: opens
        the games that could not be opened, such as a thread Discord refused)."""
        if not request.can_manage:
            raise ServiceError("only a channel manager can start a tournament")
        event = await self._event(request, event_id)
        if event.status is EventStatus.RUNNING:  # again: open what could not be opened
            if event.round == 0:
                await self._pair_first(event)
            opened = await self.play.open_missing(event)
            if not opened:
                return Reply(request.tr("{event} is running already, and each of its games "
                                        "is open.", event=event.name))
            return Reply(request.tr.plural("{n} game opened.", "{n} games opened.", opened))
        _signing_up(event)
        entrants = await self.play.players(event)
        if len(entrants) < 2:
            raise ServiceError("a tournament needs at least two entrants")
        if not await self._begin(event):
            raise ServiceError("{event} has started already", event=event.name)
        return Reply(request.tr("{event} starts with {count} entrants.", event=event.name,
                                count=len(entrants)))

    async def tick(self, now: datetime) -> list[Reply]:
        """Start the events whose sign-up has closed (one with fewer than two entrants ends
        without games), finish what a crash cut short, and say what waits to be said.

        A running event is read only when a write has owed it a look (`Event.looks`), and its
        pairings only then; the look is cleared afterwards unless a write came meanwhile (a
        crash before that leaves it owed: the next tick looks again)."""
        for event in await self._core.storage.due_events(now, BATCH):
            try:
                await self._look(event)
            except Exception:
                # events are isolated: one that fails keeps its look and is tried again at
                # the next tick, and the others go on
                log_failure(log, "event not looked at", {"event_id": event.id})
        return await self.notices(lambda notice: self._core.port.language(notice.guild_id))

    async def _look(self, event: Event) -> None:
        """What a due event needs now: its start, or the step a crash cut short."""
        if event.status is EventStatus.SIGNUP:
            await self._begin(event)
            return
        if event.round == 0:
            await self._pair_first(event)  # a start cut short: pair it now
        elif all(game.score is not None for game in await self.play.refresh(event)):
            await self.play.advance(event)  # a round's end cut short: move on now
        await self._core.storage.event_looked(event.id, event.looks)

    async def notices(self, locale_of: Callable[[Notice], str]) -> list[Reply]:
        """The event messages waiting to be sent, each in its language; taken once."""
        waiting, self.play.notices = self.play.notices, []
        last = {notice.key: notice for notice in waiting if notice.key is not None}
        return [await notice.make(translation(locale_of(notice))) for notice in waiting
                if notice.key is None or last[notice.key] is notice]

    # --- while it runs ---------------------------------------------------------------------

    async def withdraw(self, request: Request, event_id: int | None) -> Reply:
        """Leave a running event: every game not yet decided is lost by forfeit, and the
        games in progress are called off."""
        event = await self._event(request, event_id)
        if event.status is EventStatus.FINISHED:
            raise ServiceError("{event} is over: there is nothing left to withdraw from",
                               event=event.name)
        if event.status is not EventStatus.RUNNING:
            raise ServiceError("{event} is not running: before the start, use leave",
                               event=event.name)
        mine = next((e for e in await self.play.entrants(event)
                     if request.user.id in e.players and e.confirmed), None)
        storage = self._core.storage
        if mine is None or not await storage.withdraw_entrant(event.id, mine.user_id):
            raise ServiceError("you are not playing in {event}", event=event.name)
        games = await self.play.refresh(event)
        for game in games:
            if game.score is None and mine.user_id in (game.red, game.black):
                await storage.score_event_game(game.id, 0.0 if game.red == mine.user_id
                                               else 1.0, True)
                if game.game_id is not None:
                    await self._call_off(game.game_id)
        await self.play.advance(await storage.get_event(event.id))
        return Reply(request.tr("{name} withdraws from {event}: the games left are lost by "
                                "forfeit.", name=request.user.name, event=event.name))

    async def _call_off(self, game_id: int) -> None:
        stored = await self._core.storage.get_game(game_id)
        async with self._core.lock(stored.channel_id):
            stored = await self._core.storage.get_game(game_id)
            if stored.is_active:
                await self._core.finish(stored, GameResult(Result.ABORTED, "withdrawn"))

    async def standings(self, request: Request, event_id: int | None) -> Reply:
        """The event's crosstable picture (a league's: one per group); for the asker alone
        when named from another channel (the event's may be private, and its results with
        it)."""
        event = await self._event(request, event_id)
        elsewhere = event.channel_id != request.channel_id and event_id is not None
        if elsewhere:
            require_private(request, "/twixt-tournament standings")
        if event.status is EventStatus.SIGNUP:
            raise ServiceError("{event} has not started yet", event=event.name)
        return await self._standings(event, request.tr, ephemeral=elsewhere)

    def _standings_notice(self, event: Event) -> Notice:
        async def make(tr: Translation) -> Reply:
            fresh = await self._core.storage.get_event(event.id)
            return await self._standings(fresh, tr, event.channel_id)
        return Notice(event.guild_id, make, key=event.id)

    async def _standings(self, event: Event, tr: Translation,
                         channel_id: int | None = None, ephemeral: bool = False) -> Reply:
        """The crosstables, at most `FILES` pictures a message (a league of many groups
        posts several)."""
        games = await self.play.refresh(event)
        entrants = await self.play.entrants(event)
        names = await self._core.names([uid for e in entrants for uid in e.players])
        footer = standings_footer(event, tr, self._core.clock())
        images = await pictures(crosstables(event, games, entrants, names, tr, footer))
        text = tr("Standings of {event}.", event=event.name)
        messages = [Reply(text, image=chunk[0], channel_id=channel_id, attachments=tuple(
            Attachment(f"group-{number}.png", data)
            for number, data in enumerate(chunk[1:], start=start + 2)), ephemeral=ephemeral)
            for start in range(0, len(images), FILES) for chunk in [images[start:start + FILES]]]
        if not messages:
            return Reply(text, channel_id=channel_id, ephemeral=ephemeral)
        return replace(messages[0], followups=tuple(messages[1:]))

    # --- looking on ------------------------------------------------------------------------

    async def listing(self, request: Request) -> Reply:
        """This server's newest events."""
        tr = request.tr
        found = await self._core.storage.events(request.guild_id, limit=LISTED)
        if not found:
            return Reply(tr("There are no tournaments here yet."), ephemeral=True)
        lines = [tr("#{id} {event} — {format}, {status}", id=e.id, event=e.name,
                    format=_FORMATS[e.format], status=_STATUS[e.status]) for e in found]
        return Reply("\n".join(lines), ephemeral=True)

    async def info(self, request: Request, event_id: int | None) -> Reply:
        """An event's facts and who plays in it."""
        tr = request.tr
        event = await self._event(request, event_id)
        entrants = await self.play.entrants(event)
        names = await self._core.names([uid for e in entrants for uid in e.players])
        shown = [team_name(e.players, names) + ("" if e.confirmed else " (?)")
                 + (" " + tr("(withdrawn)") if e.withdrawn else "") for e in entrants]
        lines = [_facts(event, tr),
                 tr("Entrants ({count}): {names}", count=len(entrants),
                    names=_some(shown, tr))]
        return Reply("\n".join(lines), ephemeral=True)

    # --- leagues -------------------------------------------------------------------------

    async def next_season(self, request: Request, event_id: int | None) -> Reply:
        """A manager opens a league's next season: its players signed up again, their
        groups carried over with promotion and relegation at the start."""
        event = await self._event(request, event_id)
        if event.format is not EventFormat.LEAGUE:
            raise ServiceError("only a league has seasons")
        if event.status is not EventStatus.FINISHED:
            raise ServiceError("{event} is not over yet", event=event.name)
        following = [e for e in await self._core.storage.events(request.guild_id, limit=LISTED)
                     if e.previous_id == event.id]
        if following:
            raise ServiceError("{event} has its next season already", event=event.name)
        options = EventOptions(event.format, rounds=event.rounds, double=event.double,
                               teams=event.teams)
        options = replace(options, game=replace(options.game, setup=event.setup,
                                                vacation=event.setup.vacation))
        season = await self._create(request, event.name, options, event)
        for entrant in await self.play.entrants(event):
            if entrant.confirmed and not entrant.withdrawn:
                await self._core.storage.save_entrant(replace(
                    entrant, event_id=season.id, joined_at=self._core.clock()))
        return self._announcement(season, request.tr)

    async def _begin(self, event: Event) -> bool:
        """Start an event (False if another start came first)."""
        if not await self.play.claim(event):
            return False
        await self._pair_first(await self._core.storage.get_event(event.id))
        return True

    async def _pair_first(self, event: Event) -> None:
        """Pair a claimed event (a league's later season with its groups carried over); with
        fewer than two entrants it is called off."""
        if len(await self.play.players(event)) < 2:
            if await self._core.storage.move_event(event.id, EventStatus.FINISHED, 0,
                                                   was=EventStatus.RUNNING, was_round=0):
                self.play.notices.append(_called_off(event))
            return
        groups = None
        if event.previous_id is not None:
            previous = await self._core.storage.get_event(event.previous_id)
            games = await self.play.refresh(previous)
            ranked = [[s.entrant for s in group_standings(previous, games, members)]
                      for _number, members in sorted(groups_of(games).items())]
            now = list(await self.play.players(event))
            before = {entrant for group in ranked for entrant in group}
            ratings = await self.play.ratings(event, await self.play.players(event))
            joining = sorted((e for e in now if e not in before), key=lambda e: -ratings[e])
            moving = 2 if event.rounds >= 8 else 1  # of a small group, one up and one down
            groups = pairing.next_season(ranked, moving, moving, joining=joining,
                                         leaving={e for e in before if e not in now})
            groups = tuple(group for group in groups if len(group) >= 2) or (tuple(now),)
        await self.play.pair_first(event, groups)

    # --- internals -------------------------------------------------------------------------

    async def _event(self, request: Request, event_id: int | None) -> Event:
        """The event named by number; in an event game's thread, that game's event; else
        this channel's newest."""
        if event_id is not None:
            try:
                event = await self._core.storage.get_event(event_id)
            except NotFoundError:
                raise ServiceError("there is no such tournament") from None
            if event.guild_id != request.guild_id:
                raise ServiceError("there is no such tournament")
            return event
        storage = self._core.storage
        for game in await storage.list_games(channel_id=request.channel_id, limit=1):
            linked = await storage.event_game_of(game.id)
            if linked is not None:
                return await storage.get_event(linked.event_id)
        found = await storage.events(request.guild_id, limit=LISTED)
        here = [e for e in found if e.channel_id == request.channel_id]
        if not here:
            raise ServiceError("there is no tournament in this channel: name one by its "
                               "number (see tournament list)")
        return here[0]

    def _announcement(self, event: Event, tr: Translation) -> Reply:
        text = (_facts(event, tr) + "\n"
                + tr("Sign up until {moment}: press Join, or write tournament join {id}.",
                     moment=moment_text(event.signup_until), id=event.id))
        return Reply(text, buttons=(Button(ButtonKind.JOIN_EVENT, event.id, tr("Join")),))


def _facts(event: Event, tr: Translation) -> str:
    kind: Message | str = _FORMATS[event.format]
    if event.format is EventFormat.SWISS:
        kind = message("swiss, {rounds} rounds", rounds=event.rounds)
    if event.format is EventFormat.LEAGUE:
        kind = message("league, groups of {size}", size=event.rounds)
    if event.double:
        kind = message("{kind}, both colours", kind=kind)
    if event.teams:
        kind = message("{kind}, Double TwixT", kind=kind)
    if event.season > 1:
        kind = message("{kind}, season {season}", kind=kind, season=event.season)
    return tr("Tournament #{id} **{event}**: {kind}, {setup} — {status}.", id=event.id,
              event=event.name, kind=kind, setup=describe_setup(event.setup),
              status=_STATUS[event.status])


def standings_footer(event: Event, tr: Translation, now: datetime) -> str:
    """The line under an event's crosstables: its state and when it was drawn, a Swiss's
    round (and, when no further round could be paired, that it ended early)."""
    moment = moment_text(now)
    if event.format is EventFormat.SWISS and event.status is EventStatus.FINISHED \
            and 0 < event.round < event.rounds:
        return tr("Finished after round {round} of {rounds}: no further pairing was possible "
                  "· updated {moment}", round=event.round, rounds=event.rounds, moment=moment)
    footer = tr("{status} · updated {moment}", status=tr.say(_STATUS[event.status]),
                moment=moment)
    if event.format is EventFormat.SWISS:
        footer = tr("Round {round} of {rounds}", round=event.round,
                    rounds=event.rounds) + " · " + footer
    return footer


def _some(names: list[str], tr: Translation) -> str:
    """As many of `names` as `ENTRANTS_SHOWN` characters hold, and how many more there are."""
    shown: list[str] = []
    for name in names:
        if sum(shown_length(n) + 2 for n in shown) + shown_length(name) > ENTRANTS_SHOWN:
            break
        shown.append(name)
    left = len(names) - len(shown)
    more = " " + tr.plural("and {n} more", "and {n} more", left) if left else ""
    return (", ".join(shown) or "—") + more


def _called_off(event: Event) -> Notice:
    return Notice(event.guild_id, lambda tr: said(
        tr("{event} is called off: fewer than two players signed up.", event=event.name),
        event.channel_id))


def _signing_up(event: Event) -> None:
    if event.status is not EventStatus.SIGNUP:
        raise ServiceError("{event} has started: sign-up is closed", event=event.name)
