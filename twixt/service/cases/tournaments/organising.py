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
from typing import Protocol

from twixt.language import Message, Translation, message, translation
from twixt.service import commands as cmd
from twixt.service.cases.tournaments.crosstables import (
    crosstables,
    group_standings,
    groups_of,
    pictures,
)
from twixt.service.cases.tournaments.rounds import Notice, Rounds, capacity, said, team_name
from twixt.service.commands.options import describe_setup
from twixt.service.commands.tournament_options import TournamentOptions
from twixt.service.desk.desk import Desk
from twixt.service.errors import (
    ConflictError,
    LimitError,
    MalformedError,
    MissingError,
    NotAllowedError,
)
from twixt.service.failures import log_failure
from twixt.service.model import (
    Attachment,
    Button,
    ButtonKind,
    Reply,
    Request,
    User,
    require_private,
)
from twixt.service.names import shown_length
from twixt.service.pure.clock.texts import moment_text
from twixt.service.pure.tournaments import pairing
from twixt.storage import (
    Entrant,
    EntrantTakenError,
    GameResult,
    GameStore,
    NotFoundError,
    Result,
    SettingStore,
    StatsStore,
    Tournament,
    TournamentFormat,
    TournamentStatus,
    TournamentStore,
)


class TournamentsStorage(TournamentStore, GameStore, SettingStore, StatsStore, Protocol):
    """The subjects of storage tournaments read and write."""


log = logging.getLogger(__name__)

#: the tournaments `list` shows, and that are searched for a channel's own
LISTED = 10
#: the due tournaments the tick starts at a time
BATCH = 20
#: the looks at one tournament that may fail in a row, for the same owed look, before this
#: process leaves it until a write owes it a new look (or a restart): a broken tournament is
#: not searched at every tick forever, nor does it keep a place of the batch from the others
MAX_FAILED_LOOKS = 3
#: the pictures a message carries (Discord's limit of files)
FILES = 10
#: characters of the entrants `info` names (64 teams of long names would not fit one
#: message): the rest are counted
ENTRANTS_SHOWN = 1500
_FORMATS = {TournamentFormat.ROUND_ROBIN: message("round robin"),
            TournamentFormat.SWISS: message("swiss"),
            TournamentFormat.LEAGUE: message("league")}
_STATUS = {TournamentStatus.SIGNUP: message("sign-up"),
           TournamentStatus.RUNNING: message("running"),
           TournamentStatus.FINISHED: message("finished")}


class Tournaments:
    """The tournament commands over the desk, and what the clocks' tick does for tournaments."""

    def __init__(self, desk: Desk, store: TournamentsStorage) -> None:
        self._desk = desk
        self._store = store
        self.rounds = Rounds(desk, store)
        #: tournament id → (the owed look that failed, how often in a row)
        self._failed_looks: dict[int, tuple[int, int]] = {}
        self.rounds.standings_notice = self._standings_notice
        desk.game_ended.append(self.rounds.game_ended)

    @cmd.handles(cmd.TournamentAction)
    async def run(self, request: Request, action: str, tournament_id: int | None = None,
                  name: str = "", options: TournamentOptions | None = None,
                  partner: User | None = None) -> Reply:
        """One `tournament …` command."""
        match action:
            case "create":
                assert options is not None
                return await self.create(request, name, options)
            case "join":
                return await self.join(request, tournament_id, partner)
            case "leave":
                return await self.leave(request, tournament_id)
            case "start":
                return await self.start(request, tournament_id)
            case "withdraw":
                return await self.withdraw(request, tournament_id)
            case "standings":
                return await self.standings(request, tournament_id)
            case "list":
                return await self.listing(request)
            case "info":
                return await self.info(request, tournament_id)
            case "next-season":
                return await self.next_season(request, tournament_id)
        raise AssertionError(f"unhandled tournament action {action!r}")  # pragma: no cover

    # --- before the start ------------------------------------------------------------------

    async def create(self, request: Request, name: str, options: TournamentOptions,
                     previous: Tournament | None = None) -> Reply:
        """A channel manager announces a tournament here, sign-up open until the deadline."""
        return self._announcement(await self._create(request, name, options, previous),
                                  request.tr)

    async def _create(self, request: Request, name: str, options: TournamentOptions,
                      previous: Tournament | None) -> Tournament:
        if not request.can_manage:
            raise NotAllowedError("only a channel manager can create a tournament")
        if self._desk.port.threads is None:
            raise NotAllowedError("threads are not available here")
        settings = await self._store.guild_settings(request.guild_id)
        vacation = (settings.vacation_default if options.game.vacation is None
                    else options.game.vacation)
        now = self._desk.clock()
        return await self._store.create_tournament(Tournament(
            0, request.guild_id, request.channel_id, name, options.format,
            replace(options.game.setup, vacation=vacation), options.rounds, options.double,
            options.teams, now + options.signup, TournamentStatus.SIGNUP, 0,
            previous.season + 1 if previous else 1, previous.id if previous else None,
            request.user.id, now))

    async def join(self, request: Request, tournament_id: int | None,
                   partner: User | None = None) -> Reply:
        """Sign up (with `partner`, a team of a Double TwixT tournament)."""
        tournament = await self._tournament(request, tournament_id)
        async with self._desk.lock(tournament.channel_id):
            tournament = await self._store.get_tournament(tournament.id)
            _signing_up(tournament)
            entrants = await self.rounds.entrants(tournament)
            me = request.user.id
            if any(me in e.players and e.confirmed for e in entrants):
                raise ConflictError("you are already signed up")
            asked = next((e for e in entrants if e.partner_id == me), None)
            if asked is not None and (partner is None or partner.id == asked.user_id):
                await self._sign_up(tournament, replace(asked, confirmed=True))
                names = await self._desk.names(asked.players)
                return Reply(request.tr("{names} join {event} as a team.",
                                        names=team_name(asked.players, names),
                                        event=tournament.name))
            if len(entrants) >= capacity(tournament):
                raise LimitError("{event} is full", event=tournament.name)
            if tournament.teams and partner is None:
                raise MalformedError("this is a Double TwixT event: join with your partner, "
                                     "like tournament join with bob")
            if partner is not None and not tournament.teams:
                raise MalformedError("this event is for single players: join without a partner")
            if partner is not None and (partner.id == me or any(
                    partner.id in e.players for e in entrants)):
                raise ConflictError("{name} cannot be your partner here", name=partner.name)
            await self._sign_up(tournament, Entrant(
                tournament.id, me, partner.id if partner else None, confirmed=partner is None,
                joined_at=self._desk.clock()), partner)
            await self._desk.remember(request.user, *((partner,) if partner else ()))
        if partner is not None:
            return Reply(request.tr("{name} asks {partner} to play {event} as a team: "
                                    "{partner}, join too.", name=request.user.name,
                                    partner=partner.name, event=tournament.name),
                         mentions=(partner.id,))
        return Reply(request.tr("{name} joins {event}.", name=request.user.name,
                                event=tournament.name))

    async def _sign_up(self, tournament: Tournament, entrant: Entrant,
                       partner: User | None = None) -> None:
        """Store a sign-up; refused if the tournament has started meanwhile, or a player is in
        another team already (another process signed them up first)."""
        try:
            saved = await self._store.save_entrant(entrant)
        except EntrantTakenError as taken:
            if partner is not None and taken.user_id == partner.id:
                raise ConflictError("{name} cannot be your partner here",
                                    name=partner.name) from None
            raise ConflictError("you are already signed up") from None
        if not saved:
            raise ConflictError("{event} has started: sign-up is closed", event=tournament.name)

    async def leave(self, request: Request, tournament_id: int | None) -> Reply:
        """Take one's sign-up back (a team's, for both) while sign-up runs."""
        tournament = await self._tournament(request, tournament_id)
        async with self._desk.lock(tournament.channel_id):
            _signing_up(await self._store.get_tournament(tournament.id))
            mine = next((e for e in await self.rounds.entrants(tournament)
                         if request.user.id in e.players), None)
            if mine is None:
                raise ConflictError("you are not signed up for {event}", event=tournament.name)
            if not await self._store.drop_entrant(tournament.id, mine.user_id):
                _signing_up(await self._store.get_tournament(tournament.id))
                raise ConflictError("you are not signed up for {event}", event=tournament.name)
        return Reply(request.tr("{name} leaves {event}.", name=request.user.name,
                                event=tournament.name))

    async def start(self, request: Request, tournament_id: int | None) -> Reply:
        """A channel manager starts a tournament before its deadline (on a running tournament: opens
        the games that could not be opened, such as a thread Discord refused)."""
        if not request.can_manage:
            raise NotAllowedError("only a channel manager can start a tournament")
        tournament = await self._managed(request, tournament_id)
        if tournament.status is TournamentStatus.RUNNING:  # again: open what could not be opened
            if tournament.round == 0:
                await self._pair_first(tournament)
            opened = await self.rounds.open_missing(tournament)
            if not opened:
                return Reply(request.tr("{event} is running already, and each of its games "
                                        "is open.", event=tournament.name))
            return Reply(request.tr.plural("{n} game opened.", "{n} games opened.", opened))
        _signing_up(tournament)
        entrants = await self.rounds.players(tournament)
        if len(entrants) < 2:
            raise ConflictError("a tournament needs at least two entrants")
        if not await self._begin(tournament):
            raise ConflictError("{event} has started already", event=tournament.name)
        return Reply(request.tr("{event} starts with {count} entrants.", event=tournament.name,
                                count=len(entrants)))

    async def tick(self, now: datetime) -> list[Reply]:
        """Start the tournaments whose sign-up has closed (one with fewer than two entrants ends
        without games), finish what a crash cut short, and say what waits to be said.

        A running tournament is read only when a write has owed it a look (`Tournament.looks`),
        and its
        pairings only then; the look is cleared afterwards unless a write came meanwhile (a
        crash before that leaves it owed: the next tick looks again)."""
        left = {tournament_id for tournament_id, (_, failures) in self._failed_looks.items()
                if failures >= MAX_FAILED_LOOKS}
        due = await self._store.due_tournaments(now, BATCH + len(left))
        for tournament in [t for t in due if not self._left(t)][:BATCH]:
            try:
                await self._look(tournament)
            except Exception:
                # tournaments are isolated: one that fails keeps its look and is tried again at
                # the next tick, a bounded number of times, and the others go on
                self._look_failed(tournament)
            else:
                self._failed_looks.pop(tournament.id, None)
        return await self.notices(lambda notice: self._desk.port.language(notice.guild_id))

    def _left(self, tournament: Tournament) -> bool:
        """Whether this process has stopped trying the look `tournament` owes (it failed
        `MAX_FAILED_LOOKS` times in a row); a new write owes a new look, which is tried."""
        failed = self._failed_looks.get(tournament.id)
        return (failed is not None and failed[0] == tournament.looks
                and failed[1] >= MAX_FAILED_LOOKS)

    def _look_failed(self, tournament: Tournament) -> None:
        looks, failures = self._failed_looks.get(tournament.id, (tournament.looks, 0))
        failures = failures + 1 if looks == tournament.looks else 1
        self._failed_looks[tournament.id] = (tournament.looks, failures)
        what = ("tournament left until a new write or a restart" if failures >= MAX_FAILED_LOOKS
                else "tournament not looked at")
        log_failure(log, what, {"tournament_id": tournament.id, "failures": failures})

    async def _look(self, tournament: Tournament) -> None:
        """What a due tournament needs now: its start, or the step a crash cut short."""
        if tournament.status is TournamentStatus.SIGNUP:
            await self._begin(tournament)
            return
        if tournament.round == 0:
            await self._pair_first(tournament)  # a start cut short: pair it now
        elif all(game.score is not None for game in await self.rounds.refresh(tournament)):
            await self.rounds.advance(tournament)  # a round's end cut short: move on now
        await self._store.tournament_looked(tournament.id, tournament.looks)

    async def notices(self, locale_of: Callable[[Notice], str]) -> list[Reply]:
        """The tournament messages waiting to be sent, each in its language; taken once."""
        waiting, self.rounds.notices = self.rounds.notices, []
        last = {notice.key: notice for notice in waiting if notice.key is not None}
        return [await notice.make(translation(locale_of(notice))) for notice in waiting
                if notice.key is None or last[notice.key] is notice]

    # --- while it runs ---------------------------------------------------------------------

    async def withdraw(self, request: Request, tournament_id: int | None) -> Reply:
        """Leave a running tournament: every game not yet decided is lost by forfeit, and the
        games in progress are called off."""
        tournament = await self._tournament(request, tournament_id)
        if tournament.status is TournamentStatus.FINISHED:
            raise ConflictError("{event} is over: there is nothing left to withdraw from",
                                event=tournament.name)
        if tournament.status is not TournamentStatus.RUNNING:
            raise ConflictError("{event} is not running: before the start, use leave",
                                event=tournament.name)
        mine = next((e for e in await self.rounds.entrants(tournament)
                     if request.user.id in e.players and e.confirmed), None)
        storage = self._store
        if mine is None or not await storage.withdraw_entrant(tournament.id, mine.user_id):
            raise ConflictError("you are not playing in {event}", event=tournament.name)
        games = await self.rounds.refresh(tournament)
        for game in games:
            if game.score is None and mine.user_id in (game.red, game.black):
                await storage.score_tournament_game(game.id, 0.0 if game.red == mine.user_id
                                               else 1.0, True)
                if game.game_id is not None:
                    await self._call_off(game.game_id)
        await self.rounds.advance(await storage.get_tournament(tournament.id))
        return Reply(request.tr("{name} withdraws from {event}: the games left are lost by "
                                "forfeit.", name=request.user.name, event=tournament.name))

    async def _call_off(self, game_id: int) -> None:
        stored = await self._store.get_game(game_id)
        async with self._desk.lock(stored.channel_id):
            stored = await self._store.get_game(game_id)
            if stored.is_active:
                await self._desk.finish(stored, GameResult(Result.ABORTED, "withdrawn"))

    async def standings(self, request: Request, tournament_id: int | None) -> Reply:
        """The tournament's crosstable picture (a league's: one per group); for the asker alone
        when named from another channel (the tournament's may be private, and its results with
        it)."""
        tournament = await self._tournament(request, tournament_id)
        elsewhere = tournament.channel_id != request.channel_id and tournament_id is not None
        if elsewhere:
            require_private(request, "/twixt-tournament standings")
        if tournament.status is TournamentStatus.SIGNUP:
            raise ConflictError("{event} has not started yet", event=tournament.name)
        return await self._standings(tournament, request.tr, ephemeral=elsewhere)

    def _standings_notice(self, tournament: Tournament) -> Notice:
        async def make(tr: Translation) -> Reply:
            fresh = await self._store.get_tournament(tournament.id)
            return await self._standings(fresh, tr, tournament.channel_id)
        return Notice(tournament.guild_id, make, key=tournament.id)

    async def _standings(self, tournament: Tournament, tr: Translation,
                         channel_id: int | None = None, ephemeral: bool = False) -> Reply:
        """The crosstables, at most `FILES` pictures a message (a league of many groups
        posts several)."""
        games = await self.rounds.refresh(tournament)
        entrants = await self.rounds.entrants(tournament)
        names = await self._desk.names([uid for e in entrants for uid in e.players])
        footer = standings_footer(tournament, tr, self._desk.clock())
        images = await pictures(crosstables(tournament, games, entrants, names, tr, footer))
        text = tr("Standings of {event}.", event=tournament.name)
        messages = [Reply(text, image=chunk[0], channel_id=channel_id, attachments=tuple(
            Attachment(f"group-{number}.png", data)
            for number, data in enumerate(chunk[1:], start=start + 2)), ephemeral=ephemeral)
            for start in range(0, len(images), FILES) for chunk in [images[start:start + FILES]]]
        if not messages:
            return Reply(text, channel_id=channel_id, ephemeral=ephemeral)
        return replace(messages[0], followups=tuple(messages[1:]))

    # --- looking on ------------------------------------------------------------------------

    async def listing(self, request: Request) -> Reply:
        """This server's newest tournaments."""
        tr = request.tr
        found = await self._store.tournaments(request.guild_id, limit=LISTED)
        if not found:
            return Reply(tr("There are no tournaments here yet."), ephemeral=True)
        lines = [tr("#{id} {event} — {format}, {status}", id=e.id, event=e.name,
                    format=_FORMATS[e.format], status=_STATUS[e.status]) for e in found]
        return Reply("\n".join(lines), ephemeral=True)

    async def info(self, request: Request, tournament_id: int | None) -> Reply:
        """A tournament's facts and who plays in it."""
        tr = request.tr
        tournament = await self._tournament(request, tournament_id)
        entrants = await self.rounds.entrants(tournament)
        names = await self._desk.names([uid for e in entrants for uid in e.players])
        shown = [team_name(e.players, names) + ("" if e.confirmed else " (?)")
                 + (" " + tr("(withdrawn)") if e.withdrawn else "") for e in entrants]
        lines = [_facts(tournament, tr),
                 tr("Entrants ({count}): {names}", count=len(entrants),
                    names=_some(shown, tr))]
        return Reply("\n".join(lines), ephemeral=True)

    # --- leagues -------------------------------------------------------------------------

    async def next_season(self, request: Request, tournament_id: int | None) -> Reply:
        """A manager opens a league's next season: its players signed up again, their
        groups carried over with promotion and relegation at the start."""
        tournament = await self._managed(request, tournament_id)
        if tournament.format is not TournamentFormat.LEAGUE:
            raise ConflictError("only a league has seasons")
        if tournament.status is not TournamentStatus.FINISHED:
            raise ConflictError("{event} is not over yet", event=tournament.name)
        following = [e for e in await self._store.tournaments(request.guild_id, limit=LISTED)
                     if e.previous_id == tournament.id]
        if following:
            raise ConflictError("{event} has its next season already", event=tournament.name)
        options = TournamentOptions(tournament.format, rounds=tournament.rounds,
                                    double=tournament.double,
                               teams=tournament.teams)
        options = replace(options, game=replace(options.game, setup=tournament.setup,
                                                vacation=tournament.setup.vacation))
        season = await self._create(request, tournament.name, options, tournament)
        for entrant in await self.rounds.entrants(tournament):
            if entrant.confirmed and not entrant.withdrawn:
                await self._store.save_entrant(replace(
                    entrant, tournament_id=season.id, joined_at=self._desk.clock()))
        return self._announcement(season, request.tr)

    async def _begin(self, tournament: Tournament) -> bool:
        """Start a tournament (False if another start came first)."""
        if not await self.rounds.claim(tournament):
            return False
        await self._pair_first(await self._store.get_tournament(tournament.id))
        return True

    async def _pair_first(self, tournament: Tournament) -> None:
        """Pair a claimed tournament (a league's later season with its groups carried over); with
        fewer than two entrants it is called off."""
        if len(await self.rounds.players(tournament)) < 2:
            if await self._store.move_tournament(tournament.id, TournamentStatus.FINISHED, 0,
                                                   was=TournamentStatus.RUNNING, was_round=0):
                self.rounds.notices.append(_called_off(tournament))
            return
        groups = None
        if tournament.previous_id is not None:
            previous = await self._store.get_tournament(tournament.previous_id)
            games = await self.rounds.refresh(previous)
            ranked = [[s.entrant for s in group_standings(previous, games, members)]
                      for _number, members in sorted(groups_of(games).items())]
            now = list(await self.rounds.players(tournament))
            before = {entrant for group in ranked for entrant in group}
            ratings = await self.rounds.ratings(tournament, await self.rounds.players(tournament))
            joining = sorted((e for e in now if e not in before), key=lambda e: -ratings[e])
            moving = 2 if tournament.rounds >= 8 else 1  # of a small group, one up and one down
            groups = pairing.next_season(ranked, moving, moving, joining=joining,
                                         leaving={e for e in before if e not in now})
            groups = tuple(group for group in groups if len(group) >= 2) or (tuple(now),)
        await self.rounds.pair_first(tournament, groups)

    # --- internals -------------------------------------------------------------------------

    async def _tournament(self, request: Request, tournament_id: int | None) -> Tournament:
        """The tournament named by number; in a tournament game's thread, that game's tournament;
        else this channel's newest."""
        if tournament_id is not None:
            try:
                tournament = await self._store.get_tournament(tournament_id)
            except NotFoundError:
                raise MissingError("there is no such tournament") from None
            if tournament.guild_id != request.guild_id:
                raise MissingError("there is no such tournament")
            return tournament
        storage = self._store
        for game in await storage.list_games(channel_id=request.channel_id, limit=1):
            linked = await storage.tournament_game_of(game.id)
            if linked is not None:
                return await storage.get_tournament(linked.tournament_id)
        found = await storage.tournaments(request.guild_id, limit=LISTED)
        here = [e for e in found if e.channel_id == request.channel_id]
        if not here:
            raise MissingError("there is no tournament in this channel: name one by its "
                               "number (see tournament list)")
        return here[0]

    async def _managed(self, request: Request, tournament_id: int | None) -> Tournament:
        """The tournament a manager acts on: only in its own channel, since the asker manages
        the channel they ask in (`Request.can_manage`), not the tournament's, which may be
        anyone's."""
        tournament = await self._tournament(request, tournament_id)
        if tournament.channel_id != request.channel_id:
            raise NotAllowedError("a tournament is managed in its own channel, by its managers")
        return tournament

    def _announcement(self, tournament: Tournament, tr: Translation) -> Reply:
        text = (_facts(tournament, tr) + "\n"
                + tr("Sign up until {moment}: press Join, or write tournament join {id}.",
                     moment=moment_text(tournament.signup_until), id=tournament.id))
        return Reply(text, buttons=(Button(ButtonKind.JOIN_TOURNAMENT, tournament.id, tr("Join")),))


def _facts(tournament: Tournament, tr: Translation) -> str:
    kind: Message | str = _FORMATS[tournament.format]
    if tournament.format is TournamentFormat.SWISS:
        kind = message("swiss, {rounds} rounds", rounds=tournament.rounds)
    if tournament.format is TournamentFormat.LEAGUE:
        kind = message("league, groups of {size}", size=tournament.rounds)
    if tournament.double:
        kind = message("{kind}, both colours", kind=kind)
    if tournament.teams:
        kind = message("{kind}, Double TwixT", kind=kind)
    if tournament.season > 1:
        kind = message("{kind}, season {season}", kind=kind, season=tournament.season)
    return tr("Tournament #{id} **{event}**: {kind}, {setup} — {status}.", id=tournament.id,
              event=tournament.name, kind=kind, setup=describe_setup(tournament.setup),
              status=_STATUS[tournament.status])


def standings_footer(tournament: Tournament, tr: Translation, now: datetime) -> str:
    """The line under a tournament's crosstables: its state and when it was drawn, a Swiss's
    round (and, when no further round could be paired, that it ended early)."""
    moment = moment_text(now)
    if (tournament.format is TournamentFormat.SWISS
            and tournament.status is TournamentStatus.FINISHED
            and 0 < tournament.round < tournament.rounds):
        return tr("Finished after round {round} of {rounds}: no further pairing was possible "
                  "· updated {moment}", round=tournament.round, rounds=tournament.rounds,
                  moment=moment)
    footer = tr("{status} · updated {moment}", status=tr.say(_STATUS[tournament.status]),
                moment=moment)
    if tournament.format is TournamentFormat.SWISS:
        footer = tr("Round {round} of {rounds}", round=tournament.round,
                    rounds=tournament.rounds) + " · " + footer
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


def _called_off(tournament: Tournament) -> Notice:
    return Notice(tournament.guild_id, lambda tr: said(
        tr("{event} is called off: fewer than two players signed up.", event=tournament.name),
        tournament.channel_id))


def _signing_up(tournament: Tournament) -> None:
    if tournament.status is not TournamentStatus.SIGNUP:
        raise ConflictError("{event} has started: sign-up is closed", event=tournament.name)
