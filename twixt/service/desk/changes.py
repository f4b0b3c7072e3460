"""Following games as they change: their live versions, and waiting (bounded) for the next.

A game's live version (`StoredGame.live_version`) grows with every change anyone can see:
a turn, an offer made or answered, its end. Whoever shows games waits for the versions after
the ones it shows (`Changes.next_changes`: one wait for many games; `next_version` for one),
or follows them for as long as it shows them (`Changes.following`, as the web board's live
pages do: each change is told to it for its own game, and no wait over every game followed
begins again after it). A change made in this process is told at once (`told`, by
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
#: told that a game followed is at another live version (None: it is gone)
OnChange = Callable[[int, int | None], None]


class _Wait:
    """One wait: the versions its games had when it began, and the event that ends it."""

    def __init__(self, seen: Mapping[int, int]) -> None:
        self.seen = seen
        self.changed = asyncio.Event()

    def heard(self, game_id: int, version: int | None) -> None:
        """One of its games changed: the wait ends (its waiter reads what changed)."""
        self.changed.set()


class Following:
    """A standing follow of some games (`Changes.following`): each change of one is told to
    `on_change` once, with the game's new version, so that a change costs its own game and
    not every game followed. `close` when done."""

    def __init__(self, changes: Changes, on_change: OnChange) -> None:
        self._changes = changes
        self._on_change = on_change
        #: game → the live version last told (or given to `follow`)
        self.seen: dict[int, int] = {}
        self._closed = False

    async def follow(self, game_id: int, version: int) -> None:
        """Follow game `game_id`, shown at `version`: told at once when it is already at
        another (a failed read leaves that to the watcher's next look)."""
        if game_id in self.seen:
            return
        if len(self.seen) >= MAX_FOLLOWED:
            raise LimitError("one wait follows at most {most} games", most=MAX_FOLLOWED)
        self.seen[game_id] = version
        self._changes._add(game_id, self)
        try:
            current = await self._changes._current([game_id])
        except Exception:  # the watcher looks again within `LOOK_EVERY` seconds
            log.exception("live versions could not be read")
            return
        self.heard(game_id, current.get(game_id))

    def unfollow(self, game_id: int) -> None:
        """Stop following game `game_id`."""
        if self.seen.pop(game_id, None) is not None:
            self._changes._remove(game_id, self)

    def close(self) -> None:
        """Stop following every game (once: a second close does nothing)."""
        if self._closed:
            return
        self._closed = True
        for game_id in list(self.seen):
            self.unfollow(game_id)
        self._changes._count -= 1

    def heard(self, game_id: int, version: int | None) -> None:
        """Game `game_id` is at `version` now (None: gone): told, unless already (or the
        version is older than one told: a read that a change overtook)."""
        seen = self.seen.get(game_id)
        if seen is None or (version is not None and version <= seen):
            return
        if version is None:
            self.unfollow(game_id)
        else:
            self.seen[game_id] = version
        self._on_change(game_id, version)


class Changes:
    """The waits for games to change, and the watcher that finds changes made elsewhere."""

    def __init__(self, versions_of: VersionsOf) -> None:
        self._versions_of = versions_of
        self._waits: dict[int, set[_Wait | Following]] = {}
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
        for wait in list(self._waits.get(game_id, ())):
            if version is not None or isinstance(wait, _Wait):
                wait.heard(game_id, version)
            # else: a following hears the version from the watcher's next look

    def following(self, on_change: OnChange) -> Following:
        """A standing follow of games (added with `Following.follow`), each change told to
        `on_change`: one of the `MAX_WAITING` waits until it is closed."""
        if self._count >= MAX_WAITING:
            raise BusyError("too many pages follow games now; try again in a minute")
        self._count += 1
        return Following(self, on_change)

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
            self._add(game_id, wait)
        self._count += 1
        try:
            with suppress(TimeoutError):
                await asyncio.wait_for(wait.changed.wait(), timeout)
        finally:
            self._count -= 1
            for game_id in seen:
                self._remove(game_id, wait)

    def _add(self, game_id: int, wait: _Wait | Following) -> None:
        """`wait` now hears of game `game_id`'s changes (the watcher runs)."""
        self._waits.setdefault(game_id, set()).add(wait)
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.get_running_loop().create_task(self._watch())

    def _remove(self, game_id: int, wait: _Wait | Following) -> None:
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
                for wait in list(waits):
                    if wait.seen.get(game_id) != version:
                        wait.heard(game_id, version)
