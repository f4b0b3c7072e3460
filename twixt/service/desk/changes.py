"""Following games as they change: their live versions, and waiting (bounded) for the next.

A game's live version (`StoredGame.live_version`) grows with every change anyone can see:
a turn, an offer made or answered, its end. Whoever shows games waits for the versions after
the ones it shows (`Changes.next_changes`: one wait for many games, as the web board's live
pages do; `next_version` for one). A change made in this process is told at once (`told`, by
the desk, wherever it stores one, with the version it made); a change made elsewhere — another
process over the same database — is found by one watcher, which reads the live versions of
every game someone waits for once every `LOOK_EVERY` seconds, `CHUNK` games a statement, and
only while someone waits. The versions last told or read are kept for `LOOK_EVERY` seconds
(`_last`: as fresh as the watcher's looks), so that a wait ended by a change made here, and
the wait that follows it, read nothing more; a version told that another process has
overtaken meanwhile is put right by the watcher's next look. Bounds:
a wait lasts at most `MAX_WAIT` seconds and follows at most `MAX_FOLLOWED` games, and at
most `MAX_WAITING` waits run at once (more are refused in one line).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress

from twixt.service.errors import BusyError, LimitError

log = logging.getLogger(__name__)

#: the longest wait for a change (the waiter asks again afterwards)
MAX_WAIT = 60.0
#: the games one wait may follow
MAX_FOLLOWED = 10_000
#: waits at once, in all
MAX_WAITING = 10_000
#: the time between two looks at the stored versions of the games waited for
LOOK_EVERY = 1.0
#: the games whose versions one statement reads
CHUNK = 500

#: reads the live versions of some games (games not found left out)
VersionsOf = Callable[[Sequence[int]], Awaitable[dict[int, int]]]


class _Wait:
    """One wait: the versions its games had when it began, and the event that ends it."""

    def __init__(self, seen: Mapping[int, int]) -> None:
        self.seen = seen
        self.changed = asyncio.Event()


class Changes:
    """The waits for games to change, and the watcher that finds changes made elsewhere."""

    def __init__(self, versions_of: VersionsOf) -> None:
        self._versions_of = versions_of
        self._waits: dict[int, set[_Wait]] = {}
        #: the live versions last told or read, and when: used for `LOOK_EVERY` seconds
        self._last: dict[int, tuple[int, float]] = {}
        self._count = 0
        self._watcher: asyncio.Task[None] | None = None

    def told(self, game_id: int, version: int | None = None) -> None:
        """Game `game_id` changed in this process (to live version `version`, when known):
        its waits end now."""
        if version is None:
            self._last.pop(game_id, None)
        elif game_id in self._waits or game_id in self._last:
            self._last[game_id] = (version, asyncio.get_running_loop().time())
        for wait in self._waits.get(game_id, ()):
            wait.changed.set()

    async def versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The live versions of some games, in one statement a `CHUNK` (games not found
        left out)."""
        found: dict[int, int] = {}
        for start in range(0, len(game_ids), CHUNK):
            found.update(await self._versions_of(game_ids[start:start + CHUNK]))
        return found

    async def next_changes(self, seen: Mapping[int, int], timeout: float
                           ) -> dict[int, int | None]:
        """Wait until some of the games of `seen` (game → the live version shown) are at
        another version, or `timeout` seconds (at most `MAX_WAIT`) have passed; the games
        changed, each with its version now (None: it is gone), none after the time."""
        if len(seen) > MAX_FOLLOWED:
            raise LimitError("one wait follows at most {most} games", most=MAX_FOLLOWED)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(max(timeout, 0.0), MAX_WAIT)
        while True:
            current = await self._current(list(seen))
            changed = {game_id: current.get(game_id) for game_id, version in seen.items()
                       if current.get(game_id) != version}
            left = deadline - loop.time()
            if changed or left <= 0 or not seen:
                return changed
            await self._wait(seen, left)

    async def next_version(self, game_id: int, seen: int, timeout: float) -> int | None:
        """`next_changes` of one game: its version once it is no longer `seen`, or `seen`
        after `timeout`; None when there is no such game."""
        return (await self.next_changes({game_id: seen}, timeout)).get(game_id, seen)

    async def _current(self, game_ids: list[int]) -> dict[int, int]:
        """The games' live versions: as told or read in the last `LOOK_EVERY` seconds, else
        read (and kept)."""
        now = asyncio.get_running_loop().time()
        kept = {game_id: self._last[game_id][0] for game_id in game_ids
                if now - self._last.get(game_id, (0, -LOOK_EVERY))[1] < LOOK_EVERY}
        unknown = [game_id for game_id in game_ids if game_id not in kept]
        found = await self.versions(unknown) if unknown else {}
        self._keep(found, now)
        return {**found, **kept}

    def _keep(self, versions: dict[int, int], now: float) -> None:
        """Keep versions just read, and forget those kept too long to be used."""
        for game_id, (_version, at) in list(self._last.items()):
            if now - at >= LOOK_EVERY:
                del self._last[game_id]
        self._last.update((game_id, (version, now)) for game_id, version in versions.items())

    async def close(self) -> None:
        """Stop the watcher (the service closes); waits still running end at their time."""
        if self._watcher is not None:
            self._watcher.cancel()
            with suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None

    async def _wait(self, seen: Mapping[int, int], timeout: float) -> None:
        if self._count >= MAX_WAITING:
            raise BusyError("too many pages follow games now; try again in a minute")
        wait = _Wait(seen)
        for game_id in seen:
            self._waits.setdefault(game_id, set()).add(wait)
        self._count += 1
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
        try:
            with suppress(TimeoutError):
                await asyncio.wait_for(wait.changed.wait(), timeout)
        finally:
            self._count -= 1
            for game_id in seen:
                waits = self._waits.get(game_id)
                if waits is not None:
                    waits.discard(wait)
                    if not waits:
                        del self._waits[game_id]

    async def _watch(self) -> None:
        """While anyone waits: every `LOOK_EVERY` seconds, end the waits of each game whose
        stored live version is not the one they have seen (or which is gone)."""
        while self._waits:
            await asyncio.sleep(LOOK_EVERY)
            try:
                stored = await self.versions(list(self._waits))
            except Exception:  # the next look tries again; a wait only lasts longer
                log.exception("live versions could not be read")
                continue
            self._keep(stored, asyncio.get_running_loop().time())
            for game_id, waits in list(self._waits.items()):
                version = stored.get(game_id)
                if version is None:
                    self._last.pop(game_id, None)
                for wait in waits:
                    if wait.seen.get(game_id) != version:
                        wait.changed.set()
