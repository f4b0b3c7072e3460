"""Searches in worker processes, so that thinking never blocks the bot.

The engine is pure Python and busy for up to seconds a move: run in the event loop it would
stop every other game, and in a thread it would hold the interpreter's lock. So each search
runs in a process of a `ProcessPoolExecutor`, at most `workers` at once (the setting
`TWIXT_ENGINE_WORKERS`, by default the number of cores). Calls beyond that wait in a queue
that is served fairly: round robin over their owners (a player, a game), so that one owner
with many games cannot keep everyone else waiting. The queue is bounded: a call that finds it
full is refused at once (`EngineBusyError`), and its caller says "later" and tries again.

The pool holds nothing that must survive a restart: what is waiting for the bot is in
storage, and the bot asks again after a restart (see `bot_player`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

T = TypeVar("T")

#: calls that may wait for a worker (beyond those running), by default
QUEUE_LIMIT = 64


class EngineBusyError(Exception):
    """The queue is full: the caller tells the user the answer comes later."""


@dataclass(eq=False)  # a job is itself: two alike are still two calls
class _Job:
    function: Callable[..., Any]
    args: tuple[object, ...]
    future: asyncio.Future[Any] = field(repr=False)


def default_workers() -> int:
    """As many searches at once as the machine has cores."""
    return os.cpu_count() or 1


class EnginePool:
    """Runs picklable calls in worker processes: `workers` at once, the rest queued fairly
    (round robin over owners), at most `queue_limit` of them waiting."""

    def __init__(self, workers: int | None = None, queue_limit: int = QUEUE_LIMIT) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"an engine pool needs at least one worker, not {workers}")
        if queue_limit < 0:
            raise ValueError(f"a queue limit is 0 or more, not {queue_limit}")
        self.workers = workers or default_workers()
        self.queue_limit = queue_limit
        self._executor: ProcessPoolExecutor | None = None
        #: the waiting calls by owner; the owner served next is first
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._waiting = 0
        self._running = 0
        self._closed = False

    @property
    def running(self) -> int:
        """Calls running in a worker now."""
        return self._running

    @property
    def waiting(self) -> int:
        """Calls queued for a worker (not those running)."""
        return self._waiting

    async def run(self, owner: str, function: Callable[..., T], *args: object) -> T:
        """`function(*args)` in a worker process, once it is `owner`'s turn; its result.
        `EngineBusyError` at once when the queue is full."""
        if self._closed:
            raise EngineBusyError("the engine pool is closed")
        if self._running >= self.workers and self._waiting >= self.queue_limit:
            raise EngineBusyError(f"{self._waiting} searches are waiting already")
        job = _Job(function, args, asyncio.get_running_loop().create_future())
        self._queues.setdefault(owner, deque()).append(job)
        self._waiting += 1
        self._start_next()
        try:
            return cast(T, await asyncio.shield(job.future))
        except asyncio.CancelledError:
            self._forget(owner, job)
            raise

    async def close(self) -> None:
        """Refuse new calls, fail the waiting ones, and stop the workers: a search still
        running is waited for (at most its level's budget, or one analysis), its answer
        unheard — the game it was for stays marked, and is answered after the restart."""
        self._closed = True
        for queue in self._queues.values():
            for job in queue:
                if not job.future.done():
                    job.future.set_exception(EngineBusyError("the engine pool is closed"))
        self._queues.clear()
        self._waiting = 0
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    # --- internals ---------------------------------------------------------------------

    def _start_next(self) -> None:
        while self._running < self.workers and self._queues:
            owner, queue = self._queues.popitem(last=False)
            job = queue.popleft()
            if queue:  # the owner's other calls wait behind everyone else's
                self._queues[owner] = queue
            self._waiting -= 1
            self._submit(job)

    def _submit(self, job: _Job) -> None:
        try:
            done = asyncio.wrap_future(self._pool().submit(job.function, *job.args))
        except BrokenProcessPool as error:  # a worker died: a fresh pool for the next call
            self._executor = None
            job.future.set_exception(error)
            return
        self._running += 1
        done.add_done_callback(lambda finished: self._finished(job, finished))

    def _finished(self, job: _Job, finished: asyncio.Future[Any]) -> None:
        self._running -= 1
        if finished.cancelled():
            job.future.cancel()
        elif finished.exception() is not None:
            error = finished.exception()
            if isinstance(error, BrokenProcessPool):
                self._executor = None
            if not job.future.done():
                job.future.set_exception(cast(BaseException, error))
        elif not job.future.done():
            job.future.set_result(finished.result())
        if not self._closed:
            self._start_next()

    def _forget(self, owner: str, job: _Job) -> None:
        """A caller gave up waiting: its call leaves the queue (a running one finishes)."""
        queue = self._queues.get(owner)
        if queue is not None and job in queue:
            queue.remove(job)
            self._waiting -= 1
            if not queue:
                del self._queues[owner]

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawned, not forked: the bot's process has threads (the database's), and a
            # fork copies their locks in whatever state they are
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor
