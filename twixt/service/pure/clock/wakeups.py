"""The clocks' alarm: the dispatcher sleeps until the earliest stored wake-up, and a commit
that needs an earlier one rings it.

Storage keeps each clocked game's next wake-up (the earlier of its next reminder and its
deadline) in an indexed column, so the dispatcher only has to ask for the earliest one. What
it cannot see while it sleeps is a commit setting an earlier one; `wake_by` is how a commit
tells it. The rule is conservative: when in doubt (nothing planned yet, or an earlier time)
it rings, and a ring only costs one cheap tick.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime


class Alarm:
    """When the dispatcher means to wake next, and the tournament that wakes it sooner."""

    def __init__(self) -> None:
        self._rung = asyncio.Event()
        self._planned: datetime | None = None

    @property
    def planned(self) -> datetime | None:
        """When the dispatcher means to wake, while it sleeps; None otherwise."""
        return self._planned

    def wake_by(self, moment: datetime | None) -> None:
        """A commit set a game's wake-up to `moment`: ring unless the dispatcher already
        means to wake by then."""
        if moment is not None and (self._planned is None or moment < self._planned):
            self._rung.set()

    def forget(self) -> None:
        """The dispatcher is about to look again: until it plans, every wake-up rings."""
        self._planned = None
        self._rung.clear()

    async def sleep(self, until: datetime, seconds: float) -> None:
        """Sleep `seconds` (planned to wake at `until`), or less if a commit rings."""
        self._planned = until
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._rung.wait(), timeout=max(0.0, seconds))
        self._planned = None
