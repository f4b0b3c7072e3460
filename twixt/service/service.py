"""The application service: a command becomes a turn (or a challenge, an answer …) and a reply.

Both front ends call this and only this: who asks, in which channel, is it their turn; check it
with the rules, commit it to storage, draw the board, say what happened and whom to ping.
Data flows one way: command in → rules check → storage commit → picture → reply out.

A front end has one `TwixtService`, opened with its `Port` (what the service borrows of it)
by the composition root or through the `OpenService` the root hands it, and then calls only
its public methods; `answer` is the one way in for what someone asks, and
what comes out is a `Reply`, never an exception. `TwixtService` composes one object per
subject over a shared `Desk`; `execute` is the one dispatch from a `ServiceCommand`
(a slash command's options, a button: `commands.of_button`, or a line its front end read
with `commands.router.read_command`, the one place where text becomes a command) to the subject
that does it.
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import fields, replace
from datetime import datetime
from typing import TYPE_CHECKING, Generic, TypeVar, overload

from twixt.language import message, translation
from twixt.rules import Game, Hole
from twixt.service import commands as cmd
from twixt.service.desk.changes import Following
from twixt.service.desk.desk import Desk, utc_now
from twixt.service.desk.engine_pool import EnginePool
from twixt.service.errors import (
    ConflictError,
    FaultError,
    NotAllowedError,
    ServiceError,
)
from twixt.service.failures import log_failure
from twixt.service.model import NO_SERVER, Receipt, Reply, Request
from twixt.service.port import Port
from twixt.service.texts import database_refusal
from twixt.storage import DatabaseError, NotFoundError, Storage

if TYPE_CHECKING:  # the subjects, imported when they are built (`TwixtService._build`)
    from twixt.rendering import RenderOptions
    from twixt.service.cases.analysis import Analyses
    from twixt.service.cases.challenges import Challenges
    from twixt.service.cases.clocks import Clocks
    from twixt.service.cases.conditionals import Conditionals
    from twixt.service.cases.confirmation import Confirmation
    from twixt.service.cases.engine_player import EnginePlayer
    from twixt.service.cases.game_view import GameView, GameViews
    from twixt.service.cases.my_games import GameList, PlayerGame
    from twixt.service.cases.notes import Notebook
    from twixt.service.cases.picker import MovePicker
    from twixt.service.cases.preferences import Preferences
    from twixt.service.cases.records import Records
    from twixt.service.cases.stats import Standings
    from twixt.service.cases.tournaments.organising import Tournaments
    from twixt.service.cases.turns import Turns
    from twixt.service.cases.vacations import Vacations
    from twixt.service.cases.your_move import YourMove

__all__ = ["APOLOGY", "HANDLED_BY", "OpenService", "Reply", "Request", "ServiceError",
           "TwixtService", "answer_safely", "refusal"]

log = logging.getLogger(__name__)

APOLOGY = message("Sorry, something went wrong on my side; nothing was changed. "
                  "Please try again.")

#: the port of a service with no front end (`twixt export`, the tests)
NO_FRONT_END = Port()
#: each command → the subject of the service whose method marked `commands.handles` does it:
#: a table, so that knowing which does a command imports no subject (nor every command);
#: tests/service/test_dispatch.py holds it to the marks (each command one handler, in the
#: subject named here)
HANDLED_BY: dict[str, str] = {
    "Analyze": "analyses",
    **dict.fromkeys(("AnswerChallenge", "Challenge", "Rematch", "TeamChallenge"),
                    "challenges"),
    "Claim": "clocks",
    "Conditional": "conditionals",
    "ConfirmMove": "confirmation",
    "MyGames": "my_games",
    **dict.fromkeys(("Note", "Notes"), "notes"),
    "Pick": "picker",
    **dict.fromkeys(("ServerSettings", "UserSettings"), "preferences"),
    **dict.fromkeys(("Export", "History", "ImportRecord", "Replay"), "records"),
    **dict.fromkeys(("Leaderboard", "Stats"), "stats"),
    "TournamentAction": "tournaments",
    **dict.fromkeys(("Abort", "Help", "Move", "Resign", "ShowBoard", "Status", "Takeback"),
                    "turns"),
    "Vacation": "vacations",
    **dict.fromkeys(("Digest", "NextGame"), "your_move"),
}

S = TypeVar("S")


class _Subject(Generic[S]):
    """A subject of the service (a use case), built with all the others when one is first
    asked for (`TwixtService._build`): they hook each other's events (`Desk.turn_played`,
    `Turns.preparations` …) in their constructors, so none may be there without the rest."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, service: None, owner: type) -> _Subject[S]: ...
    @overload
    def __get__(self, service: TwixtService, owner: type) -> S: ...
    def __get__(self, service: TwixtService | None, owner: type) -> S | _Subject[S]:
        if service is None:
            return self
        service._build()
        subject: S = service.__dict__[self.name]
        return subject


class TwixtService:
    """Challenges, turns, clocks, records, ratings and settings, over one `Storage`; what a
    front end lends it comes in its `port`, once.

    Its subjects are built (and their modules imported) when one is first needed, so that a
    process pays for them only once someone asks for something: `twixt web`'s first page
    needs none."""

    challenges: _Subject[Challenges] = _Subject()
    turns: _Subject[Turns] = _Subject()
    #: stored replies to the opponent's next moves, played as soon as a move calls for one
    conditionals: _Subject[Conditionals] = _Subject()
    picker: _Subject[MovePicker] = _Subject()
    clocks: _Subject[Clocks] = _Subject()
    records: _Subject[Records] = _Subject()
    stats: _Subject[Standings] = _Subject()
    preferences: _Subject[Preferences] = _Subject()
    my_games: _Subject[GameList] = _Subject()
    notes: _Subject[Notebook] = _Subject()
    confirmation: _Subject[Confirmation] = _Subject()
    vacations: _Subject[Vacations] = _Subject()
    tournaments: _Subject[Tournaments] = _Subject()
    analyses: _Subject[Analyses] = _Subject()
    engine_player: _Subject[EnginePlayer] = _Subject()
    your_move: _Subject[YourMove] = _Subject()

    def __init__(self, storage: Storage, port: Port = NO_FRONT_END, *,
                 clock: Callable[[], datetime] = utc_now,
                 render_options: RenderOptions | None = None,
                 rng: random.Random | None = None,
                 engine_pool: EnginePool | None = None) -> None:
        self.desk = Desk(storage, port, clock, render_options, rng, engine_pool)

    def _build(self) -> None:
        """Build every subject, in the order their hooks must run (the conditional moves,
        then the clocks, then the engine player hear of a turn), once."""
        if "turns" in self.__dict__:
            return
        from twixt.service.cases.analysis import Analyses
        from twixt.service.cases.challenges import Challenges
        from twixt.service.cases.clocks import Clocks
        from twixt.service.cases.conditionals import Conditionals
        from twixt.service.cases.confirmation import Confirmation
        from twixt.service.cases.engine_player import EnginePlayer
        from twixt.service.cases.my_games import GameList
        from twixt.service.cases.notes import Notebook
        from twixt.service.cases.picker import MovePicker
        from twixt.service.cases.preferences import Preferences
        from twixt.service.cases.records import Records
        from twixt.service.cases.stats import Standings
        from twixt.service.cases.tournaments.organising import Tournaments
        from twixt.service.cases.turns import Turns
        from twixt.service.cases.vacations import Vacations
        from twixt.service.cases.your_move import YourMove

        desk, storage = self.desk, self.desk.storage
        challenges = Challenges(desk, storage)
        turns = Turns(desk, storage)
        built = {"challenges": challenges, "turns": turns}
        built["conditionals"] = Conditionals(desk, storage, turns.with_auto_link)
        built["picker"] = MovePicker(desk, turns.play)
        built["clocks"] = Clocks(desk, storage)
        built["records"] = Records(desk, storage, challenges)
        built["stats"] = Standings(desk, storage)
        built["preferences"] = Preferences(desk, storage)
        built["my_games"] = GameList(desk, storage)
        built["notes"] = Notebook(desk, storage)
        built["confirmation"] = Confirmation(desk, storage, turns)
        built["vacations"] = Vacations(desk, storage)
        built["tournaments"] = Tournaments(desk, storage)
        built["analyses"] = Analyses(desk, storage)
        built["engine_player"] = EnginePlayer(desk, storage, turns)
        built["your_move"] = YourMove(desk, storage)
        self.__dict__.update(built)

    @functools.cached_property
    def views(self) -> GameViews:
        """Views of games (no hooks: built alone, when a page first asks for one)."""
        from twixt.service.cases.game_view import GameViews

        return GameViews(self.desk, self.desk.storage)

    def _handler(self, kind: type) -> cmd.Handler:
        """The method that does commands of `kind`: the one marked so in the subject
        `HANDLED_BY` names (KeyError: none)."""
        subject: object = getattr(self, HANDLED_BY[kind.__name__])
        method: cmd.Handler = getattr(subject, cmd.handler_name(type(subject), kind))
        return method

    # --- what people ask ---------------------------------------------------------------

    async def answer(self, request: Request, asked: cmd.ServiceCommand,
                     context: Mapping[str, object]) -> Reply:
        """The one way in for a front end: a command (built from its options, a button's,
        or a typed line its front end read with `router.read_command`), done for `request`'s user
        and answered — never raised: whatever goes wrong is told through `refusal`
        (`context` says where it was asked, for the log)."""
        return await answer_safely(self.execute(request, asked), context, request.locale)

    async def hear(self, request: Request, asked: cmd.ServiceCommand,
                   context: Mapping[str, object]) -> Reply | None:
        """Chat that a front end reads in full (Discord with Message Content), read by it
        into a command: `answer`ed when it is of the move language and its sender is seated
        in the channel's game, else None — chat stays chat, and a failure to tell which is
        only logged."""
        from twixt.service.commands import router  # every subject's words

        if not router.is_move_language(asked):
            return None
        try:
            stored = await self.desk.storage.active_game(request.channel_id)
        except Exception:
            log_failure(log, "chat not read", context)
            return None
        if stored is None or stored.seat_of(request.user.id) is None:
            return None
        return await self.answer(request, asked, context)

    async def execute(self, request: Request, asked: cmd.ServiceCommand) -> Reply:
        """Do what `asked` asks for `request`'s user; a `ServiceError` of its kind says why
        not. What it set off in tournaments (games opened, new standings) follows the
        reply."""
        reply = await self._dispatch(request, asked)
        # the commands that may begin a game with bot seats (its turns and offers, the bot
        # hears of as they are stored: `Desk.turn_played`, `Desk.offer_made`)
        if isinstance(asked, (cmd.Challenge, cmd.TeamChallenge, cmd.AnswerChallenge,
                              cmd.Rematch)):
            await self.engine_player.notice(_channels(request, reply))
        notices = await self.tournaments.notices(lambda notice: request.locale)
        return replace(reply, followups=(*reply.followups, *notices)) if notices else reply

    async def _dispatch(self, request: Request, asked: cmd.ServiceCommand) -> Reply:
        """The subject's handler of `asked` (`commands.handles`), with its fields by name;
        a button's or a picker's in the home of its game (`_at_home`)."""
        if isinstance(asked, cmd.ForGame):
            return await self._dispatch(await self._at_home(request, asked.game_id),
                                        asked.asked)
        if isinstance(asked, cmd.Pick):
            request = await self._at_home(request, asked.game_id)
        if isinstance(asked, cmd.TournamentAction) and request.guild_id == NO_SERVER:
            raise NotAllowedError("tournaments are played in a server")
        does = self._handler(type(asked))
        return await does(request, **{name: getattr(asked, name)
                                      for name in _fields_of(type(asked))})

    async def _at_home(self, request: Request, game_id: int) -> Request:
        """The request of a button under game `game_id`'s messages, made in its home: where
        it was pressed, or — a game in a direct message, whose boards also reach its players'
        own DMs with the bot — its home channel, for a player of it. A request made in the
        game's home (`Request.home_of`) is not looked for again."""
        if request.home_of == game_id:
            return request
        stored = await self.desk.storage.active_game(request.channel_id)
        if stored is not None and stored.id == game_id:
            return request
        if stored is None:
            try:
                home = await self.desk.storage.get_game(game_id)
            except NotFoundError:
                home = None
            if (home is not None and home.is_active and home.guild_id == NO_SERVER
                    and home.seat_of(request.user.id) is not None):
                return replace(request, guild_id=NO_SERVER, channel_id=home.channel_id)
        raise ConflictError("this button belongs to a game that is over")

    # --- what happens by itself --------------------------------------------------------

    async def tick(self, now: datetime | None = None) -> list[Reply]:
        """Let the clocks act: reminders, time-up notices, forfeits (see `Clocks.tick`), each
        said in the language of its server (`Port.language`); start the tournaments whose
        sign-up has closed; and say the daily digests that are due (`YourMove.digests`)."""
        replies = await self.clocks.tick(now)
        await self.engine_player.wake()
        at = now or self.desk.clock()
        return replies + await self.tournaments.tick(at) + await self.your_move.digests(at)

    async def wait(self) -> None:
        """Sleep until the next clock is due (at most `clocks.LONGEST_SLEEP`), or a turn
        sets an earlier wake-up: the front end's dispatcher then calls `tick`."""
        await self.clocks.wait()

    async def delivered(self, receipt: Receipt) -> None:
        """A reminder `tick` returned went out: it is not sent again."""
        await self.clocks.delivered(receipt)

    async def idle(self) -> None:
        """Wait until the bot has answered every turn it owes now (the terminal table waits
        so before its next line, as a player at the table would)."""
        await self.engine_player.idle()

    async def close(self) -> None:
        """Stop what the service runs by itself: the bot's searches (their games stay
        marked, answered after a restart) and the engine's worker processes. The storage
        is the caller's, who opened it."""
        if "engine_player" in self.__dict__:  # built (`_build`)
            await self.engine_player.close()
        await self.desk.changes.close()
        await self.desk.engine_pool.close()

    # --- what a front end reads ---------------------------------------------------------

    async def channel_game(self, channel_id: int) -> Game:
        """The channel's current game, or its last finished one, as the rules see it and
        its records hold it (a copy, with its clock's `TimeControl` tag)."""
        return await self.desk.record(await self.desk.channel_stored(channel_id))

    async def game_view(self, game_id: int, *, user_id: int | None = None,
                        seat: int | None = None, locale: str = "en",
                        step: int | None = None) -> GameView:
        """What a front end shows of game `game_id` to the person in `seat` (a link names a
        seat) or to user `user_id` (neither: an onlooker): the board, seats, clocks, whose
        turn, the result, the move list, the open offers, and the controls open to them now
        (each done through `commands.of_control` and `answer`), labels in `locale`; at
        `step` turns of a finished game. ServiceError when there is no such game or seat."""
        return await self.views.view(game_id, user_id=user_id, seat=seat, locale=locale,
                                     step=step)

    async def has_seat(self, game_id: int, seat: int | None = None) -> bool:
        """Whether there is a game `game_id` and `seat` is one of its seats (None: an
        onlooker's, which every game has): what a link's page is checked for before it is
        served, without the work of a view (the page asks for its view next)."""
        try:
            stored = await self.desk.storage.get_game(game_id)
        except NotFoundError:
            return False
        return seat is None or 0 <= seat < len(stored.seats)

    def board_colours(self) -> dict[str, dict[str, dict[str, str]]]:
        """The colours the pictures draw a board in, by theme (`light`, `dark`), palette
        (`normal`, `colour-blind`: a view's `palette`) and name, as CSS hex: for a front end
        that draws the board itself, so that it looks as the pictures do."""
        from twixt.rendering import board_colours

        return board_colours()

    async def game_views(self, game_id: int, seen_by: Sequence[tuple[int | None, str]],
                         live_version: int | None = None) -> list[GameView]:
        """`game_view` now for each (seat, locale) of `seen_by` (seat None: an onlooker),
        from one reading of the game: what the pages that follow a game live are told after
        each change (`live_version`: the version they were told of, from `next_changes`; a
        turn this process just stored is then shown without reading the game again).
        ServiceError when there is no such game or one of the seats is none of its."""
        return await self.views.views(game_id, seen_by, live_version)

    async def peg_links(self, game_id: int, seat: int, hole: str
                        ) -> tuple[tuple[Hole, Hole], ...]:
        """The links a peg of `seat`'s at `hole` would make now (pp: all it makes; classic:
        those its player may choose), each as (the new peg, the other end); ServiceError says
        why the hole cannot take it."""
        return await self.views.peg_links(game_id, seat, hole)

    async def seat_request(self, game_id: int, seat: int, locale: str = "en") -> Request:
        """The request of the person in `seat` of game `game_id`, made in its home (where a
        command of theirs acts; `Request.home_of` the game while it is in progress);
        ServiceError when there is no such game or seat."""
        return await self.views.seat_request(game_id, seat, locale)

    async def other_games(self, game_id: int, seat: int, locale: str = "en"
                          ) -> tuple[PlayerGame, ...]:
        """The other games in progress of the player in `seat` of game `game_id`, where that
        game is played (its server, or the direct messages), for their page to list: at most
        `OTHER_GAMES`, each summed up in `locale`. ServiceError when there is no such seat."""
        asker = await self.views.seat_request(game_id, seat, locale)
        return await self.my_games.other_games(asker, game_id)

    async def seat_in_channel(self, channel_id: int, user_id: int) -> tuple[int, int | None]:
        """The channel's game in progress (else its last one) and `user_id`'s seat in it
        (None: not a player); ServiceError when the channel has no games."""
        stored = await self.desk.channel_stored(channel_id)
        seat = stored.seat_of(user_id)
        return stored.id, None if seat is None else seat.number

    async def live_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The live versions of some games (games not found left out): each grows with every
        change anyone can see — a turn, an offer made or answered, the end."""
        return await self.desk.changes.versions(list(game_ids))

    async def next_version(self, game_id: int, seen: int, timeout: float) -> int | None:
        """Wait until game `game_id`'s live version is no longer `seen` (a change made here
        is told at once, one made by another process over the same database within a
        second), or for `timeout` seconds at most (`changes.MAX_WAIT`); the version then,
        None when there is no such game. ServiceError when too many wait already."""
        return await self.desk.changes.next_version(game_id, seen, timeout)

    async def next_changes(self, seen: Mapping[int, int], timeout: float
                           ) -> dict[int, int | None]:
        """`next_version` for many games at once (game → the live version shown, at most
        `changes.MAX_FOLLOWED`): the games changed, each with its version now (None: gone),
        as soon as one has; none after `timeout`."""
        return await self.desk.changes.next_changes(seen, timeout)

    def following(self, on_change: Callable[[int, int | None], None]) -> Following:
        """A standing follow of games (`Following.follow`, `unfollow`, `close`): each change
        of one told to `on_change` with its live version now (None: gone), at once for a
        change made here, within a second for one made elsewhere. ServiceError when too
        many wait already."""
        return self.desk.changes.following(on_change)

    async def user_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The names the service knows for some users (unknown ones left out)."""
        return await self.desk.storage.user_names(user_ids)

    async def copied_commands(self) -> tuple[int, ...]:
        """The servers a front end has copied its commands to (Discord's guild commands),
        as it noted them with `note_copied_commands`."""
        return await self.desk.storage.guilds_with("commands_copied", True)

    async def note_copied_commands(self, guild_id: int, copied: bool) -> None:
        """Note whether a front end has copied its commands to a server, so that a later
        start can remove a copy no longer wanted."""
        await self.desk.storage.update_guild_settings(guild_id, commands_copied=copied)


#: how a front end that lends the service a port has it opened: handed the port, it returns the
#: service over the storage that the process's composition root opened (`functools.partial(
#: TwixtService, storage, clock=…)`), so that no front end holds the storage itself
OpenService = Callable[[Port], TwixtService]


def _channels(request: Request, reply: Reply) -> list[int]:
    """The channels a command may have changed a game in: where it was asked, and where its
    reply went (a game begun in a thread of its own)."""
    return [request.channel_id, *(m.channel_id for m in reply.all_messages()
                                  if m.channel_id is not None)]


def refusal(error: Exception, context: Mapping[str, object], locale: str = "en") -> Reply:
    """The one funnel for what went wrong, the service's or a front end's own (an option it
    could not read): a `ServiceError` becomes a refused one-line reply in the asker's
    language (`locale`) that keeps its kind (`Reply.refused`); a database that cannot be
    used is no bug, its cause logged in one line and the asker told that nothing was stored;
    anything else is logged with `context` and answered with an apology — never a traceback.
    Both of those are a `FaultError`: not the asker's doing."""
    if not isinstance(error, ServiceError):
        if isinstance(error, DatabaseError):
            # not a bug of ours: the cause in one line, for whoever runs the bot to mend
            log.error("command refused: %s", error, extra=dict(context))
            error = FaultError(database_refusal(error))
        else:
            log.error("command failed", exc_info=error, extra=dict(context))
            error = FaultError(APOLOGY)
    return Reply(translation(locale).say(error.message), ephemeral=True, refused=type(error))


#: the names of each kind of command's fields (`_fields_of`), as many as there are kinds
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields_of(kind: type) -> tuple[str, ...]:
    """The names of a command's fields, handed to its handler by name (found once a kind:
    `dataclasses.fields` looks through every attribute of the class)."""
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(field.name for field in fields(kind))
    return names


async def answer_safely(call: Awaitable[Reply], context: Mapping[str, object],
                        locale: str = "en") -> Reply:
    """The service's work `call`, its failures told through `refusal`."""
    try:
        return await call
    except Exception as error:
        return refusal(error, context, locale)
