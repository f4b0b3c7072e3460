"""What every part of the service shares: storage, the clock, a lock per channel, the cache
of replayed games, drawing boards in a worker thread, and committing one command of a player.

A stored game is the replay of its opening (the turns of an imported record, if any) and then
its log; a `takeback` entry of the log takes back the turn before it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Protocol

from bot.service import elo
from bot.service.games import ChannelLocks, GameCache
from bot.service.model import Button, ButtonKind, Context, ServiceError, User
from bot.service.timecontrol import describe_span, due_at
from rendering import PaletteName, RenderOptions, ThemeName, render_png, view_of
from rules import Action, Colour, Game, IllegalMoveError, InvalidMoveError, Turn, parse_command
from storage import (
    TAKEBACK,
    GameFinishedError,
    GameResult,
    Result,
    Seat,
    StaleVersionError,
    Storage,
    StoredGame,
    UserPrefs,
    replay,
)


def utc_now() -> datetime:
    return datetime.now(UTC)


class ThreadOpener(Protocol):
    """What a front end offers so that a game can get a thread of its own."""

    async def open_thread(self, channel_id: int, name: str) -> int:
        """Open a thread under `channel_id` named `name`; return its channel id."""
        ...


class ServiceCore:
    """The shared machinery; the command classes build on it."""

    def __init__(self, storage: Storage, *, threads: ThreadOpener | None = None,
                 clock: Callable[[], datetime] = utc_now,
                 render_options: RenderOptions | None = None,
                 rng: random.Random | None = None) -> None:
        self.storage = storage
        self._threads = threads
        self._clock = clock
        self._render_options = render_options or RenderOptions()
        self._rng = rng or random.Random()
        self._locks = ChannelLocks()
        self._games = GameCache()

    # --- games -------------------------------------------------------------------------

    async def _active_record(self, channel_id: int) -> StoredGame:
        record = await self.storage.active_game(channel_id)
        if record is None:
            raise ServiceError("there is no game in this channel: start one with challenge")
        return record

    async def _active(self, channel_id: int) -> tuple[StoredGame, Game]:
        """The channel's game and its position (from the cache when it is up to date)."""
        record = await self._active_record(channel_id)
        return record, await self._position(record)

    async def _position(self, record: StoredGame) -> Game:
        """A game at its stored version: from the cache, or replayed (and then cached)."""
        game = self._games.get(record.id, record.version)
        if game is None:
            game = replay(await self.storage.load_game(record.id), seat_name)
            self._games.put(record.id, record.version, game)
        return game

    async def _channel_record(self, channel_id: int) -> StoredGame:
        """The channel's current game, or its last finished one."""
        record = await self.storage.active_game(channel_id)
        if record is None:
            games = await self.storage.list_games(channel_id=channel_id, limit=1)
            if not games:
                raise ServiceError("this channel has no games")
            record = games[0]
        return record

    async def _commit(self, ctx: Context, text: str,
                      actor: Seat | None = None) -> tuple[StoredGame, Game, Turn]:
        """Check a command with the rules and store it; the caller holds the channel's lock.

        The command is the asking player's, or `actor`'s (a `timeout` is recorded for the
        player who ran out of time, whoever claims it).
        """
        record, game = await self._active(ctx.channel_id)
        seat = actor or record.seat_of(ctx.user.id)
        if seat is None:
            raise ServiceError("you are not playing in this game")
        try:
            turn = game.play(text, by=game.players[seat.number])
        except (InvalidMoveError, IllegalMoveError) as error:
            raise ServiceError(str(error)) from None
        try:
            finish = await self._finish_result(record, game)
            version = await self.storage.append_turn(record.id, record.version, seat.user_id,
                                                     turn.text, finish=finish, now=self._clock())
        except (StaleVersionError, GameFinishedError) as error:
            self._games.drop(record.id)
            raise ServiceError(str(error)) from None
        except BaseException:
            game.undo()
            raise
        self._games.put(record.id, version, game)
        return replace(record, version=version), game, turn

    async def _finish_result(self, record: StoredGame, game: Game) -> GameResult | None:
        """The stored result of a game that has just ended, with the new ratings."""
        outcome = game.outcome
        if outcome is None:
            return None
        winners = tuple(seat.user_id for seat in record.seats
                        if outcome.winner is not None
                        and game.colour_of_seat(seat.number) is outcome.winner)
        ratings = () if record.setup.opening else await self._new_ratings(record, game)
        return GameResult(Result(outcome.result), outcome.reason.value, winners, ratings)

    async def _new_ratings(self, record: StoredGame, game: Game) -> tuple[tuple[int, float], ...]:
        outcome = game.outcome
        assert outcome is not None
        sides = {colour: [s.user_id for s in record.seats
                          if game.colour_of_seat(s.number) is colour] for colour in Colour}
        current = {}
        for user_id in sides[Colour.RED] + sides[Colour.BLACK]:
            stats = await self.storage.player_stats(record.guild_id, user_id)
            current[user_id] = stats.rating if stats.rating is not None else elo.START
        score = {Colour.RED: 1.0, Colour.BLACK: 0.0, None: 0.5}[outcome.winner]
        red, black = elo.new_ratings([current[u] for u in sides[Colour.RED]],
                                     [current[u] for u in sides[Colour.BLACK]], score)
        return tuple(zip(sides[Colour.RED] + sides[Colour.BLACK], red + black, strict=True))

    # --- clocks ------------------------------------------------------------------------

    async def _due(self, record: StoredGame) -> datetime | None:
        """When the player to move must have moved, for a game with a time control."""
        if not record.setup.time_control:
            return None
        loaded = await self.storage.load_game(record.id)
        started = next((entry.played_at for entry in reversed(loaded.turns)
                        if passes_the_turn(entry.command)), record.created_at)
        return due_at(started, record.setup.time_control)

    async def _clock_text(self, record: StoredGame, game: Game) -> str | None:
        """`2d 3h left` for the player to move in a clocked game in progress."""
        due = await self._due(record)
        if due is None or game.player_to_move is None:
            return None
        return f"{describe_span(due - self._clock())} left"

    # --- pictures ----------------------------------------------------------------------

    async def _render(self, game: Game, viewer: int | None = None,
                      clock_text: str | None = None) -> bytes:
        """The board as `viewer` likes to see it, drawn in a worker thread."""
        options = self._render_options
        if viewer is not None:
            options = render_options_for(options, await self.storage.user_prefs(viewer))
        view = view_of(game)
        if clock_text:
            view = replace(view, clock=clock_text)
        return await asyncio.to_thread(render_png, view, options)

    # --- people ------------------------------------------------------------------------

    async def _remember(self, *users: User) -> None:
        await self.storage.remember_users({u.id: u.name for u in users})

    async def _names(self, user_ids: Sequence[int]) -> dict[int, str]:
        known = await self.storage.user_names(user_ids)
        return {uid: known.get(uid, f"player {uid}") for uid in user_ids}


def rematch_button(record: StoredGame) -> Button:
    """The button under a finished game's board: the same players again, colours exchanged."""
    return Button(ButtonKind.REMATCH, record.id, "Rematch",
                  tuple(seat.user_id for seat in record.seats))


def seat_name(seat: Seat) -> str:
    """Seats are named as the players were when the game began (names that records hold)."""
    return seat.name


def passes_the_turn(command: str) -> bool:
    """Whether a log entry hands the move to someone else: a peg, swap, privilege, takeback."""
    if command == TAKEBACK:
        return True
    parsed = parse_command(command)
    return parsed.is_move or Action.PRIVILEGE in parsed.actions


def render_options_for(base: RenderOptions, prefs: UserPrefs) -> RenderOptions:
    """A user's theme, palette and side preferences over the defaults."""
    changes: dict = {}
    if prefs.theme in ("light", "dark"):
        changes["theme"] = ThemeName(prefs.theme)
    if prefs.palette in ("normal", "colour-blind"):
        changes["palette"] = PaletteName(prefs.palette)
    if prefs.side in ("red", "black"):
        changes["side"] = Colour(prefs.side)
    return replace(base, **changes)
