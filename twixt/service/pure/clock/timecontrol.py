"""Correspondence clocks: a time per move such as `3d` or `12h`, or a bank such as `10d+36h`,
and when a move is due.

A time per move gives every turn that long, from the moment the turn passed to the player
(the last move, swap, privilege or takeback). A bank (Little Golem's) starts at its first
part; each turn uses what it takes, and each move of the bank's owner adds the bonus, up to
the starting amount again. The rules know no clocks; deadlines are derived from the stored
log (and the players' stored vacations), so they survive any restart. Time is clock time:
it stands still while its player pauses (`twixt.service.pure.clock.pauses`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from twixt.language import Message, message
from twixt.rules import quote
from twixt.service.errors import MalformedError
from twixt.service.pure.clock.pauses import NO_PAUSES, Pauses, moment_after

#: a part of a time control: a few ASCII digits and a unit (a longer number is no time of ours)
_PART = re.compile(r"([0-9]{1,6})([dhm])")
_MINUTES = {"d": 24 * 60, "h": 60, "m": 1}
#: units as people write them (`3 days`, `1 hour`, `90 min`), each read as its first letter
_UNIT_WORDS = re.compile(r"(?<=[0-9])(days?|hours?|hrs?|minutes?|mins?)")
MIN_TIME = timedelta(hours=1)
MAX_TIME = timedelta(days=60)
#: the last reminder comes when this much (or half the time per move, if less) remains
FINAL_WARNING = timedelta(hours=24)


@dataclass(frozen=True)
class TimeControl:
    """A game's clock: `start` for each move (`bonus` None), or a bank that starts at
    `start` and gains `bonus` with each of its owner's moves, never above `start`."""

    start: timedelta
    bonus: timedelta | None = None

    @property
    def is_bank(self) -> bool:
        return self.bonus is not None

    def after_move(self, left: timedelta) -> timedelta:
        """A bank after its owner's move, with `left` unused: the bonus added, capped."""
        return min(self.start, left + (self.bonus or timedelta(0)))


def parse_time_control(text: str) -> str:
    """Check a time per move (`3d`, `12h`, `1d12h`) or a bank (`10d+36h`, also written
    `10 days + 36 hours`) and return it in a canonical form (`10d+36h`).

    Players and imported records go through here alike, so every stored clock starts at 1h
    to 60d, and a bank's bonus is at most its start.
    """
    compact = _UNIT_WORDS.sub(lambda unit: unit[0][0], text.lower().replace(" ", ""))
    pieces = compact.split("+")
    if len(pieces) > 2 or not all(_is_span(piece) for piece in pieces):
        raise MalformedError("time is a time per move like 3d or 12h, or a bank like 10d+36h, "
                             "not {text}", text=quote(text))
    control = time_control_of(compact)
    if not MIN_TIME <= control.start <= MAX_TIME:
        if control.is_bank:
            raise MalformedError("a bank starts with 1h to 60d")
        raise MalformedError("time per move is 1h to 60d")
    if control.bonus is not None and control.bonus > control.start:
        raise MalformedError("a bank's bonus is at most its start, like 10d+36h")
    return compact


def time_control_of(text: str) -> TimeControl:
    """The clock of a stored time control (checked by `parse_time_control` when it was set)."""
    start, _plus, bonus = text.partition("+")
    return TimeControl(_span(_PART.findall(start)),
                       _span(_PART.findall(bonus)) if _plus else None)


def _is_span(text: str) -> bool:
    parts = _PART.findall(text)
    return bool(parts) and "".join(n + u for n, u in parts) == text


def _span(parts: list[tuple[str, str]]) -> timedelta:
    # at most six digits a part, so even a long chain of parts stays far inside timedelta
    return timedelta(minutes=sum(int(number) * _MINUTES[unit] for number, unit in parts))


def describe_span(span: timedelta) -> Message:
    """`2d 3h`, `5h 20m`, `12m` — the time left, to the minute; `0m` once it has run out.
    A message, said in the reader's language (`2 T. 3 Std.`)."""
    minutes = max(0, int(span.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return message("{days}d {hours}h", days=days, hours=hours)
    if hours:
        return message("{hours}h {minutes}m", hours=hours, minutes=minutes)
    return message("{minutes}m", minutes=minutes)


@dataclass(frozen=True)
class ClockMarks:
    """The moments a clock acts on during one turn: the first reminder (None when it would
    not come before the last one), the last reminder, and the deadline."""

    first: datetime | None
    final: datetime
    due: datetime

    def next_after(self, moment: datetime) -> datetime | None:
        """The earliest mark later than `moment`; None once the deadline has passed."""
        return next((mark for mark in (self.first, self.final, self.due)
                     if mark is not None and mark > moment), None)

    @property
    def earliest(self) -> datetime:
        """The first mark of the turn: when its clock first needs a look."""
        return self.final if self.first is None else self.first


def clock_marks(turn_started: datetime, span: timedelta, reminder_hours: int, *,
                pauses: Pauses = NO_PAUSES) -> ClockMarks:
    """When a turn that began at `turn_started` with `span` on its clock (the time per move,
    or what is in the bank) is reminded and due, in clock time that stands still during
    `pauses`. Scaled to the time, so a short clock is reminded too: the first reminder after
    the server's `reminder_hours` or a third of the time, the last when half (at most a day)
    remains."""
    due = moment_after(turn_started, span, pauses)
    first = moment_after(turn_started, min(timedelta(hours=reminder_hours), span / 3), pauses)
    final = moment_after(turn_started, span - min(FINAL_WARNING, span / 2), pauses)
    return ClockMarks(first if first < final else None, final, due)
