"""The bot at the table: it moves in its seats, answers draw offers and takeback requests,
and resigns a game it has clearly lost — through the same commit path as a player's turn.

Before a turn or an offer of a game with bot seats is stored (`Desk.turn_coming`), and when a
command begins such a game (`notice`), the game is marked in storage as awaiting the bot; once
the turn is stored (`Desk.turn_played`, the bot's own subscription, or `Desk.offer_made`) or
the game begun, a task attends to it: the engine thinks in the process pool
(`engine_pool`), and what the bot decides is played by `Turns` like a player's command, under
the version the bot looked at. So a turn that lands meanwhile (a takeback, another process)
wins, and the bot looks again; two schedulers never make it move twice. What it says goes to
the front end's `Port.post`, into the game's channel, in the server's language.

After a restart (and on each clock tick) `wake` reads the games still marked as awaiting the
bot — an index of those, not a scan of all games — and attends to them; a game with nothing
for the bot to do is unmarked. A game the bot cannot answer now (the pool's queue is full) is
told so once, stays marked, and is answered at a later tick.

How the bot plays as an opponent:
- its move is the engine's for its level (`engine.level_limit`), seeded by the game and
  version, so the same position at the same level gets the same move;
- it resigns at the third of its turns in a row at which its chance of winning is under
  `RESIGN_BELOW` and the loss is plain to see: the opponent is at most `RESIGN_WITHIN_PEGS`
  pegs from connecting (counted in storage, once per version, so restarts neither lose nor
  repeat a count). A chance that low a long way from the end is the engine's guess (a low
  level's is a rough one), and a player who beat the bot wants to have connected, or nearly;
- it accepts a draw offer when its chance of winning is under `ACCEPT_DRAW_BELOW`, and
  declines it otherwise (on its turn, it then plays its move);
- it grants a takeback only when the challenge said `takebacks yes`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from twixt import engine
from twixt.rules import Action, Colour, Command, Game, parse_command
from twixt.service.cases.turns import Turns
from twixt.service.desk.after_turn import Played
from twixt.service.desk.desk import Desk, check_log_room, private_home
from twixt.service.desk.engine_pool import EngineBusyError, player_owner
from twixt.service.desk.engine_seats import engine_level, is_engine_seat
from twixt.service.errors import LimitError, ServiceError
from twixt.service.failures import log_failure
from twixt.service.model import Reply, Request, User
from twixt.storage import EngineGameStore, GameStore, OfferKind, Seat, StoredGame

if TYPE_CHECKING:  # the engine's modules load numpy: imported when a seat thinks
    from twixt.engine import PlayResult


class EnginePlayerStorage(EngineGameStore, GameStore, Protocol):
    """The subjects of storage the engine player read and write."""


log = logging.getLogger(__name__)

#: a turn at which the bot's chance of winning is below this counts as hopeless …
RESIGN_BELOW = 0.02
#: … when the opponent is at most this many pegs from connecting (a loss a player sees) …
RESIGN_WITHIN_PEGS = 2
#: … and at this many hopeless turns in a row it resigns
HOPELESS_TURNS = 3
#: a draw offer is accepted when the bot's chance of winning is below this
ACCEPT_DRAW_BELOW = 0.4
#: the games awaiting the bot that a tick takes from storage at a time
BATCH = 100
#: actions in a row for one game before its task makes way (a Double TwixT game with bot
#: partners and opponents); the game stays marked, so the next tick goes on
ACTIONS_AT_ONCE = 8
#: failed searches at one version of a game before this process stops searching it (a
#: search that fails every time would otherwise take the engine at every tick); the game
#: stays marked, so a restart tries again
FAILED_SEARCHES = 3

#: the engine's `think(game, limit, *, seed)`: a module-level function, run in a worker
Think = Callable[..., "PlayResult"]

_ACCEPT_DRAW = Command(actions=(Action.ACCEPT_DRAW,))
_DECLINE_DRAW = Command(actions=(Action.DECLINE_DRAW,))
_RESIGN = Command(actions=(Action.RESIGN,))


class EnginePlayer:
    """Attends to the games with bot seats: one task per game at a time."""

    def __init__(self, desk: Desk, store: EnginePlayerStorage, turns: Turns) -> None:
        self._desk = desk
        self._store = store
        self._turns = turns
        self._search: Think | None = None
        desk.turn_coming.append(self._mark)
        desk.turn_played.append(self.turn_played)
        desk.offer_made.append(self.offer_made)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        #: games to look at again when their task ends (something happened meanwhile)
        self._again: set[int] = set()
        #: games refused by a full pool, looked at again when a search ends
        self._busy: set[int] = set()
        #: failed searches of a game: (its version, how many), see `FAILED_SEARCHES`
        self._failures: dict[int, tuple[int, int]] = {}

    @property
    def think(self) -> Think:
        """The search, run in the pool's workers (`engine.think`, loaded when first asked
        for: the engine loads numpy); tests point it at a fixed evaluation."""
        if self._search is None:
            self._search = engine.think
        return self._search

    @think.setter
    def think(self, think: Think) -> None:
        self._search = think

    async def notice(self, channel_ids: Iterable[int]) -> None:
        """A command may have begun games with bot seats in these channels (a challenge the
        bot accepted, the last acceptance of a team): mark them in storage first (so a
        restart finds them), then attend to them."""
        for channel_id in dict.fromkeys(channel_ids):
            stored = await self._store.active_game(channel_id)
            if stored is not None and await self._mark(stored):
                self.attend(stored.id)

    async def turn_played(self, played: Played) -> None:
        """A turn was played or taken back (`Desk.turn_played`): a game with bot seats is
        looked at (its task waits for the channel's lock, so it acts once the command that
        played the turn is done). No query: a turn of a game without the bot costs nothing
        here."""
        self._attend_own(played.stored)

    async def offer_made(self, stored: StoredGame) -> None:
        """An offer was stored (`Desk.offer_made`, a takeback request): a game with bot
        seats is looked at, as after a turn."""
        self._attend_own(stored)

    def _attend_own(self, stored: StoredGame) -> None:
        if _has_engine_seats(stored):
            self.attend(stored.id)

    async def _mark(self, stored: StoredGame) -> bool:
        """Mark a game with bot seats as awaiting the bot (`Desk.turn_coming`: before a turn
        or an offer of it is stored, so that no restart can fall between the turn and the
        mark); whether it has bot seats."""
        if not _has_engine_seats(stored):
            return False
        await self._store.await_engine(stored.id, True)
        return True

    async def wake(self) -> None:
        """Attend to the games marked as awaiting the bot (of the port's shards' guilds):
        after a restart, and at each clock tick for those the pool could not take."""
        for game_id in await self._store.awaiting_engine_games(
                BATCH, shards=self._desk.port.shards):
            self.attend(game_id)

    def attend(self, game_id: int) -> None:
        """Look at a game now, or again once its running look ends."""
        if game_id in self._tasks:
            self._again.add(game_id)
            return
        self._tasks[game_id] = asyncio.create_task(self._attend(game_id))

    async def idle(self) -> None:
        """Wait until the bot has nothing more to do now (the terminal table waits before
        its next line, so what the bot says follows the move it answers)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop attending (at shutdown); the games stay marked for the next start."""
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    # --- one game ------------------------------------------------------------------------

    async def _attend(self, game_id: int) -> None:
        try:
            for _ in range(ACTIONS_AT_ONCE):
                self._again.discard(game_id)
                try:
                    acted = await self._act(game_id)
                except Exception:
                    log_failure(log, "the bot failed in a game", {"game_id": game_id})
                    acted = False
                if not (acted or game_id in self._again):
                    break
        finally:
            del self._tasks[game_id]
        if self._busy and game_id not in self._busy:  # a search ended: room in the pool
            for waiting in list(self._busy):
                self._busy.discard(waiting)
                self.attend(waiting)

    async def _act(self, game_id: int) -> bool:
        """Do the one thing the bot has to do in a game now; whether it did something (so
        there may be more), False when it has nothing to do or must wait."""
        storage = self._store
        stored = await storage.get_game(game_id)
        game = await self._desk.position(stored) if stored.is_active else None
        if game is None or game.is_over:
            await storage.await_engine(game_id, False)
            return False
        takeback = await self._takeback_request(stored)
        if takeback is not None:
            return await self._answer_takeback(stored, takeback)
        offered = game.draw_offered_by
        answering = None if offered is None else _engine_seat_of(stored, game, offered.opponent)
        to_move = stored.seats[game.seat_to_move] if game.seat_to_move is not None else None
        if answering is None and (to_move is None or not is_engine_seat(to_move.user_id)):
            await storage.await_engine(game_id, False)
            return False
        seat = to_move if to_move is not None and is_engine_seat(to_move.user_id) else answering
        assert seat is not None
        if self._given_up(stored):
            return False
        result = await self._think(stored, game, seat)
        if result is None:
            return False
        if await self._takeback_request(stored) is not None:
            return True  # asked while the bot thought: answered before the bot moves
        win = result.win if game.colour_to_move is game.colour_of_seat(seat.number) \
            else 1 - result.win
        if answering is not None:
            if win < ACCEPT_DRAW_BELOW or _room_for_an_answer(stored, game):
                return await self._commit(stored, answering, _ACCEPT_DRAW
                                          if win < ACCEPT_DRAW_BELOW else _DECLINE_DRAW)
            # the log holds no more side entries: the offer stands, and the next peg (the
            # bot's own, when it is to move) lapses it
            if to_move is None or not is_engine_seat(to_move.user_id):
                await storage.await_engine(game_id, False)
                return False
        plainly_lost = win < RESIGN_BELOW and engine.pegs_to_connect(
            game, game.colour_of_seat(seat.number).opponent) <= RESIGN_WITHIN_PEGS
        hopeless = await storage.count_hopeless(game_id, seat.team, stored.version,
                                                plainly_lost)
        if hopeless >= HOPELESS_TURNS:
            return await self._commit(stored, seat, _RESIGN)
        return await self._commit(stored, seat, parse_command(result.move))

    async def _think(self, stored: StoredGame, game: Game, seat: Seat) -> PlayResult | None:
        """The engine's view for `seat` at its level, from the pool, the game's channel shown
        that the bot is thinking meanwhile; None when the pool is full (the game is told once,
        and waits) or the search failed (logged)."""
        level = engine_level(seat.user_id)
        assert level is not None
        humans = [s.user_id for s in stored.seats if not is_engine_seat(s.user_id)]
        owner = player_owner(humans[0]) if humans else f"game:{stored.id}"
        search = functools.partial(self.think, seed=(stored.id << 16) + stored.version)
        try:
            async with self._desk.port.thinking(stored.channel_id):
                return await self._desk.engine_pool.run(owner, search, game,
                                                        engine.level_limit(level))
        except EngineBusyError:
            self._busy.add(stored.id)
            if await self._store.claim_busy_notice(stored.id, stored.version):
                tr = self._desk.server_tr(stored.guild_id)
                await self._say(stored, Reply(tr(
                    "{name} has many games to think about just now; it answers here as soon "
                    "as it can.", name=seat.name)))
            return None
        except Exception:
            log_failure(log, "the bot's search failed", {"game_id": stored.id})
            version, failed = self._failures.get(stored.id, (stored.version, 0))
            self._failures[stored.id] = (stored.version,
                                         failed + 1 if version == stored.version else 1)
            return None

    def _given_up(self, stored: StoredGame) -> bool:
        """Whether this process has stopped searching the game at its version, after
        `FAILED_SEARCHES` failed searches (said once, in the log)."""
        version, failed = self._failures.get(stored.id, (stored.version, 0))
        if version != stored.version:
            del self._failures[stored.id]
            return False
        if failed < FAILED_SEARCHES:
            return False
        if failed == FAILED_SEARCHES:
            log.warning("the bot stops searching a game after %d failed searches", failed,
                        extra={"game_id": stored.id, "version": stored.version})
            self._failures[stored.id] = (version, failed + 1)
        return True

    async def _takeback_request(self, stored: StoredGame) -> int | None:
        """The user id of the player whose takeback request a bot seat has to answer."""
        for offer in await self._store.open_offers(stored.id):
            asker = stored.seat_of(offer.user_id)
            if (offer.kind is OfferKind.TAKEBACK and offer.at_version == stored.version
                    and asker is not None and not is_engine_seat(asker.user_id)
                    and any(is_engine_seat(s.user_id) and s.team != asker.team
                            for s in stored.seats)):
                return offer.user_id
        return None

    async def _answer_takeback(self, stored: StoredGame, asker_id: int) -> bool:
        """Grant the takeback if the challenge allowed them, else decline it, saying why."""
        asker = stored.seat_of(asker_id)
        assert asker is not None
        seat = next(s for s in stored.seats if is_engine_seat(s.user_id) and s.team != asker.team)
        facts = await self._store.engine_game(stored.id)
        granted = facts is not None and facts.takebacks
        request = self._request(stored, seat)
        why = None if granted else request.tr(
            "The bot takes back only in games challenged with `takebacks yes`.")
        try:
            reply = await self._turns.takeback(request, "accept" if granted else "decline")
        except ServiceError as error:
            if not granted or await self._moved_on(stored):  # it lapsed meanwhile
                log.info("bot takeback answer refused: %s", error, extra={"game_id": stored.id})
                return True
            # it cannot be granted (the game's log is full): declined instead, saying why,
            # rather than left open with the bot never moving again
            log.warning("bot takeback not granted: %s", error, extra={"game_id": stored.id})
            why = request.tr.say(error.message)
            try:
                reply = await self._turns.takeback(request, "decline")
            except ServiceError:  # lapsed meanwhile after all
                return True
        if why is not None:
            reply = replace(reply, text=reply.text + "\n" + why)
        await self._say(stored, reply)
        return True

    async def _commit(self, stored: StoredGame, seat: Seat, command: Command) -> bool:
        """Play `command` for the bot's `seat` on the game as the bot saw it; a turn that
        landed meanwhile wins (the bot looks again). Any other refusal would come again at
        every look: the attempt ends, logged once and said in the game's channel, and the
        game is no longer marked as awaiting the bot (a person's next turn marks it again)."""
        request = self._request(stored, seat)
        try:
            reply = await self._turns.play(request, command, at_version=stored.version)
        except ServiceError as error:
            if await self._moved_on(stored):
                log.info("bot turn refused: %s", error, extra={"game_id": stored.id})
                return True
            log.warning("bot turn refused, not tried again: %s", error,
                        extra={"game_id": stored.id, "version": stored.version,
                               "command": str(command)})
            await self._store.await_engine(stored.id, False)
            tr = request.tr
            await self._say(stored, Reply(tr(
                "{name} cannot play its turn ({why}): resign, or ask a channel manager to "
                "abort the game.", name=seat.name, why=tr.say(error.message))))
            return False
        await self._say(stored, reply)
        return True

    async def _moved_on(self, stored: StoredGame) -> bool:
        """Whether the game has changed since the bot looked at it (a turn, an end)."""
        fresh = await self._store.get_game(stored.id)
        return fresh.version != stored.version or not fresh.is_active

    def _request(self, stored: StoredGame, seat: Seat) -> Request:
        return Request(stored.guild_id, stored.channel_id, User(seat.user_id, seat.name),
                       locale=self._desk.port.language(stored.guild_id))

    async def _say(self, stored: StoredGame, reply: Reply) -> None:
        """Deliver what the bot says into the game's channel (a reply has no asker to go
        back to); a front end that fails to deliver does not undo the turn. A direct
        message keeps its channel, or its lack of one: a player's private word (a stored
        reply that could not be played) must not fall back into the game's channel."""
        for message in reply.all_messages():
            channel_id = (message.channel_id if message.dm_user_id is not None
                          else message.channel_id or stored.channel_id)
            try:
                await self._desk.port.post(replace(message, followups=(), ephemeral=False,
                                                   channel_id=channel_id,
                                                   private_home=private_home(stored)))
            except Exception:
                log_failure(log, "bot reply not delivered", {"game_id": stored.id})


def _has_engine_seats(stored: StoredGame) -> bool:
    return any(is_engine_seat(seat.user_id) for seat in stored.seats)


def _room_for_an_answer(stored: StoredGame, game: Game) -> bool:
    """Whether the game's log takes one more entry besides its moves (a declined draw)."""
    try:
        check_log_room(stored, game)
    except LimitError:
        return False
    return True


def _engine_seat_of(stored: StoredGame, game: Game, colour: Colour) -> Seat | None:
    """A bot seat playing `colour` (the first of them), if any."""
    return next((s for s in stored.seats
                 if is_engine_seat(s.user_id) and game.colour_of_seat(s.number) is colour), None)
