"""Searches in worker processes, so that thinking never blocks the bot.

The engine is busy for up to seconds a move: run in the event loop it would stop every other
game, and in a thread its Python fallback would hold the interpreter's lock. So each search
runs in a process of a `ProcessPoolExecutor`, at most `workers` at once (the setting
`TWIXT_ENGINE_WORKERS`, by default the number of cores). Calls beyond that wait in a queue
that is served fairly over their owners (a player): a free worker goes to the owner with the
fewest searches running, round robin among equals, so that one player with many games waits
behind everyone else's, and another player's call takes the first worker that frees up. The
queue is bounded: a call that finds it full is refused at once (`EngineBusyError`), and its
caller says "later" and tries again.

A call may tell its caller how far it has come (`run`'s `progress`: an analysis's move n of
N). Every worker writes to one pipe, given to it when it starts, and the event loop reads it:
no thread, and no lock a killed worker could leave held (a message is a few bytes, which a
pipe writes at once, so two workers' messages never interleave). What runs in a worker (its
start, the progress it tells) lives in `twixt.engine.worker`, which a spawned worker imports
instead of the whole service.

The pool holds nothing that must survive a restart: what is waiting for the bot is in
storage, and the bot asks again after a restart (see `bot_player`). So closing it abandons
the searches under way (their workers are ended, not waited for: a stop must be quick), and
the workers end by themselves when the process that started them dies, however it died.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

from twixt.engine import DESCRIPTION

if TYPE_CHECKING:  # the analysis (and what it imports) is loaded by a worker, not here;
    # the processes' modules by the first call (`twixt web` answers without them)
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.connection import Connection

    from twixt.engine.analysis import Progress

T = TypeVar("T")

#: which core the workers search with, in one line (`twixt run` logs it at start)
ENGINE_CORE = DESCRIPTION

#: calls that may wait for a worker (beyond those running), by default
QUEUE_LIMIT = 64


class EngineBusyError(Exception):
    """The queue is full: the caller tells the user the answer comes later."""


@dataclass(eq=False)  # a job is itself: two alike are still two calls
class _Job:
    owner: str
    function: Callable[..., Any]
    args: tuple[object, ...]
    future: asyncio.Future[Any] = field(repr=False)
    #: the key its progress comes back with (None: not asked for)
    key: int | None = None


def player_owner(user_id: int) -> str:
    """The owner a player's calls share, whatever they are for (the bot's moves in their
    games, their analyses), so that the pool serves one player fairly against the others."""
    return f"user:{user_id}"


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
        #: the waiting calls by owner; among owners with as many running, the first is next
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._waiting = 0
        #: the calls running in a worker, and how many of them each owner has
        self._started: set[_Job] = set()
        self._running_of: Counter[str] = Counter()
        self._closed = False
        #: the pipe the workers tell progress through (reading end, writing end), once a
        #: worker is started; whom to tell, by the calls' keys
        self._pipe: tuple[Connection, Connection] | None = None
        self._listeners: dict[int, Progress] = {}
        self._keys = itertools.count()

    @property
    def running(self) -> int:
        """Calls running in a worker now."""
        return len(self._started)

    @property
    def waiting(self) -> int:
        """Calls queued for a worker (not those running)."""
        return self._waiting

    async def run(self, owner: str, function: Callable[..., T], *args: object,
                  progress: Progress | None = None) -> T:
        """`function(*args)` in a worker process, once it is `owner`'s turn; its result.
        `EngineBusyError` at once when the queue is full. With `progress`, the function is
        given a keyword `progress` to call with (done, in all) as it goes on, and each call
        reaches `progress` here, in the event loop, until the result does."""
        if self._closed:
            raise EngineBusyError("the engine pool is closed")
        if self.running >= self.workers and self._waiting >= self.queue_limit:
            raise EngineBusyError(f"{self._waiting} searches are waiting already")
        job = _Job(owner, function, args, asyncio.get_running_loop().create_future())
        if progress is not None:
            job.key = next(self._keys)
            self._listeners[job.key] = progress
        self._queues.setdefault(owner, deque()).append(job)
        self._waiting += 1
        self._start_next()
        try:
            return cast(T, await asyncio.shield(job.future))
        except asyncio.CancelledError:
            self._forget(owner, job)
            raise

    async def close(self) -> None:
        """Refuse new calls, fail the waiting and the running ones (`EngineBusyError`), and
        end the workers at once: a search under way is abandoned, not waited for (a level-5
        search or an analysis outlasts the 10 s `docker stop` gives) — the game it was for
        stays marked in storage, and is answered after the restart."""
        self._closed = True
        for job in [*self._started, *(job for queue in self._queues.values() for job in queue)]:
            if not job.future.done():
                job.future.set_exception(EngineBusyError("the engine pool is closed"))
        self._queues.clear()
        self._waiting = 0
        self._listeners.clear()
        if self._executor is not None:
            executor, self._executor = self._executor, None
            for process in list((executor._processes or {}).values()):
                process.terminate()
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        if self._pipe is not None:
            (reading, writing), self._pipe = self._pipe, None
            asyncio.get_running_loop().remove_reader(reading.fileno())
            reading.close()
            writing.close()

    # --- internals ---------------------------------------------------------------------

    def _start_next(self) -> None:
        while self.running < self.workers and self._queues:
            # the owner with the fewest calls running; `min` keeps the first of equals
            owner = min(self._queues, key=lambda waiting: self._running_of[waiting])
            queue = self._queues.pop(owner)
            job = queue.popleft()
            if queue:  # the owner's other calls wait behind everyone else's
                self._queues[owner] = queue
            self._waiting -= 1
            self._submit(job)

    def _submit(self, job: _Job) -> None:
        from twixt.engine.worker import reporting  # with the pool: none is made before a search

        try:
            call = (self._pool().submit(job.function, *job.args) if job.key is None
                    else self._pool().submit(reporting, job.key, job.function, job.args))
            done = asyncio.wrap_future(call)
        except BrokenExecutor as error:  # a worker died (a BrokenProcessPool): a fresh pool
            self._executor = None
            job.future.set_exception(error)
            return
        self._started.add(job)
        self._running_of[job.owner] += 1
        done.add_done_callback(lambda finished: self._finished(job, finished))

    def _finished(self, job: _Job, finished: asyncio.Future[Any]) -> None:
        self._started.discard(job)
        self._read_progress()  # what the call told before it ended, then no more
        if job.key is not None:
            self._listeners.pop(job.key, None)
        self._running_of[job.owner] -= 1
        if not self._running_of[job.owner]:
            del self._running_of[job.owner]
        if finished.cancelled():
            job.future.cancel()
        elif finished.exception() is not None:
            error = finished.exception()
            if isinstance(error, BrokenExecutor):
                self._executor = None
            if not job.future.done():
                job.future.set_exception(cast(BaseException, error))
        elif not job.future.done():
            job.future.set_result(finished.result())
        if not self._closed:
            self._start_next()

    def _forget(self, owner: str, job: _Job) -> None:
        """A caller gave up waiting: its call leaves the queue (a running one finishes,
        unheard: its future is cancelled, so that no answer or failure waits for a reader)."""
        job.future.cancel()
        if job.key is not None:
            self._listeners.pop(job.key, None)
        queue = self._queues.get(owner)
        if queue is not None and job in queue:
            queue.remove(job)
            self._waiting -= 1
            if not queue:
                del self._queues[owner]

    def _read_progress(self) -> None:
        """Hand what the workers told so far to whoever asked (a call already answered or
        given up is not told any more)."""
        if self._pipe is None:
            return
        reading = self._pipe[0]
        while reading.poll():
            key, done, total = reading.recv()
            listener = self._listeners.get(key)
            if listener is not None:
                listener(done, total)

    def _pool(self) -> ProcessPoolExecutor:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from twixt.engine.worker import start_worker

        context = multiprocessing.get_context("spawn")
        if self._pipe is None:
            self._pipe = context.Pipe(duplex=False)
            asyncio.get_running_loop().add_reader(self._pipe[0].fileno(), self._read_progress)
        if self._executor is None:
            # spawned, not forked: the bot's process has threads (the database's), and a
            # fork copies their locks in whatever state they are
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context,
                initializer=start_worker, initargs=(os.getpid(), self._pipe[1]))
        return self._executor
