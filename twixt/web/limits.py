"""Rate limits: a token bucket per key (a player's seat, a Discord user, an address).

Buckets live in memory, at most `MAX_KEYS` of them: when more keys come, the fullest
(idlest) buckets are forgotten first, which only ever gives back a full bucket.
"""

from __future__ import annotations

import time
from collections.abc import Callable

MAX_KEYS = 20_000


class RateLimit:
    """`burst` requests at once, then `per_second` a second, for each key."""

    def __init__(self, per_second: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        """Take one request from `key`'s bucket; False when it is empty."""
        now = self._clock()
        tokens = self._tokens(key, now)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        if key not in self._buckets and len(self._buckets) >= MAX_KEYS:
            self._forget()
        self._buckets[key] = (tokens - 1, now)
        return True

    def has_room(self, key: str) -> bool:
        """Whether `key`'s bucket holds a request, without taking it."""
        return self._tokens(key, self._clock()) >= 1

    def _tokens(self, key: str, now: float) -> float:
        """What `key`'s bucket holds now, refilled since it was last used."""
        tokens, since = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - since) * self.per_second)

    def _forget(self) -> None:
        now = self._clock()
        full = [key for key in self._buckets if self._tokens(key, now) >= self.burst]
        for key in full or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[key]
