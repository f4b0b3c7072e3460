"""Playing: moves in the move language, resignation, takebacks, the board and status, abort."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from twixt.language import Message
from twixt.rules import Action, Command, Game, quote
from twixt.service import commands as cmd
from twixt.service.cases.picker import board_controls
from twixt.service.commands.help import help_for
from twixt.service.commands.options import describe_setup
from twixt.service.desk.after_turn import Played
from twixt.service.desk.desk import Desk, check_log_room, player_seat, seat_to_move
from twixt.service.desk.engine_seats import taken_back
from twixt.service.errors import (
    ConflictError,
    MalformedError,
    MissingError,
    NotAllowedError,
    NotYourTurnError,
)
from twixt.service.model import Button, ButtonKind, Reply, Request
from twixt.service.pure.clock.texts import seat_lines
from twixt.service.texts import (
    names_and,
    result_sentence,
    status_text,
    to_move_sentence,
    turn_line,
)
from twixt.storage import (
    TAKEBACK,
    GameResult,
    GameStore,
    OfferKind,
    Result,
    SettingStore,
    StoredGame,
    UserPrefs,
)


class TurnsStorage(GameStore, SettingStore, Protocol):
    """The subjects of storage turns read and write."""


_RESIGN = Command(actions=(Action.RESIGN,))


class LazyPreferences:
    """The asker's preferences, read once for all the steps of a move that need them, and
    only if one does; with them, in the same statement, those of the game's other players
    (`others`), which the views of the turn show them in (their palettes: `read`)."""

    def __init__(self, store: SettingStore, user_id: int, others: Sequence[int] = ()) -> None:
        self._store = store
        self._user_id = user_id
        self._others = others
        self._read: dict[int, UserPrefs] | None = None

    async def __call__(self) -> UserPrefs:
        if self._read is None:
            if self._others:
                self._read = await self._store.users_prefs([self._user_id, *self._others])
            else:
                self._read = {self._user_id: await self._store.user_prefs(self._user_id)}
        return self._read[self._user_id]

    @property
    def read(self) -> Mapping[int, UserPrefs] | None:
        """Every player's preferences read so far (None: none were)."""
        return self._read


#: a step that prepares a player's move before it is played: the command as it is to be
#: played, or a `Reply` that ends the move here (shown first, for confirmation)
Preparation = Callable[[Request, Command, LazyPreferences], Awaitable[Command | Reply]]


class Turns:
    """Everything a seated player does in a game, and what onlookers may ask.

    A move is one pipeline: `move` prepares it (`preparations`, in order: the automatic
    links, then whatever registered a step, such as showing a move first for confirmation),
    and `play` commits it under the channel's lock, hands it to what follows a turn
    (`Desk.turn_played`) and announces the last turn played (unless the front end shows
    turns itself: `Port.announces`)."""

    def __init__(self, desk: Desk, store: TurnsStorage) -> None:
        self._desk = desk
        self._store = store
        self.preparations: list[Preparation] = [self._auto_link]

    @cmd.handles(cmd.Move)
    async def move(self, request: Request, command: Command) -> Reply:
        """A command of the move language for the asking player, through every step of
        its preparation, then played."""
        others = tuple(user_id for user_id in self._desk.written_players(request.home_of)
                       if user_id != request.user.id)
        prefs = LazyPreferences(self._store, request.user.id, others)
        for step in self.preparations:
            prepared = await step(request, command, prefs)
            if isinstance(prepared, Reply):
                return prepared
            command = prepared
        return await self.play(request, command, shown=prefs.read)

    async def play(self, request: Request, command: Command,
                   at_version: int | None = None,
                   shown: Mapping[int, UserPrefs] | None = None) -> Reply:
        """Play a prepared command for the asking player (with `at_version`, a confirmed
        move: only on the game as it stood when it was shown), let what follows a turn
        answer it, and announce the last turn played. `shown`: the players' preferences
        its preparation read, kept for the turn's views (`Desk.commit`)."""
        if Action.TIMEOUT in command.actions:
            # only the clocks record a loss on time (`Clocks`), never a player's word
            raise NotAllowedError("timeout is recorded by the bot when a player's time is up: "
                                  "use claim")
        desk = self._desk
        async with desk.lock(request.channel_id):
            played = await desk.commit(request, command, at_version=at_version, shown=shown)
            followed = await desk.after_turn(played)
            if not desk.port.announces:  # the front end shows the turn itself: nothing to say
                return Reply("")
            return followed.announce(await self._turn_reply(followed.last), request.tr)

    @cmd.handles(cmd.Resign)
    async def resign(self, request: Request, confirmed: bool = False) -> Reply:
        """Resign, after a confirmation unless `confirmed`."""
        if confirmed:
            return await self.play(request, _RESIGN)
        stored = await self._desk.active_stored(request.channel_id)
        player_seat(stored, request)
        question = request.tr("Really resign this game? Press Resign, or type `resign yes`.")
        return Reply(question, ephemeral=True, buttons=(
            Button(ButtonKind.CONFIRM_RESIGN, stored.id, request.tr("Resign"),
                   (request.user.id,)),))

    @cmd.handles(cmd.Takeback)
    async def takeback(self, request: Request, action: cmd.TakebackAction = "request") -> Reply:
        """The player who just moved asks to take the turn back; an opponent answers."""
        if action not in cmd.TAKEBACK_ACTIONS:
            raise MalformedError("takeback is request, accept or decline, not {action}",
                                 action=quote(action))
        desk = self._desk
        async with desk.lock(request.channel_id):
            stored, game = await desk.active(request.channel_id)
            seat = player_seat(stored, request)
            if action == "request":
                return await self._ask_takeback(request, stored, game)
            offer = next((o for o in await self._store.open_offers(stored.id)
                          if o.kind is OfferKind.TAKEBACK), None)
            if offer is None:
                raise MissingError("there is no takeback request")
            asker = stored.seat_of(offer.user_id)
            if asker is not None and asker.team == seat.team:
                raise NotYourTurnError("an opponent has to answer the takeback request")
            if offer.at_version != stored.version:  # refused, so left as it is
                raise ConflictError("the takeback request lapsed: a turn was played since")
            count = taken_back(stored, game.history, asker.number) if asker else 1
            if action == "accept":  # refused before the offer closes: nothing changes
                after = game.copy()
                for _ in range(count):
                    after.undo()
                check_log_room(stored, after, count)
            if action == "decline":
                await desk.close_offer(stored, OfferKind.TAKEBACK)
                return Reply(request.tr("{name} declines the takeback.",
                                        name=request.user.name))
            tr = request.tr
            lines = []
            # the asker's turn, and the bot's answers after it (one log entry each); the
            # offer closes once they are stored, so a refused takeback leaves it open
            for _ in range(count):
                game = game.copy()  # the committed game stays as it is until the commit
                taken = game.undo()
                stored, running, wake_at = await desk.append(stored, request.user.id,
                                                             TAKEBACK, game=game,
                                                             passes_turn=True)
                lines.append(tr("{player}'s `{move}` is taken back.", player=taken.player,
                                move=taken.text))
            await desk.close_offer(stored, OfferKind.TAKEBACK)
            await desk.after_turn(Played(request, stored, game, taken, running, wake_at,
                                         took_back=True))
            clock_text = desk.clock_words(stored, game, running)
            image = await desk.render(game, clock_text=clock_text, locale=request.locale)
            pickers, controls = board_controls(stored, game, tr)
            return Reply("\n".join([*reversed(lines), to_move_sentence(game, tr, clock_text)]),
                         image=image, mentions=(offer.user_id,), buttons=controls,
                         pickers=pickers)

    @cmd.handles(cmd.ShowBoard)
    async def board(self, request: Request) -> Reply:
        """The board of the channel's game (or its last one), for the asker alone and as they
        like to see it: their theme, palette and side. Public boards keep the game's one look."""
        stored, game, clock_text, text = await self._facts(request)
        image = await self._desk.render(game, request.user.id, clock_text, locale=request.locale)
        pickers, controls = board_controls(stored, game, request.tr)
        return Reply(text, image=image, ephemeral=True, buttons=controls, pickers=pickers)

    @cmd.handles(cmd.Status)
    async def status(self, request: Request) -> Reply:
        """The facts of the channel's game, or of its last one once it is over."""
        _stored, _game, _clock, text = await self._facts(request)
        return Reply(text)

    async def _facts(self, request: Request
                     ) -> tuple[StoredGame, Game, Message | None, str]:
        """The channel's current or last game, its time left, and its facts in words."""
        desk = self._desk
        stored = await desk.channel_stored(request.channel_id)
        game = await desk.position(stored)
        turn_clock = await desk.turn_clock(stored) if stored.is_active else None
        clock_text = desk.clock_words(stored, game, turn_clock)
        text = status_text(stored, game, describe_setup(stored.setup), request.tr, clock_text)
        players = [] if turn_clock is None else seat_lines(stored, turn_clock, desk.clock())
        return stored, game, clock_text, "\n".join(
            [text, *(request.tr.say(line) for line in players)])

    @cmd.handles(cmd.Help)
    async def help(self, request: Request, topic: str | None = None) -> Reply:
        return Reply(help_for(topic, request.tr), ephemeral=True)

    @cmd.handles(cmd.Abort)
    async def abort(self, request: Request) -> Reply:
        """A channel manager calls the game off at once; players must all ask for it."""
        desk = self._desk
        async with desk.lock(request.channel_id):
            stored = await desk.active_stored(request.channel_id)
            if not (request.can_manage or stored.seat_of(request.user.id) is not None):
                raise NotAllowedError("only the players or a channel manager can abort a game")
            if not request.can_manage:
                voters = await self._store.vote_abort(stored.id, request.user.id)
                missing = [s for s in stored.seats if s.user_id not in voters]
                if missing:
                    return Reply(request.tr.plural(
                        "{name} asks to abort this game. It is called off when {names} also "
                        "asks.",
                        "{name} asks to abort this game. It is called off when {names} also "
                        "ask.", len(missing), name=request.user.name,
                        names=", ".join(s.name for s in missing)),
                        mentions=tuple(s.user_id for s in missing))
            await desk.finish(stored, GameResult(Result.ABORTED, "aborted"))
        players = names_and([s.name for s in stored.seats], request.tr)
        return Reply(request.tr("Game {game} ({players}) is aborted by {name}; it counts for "
                                "nobody.", game=stored.id, players=players,
                                name=request.user.name),
                     mentions=tuple(s.user_id for s in stored.seats
                                    if s.user_id != request.user.id))

    # --- internals ---------------------------------------------------------------------

    async def with_auto_link(self, request: Request, command: Command) -> Command:
        """With the asker's auto-link preference, a bare peg links all it can (what pp does
        anyway, so the rule set need not be looked up): a stored conditional reply is
        prepared so too."""
        prefs = LazyPreferences(self._store, request.user.id)
        return await self._auto_link(request, command, prefs)

    async def _auto_link(self, request: Request, command: Command,
                         prefs: LazyPreferences) -> Command:
        """The first step of a move's preparation: the auto-link preference (`prefs` read
        only for a bare peg)."""
        placement = command.placement
        if placement is None or placement.links or placement.link_all:
            return command
        if not (await prefs()).auto_link:
            return command
        return replace(command, placement=replace(placement, link_all=True))

    async def _ask_takeback(self, request: Request, stored: StoredGame, game: Game) -> Reply:
        seat = player_seat(stored, request)
        if game.is_over:
            raise ConflictError("the game is over")
        count = taken_back(stored, game.history, seat.number)
        if not count:
            raise NotAllowedError("only the player who made the last turn can ask to take it back")
        last = game.history[-count]
        await self._desk.offer(stored, OfferKind.TAKEBACK, request.user.id)
        opponents = tuple(s.user_id for s in stored.seats if s.team != seat.team)
        tr = request.tr
        return Reply(tr("{name} asks to take back `{move}`.", name=request.user.name,
                        move=last.text), mentions=opponents,
                     buttons=(Button(ButtonKind.ACCEPT_TAKEBACK, stored.id,
                                     tr("Accept takeback"), opponents),
                              Button(ButtonKind.DECLINE_TAKEBACK, stored.id, tr("Decline"),
                                     opponents)))

    async def _turn_reply(self, played: Played) -> Reply:
        """What a turn makes the bot say, in the mover's language (`request.locale`): a
        reply to a request is in the asker's language, even where everyone reads it;
        `turn_clock` is the clock the commit left (`Desk.commit`)."""
        request, stored, game, turn, turn_clock = (played.request, played.stored, played.game,
                                                   played.turn, played.turn_clock)
        desk = self._desk
        tr = request.tr
        mover = stored.seats[turn.seat]
        text = turn_line(turn, tr)
        if game.outcome:
            others = tuple(s.user_id for s in stored.seats if s.user_id != mover.user_id)
            image = await desk.render(game, None, locale=request.locale)
            return Reply(f"{text}\n{result_sentence(game.outcome, game, tr)}", image=image,
                         mentions=others,
                         buttons=await desk.rematch_buttons(stored, tr))
        next_seat = seat_to_move(stored, game)
        clock_text = desk.clock_words(stored, game, turn_clock)
        lines = [text, to_move_sentence(game, tr, clock_text)]
        if Action.PRIVILEGE in turn.actions:
            skipped = stored.seats[(turn.seat + 1) % len(stored.seats)]
            lines.insert(1, tr("{name} calls privilege: {skipped} is skipped.", name=mover.name,
                               skipped=skipped.name))
        buttons: list[Button] = []
        # ping exactly who must act: the player to move (unless that is who just acted) and,
        # after a new draw offer, the opponents who hold its buttons
        must_act = [next_seat.user_id] if next_seat.user_id != mover.user_id else []
        if game.can_swap():
            lines.append(tr("You may answer with `swap`."))
            buttons.append(Button(ButtonKind.SWAP, stored.id, tr("Swap"), (next_seat.user_id,)))
        if game.is_double and game.can_call_privilege(turn.player):
            buttons.append(Button(ButtonKind.PRIVILEGE, stored.id, tr("Privilege"),
                                  (mover.user_id,)))
        if game.draw_offered_by is not None:
            lines.append(tr("{colour} offers a draw.", colour=game.draw_offered_by.said))
            opponents = tuple(s.user_id for s in stored.seats
                              if game.colour_of_seat(s.number) is not game.draw_offered_by)
            buttons += [Button(ButtonKind.ACCEPT_DRAW, stored.id, tr("Accept draw"), opponents),
                        Button(ButtonKind.DECLINE_DRAW, stored.id, tr("Decline draw"),
                               opponents)]
            if Action.OFFER_DRAW in turn.actions:
                must_act += [uid for uid in opponents if uid not in must_act]
        image = await desk.render(game, clock_text=clock_text, locale=request.locale)
        # the picker and its buttons go under the board's picture: none where there is none
        pickers, controls = (board_controls(stored, game, tr) if desk.port.pictures
                             else ((), ()))
        return Reply("\n".join(lines), image=image, mentions=tuple(must_act),
                     buttons=(*buttons, *controls), pickers=pickers)
