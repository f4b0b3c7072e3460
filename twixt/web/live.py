"""Live pages: each game's open pages hear of every change to it, whoever made it.

The service says when games change (`TwixtService.following`: at once for a change made
in this process, within a second for one made in Discord, at the terminal table or by the
bot of another process over the same database); one standing follow holds every game that
has a live page, and each change is told for its own game alone. After a change the game's
views are made once for all its pages, from one reading of the game
(`TwixtService.game_views`): one view, and one event, for each seat and language among them
(a player's controls are theirs alone), made again only for the pages still behind the
game's version; one game's views are made one round at a time. Bounds: `MAX_PER_KEY` pages
of one player (a link's seat, the watchers of a game's link together, a Discord user),
`MAX_PER_GAME` pages of a game's watchers together (its players' pages are not counted
there: no number of watchers keeps a player's page out), and `MAX_PAGES` in all; a page that
cannot keep up misses versions, never the latest one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import asynccontextmanager, suppress
from typing import Protocol

log = logging.getLogger(__name__)

MAX_PER_GAME = 32
MAX_PER_KEY = 4
MAX_PAGES = 5000

class Follows(Protocol):
    """The service's standing follow of games (`changes.Following`)."""

    async def follow(self, game_id: int, version: int) -> None: ...

    def unfollow(self, game_id: int) -> None: ...

    def close(self) -> None: ...


#: the service's follow of games, each change told (game, its version now; None: gone)
StartFollowing = Callable[[Callable[[int, int | None], None]], Follows]
#: who sees a page's view: the seat (None: a watcher) and the language
SeenBy = tuple[int | None, str]
#: a game's events at a live version for some (seat, language): None when the game is gone
Events = Callable[[int, int, Collection[SeenBy]], Awaitable[dict[SeenBy, bytes] | None]]


class Page:
    """A live page: whose view it shows, the game's version it shows, and its next event to
    send (None: the game is gone). A newer event takes the place of one not yet sent: a page
    that cannot keep up misses versions, never the latest one."""

    def __init__(self, seen_by: SeenBy, shown: int) -> None:
        self.seen_by = seen_by
        self.shown = shown
        #: the event to send next, when there is one (at most one)
        self._next: list[bytes | None] = []
        self._woken: asyncio.Future[bool] | None = None

    def put(self, event: bytes | None) -> None:
        """The page's next event (a slow page misses the older one)."""
        self._next[:] = [event]
        self.wake()

    def wake(self, *_done: object) -> None:
        """End the page's `wait` now (an event came, or what ends the page happened: a
        done callback of its futures)."""
        if self._woken is not None and not self._woken.done():
            self._woken.set_result(True)

    async def wait(self, timeout: float | None = None) -> bool:
        """Until the page has an event to send, or is woken (True), or `timeout` seconds
        have passed (False): one future and at most one timer, not a task or a timeout
        scope a wait (a change sends the event to every page of its game)."""
        if self._next:
            return True
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[bool] = loop.create_future()
        self._woken = woken
        timer = None if timeout is None else loop.call_later(timeout, _time_up, woken)
        try:
            return await woken
        finally:
            self._woken = None
            if timer is not None:
                timer.cancel()

    def take(self) -> list[bytes | None]:
        """The event to send, if any (none, or one)."""
        taken, self._next = self._next, []
        return taken


def _time_up(woken: asyncio.Future[bool]) -> None:
    if not woken.done():
        woken.set_result(False)


class Full(Exception):
    """Too many live pages (of the game, or in all): the page is told to come back later."""


class Hub:
    """The live pages of every game, and the follower of their versions."""

    def __init__(self, following: StartFollowing, events: Events) -> None:
        self._following = following
        self._events = events
        self._pages: dict[int, set[Page]] = {}
        #: the games whose views are being made, each by its task
        self._making: dict[int, asyncio.Task[None]] = {}
        self._known: dict[int, int] = {}
        self._count = 0
        self._per_key: dict[str, int] = {}
        self._watching: dict[int, int] = {}
        self._follows: Follows | None = None

    @property
    def pages(self) -> int:
        return self._count

    @asynccontextmanager
    async def listen(self, game_id: int, version: int, key: str, seen_by: SeenBy, *,
                     seated: bool = False) -> AsyncIterator[Page]:
        """A page, whose events come for as long as it stays; `version` is the one it has
        shown, `key` who opened it, `seen_by` whose view it shows, `seated` whether a player
        of the game. Full when the bounds are reached."""
        watching = self._watching.get(game_id, 0)
        if ((not seated and watching >= MAX_PER_GAME) or self._count >= MAX_PAGES
                or self._per_key.get(key, 0) >= MAX_PER_KEY):
            raise Full
        pages = self._pages.setdefault(game_id, set())
        page = Page(seen_by, version)
        pages.add(page)
        self._count += 1
        self._per_key[key] = self._per_key.get(key, 0) + 1
        if not seated:
            self._watching[game_id] = watching + 1
        try:
            if game_id not in self._known:
                self._known[game_id] = version
                await self._follower().follow(game_id, version)
            yield page
        finally:
            pages.discard(page)
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
                if self._follows is not None:
                    self._follows.unfollow(game_id)

    def start(self) -> None:
        self._follower()

    def _follower(self) -> Follows:
        """The standing follow of the games with live pages (begun when first needed)."""
        if self._follows is None:
            self._follows = self._following(self._changed)
        return self._follows

    async def stop(self) -> None:
        for task in list(self._making.values()):
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        if self._follows is not None:
            self._follows.close()
            self._follows = None

    def _changed(self, game_id: int, version: int | None) -> None:
        if version is None:  # the game is gone: nothing more to follow
            self._known.pop(game_id, None)
        else:
            self._tell(game_id, version)

    def _tell(self, game_id: int, version: int) -> None:
        """The game's pages are sent their views of its new version (by the game's task
        making them, begun unless it runs)."""
        if game_id not in self._known:
            return
        self._known[game_id] = version
        if game_id not in self._making:
            self._making[game_id] = asyncio.get_running_loop().create_task(self._make(game_id))

    async def _make(self, game_id: int) -> None:
        """Each page of the game behind its version is sent its view, made once for each
        seat and language among them, round after round until none is behind (a page that
        opened meanwhile, or a change since, makes another round)."""
        try:
            while True:
                version = self._known.get(game_id)
                if version is None:
                    return
                behind = [page for page in self._pages.get(game_id, ()) if page.shown < version]
                if not behind:
                    return
                try:
                    events = await self._events(game_id, version,
                                               {page.seen_by for page in behind})
                except Exception:  # the pages hear of the game's next change
                    log.exception("a live game's views could not be made",
                                  extra={"game_id": game_id})
                    return
                for page in behind:
                    if events is None:
                        page.put(None)
                    elif (event := events.get(page.seen_by)) is not None:
                        page.shown = version
                        page.put(event)
                if events is None:
                    return
        finally:
            del self._making[game_id]
