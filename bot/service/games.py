"""Live games in memory: one lock per channel so its turns run one at a time, and a cache of
replayed games keyed by id and version so a turn need not replay the whole log.

The cache is only a shortcut: an entry is used only when its version equals the stored one,
so the log stays the truth. An entry also knows when the player to move got the turn, so
clocks need not read the log again after every commit. A cached game is never changed: a turn
is played on a copy that replaces it once stored, so readers (and worker threads drawing it)
only ever see committed state.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from weakref import WeakValueDictionary

from bot.service.banks import Stint
from rules import Game

CACHE_SIZE = 2048


@dataclass(frozen=True)
class LiveGame:
    """A stored game replayed to `version`, when its player to move got the turn, and the
    stints of the log before that (see `bot.service.banks`)."""

    version: int
    game: Game
    turn_started: datetime
    stints: tuple[Stint, ...] = ()


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
        self._games: OrderedDict[int, LiveGame] = OrderedDict()

    def get(self, game_id: int, version: int) -> LiveGame | None:
        entry = self._games.get(game_id)
        if entry is None or entry.version != version:
            return None
        self._games.move_to_end(game_id)
        return entry

    def put(self, game_id: int, live: LiveGame) -> None:
        self._games[game_id] = live
        self._games.move_to_end(game_id)
        while len(self._games) > self._size:
            self._games.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._games.pop(game_id, None)
