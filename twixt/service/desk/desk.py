"""What every part of the service shares: storage, the clock, a lock per channel, the cache
of replayed games, drawing boards in a worker thread, and committing one command of a player.

A stored game is rebuilt from its imported turns (those of an imported record, if any) and then
its log; a `takeback` entry of the log takes back the turn before it. The subject objects
(challenges, turns, clocks, records, stats, settings) each hold this desk and nothing of each
other, except where one subject's work ends in another's (an import ends in a challenge).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from twixt import rendering, rules
from twixt.language import Message, Translation, translation
from twixt.rules import Action, Colour, Game, IllegalMoveError
from twixt.service.desk.after_turn import Followed, Played, TurnPlayed
from twixt.service.desk.changes import Changes
from twixt.service.desk.engine_pool import EnginePool
from twixt.service.desk.engine_seats import is_engine_seat
from twixt.service.desk.live_games import ChannelLocks, GameCache, LiveGame
from twixt.service.errors import (
    ConflictError,
    LimitError,
    MissingError,
    NotAllowedError,
    refused_by_rules,
)
from twixt.service.failures import log_failure
from twixt.service.model import (
    NO_SERVER,
    Button,
    ButtonKind,
    Request,
    User,
    renewed,
    require_private,
)
from twixt.service.port import Port
from twixt.service.pure.clock.absence import pauses_of
from twixt.service.pure.clock.banks import StintLog, TurnClock, next_stint, turn_clock
from twixt.service.pure.clock.texts import clock_words
from twixt.service.pure.clock.timecontrol import ClockMarks, time_control_of
from twixt.service.pure.clock.wakeups import Alarm
from twixt.service.texts import storage_refusal
from twixt.storage import (
    GameFinishedError,
    GameResult,
    NotFoundError,
    OfferKind,
    Result,
    Seat,
    StaleVersionError,
    Storage,
    StoredGame,
    UserPrefs,
    Waiting,
    rebuild,
)

if TYPE_CHECKING:
    from twixt.rendering import RenderOptions

log = logging.getLogger(__name__)

#: log entries of a game besides the moves that stand (draw offers and refusals, takebacks and
#: the turns they took back): far more than any game needs, few enough that a game's log, its
#: replay and its memory stay bounded by its board
MAX_SIDE_ENTRIES = 1000
#: log entries of a game in all, its imported turns included: a 48×48 board holds 2,300 pegs, so
#: only classic's removals (a peg taken out and put back, again and again) come near it
MAX_LOG_ENTRIES = 6000


def utc_now() -> datetime:
    return datetime.now(UTC)


class Desk:
    """The shared machinery of the service's subjects."""

    def __init__(self, storage: Storage, port: Port, clock: Callable[[], datetime],
                 render_options: RenderOptions | None, rng: random.Random | None,
                 engine_pool: EnginePool | None) -> None:
        self.storage = storage
        #: what the front end lends (threads, posting, a server's language, the sign of
        #: thinking, its shards): see `twixt.service.port`
        self.port = port
        self.clock = clock
        self.rng = rng or random.Random()
        #: the worker processes the engine's searches run in
        self.engine_pool = engine_pool or EnginePool()
        self.lock = ChannelLocks()
        #: rung when a turn sets a clock's wake-up earlier than the dispatcher planned (the
        #: clocks hear of each turn: `Clocks.turn_played`), or a vacation or a claim wants a
        #: tick now
        self.alarm = Alarm()
        #: how boards are drawn (None: as `RenderOptions` draws them by default); the
        #: rendering is loaded when a first board is drawn, never by a front end that draws
        #: boards itself (`Port.pictures`)
        self._render_options = render_options
        self._games = GameCache()
        #: the waits for games to change, told here of every change stored (a turn, an
        #: offer made or closed, an end)
        self.changes = Changes(storage.live_versions)
        #: called with the id of each game that has just ended (a turn, a forfeit, an abort):
        #: the subjects that follow games (tournaments) hook in here
        self.game_ended: list[Callable[[int], Awaitable[None]]] = []
        #: called with a game before a turn or an offer of it is stored: what must be on
        #: record before they are, in the same order, so that no restart falls between them
        #: (the engine player marks its games as awaiting it); not an event of what
        #: happened, which is `turn_played`'s
        self.turn_coming: list[Callable[[StoredGame], Awaitable[object]]] = []
        #: called in order with each turn played (a player's, a stored reply's, the bot's,
        #: a loss on time) and each takeback, once stored and while the channel's lock is
        #: held (`after_turn`): what follows a turn subscribes here, each subject in its
        #: own constructor — the conditional moves (what they play in answer is announced
        #: too), the clocks (their dispatcher's alarm), the engine player (its games)
        self.turn_played: list[TurnPlayed] = []
        #: called with a game once an offer of it is stored (a takeback request): the
        #: engine player answers those of its games
        self.offer_made: list[Callable[[StoredGame], Awaitable[None]]] = []

    def server_tr(self, guild_id: int) -> Translation:
        """What the service says by itself in a server (nobody asked: a reminder, the bot's
        move), in the server's language as the front end tells it (`Port.language`)."""
        return translation(self.port.language(guild_id))

    # --- games -------------------------------------------------------------------------

    async def active_stored(self, channel_id: int) -> StoredGame:
        """The channel's game in progress; `MissingError` when there is none."""
        stored = await self.storage.active_game(channel_id)
        if stored is None:
            raise MissingError("there is no game in this channel: start one with challenge")
        return stored

    async def active(self, channel_id: int) -> tuple[StoredGame, Game]:
        """The channel's game and its position (from the cache when it is up to date)."""
        stored = await self.active_stored(channel_id)
        return stored, await self.position(stored)

    async def position(self, stored: StoredGame) -> Game:
        """A game at its stored version: from the cache, or replayed (and then cached)."""
        return (await self.live(stored)).game

    async def record(self, stored: StoredGame) -> Game:
        """A copy of the game as its records hold it: with its clock, when it has one, as
        the `TimeControl` tag (the copy: the cached game changes only through the service)."""
        game = (await self.position(stored)).copy()
        if stored.setup.time_control:
            game.tags["TimeControl"] = stored.setup.time_control
        return game

    async def live(self, stored: StoredGame) -> LiveGame:
        live = self._games.get(stored.id, stored.version)
        if live is None:
            loaded = await self.storage.load_game(stored.id)
            log = StintLog(loaded.game)
            game = rebuild(loaded, seat_name, before=log.note)
            stints = log.close(game)
            live = LiveGame(stored.version, game, log.since, stints)
            self._games.put(stored.id, live)
        return live

    def written(self, game_id: int, live_version: int) -> StoredGame | None:
        """Game `game_id` as a turn of this process stored it, when nothing has changed it
        since (it is at `live_version`); None: read it."""
        return self._games.written(game_id, live_version)

    def written_prefs(self, game_id: int, live_version: int) -> Mapping[int, UserPrefs]:
        """The players' preferences the turn of this process that made game `game_id`'s
        live version `live_version` read as it was prepared (`Turns.move`): what its views
        show them in (their palettes); none when that turn read none, or another change
        came since."""
        return self._games.written_prefs(game_id, live_version)

    def written_players(self, game_id: int | None) -> tuple[int, ...]:
        """The players (user ids) of game `game_id` when this process has written it (a
        game's seats never change once it is made), without a read; none else."""
        written = None if game_id is None else self._games.last_written(game_id)
        return () if written is None else tuple(seat.user_id for seat in written.seats)

    async def current_written(self, game_id: int) -> StoredGame | None:
        """Game `game_id` as a turn of this process stored it, when nothing has changed it
        since, by anyone: one statement reads its live version instead of the game and its
        seats (None: read it). A game's server, channel and seats never change once it is
        made, and its status only with its live version."""
        if self._games.last_written(game_id) is None:
            return None
        live_version = (await self.storage.live_versions([game_id])).get(game_id)
        return None if live_version is None else self.written(game_id, live_version)

    async def channel_stored(self, channel_id: int) -> StoredGame:
        """The channel's current game, or its last finished one."""
        stored = await self.storage.active_game(channel_id)
        if stored is None:
            games = await self.storage.list_games(channel_id=channel_id, limit=1)
            if not games:
                raise MissingError("this channel has no games")
            stored = games[0]
        return stored

    async def chosen_game(self, request: Request, game_id: int | None) -> StoredGame:
        """The game a player names by number (one of this server's), or with no number the
        channel's current or last game."""
        if game_id is None:
            return await self.channel_stored(request.channel_id)
        try:
            stored = await self.storage.get_game(game_id)
        except NotFoundError:
            raise MissingError("there is no such game") from None
        if stored.guild_id != request.guild_id or not may_see(request, stored):
            raise MissingError("there is no such game")  # the same words: nothing leaks
        return stored

    async def game_to_show(self, request: Request, game_id: int | None,
                           instead: str) -> tuple[StoredGame, bool]:
        """A game named to be shown (`chosen_game`), and whether the answer is for the asker
        alone: a game of another channel may be a private channel's, which its players see
        anywhere and nobody else does. Where every reply is public (a chat message) such a
        game is refused, pointing to `instead` (as in `/twixt-records analyze`)."""
        stored = await self.chosen_game(request, game_id)
        elsewhere = stored.channel_id != request.channel_id
        if elsewhere:
            require_private(request, instead)
        return stored, elsewhere

    async def commit(self, request: Request, command: rules.Command,
                     actor: Seat | None = None, at_version: int | None = None,
                     shown: Mapping[int, UserPrefs] | None = None) -> Played:
        """Check a command with the rules and store it; the caller holds the channel's lock.

        The command is the asking player's, or `actor`'s (a `timeout` is recorded for the
        player who ran out of time, whoever claims it). With `at_version` (a confirmed move)
        it is played only on the game as it stood then. `shown`: the players' preferences
        the move's preparation read, kept for the turn's views (`written_prefs`). What is
        returned is what follows a
        turn hears (`after_turn`): with the turn clock that follows (None without a clock or
        at the end), so the announcement reads no pauses again, and the wake-up stored. A
        request made in a game's home (`Request.home_of`) plays only in that game.
        """
        stored, committed = await self._home(request)
        if request.home_of is not None and stored.id != request.home_of:
            raise ConflictError("this button belongs to a game that is over")
        if at_version is not None and stored.version != at_version:
            raise ConflictError("the game has changed since your move was shown: play it again")
        seat = actor or player_seat(stored, request)
        # played on a copy: until the commit, everyone else still sees the committed game
        game = committed.copy()
        try:
            turn = game.push(command, by=game.players[seat.number])
        except IllegalMoveError as error:
            raise refused_by_rules(error) from None
        stored, turn_clock, wake_at = await self.append(
            stored, seat.user_id, turn.text, game=game, finish=finish_result(stored, game),
            passes_turn=passes_the_turn(command), shown=shown)
        return Played(request, stored, game, turn, turn_clock, wake_at)

    async def _home(self, request: Request) -> tuple[StoredGame, Game]:
        """`active` for a command about to be committed (under the channel's lock). For a
        request made in a game's home that this process last wrote, one statement reads the
        game's live version instead of the game and its seats: at that version (no turn,
        offer or end since, by anyone) the game as written is still the channel's game in
        progress. A request whose home was read at the version this process wrote last
        (`Request.home_at`: a page's move, a moment ago) reads nothing: whatever another
        process did since, the write's check of the version refuses the turn, as it would
        after the read."""
        home = request.home_of
        written = None if home is None else self._games.last_written(home)
        if (home is not None and written is not None and written.is_active
                and written.channel_id == request.channel_id):
            current = (written if written.live_version == request.home_at
                       else await self.current_written(home))
            if current is not None:
                return current, await self.position(current)
        return await self.active(request.channel_id)

    async def after_turn(self, played: Played) -> Followed:
        """Hand a turn just stored (or a takeback) to what follows a turn (`turn_played`,
        in order; the caller holds the channel's lock): each sees the last turn played,
        which is a stored reply once one answered the turn."""
        followed = Followed(played)
        for hook in self.turn_played:
            more = await hook(followed.last)
            if more is not None:
                followed = Followed(more.last, more.answered or followed.answered,
                                    (*followed.notices, *more.notices))
        return followed

    async def append(self, stored: StoredGame, user_id: int, text: str, *, game: Game,
                     passes_turn: bool, finish: GameResult | None = None,
                     shown: Mapping[int, UserPrefs] | None = None
                     ) -> tuple[StoredGame, TurnClock | None, datetime | None]:
        """Store one log entry under the version check and cache `game` as it now stands;
        a turn that lost a race (or came after the end) is refused in one line. A clocked
        game's next wake-up is stored with the entry: its first mark in the turn, returned
        with the game and the turn's clock (the clocks hear of it in `turn_played`)."""
        if finish is None:
            check_log_room(stored, game)
        now = self.clock()
        before = await self.live(stored)
        stint = next_stint(stored, user_id, text, before.game.seat_to_move,
                           before.game.moves_made, game, before.turn_started, now)
        live = LiveGame(stored.version + 1, game, now if passes_turn else before.turn_started,
                        before.stints + ((stint,) if stint else ()))
        turn_clock = None if finish is not None else await self.turn_clock(stored, live)
        marks = None if turn_clock is None else await self.marks(stored, turn_clock)
        wake = None if marks is None else marks.earliest
        for hook in self.turn_coming:
            await hook(stored)
        waiting = (None if finish is not None
                   else waiting_of(stored, game, turn_clock, live.turn_started))
        try:
            version = await self.storage.append_turn(stored.id, stored.version, user_id, text,
                                                     finish=finish, wake_at=wake, now=now,
                                                     waiting=waiting)
        except (StaleVersionError, GameFinishedError) as error:
            self._games.drop(stored.id)
            raise storage_refusal(error) from None
        stored = renewed(stored, version=version, updated_at=now)
        self._games.put(stored.id, renewed(live, version=version,
                                           written=stored if finish is None else None,
                                           shown=shown if finish is None else None))
        self.changes.told(stored.id, stored.live_version)
        if finish is not None:
            await self._ended(stored.id)
        return stored, turn_clock, wake

    async def note_waiting(self, stored: StoredGame) -> None:
        """Store whose move a game just begun waits for (a turn stores it in `append`)."""
        live = await self.live(stored)
        turn_clock = await self.turn_clock(stored, live)
        await self.storage.set_waiting(stored.id, waiting_of(stored, live.game, turn_clock,
                                                             live.turn_started))

    async def offer(self, stored: StoredGame, kind: OfferKind, user_id: int) -> None:
        """Open an offer at the game's stored version, under the same version check; what
        must be on record before it is (`turn_coming`) comes first, and those who answer
        offers hear of it once it is stored (`offer_made`: the bot answers takeback
        requests)."""
        for hook in self.turn_coming:
            await hook(stored)
        try:
            await self.storage.make_offer(stored.id, kind, user_id, stored.version,
                                          now=self.clock())
        except (StaleVersionError, GameFinishedError) as error:
            self._games.drop(stored.id)
            raise storage_refusal(error) from None
        self.changes.told(stored.id, stored.live_version + 1)
        for made in self.offer_made:
            await made(stored)

    async def close_offer(self, stored: StoredGame, kind: OfferKind) -> None:
        """Close the game's offer of `kind` (answered): those who follow the game see it
        go."""
        if await self.storage.close_offer(stored.id, kind) is not None:
            self.changes.told(stored.id, stored.live_version + 1)

    async def finish(self, stored: StoredGame, result: GameResult) -> None:
        """End a game without a turn (an abort), under the same version check."""
        try:
            finished = await self.storage.finish_game(stored.id, stored.version, result,
                                                      now=self.clock())
        except (StaleVersionError, GameFinishedError) as error:
            raise storage_refusal(error) from None
        finally:
            self._games.drop(stored.id)
        self.changes.told(stored.id, finished.live_version)
        await self._ended(stored.id)

    async def _ended(self, game_id: int) -> None:
        """Tell the hooks that a game has ended. What they do is another subject's: a
        failure is logged, never undoes the end nor its announcement (a tournament looks at its
        games again when next asked, see `Rounds.refresh`)."""
        for hook in self.game_ended:
            try:
                await hook(game_id)
            except Exception:
                log_failure(log, "after the end of a game", {"game_id": game_id})

    async def rematch_buttons(self, stored: StoredGame, tr: Translation) -> tuple[Button, ...]:
        """The button under a finished game's board: the same players again, colours
        exchanged; its label said by `tr`. None under a tournament's game: the tournament pairs its
        players itself, and its standings follow instead (an indexed look-up)."""
        if await self.storage.tournament_game_of(stored.id) is not None:
            return ()
        return (Button(ButtonKind.REMATCH, stored.id, tr("Rematch"),
                       tuple(seat.user_id for seat in stored.seats)),)

    # --- clocks ------------------------------------------------------------------------

    async def turn_clock(self, stored: StoredGame,
                         live: LiveGame | None = None) -> TurnClock | None:
        """The clock of the turn in progress of a clocked game (at `live`, by default the
        stored version), with its players' pauses; None without a clock or once it is over."""
        control = stored.setup.time_control
        if not control:
            return None
        live = live or await self.live(stored)
        seat = live.game.seat_to_move
        if seat is None:
            return None
        # a bank counts every turn since the start; a time per move only this one
        since = stored.created_at if time_control_of(control).is_bank else live.turn_started
        pauses = await pauses_of(self.storage, stored, since)
        return turn_clock(control, seat, live.turn_started, live.stints, pauses)

    async def marks(self, stored: StoredGame, turn_clock: TurnClock) -> ClockMarks:
        """When a clocked game's turn (its `turn_clock`) is reminded and due, by its server's
        reminder setting."""
        settings = await self.storage.guild_settings(stored.guild_id)
        return turn_clock.marks(settings.reminder_hours)

    async def clock_text(self, stored: StoredGame, game: Game) -> Message | None:
        """`2d 3h left` for the player to move in a clocked game in progress (a message, for
        the reader's language), and whether their clock stands still."""
        if not stored.is_active:  # an aborted game's rules still have a player to move
            return None
        return self.clock_words(stored, game, await self.turn_clock(stored))

    def clock_words(self, stored: StoredGame, game: Game,
                    turn_clock: TurnClock | None) -> Message | None:
        """`clock_text` of a turn's clock already read (`turn_clock`), so that a caller that
        needs both reads the players' pauses once."""
        if not stored.is_active or turn_clock is None or game.player_to_move is None:
            return None
        return clock_words(turn_clock, self.clock())

    # --- pictures ----------------------------------------------------------------------

    async def render(self, game: Game, viewer: int | None = None,
                     clock_text: Message | str | None = None,
                     locale: str = "en") -> bytes | None:
        """The board drawn in a worker thread: in the one look every public board of a game
        has, or as `viewer` likes to see it (for a board only they see), with the caption and
        the time left in `locale`. None (and a log record) when drawing fails, since what was
        committed must be announced anyway; None at once for a front end that draws the
        board itself (`Port.pictures`)."""
        if not self.port.pictures:
            return None
        try:
            from twixt.rendering import RenderOptions, view_of

            options = replace(self._render_options or RenderOptions(), locale=locale)
            if viewer is not None:
                options = render_options_for(options, await self.storage.user_prefs(viewer))
            view = view_of(game)
            if clock_text:
                view = replace(view, clock=translation(locale).say(clock_text))
            return await asyncio.to_thread(rendering.render_png, view, options)
        except Exception:
            log_failure(log, "board not drawn", {})
            return None

    # --- people ------------------------------------------------------------------------

    async def remember(self, *users: User) -> None:
        await self.storage.remember_users({u.id: u.name for u in users})

    async def names(self, user_ids: Sequence[int]) -> dict[int, str]:
        known = await self.storage.user_names(user_ids)
        return {uid: known.get(uid, f"player {uid}") for uid in user_ids}


def may_see(request: Request, stored: StoredGame) -> bool:
    """Who sees which game: the games of the channel one asks in, and the games one played
    (a game of a private channel stays there)."""
    return stored.channel_id == request.channel_id or stored.seat_of(request.user.id) is not None


def check_log_room(stored: StoredGame, game: Game, entries: int = 1) -> None:
    """Refuse `entries` more log entries that take the stored game to `game` when its imported
    turns and log would then hold more than `MAX_SIDE_ENTRIES` entries besides `game`'s moves, or
    more than `MAX_LOG_ENTRIES` in all: only an ending is taken then."""
    imported = (len(stored.setup.imported_turns.splitlines())
                if stored.setup.imported_turns else 0)
    if imported + stored.version + entries > MAX_LOG_ENTRIES:
        raise LimitError("this game's log holds {most} entries: from now on it can only end "
                         "(resign, or accept a draw already offered)", most=MAX_LOG_ENTRIES)
    if imported + stored.version + entries - game.moves_made > MAX_SIDE_ENTRIES:
        raise LimitError("this game's log holds {most} entries besides its moves (draw "
                         "offers, refusals, takebacks): from now on only a move or an "
                         "ending", most=MAX_SIDE_ENTRIES)


def finish_result(stored: StoredGame, game: Game) -> GameResult | None:
    """The stored result of a game that has just ended, and whose ratings it changes."""
    outcome = game.outcome
    if outcome is None:
        return None
    winners = tuple(seat.user_id for seat in stored.seats
                    if outcome.winner is not None
                    and game.colour_of_seat(seat.number) is outcome.winner)
    red, black = (tuple(s.user_id for s in stored.seats
                        if game.colour_of_seat(s.number) is colour)
                  for colour in (Colour.RED, Colour.BLACK))
    # a continued import is rated for nobody, and so is a game with the bot (`engine_seats`)
    # and a game in a direct message (`NO_SERVER`: ratings are a server's)
    rated = (not stored.setup.imported_turns and not any(map(is_engine_seat, red + black))
             and stored.guild_id != NO_SERVER)
    sides = (red, black) if rated else None
    return GameResult(Result(outcome.result), outcome.reason.value, winners, sides)


def waiting_of(stored: StoredGame, game: Game, turn_clock: TurnClock | None,
               since: datetime) -> Waiting:
    """Whose move `game` waits for — a person's, not the bot's seat — until when and since
    when, as `next` and the digest read it (`storage.waiting_games`)."""
    seat = game.seat_to_move
    user_id = stored.seats[seat].user_id if seat is not None else None
    person = user_id if user_id is not None and not is_engine_seat(user_id) else None
    return Waiting(person, turn_clock.due if turn_clock is not None else None, since)


def private_home(stored: StoredGame) -> bool:
    """Whether the game's home is a direct message or a group DM (`NO_SERVER`), where the
    app may not post: what the bot says there by itself is marked `Reply.private_home`."""
    return stored.guild_id == NO_SERVER


def player_seat(stored: StoredGame, request: Request) -> Seat:
    """The asker's seat; `NotAllowedError` when they are not playing."""
    seat = stored.seat_of(request.user.id)
    if seat is None:
        raise NotAllowedError("you are not playing in this game")
    return seat


def seat_to_move(stored: StoredGame, game: Game) -> Seat:
    """The seat whose turn it is; `ConflictError` once the game is over."""
    number = game.seat_to_move
    if number is None:
        raise ConflictError("the game is over")
    return stored.seats[number]


def seat_name(seat: Seat) -> str:
    """Seats are named as the players were when the game began (names that records hold)."""
    return seat.name


def passes_the_turn(command: rules.Command) -> bool:
    """Whether a command hands the move to someone else: a peg, swap or privilege."""
    return command.is_move or Action.PRIVILEGE in command.actions


def render_options_for(base: RenderOptions, prefs: UserPrefs) -> RenderOptions:
    """A user's theme, palette and side preferences over the defaults."""
    from twixt.rendering import PaletteName, ThemeName

    changes: dict[str, Any] = {}
    if prefs.theme in ("light", "dark"):
        changes["theme"] = ThemeName(prefs.theme)
    if prefs.palette in ("normal", "colour-blind"):
        changes["palette"] = PaletteName(prefs.palette)
    if prefs.side in ("red", "black"):
        changes["side"] = Colour(prefs.side)
    return replace(base, **changes)
