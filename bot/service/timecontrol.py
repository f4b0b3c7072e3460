"""Correspondence clocks: a time per move such as `3d` or `12h`, and when a move is due.

The rules know no clocks. A player's time runs from the moment the turn passed to them (the
last move, swap, privilege or takeback) until the move is due; deadlines are derived from the
stored log, so they survive any restart.
"""

from __future__ import annotations

import re
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
