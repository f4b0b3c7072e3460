"""The application service: a command becomes a turn (or a challenge, an answer …) and a reply.

Both front ends call this and only this: who asks, in which channel, is it their turn; check it
with the rules, commit it to storage, draw the board, say what happened and whom to ping.
Data flows one way: command in → rules check → storage commit → picture → reply out.

`TwixtService` composes one object per subject over a shared `ServiceCore`; `execute` is
the one dispatch from a `ServiceCommand` to the subject that does it, and `read` (the
router) is the one place where text becomes a command.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from bot.service import commands as cmd
from bot.service import router
from bot.service.analysis import Analyses
from bot.service.bot_player import BotPlayer
from bot.service.challenges import Challenges
from bot.service.clocks import Clocks
from bot.service.conditionals import refuse_in_public
from bot.service.confirmation import Confirmation
from bot.service.core import ServiceCore, Thinking, ThreadOpener, no_sign, utc_now
from bot.service.engine_pool import EnginePool
from bot.service.events.actions import Events
from bot.service.model import ButtonKind, Reply, Request, ServiceError
from bot.service.my_games import MyGames
from bot.service.notes import Notes
from bot.service.play import Play
from bot.service.preferences import Preferences
from bot.service.records import Records
from bot.service.stats import Stats
from bot.service.texts import database_refusal
from bot.service.vacations import Vacations
from language import message, translation
from rendering import RenderOptions
from rules import Action, Command, Game
from storage import DatabaseError, Storage

__all__ = ["APOLOGY", "Thinking", "ThreadOpener", "TwixtService", "answer_safely"]

log = logging.getLogger(__name__)

APOLOGY = message("Sorry, something went wrong on my side; nothing was changed. "
                  "Please try again.")

#: the commands that may begin a game with bot seats (its turns and offers, the bot hears of
#: as they are stored: `BotPlayer.attend_marked`)
_BOT_MAY_BEGIN = (cmd.Challenge, cmd.Team, cmd.AnswerChallenge, cmd.Rematch)

#: the buttons under a game's messages, as the commands they stand for
_GAME_BUTTONS: dict[ButtonKind, cmd.ServiceCommand] = {
    ButtonKind.SWAP: cmd.Move(Command(actions=(Action.SWAP,))),
    ButtonKind.PRIVILEGE: cmd.Move(Command(actions=(Action.PRIVILEGE,))),
    ButtonKind.CONFIRM_RESIGN: cmd.Resign(confirmed=True),
    ButtonKind.ACCEPT_DRAW: cmd.Move(Command(actions=(Action.ACCEPT_DRAW,))),
    ButtonKind.DECLINE_DRAW: cmd.Move(Command(actions=(Action.DECLINE_DRAW,))),
    ButtonKind.CLAIM: cmd.Claim(),
    ButtonKind.ACCEPT_TAKEBACK: cmd.Takeback("accept"),
    ButtonKind.DECLINE_TAKEBACK: cmd.Takeback("decline"),
}


class TwixtService:
    """Challenges, turns, clocks, records, ratings and settings, over one `Storage`."""

    def __init__(self, storage: Storage, *, threads: ThreadOpener | None = None,
                 clock: Callable[[], datetime] = utc_now,
                 render_options: RenderOptions | None = None,
                 rng: random.Random | None = None,
                 engine_pool: EnginePool | None = None,
                 thinking: Thinking = no_sign) -> None:
        self.core = ServiceCore(storage, threads=threads, clock=clock,
                                render_options=render_options, rng=rng,
                                engine_pool=engine_pool, thinking=thinking)
        self.challenges = Challenges(self.core)
        self.play = Play(self.core)
        self.conditionals = self.play.conditionals
        self.clocks = Clocks(self.core)
        self.records = Records(self.core, self.challenges)
        self.stats = Stats(self.core)
        self.preferences = Preferences(self.core)
        self.my_games = MyGames(self.core)
        self.notes = Notes(self.core)
        self.confirmation = Confirmation(self.core, self.play)
        self.vacations = Vacations(self.core)
        self.events = Events(self.core)
        self.analyses = Analyses(self.core)
        self.bots = BotPlayer(self.core, self.play)

    async def execute(self, request: Request, command: cmd.ServiceCommand) -> Reply:
        """Do what `command` asks for `request`'s user; ServiceError says why not. What it
        set off in tournaments (games opened, new standings) follows the reply."""
        reply = await self._dispatch(request, command)
        if isinstance(command, _BOT_MAY_BEGIN):
            await self.bots.notice(_channels(request, reply))
        self.bots.attend_marked()
        notices = await self.events.notices(lambda notice: request.locale)
        return replace(reply, followups=(*reply.followups, *notices)) if notices else reply

    async def _dispatch(self, request: Request, command: cmd.ServiceCommand) -> Reply:
        match command:
            case cmd.Challenge(opponent, options):
                return await self.challenges.challenge(request, opponent, options)
            case cmd.Team(partner, opponents, options):
                return await self.challenges.team(request, partner, opponents, options)
            case cmd.AnswerChallenge("accept", challenge_id):
                return await self.challenges.accept(request, challenge_id)
            case cmd.AnswerChallenge(_, challenge_id):
                return await self.challenges.decline(request, challenge_id)
            case cmd.Rematch(game_id):
                return await self.challenges.rematch(request, game_id)
            case cmd.Move(move):
                return await self.confirmation.move(request, move)
            case cmd.ConfirmMove(pending_id):
                return await self.confirmation.confirm(request, pending_id)
            case cmd.Resign(confirmed):
                return await self.play.resign(request, confirmed)
            case cmd.Takeback(action):
                return await self.play.takeback(request, action)
            case cmd.Conditional(action, plan):
                return await self.conditionals.run(request, action, plan)
            case cmd.ShowBoard():
                return await self.play.board(request)
            case cmd.Status():
                return await self.play.status(request)
            case cmd.Help(topic):
                return await self.play.help(request, topic)
            case cmd.Abort():
                return await self.play.abort(request)
            case cmd.Claim():
                return await self.clocks.claim(request)
            case cmd.Export(fmt):
                return await self.records.export(request, fmt)
            case cmd.History(user, page):
                return await self.records.history(request, user, page)
            case cmd.Replay(game_id):
                return await self.records.replay(request, game_id)
            case cmd.ImportRecord(filename, data, opponent, options):
                return await self.records.import_record(request, filename, data, opponent,
                                                        options)
            case cmd.Stats(user):
                return await self.stats.stats(request, user)
            case cmd.Leaderboard(page):
                return await self.stats.leaderboard(request, page)
            case cmd.UserSettings(changes):
                return await self.preferences.user_settings(request, changes)
            case cmd.ServerSettings(changes):
                return await self.preferences.server_settings(request, changes)
            case cmd.Vacation(days, end):
                return await self.vacations.vacation(request, days, end)
            case cmd.MyGames(page):
                return await self.my_games.games(request, page)
            case cmd.Note(text, game_id):
                return await self.notes.note(request, text, game_id)
            case cmd.Notes(game_id, page, clear):
                return await self.notes.notes(request, game_id, page, clear)
            case cmd.EventAction():
                return await self.events.run(request, command)
            case cmd.Analyze(game_id):
                return await self.analyses.analyze(request, game_id)
        raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover

    async def run(self, request: Request, text: str,
                  people: router.People = router.nobody) -> Reply:
        """Read a typed line with the router, then execute it."""
        refuse_in_public(request, text)
        return await self.execute(request, router.read(text, people))

    async def press(self, request: Request, kind: ButtonKind, target: int) -> Reply:
        """A button was pressed; `target` is the challenge or game it belongs to."""
        if kind in (ButtonKind.ACCEPT_CHALLENGE, ButtonKind.REMATCH):
            reply = await (self.challenges.accept(request, target)
                           if kind is ButtonKind.ACCEPT_CHALLENGE
                           else self.challenges.rematch(request, target))
            await self.bots.notice(_channels(request, reply))  # a game with bot seats begins
            return reply
        if kind is ButtonKind.DECLINE_CHALLENGE:
            return await self.challenges.decline(request, target)
        if kind is ButtonKind.CONFIRM_MOVE:
            return await self.execute(request, cmd.ConfirmMove(target))
        if kind is ButtonKind.JOIN_EVENT:
            return await self.execute(request, cmd.EventAction("join", target))
        stored = await self.core.storage.active_game(request.channel_id)
        if stored is None or stored.id != target:
            raise ServiceError("this button belongs to a game that is over")
        return await self.execute(request, _GAME_BUTTONS[kind])

    async def chat_move(self, request: Request, text: str) -> cmd.ServiceCommand | None:
        """Chat text read as a command of the move language from a player seated in the
        channel's game, or None: a front end that reads every message answers only those,
        and executes the command it gets here, so the text is read once."""
        try:
            command = router.read(text)
        except ServiceError:
            return None
        if not router.is_move_language(command):
            return None
        stored = await self.core.storage.active_game(request.channel_id)
        seated = stored is not None and stored.seat_of(request.user.id) is not None
        return command if seated else None

    async def tick(self, now: datetime | None = None,
                   locale_of: Callable[[int], str] = lambda guild_id: "en") -> list[Reply]:
        """Let the clocks act: reminders, time-up notices, forfeits (see `Clocks.tick`), each
        said in the language of its server (`locale_of(guild_id)`); and start the tournaments
        whose sign-up has closed."""
        replies = await self.clocks.tick(now, locale_of)
        await self.bots.wake(self.clocks.shards)
        return replies + await self.events.tick(now or self.core.clock(), locale_of)

    async def channel_game(self, channel_id: int) -> Game:
        """The channel's current game, or its last finished one, as the rules see it and
        its records hold it (a copy, with its clock's `TimeControl` tag)."""
        return await self.core.record(await self.core.channel_stored(channel_id))

    async def user_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The names the service knows for some users (unknown ones left out)."""
        return await self.core.storage.user_names(user_ids)


def _channels(request: Request, reply: Reply) -> list[int]:
    """The channels a command may have changed a game in: where it was asked, and where its
    reply went (a game begun in a thread of its own)."""
    return [request.channel_id, *(m.channel_id for m in reply.all_messages()
                                  if m.channel_id is not None)]


async def answer_safely(call: Awaitable[Reply], context: Mapping[str, object],
                        locale: str = "en") -> Reply:
    """The one funnel every front end sends its work through: a `ServiceError` becomes a
    refused one-line reply in the asker's language (`locale`), anything else is logged with
    `context` and answered with an apology — never a traceback. A database that cannot be
    used is no bug: its cause is logged in one line, and the asker told that nothing was
    stored."""
    tr = translation(locale)
    try:
        return await call
    except ServiceError as error:
        return Reply(tr.say(error.message), ephemeral=True, refused=True)
    except DatabaseError as error:
        # not a bug of ours: the cause in one line, for whoever runs the bot to mend
        log.error("command refused: %s", error, extra=dict(context))
        return Reply(tr.say(database_refusal(error)), ephemeral=True, refused=True)
    except Exception:
        log.exception("command failed", extra=dict(context))
        return Reply(tr.say(APOLOGY), ephemeral=True, refused=True)
