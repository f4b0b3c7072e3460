"""Live pages: each game's open pages hear of every change to it, whoever made it.

A change made through this server is told at once (`changed`). A change made elsewhere —
in Discord, at the terminal table, by the bot of another process over the same database — is
found by the watcher, which reads the stored versions of every game that has a live page
once a second, `CHUNK` games a statement (a thousand live games: two small reads a
second). Bounds: `MAX_PER_KEY` pages of one player (a link's seat, the watchers of a
game's link together, a Discord user), `MAX_PER_GAME` pages of a game's watchers together
(its players' pages are not counted there: no number of watchers keeps a player's page
out), and `MAX_PAGES` in all; a page that cannot keep up (its queue full) misses views,
never the latest one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress

log = logging.getLogger(__name__)

MAX_PER_GAME = 32
MAX_PER_KEY = 4
MAX_PAGES = 5000
#: the time between two looks at the live games' versions
LOOK_EVERY = 1.0
#: the games whose versions one statement reads
CHUNK = 500
#: views a page may have waiting before older ones are dropped
QUEUE = 4


class Full(Exception):
    """Too many live pages (of the game, or in all): the page is told to come back later."""


class Hub:
    """The live pages of every game, and the watcher of their versions.

    `versions_of(game_ids)` reads some games' stored versions; `view_of` builds a game's
    version and the JSON text sent to its pages (None when it cannot be read)."""

    def __init__(self, versions_of: Callable[[list[int]], Awaitable[dict[int, int]]],
                 view_of: Callable[[int], Awaitable[tuple[int, str] | None]]) -> None:
        self._versions_of = versions_of
        self._view_of = view_of
        self._pages: dict[int, set[asyncio.Queue[str]]] = {}
        self._known: dict[int, int] = {}
        self._count = 0
        self._per_key: dict[str, int] = {}
        self._watching: dict[int, int] = {}
        self._watcher: asyncio.Task[None] | None = None

    @property
    def pages(self) -> int:
        return self._count

    @asynccontextmanager
    async def listen(self, game_id: int, version: int, key: str, *, seated: bool = False
                     ) -> AsyncIterator[asyncio.Queue[str]]:
        """A page's queue of views of the game, for as long as the page stays; `version` is
        the one it has shown, `key` who opened it, `seated` whether a player of the game.
        Full when the bounds are reached."""
        watching = self._watching.get(game_id, 0)
        if ((not seated and watching >= MAX_PER_GAME) or self._count >= MAX_PAGES
                or self._per_key.get(key, 0) >= MAX_PER_KEY):
            raise Full
        pages = self._pages.setdefault(game_id, set())
        queue: asyncio.Queue[str] = asyncio.Queue(QUEUE)
        pages.add(queue)
        self._count += 1
        self._per_key[key] = self._per_key.get(key, 0) + 1
        if not seated:
            self._watching[game_id] = watching + 1
        self._known.setdefault(game_id, version)
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

    async def changed(self, game_id: int, version: int | None = None) -> None:
        """A game has changed (to `version`, when known): its pages get its new view, once
        for each version."""
        if game_id not in self._pages or (version is not None
                                          and self._known.get(game_id) == version):
            return
        found = await self._view_of(game_id)
        if found is None or game_id not in self._pages:
            return
        version, view = found
        if self._known.get(game_id, -1) >= version:
            return
        self._known[game_id] = version
        for queue in list(self._pages.get(game_id, ())):
            if queue.full():  # a slow page: the oldest view is the one it can miss
                queue.get_nowait()
            queue.put_nowait(view)

    def start(self) -> None:
        if self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(LOOK_EVERY)
            games = list(self._pages)
            for start in range(0, len(games), CHUNK):
                try:
                    versions = await self._versions_of(games[start:start + CHUNK])
                    for game_id, version in versions.items():
                        await self.changed(game_id, version)
                except Exception:  # the next look tries again; a page never sees it
                    log.exception("live games could not be read")
