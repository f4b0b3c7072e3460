"""Live pages: each game's open pages hear of every change to it, whoever made it.

The service says when games change (`TwixtService.next_changes`: at once for a change made
in this process, within a second for one made in Discord, at the terminal table or by the
bot of another process over the same database); one follower waits for every game that has a
live page, in one wait. A page is told the game's new live version and draws its own view
(its player's controls are theirs alone). Bounds: `MAX_PER_KEY` pages of one player (a
link's seat, the watchers of a game's link together, a Discord user), `MAX_PER_GAME` pages
of a game's watchers together (its players' pages are not counted there: no number of
watchers keeps a player's page out), and `MAX_PAGES` in all; a page that cannot keep up
misses versions, never the latest one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager, suppress

log = logging.getLogger(__name__)

MAX_PER_GAME = 32
MAX_PER_KEY = 4
MAX_PAGES = 5000
#: the longest one wait of the follower lasts (then it waits again)
FOLLOW_FOR = 30.0
#: the pause after the service could not say what changed, before asking again
AGAIN_AFTER = 1.0
#: versions a page may have waiting before older ones are dropped
QUEUE = 1

#: the service's wait for changes: game → version shown in, the games changed out
NextChanges = Callable[[Mapping[int, int], float], Awaitable[dict[int, int | None]]]


class Full(Exception):
    """Too many live pages (of the game, or in all): the page is told to come back later."""


class Hub:
    """The live pages of every game, and the follower of their versions."""

    def __init__(self, next_changes: NextChanges) -> None:
        self._next_changes = next_changes
        self._pages: dict[int, set[asyncio.Queue[int]]] = {}
        self._known: dict[int, int] = {}
        self._count = 0
        self._per_key: dict[str, int] = {}
        self._watching: dict[int, int] = {}
        self._joined = asyncio.Event()
        self._follower: asyncio.Task[None] | None = None

    @property
    def pages(self) -> int:
        return self._count

    @asynccontextmanager
    async def listen(self, game_id: int, version: int, key: str, *, seated: bool = False
                     ) -> AsyncIterator[asyncio.Queue[int]]:
        """A page's queue of the game's new live versions, for as long as the page stays;
        `version` is the one it has shown, `key` who opened it, `seated` whether a player of
        the game. Full when the bounds are reached."""
        watching = self._watching.get(game_id, 0)
        if ((not seated and watching >= MAX_PER_GAME) or self._count >= MAX_PAGES
                or self._per_key.get(key, 0) >= MAX_PER_KEY):
            raise Full
        pages = self._pages.setdefault(game_id, set())
        queue: asyncio.Queue[int] = asyncio.Queue(QUEUE)
        pages.add(queue)
        self._count += 1
        self._per_key[key] = self._per_key.get(key, 0) + 1
        if not seated:
            self._watching[game_id] = watching + 1
        if game_id not in self._known:
            self._known[game_id] = version
            self._joined.set()  # the follower's wait now includes this game
        try:
            yield queue
        finally:
            pages.discard(queue)
            self._count -= 1
            self._per_key[key] -= 1
            if not self._per_key[key]:
                del self._per_key[key]
            if not seated:
                self._watching[game_id] -= 1
                if not self._watching[game_id]:
                    del self._watching[game_id]
            if not pages:
                self._pages.pop(game_id, None)
                self._known.pop(game_id, None)

    def start(self) -> None:
        if self._follower is None:
            self._follower = asyncio.get_running_loop().create_task(self._follow())

    async def stop(self) -> None:
        if self._follower is not None:
            self._follower.cancel()
            with suppress(asyncio.CancelledError):
                await self._follower
            self._follower = None

    def _tell(self, game_id: int, version: int) -> None:
        """The game's pages hear of its new version (a slow page misses the older one)."""
        if game_id not in self._known:
            return
        self._known[game_id] = version
        for queue in list(self._pages.get(game_id, ())):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)

    async def _follow(self) -> None:
        """Wait for the games with live pages to change, all in one wait of the service's,
        begun again when a page opens on another game."""
        while True:
            self._joined.clear()
            if not self._known:
                await self._joined.wait()
                continue
            waiting = asyncio.ensure_future(self._next_changes(dict(self._known), FOLLOW_FOR))
            joined = asyncio.ensure_future(self._joined.wait())
            try:
                await asyncio.wait({waiting, joined}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                joined.cancel()
                if not waiting.done():
                    # let the service's wait end, without taking its cancellation for this
                    # task's own (the follower is stopped while it does so)
                    waiting.cancel()
                    await asyncio.wait({waiting})
            if waiting.cancelled():
                continue
            try:
                changed = waiting.result()
            except Exception:  # the next wait tries again; a page only hears later
                log.exception("live games could not be followed")
                await asyncio.sleep(AGAIN_AFTER)
                continue
            for game_id, version in changed.items():
                if version is None:  # the game is gone: nothing more to follow
                    self._known.pop(game_id, None)
                else:
                    self._tell(game_id, version)
