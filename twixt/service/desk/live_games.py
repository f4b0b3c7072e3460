"""Live games in memory: one lock per channel so its turns run one at a time, and a cache of
replayed games keyed by id and version so a turn need not replay the whole log.

The cache is only a shortcut: an entry is used only when its version equals the stored one,
so the log stays the truth. An entry also knows when the player to move got the turn, so
clocks need not read the log again after every commit. A cached game is never changed: a turn
is played on a copy that replaces it once stored, so readers (and worker threads drawing it)
only ever see committed state.

The cache is bounded by what it holds, not by how many games: a 48×48 game of 2,500 turns
weighs a hundred times a fresh 24×24 one. Each entry is weighed by `estimate` (an upper bound
measured with tracemalloc, see `benchmarks/cache_bench.py`), and the least recently used go
once the whole weighs more than `CACHE_BUDGET`.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from weakref import WeakValueDictionary

from twixt.rules import Game
from twixt.service.pure.clock.banks import Stint
from twixt.storage import StoredGame, UserPrefs

#: what the cached games may weigh together, by `estimate`
CACHE_BUDGET = 256 * 1024 * 1024
#: an upper bound of what a cached game holds, measured (`benchmarks/cache_bench.py`): a hole
#: of its board (its position's tables), a turn of its history (a peg and its links, or a
#: removal and the peg put back, with its clock stint), and the game itself
HOLE_BYTES, TURN_BYTES, GAME_BYTES = 100, 2500, 8 * 1024


@dataclass(frozen=True)
class LiveGame:
    """A stored game replayed to `version`, when its player to move got the turn, and the
    stints of the log before that (see `twixt.service.pure.clock.banks`)."""

    version: int
    game: Game
    turn_started: datetime
    stints: tuple[Stint, ...] = ()
    #: the stored game as this process wrote it with the turn that made `version` (None:
    #: replayed from what was read), so that the views of a turn just played need not read
    #: it again (`Desk.written`)
    written: StoredGame | None = None
    #: the players' preferences the turn that made `version` read as it was prepared (its
    #: auto-link), which its views show them in: not read again a moment later
    #: (`Desk.written_prefs`)
    shown: Mapping[int, UserPrefs] | None = None


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


def estimate(game: Game) -> int:
    """The bytes a cached game holds at most: its board's holes, its turns, and itself."""
    opts = game.options
    holes = opts.cols * (opts.rows + opts.handicap)
    return GAME_BYTES + HOLE_BYTES * holes + TURN_BYTES * len(game.history)


class GameCache:
    """The most recently used games, each at the version it was replayed or played to, that
    together weigh at most `budget` bytes (`estimate`); a game heavier than that is not kept."""

    def __init__(self, budget: int = CACHE_BUDGET) -> None:
        self._budget = budget
        self._games: OrderedDict[int, tuple[LiveGame, int]] = OrderedDict()
        #: what the games held weigh together
        self.weight = 0

    def __len__(self) -> int:
        return len(self._games)

    def get(self, game_id: int, version: int) -> LiveGame | None:
        entry = self._games.get(game_id)
        if entry is None or entry[0].version != version:
            return None
        self._games.move_to_end(game_id)
        return entry[0]

    def written(self, game_id: int, live_version: int) -> StoredGame | None:
        """The stored game as this process wrote it, when it is still at `live_version`
        (no turn, offer or end since, by anyone: each moves the live version on)."""
        written = self.last_written(game_id)
        return written if written is not None and written.live_version == live_version else None

    def written_prefs(self, game_id: int, live_version: int) -> Mapping[int, UserPrefs]:
        """The players' preferences the turn this process wrote read (`LiveGame.shown`),
        when the game is still at `live_version`; none else."""
        entry = self._games.get(game_id)
        if entry is None or entry[0].written is None or entry[0].shown is None:
            return {}
        return entry[0].shown if entry[0].written.live_version == live_version else {}

    def last_written(self, game_id: int) -> StoredGame | None:
        """The stored game as this process last wrote it, current or not (`written` says
        whether it still is)."""
        entry = self._games.get(game_id)
        return None if entry is None else entry[0].written

    def put(self, game_id: int, live: LiveGame) -> None:
        self.drop(game_id)
        weight = estimate(live.game)
        if weight > self._budget:
            return
        self._games[game_id] = (live, weight)
        self.weight += weight
        while self.weight > self._budget:
            _oldest, (_live, dropped) = self._games.popitem(last=False)
            self.weight -= dropped

    def drop(self, game_id: int) -> None:
        entry = self._games.pop(game_id, None)
        if entry is not None:
            self.weight -= entry[1]
