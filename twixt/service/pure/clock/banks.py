"""The clock of the turn in progress, and each player's bank, derived from the stored log.

Nothing of a clock is stored but the log (and the players' vacations): walking the log, each
stretch between two entries that pass the turn (a move, swap, privilege or takeback) is a
*stint* of the seat that was to move. With a time per move only the current stint counts: it
has the whole time. With a bank every stint uses its seat's clock time (less that player's
pauses), and a stint ended by that seat's own move adds the bonus, up to the bank's start.
A takeback ends the stint of the player who was to move without a bonus and refunds nothing:
time used is used, on both sides.

The stints are found once, while the log is replayed (`StintLog`), and kept with the cached
game; a turn adds one (`next_stint`). The banks are worked out from them when asked, because
they also depend on the vacations, which change without a turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from twixt.rules import Game
from twixt.service.pure.clock.pauses import Pauses, charged, moment_after
from twixt.service.pure.clock.timecontrol import (
    ClockMarks,
    TimeControl,
    clock_marks,
    time_control_of,
)
from twixt.storage import TAKEBACK, StoredGame, StoredTurn


@dataclass(frozen=True)
class Stint:
    """A stretch of the log during which `seat` was to move; `moved`: it ended with that
    seat's own move (which earns a bank's bonus)."""

    seat: int
    started: datetime
    ended: datetime
    moved: bool


def next_stint(stored: StoredGame, actor_id: int, text: str, seat: int | None, moves: int,
               after: Game, started: datetime, ended: datetime) -> Stint | None:
    """The stint a log entry ended, or None if it did not pass the turn: `seat` was to move
    since `started` with `moves` made, and `after` is the game the entry left. An entry
    passes the turn when it takes a turn back, makes a move (a peg, swap) or changes whose
    turn it is (privilege): read off the games, so the log need not be parsed again."""
    if seat is None:
        return None
    takeback = text == TAKEBACK
    if not (takeback or after.moves_made > moves or after.seat_to_move != seat):
        return None
    actor = stored.seat_of(actor_id)
    return Stint(seat, started, ended,
                 moved=not takeback and actor is not None and actor.number == seat)


class StintLog:
    """Collects a game's stints while its log is replayed: `note` is `storage.replay`'s
    `before`, which sees each entry and the game before it; `close` the game at the end."""

    def __init__(self, stored: StoredGame) -> None:
        self._stored = stored
        #: when the player to move got the turn: the last entry that passed it, or the start
        self.since = stored.created_at
        self.stints: list[Stint] = []
        self._entry: tuple[StoredTurn, int | None, int] | None = None

    def note(self, entry: StoredTurn, game: Game) -> None:
        self.close(game)  # the entry before this one, now that its result is known
        self._entry = (entry, game.seat_to_move, game.moves_made)

    def close(self, game: Game) -> tuple[Stint, ...]:
        """The stints, once `game` is what the last entry noted left."""
        if self._entry is not None:
            entry, seat, moves = self._entry
            self._entry = None
            stint = next_stint(self._stored, entry.actor_id, entry.command, seat, moves, game,
                               self.since, entry.played_at)
            if stint is not None:
                self.stints.append(stint)
                self.since = entry.played_at
        return tuple(self.stints)


def banks_at(control: TimeControl, stints: Sequence[Stint],
             pauses: Sequence[Pauses]) -> tuple[timedelta, ...]:
    """Each seat's bank after the stints: every stint uses its seat's clock time (never
    below zero), and one ended by the seat's own move earns the bonus."""
    left = [control.start] * len(pauses)
    for stint in stints:
        seat = stint.seat
        left[seat] -= charged(stint.started, stint.ended, pauses[seat], most=left[seat])
        if stint.moved:
            left[seat] = control.after_move(left[seat])
    return tuple(left)


@dataclass(frozen=True)
class TurnClock:
    """The clock of the turn in progress: `seat` to move since `started` with `left` on
    its clock then; `pauses` are every seat's (the clock of `seat` stands still during its
    own), and `banks` every seat's bank at that moment (a bank game's), `seat`'s included."""

    seat: int
    started: datetime
    left: timedelta
    pauses: tuple[Pauses, ...]
    banks: tuple[timedelta, ...] | None = None

    @property
    def own(self) -> Pauses:
        """The pauses of the player to move."""
        return self.pauses[self.seat]

    @property
    def due(self) -> datetime:
        """When the time runs out."""
        return moment_after(self.started, self.left, self.own)

    def left_at(self, now: datetime) -> timedelta:
        """The clock time left at `now` (zero once it has run out)."""
        due = self.due
        return charged(now, due, self.own) if now < due else timedelta(0)

    def marks(self, reminder_hours: int) -> ClockMarks:
        """When this turn is reminded and due (see `clock_marks`)."""
        return clock_marks(self.started, self.left, reminder_hours, pauses=self.own)

    def bank_of(self, seat: int, now: datetime) -> timedelta | None:
        """A seat's bank at `now` (only the player to move's runs); None without a bank."""
        if self.banks is None:
            return None
        return self.left_at(now) if seat == self.seat else self.banks[seat]


def turn_clock(control: str, seat: int, started: datetime, stints: Sequence[Stint],
               pauses: Sequence[Pauses]) -> TurnClock:
    """The clock of `seat`'s turn that began at `started`, after `stints`, for a game whose
    players pause at `pauses` (by seat)."""
    clock = time_control_of(control)
    if not clock.is_bank:
        return TurnClock(seat, started, clock.start, tuple(pauses))
    banks = banks_at(clock, stints, pauses)
    return TurnClock(seat, started, banks[seat], tuple(pauses), banks)
