"""Correspondence clocks: a time per move such as `3d` or `12h`, and when a move is due.

The rules know no clocks. A player's time runs from the moment the turn passed to them (the
last move, swap, privilege or takeback) until the move is due; deadlines are derived from the
stored log, so they survive any restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.service.model import ServiceError
from language import Message, message
from rules import quote

#: a part of a time control: a few ASCII digits and a unit (a longer number is no time of ours)
_PART = re.compile(r"([0-9]{1,6})([dhm])")
_MINUTES = {"d": 24 * 60, "h": 60, "m": 1}
#: units as people write them (`3 days`, `1 hour`, `90 min`), each read as its first letter
_UNIT_WORDS = re.compile(r"(?<=[0-9])(days?|hours?|hrs?|minutes?|mins?)")
MIN_TIME = timedelta(hours=1)
MAX_TIME = timedelta(days=60)
#: the last reminder comes when this much (or half the time per move, if less) remains
FINAL_WARNING = timedelta(hours=24)


def parse_time_control(text: str) -> str:
    """Check a time per move (`3d`, `12h`, `1d12h`) and return it in a canonical form.

    Players and imported records go through here alike, so every stored clock is 1h to 60d.
    """
    compact = _UNIT_WORDS.sub(lambda unit: unit[0][0], text.lower().replace(" ", ""))
    parts = _PART.findall(compact)
    if not parts or "".join(n + u for n, u in parts) != compact:
        raise ServiceError("time is a time per move like 3d or 12h, not {text}", text=quote(text))
    if not MIN_TIME <= _span(parts) <= MAX_TIME:
        raise ServiceError("time per move is 1h to 60d")
    return compact


def time_per_move(text: str) -> timedelta:
    """The span of a stored time control (checked by `parse_time_control` when it was set)."""
    return _span(_PART.findall(text))


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


def due_at(turn_started: datetime, time_control: str) -> datetime:
    return turn_started + time_per_move(time_control)


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


def clock_marks(turn_started: datetime, time_control: str, reminder_hours: int) -> ClockMarks:
    """When a turn that began at `turn_started` is reminded and due. Scaled to the time per
    move, so a short clock is reminded too: the first reminder after the server's
    `reminder_hours` or a third of the time, the last when half (at most a day) remains."""
    span = time_per_move(time_control)
    due = turn_started + span
    first = turn_started + min(timedelta(hours=reminder_hours), span / 3)
    final = due - min(FINAL_WARNING, span / 2)
    return ClockMarks(first if first < final else None, final, due)
