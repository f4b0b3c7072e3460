"""Following a game as it changes: its live version, and waiting (bounded) for the next one.

A game's live version (`StoredGame.live_version`) grows with every change anyone can see:
a turn, an offer made or answered, its end. A page that shows a game waits for the version
after the one it shows (`Changes.next_version`). A change made in this process is told at
once (`told`, by the desk, wherever it stores one); a change made elsewhere — another process
over the same database — is found by one watcher, which reads the live versions of every game
someone waits for once every `LOOK_EVERY` seconds, `CHUNK` games a statement, and only while
someone waits. Bounds: a wait lasts at most `MAX_WAIT` seconds, and at most `MAX_WAITING`
waits run at once (more are refused in one line: the service is busy).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress

from twixt.service.model import ServiceError

log = logging.getLogger(__name__)

#: the longest wait for a change (a page asks again afterwards)
MAX_WAIT = 60.0
#: waits at once, in all
MAX_WAITING = 10_000
#: the time between two looks at the stored versions of the games waited for
LOOK_EVERY = 1.0
#: the games whose versions one statement reads
CHUNK = 500

#: reads the live versions of some games (games not found left out)
VersionsOf = Callable[[Sequence[int]], Awaitable[dict[int, int]]]


class _Waits:
    """The waits for one game: the versions they have seen, and the event that ends them."""

    def __init__(self) -> None:
        self.seen: Counter[int] = Counter()
        self.changed = asyncio.Event()


class Changes:
    """The waits for games to change, and the watcher that finds changes made elsewhere."""

    def __init__(self, versions_of: VersionsOf) -> None:
        self._versions_of = versions_of
        self._waits: dict[int, _Waits] = {}
        self._count = 0
        self._watcher: asyncio.Task[None] | None = None

    def told(self, game_id: int) -> None:
        """Game `game_id` changed in this process: its waits end now."""
        waits = self._waits.pop(game_id, None)
        if waits is not None:
            waits.changed.set()

    async def versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The live versions of some games, in one statement a `CHUNK`."""
        found: dict[int, int] = {}
        for start in range(0, len(game_ids), CHUNK):
            found.update(await self._versions_of(game_ids[start:start + CHUNK]))
        return found

    async def next_version(self, game_id: int, seen: int, timeout: float) -> int | None:
        """The game's live version once it is no longer `seen`, or as it is after `timeout`
        seconds (at most `MAX_WAIT`); None when there is no such game."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(max(timeout, 0.0), MAX_WAIT)
        while True:
            current = (await self._versions_of([game_id])).get(game_id)
            left = deadline - loop.time()
            if current is None or current != seen or left <= 0:
                return current
            await self._wait(game_id, seen, left)

    async def close(self) -> None:
        """Stop the watcher (the service closes); waits still running end at their time."""
        if self._watcher is not None:
            self._watcher.cancel()
            with suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None

    async def _wait(self, game_id: int, seen: int, timeout: float) -> None:
        if self._count >= MAX_WAITING:
            raise ServiceError("too many pages follow games now; try again in a minute")
        waits = self._waits.setdefault(game_id, _Waits())
        waits.seen[seen] += 1
        self._count += 1
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
        try:
            with suppress(TimeoutError):
                await asyncio.wait_for(waits.changed.wait(), timeout)
        finally:
            self._count -= 1
            waits.seen[seen] -= 1
            if not +waits.seen and self._waits.get(game_id) is waits:
                del self._waits[game_id]

    async def _watch(self) -> None:
        """While anyone waits: every `LOOK_EVERY` seconds, end the waits of each game whose
        stored live version is not the one they have seen."""
        while self._waits:
            await asyncio.sleep(LOOK_EVERY)
            try:
                stored = await self.versions(list(self._waits))
            except Exception:  # the next look tries again; a wait only lasts longer
                log.exception("live versions could not be read")
                continue
            for game_id, version in stored.items():
                waits = self._waits.get(game_id)
                if waits is not None and any(seen != version for seen in +waits.seen):
                    self.told(game_id)
