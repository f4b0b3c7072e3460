"""What an engine worker process runs: its start, the calls that tell their progress, and the
analysis of a game sent as a record.

The bot's engine pool (`twixt.service.desk.engine_pool`) spawns its workers, and a spawned
process imports the module of every function it is handed. Kept here, beside the engine and
on the rules alone, a worker loads the engine and no more: held in the service, each worker
imported the whole service (storage, rendering, the words) before its first search, about
0.3 s of CPU a worker that the bot paid at each start and after each restart of its pool.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, TypeVar

from twixt.rules import records

if TYPE_CHECKING:  # the analysis (and numpy) is loaded by a call that needs it
    from twixt.engine.analysis import GameAnalysis, Progress

T = TypeVar("T")

#: how often a worker looks whether the process that started it is still there (seconds)
PARENT_CHECK = 0.25

#: in a worker: the pipe's writing end, where a call tells its progress (`start_worker`)
_told_through: Connection | None = None


def start_worker(parent: int, told_through: Connection) -> None:
    """First thing in each worker: keep the pipe its calls tell their progress through, leave
    Ctrl-C to the parent (which closes the pool), and end when the parent is gone. A worker
    waits for calls on a queue whose pipe it holds both ends of, so it would never notice
    its parent's death by itself: after a SIGKILL of the bot or of `twixt play` it would
    search on and then wait forever, and keep multiprocessing's resource tracker alive with
    it."""
    global _told_through
    _told_through = told_through
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with_parent, args=(parent,), name="parent-watch",
                     daemon=True).start()


def _end_with_parent(parent: int) -> None:
    """When the parent dies the worker is handed to another process (init, or a container's
    init): its parent id changes, and the worker ends at once, mid-search or not."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(1)


def reporting(key: int, function: Callable[..., T], args: tuple[object, ...]) -> T:
    """In a worker: `function(*args, progress=...)`, each (done, in all) it tells written to
    the parent's pipe with the call's `key`."""
    pipe = _told_through
    assert pipe is not None, "a worker's pipe is set when it starts"

    def tell(done: int, total: int) -> None:
        pipe.send((key, done, total))

    return function(*args, progress=tell)


def analyze_record(record: str, seed: int = 0, *,
                   progress: Progress | None = None) -> GameAnalysis:
    """The analysis of a game given as a transcript, with the engine's default budget for the
    core that searches (`engine.analysis.default_limit`: node counts, so the same every run;
    at most about `engine.analysis.FULL_POSITIONS` searches): what a worker process runs (a
    record is plain text, cheaper to send than a game); `progress` is told after each move."""
    from twixt.engine.analysis import analyze_game, default_limit

    game = records.read(record)
    return analyze_game(game, default_limit(game), seed=seed, progress=progress)
