"""When a player's clock stands still, and how much clock time passes between two moments.

A clock runs except while its player is on vacation or, for a player who takes weekends off,
on Saturdays and Sundays (UTC, the same for everyone: the bot knows no one's time zone).
Deadlines and reminders are measured in this *charged* time and turned into moments on the
wall clock by `moment_after`; the time a turn used is `charged`.

Pure functions of their arguments, and bounded: they walk the pauses lazily from the start
and stop as soon as the answer is known, so the work is proportional to the weekends and
vacations inside the span they look at (a deadline at most 60 days of clock time away: a
few dozen weekends), never to how long ago something began.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

WEEK = timedelta(days=7)
#: a week's Saturday starts five days after its Monday, and the weekend ends with the week
_SATURDAY = timedelta(days=5)

Span = tuple[datetime, datetime]


@dataclass(frozen=True)
class Pauses:
    """When one player's clock stands still: `vacations` as (start, end) moments in any
    order (they may overlap), and every weekend (UTC) when `weekends_off` is set."""

    vacations: tuple[Span, ...] = ()
    weekends_off: bool = False

    def covering(self, moment: datetime) -> Span | None:
        """The pause the clock stands in at `moment` (merged with the pauses that touch it),
        or None while it runs."""
        for start, end in _paused_from(moment, self):
            return (start, end) if start <= moment else None
        return None

    def vacation_at(self, moment: datetime) -> bool:
        """Whether a vacation (not only a weekend) stops the clock at `moment`."""
        return any(start <= moment < end for start, end in self.vacations)


NO_PAUSES = Pauses()


def charged(start: datetime, end: datetime, pauses: Pauses,
            most: timedelta | None = None) -> timedelta:
    """The clock time between `start` and `end` (zero if `end` is not later): the wall time
    less the pauses in it. With `most`, at most that much — the walk stops there, so a span
    of years costs no more than the `most` it can matter for."""
    total = timedelta(0)
    cursor = start
    for pause_start, pause_end in _paused_from(start, pauses):
        if pause_start >= end:
            break
        total += max(pause_start - cursor, timedelta(0))
        if most is not None and total >= most:
            return most
        cursor = max(cursor, pause_end)
        if cursor >= end:
            return total if most is None else min(total, most)
    total += max(end - cursor, timedelta(0))
    return total if most is None else min(total, most)


def moment_after(start: datetime, amount: timedelta, pauses: Pauses) -> datetime:
    """When `amount` of clock time has passed since `start`: the last moment at which no
    more than that has passed, so a pause that begins just as the time is used up (an
    automatic vacation day at a deadline) still delays it."""
    remaining = max(amount, timedelta(0))
    cursor = start
    for pause_start, pause_end in _paused_from(start, pauses):
        running = max(pause_start - cursor, timedelta(0))
        if running > remaining:
            break
        remaining -= running
        cursor = max(cursor, pause_end)
    return cursor + remaining


def _paused_from(start: datetime, pauses: Pauses) -> Iterator[Span]:
    """The pauses that end after `start`, merged where they overlap or touch, in order.
    Endless when weekends are off; callers stop walking as soon as they know enough."""
    vacations = sorted(span for span in pauses.vacations if span[1] > start and span[0] < span[1])
    spans: Iterator[Span] = (heapq.merge(vacations, _weekends_from(start)) if pauses.weekends_off
                             else iter(vacations))
    current: Span | None = None
    for span_start, span_end in spans:
        if current is not None and span_start <= current[1]:
            current = (current[0], max(current[1], span_end))
            continue
        if current is not None:
            yield current
        current = (span_start, span_end)
    if current is not None:
        yield current


def _weekends_from(start: datetime) -> Iterator[Span]:
    """Every weekend (Saturday 00:00 to Monday 00:00 UTC) that ends after `start`."""
    day = start.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    monday = day - timedelta(days=day.weekday())
    while True:
        saturday = monday + _SATURDAY
        monday += WEEK
        if monday > start:
            yield saturday, monday
