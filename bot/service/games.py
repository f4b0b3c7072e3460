"""Live games in memory: one lock per channel so its turns run one at a time, and a cache of
replayed games keyed by id and version so a turn need not replay the whole log.

The cache is only a shortcut: an entry is used only when its version equals the stored one,
so the log stays the truth.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from weakref import WeakValueDictionary

from rules import Game

CACHE_SIZE = 2048


class ChannelLocks:
    """An asyncio lock per channel, dropped once nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def __call__(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock


class GameCache:
    """The most recently used games, each at the version it was replayed or played to."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._games: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    def get(self, game_id: int, version: int) -> Game | None:
        entry = self._games.get(game_id)
        if entry is None or entry[0] != version:
            return None
        self._games.move_to_end(game_id)
        return entry[1]

    def put(self, game_id: int, version: int, game: Game) -> None:
        self._games[game_id] = (version, game)
        self._games.move_to_end(game_id)
        while len(self._games) > self._size:
            self._games.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._games.pop(game_id, None)
