"""Group commit for SQLite: the writes that arrive together share one transaction and one fsync.

One writer task owns the write connection. A write queues and waits; the writer opens one
transaction (BEGIN IMMEDIATE) for everything waiting, then gives each write in turn, in arrival
order, a savepoint of its own. A write comes in one of two forms:
- a block (`GroupCommit.transaction()`): the writer hands the connection over and waits while
  the caller runs its statements (three hand-overs between tasks: any code fits in the block);
- a job (`GroupCommit.run(work)`): a coroutine function of the connection, which the writer
  runs itself, so that its caller is woken once, when the commit has returned;
- a job of a kind (`GroupCommit.run_alike(kind, item)`), which the writer runs together with
  the jobs of the same kind queued right behind it, in one savepoint: `Alike.together` writes
  all their items at once (a turn, the write there are most of, is one: with a thousand games,
  a turn's own savepoint and coroutines cost more than its two statements). If that raises,
  or says that not all of them can land, their savepoint is rolled back and each is run on its
  own (`Alike.alone`), in a savepoint of its own, as a job is.
A write whose work raises (a stale version, a finished game, any error) has its savepoint rolled
back, and only it: the others' work stays. When nothing more is waiting, or `MAX_BATCH` writes
are in, the writer commits, and only when COMMIT has returned (with synchronous=FULL: fsynced)
does any caller go on. Acknowledged therefore still means durable, one turn or two hundred in
the fsync.

Statements run at once on the event loop's thread (`InlineConnection`): inside a transaction
that already holds SQLite's write lock they neither wait for a lock nor sync, and take a few
microseconds, less than a hop to a worker thread. BEGIN IMMEDIATE too, when SQLite's write lock
is free (the usual case: the writer is the file's one writer); when another process holds it,
BEGIN waits for it on a thread, up to busy_timeout. COMMIT (the fsync, a checkpoint) always
runs on the thread, and the loop's thread lets the thread into it before going on
(`InlineConnection.commit`: else the thread would wait for the GIL until the callers had run). So
once a commit has returned, the writer begins the next batch and writes it before the callers it
has just acknowledged run: they run while that batch's COMMIT writes and syncs, and the writes
they send make up the batch after it.

A kind's jobs that open their transaction (the usual case for turns: a batch of nothing else)
run with no savepoint: SQLite copies each page a savepoint's statements change first into a
journal of its own (half of a turn's INSERT, measured), and what a savepoint would undo there
the transaction's ROLLBACK undoes, before BEGIN again and each job alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import sys
import threading
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import aiosqlite

MAX_BATCH = 256
"""The most writes one transaction takes, so that no batch (and no wait) is unbounded."""

_log = logging.getLogger(__name__)

T = TypeVar("T")
Item = TypeVar("Item")


class InlineConnection(aiosqlite.Connection):
    """An aiosqlite connection whose statements run on the calling (event loop) thread.

    It keeps aiosqlite's interface, so the same query helpers serve it and the reader;
    aiosqlite's thread only opens the file; COMMIT and a BEGIN that waits for another process's
    lock run on a thread of its own. Only the group-commit writer may use it, and only one task
    at a time. (It overrides aiosqlite's `_execute`, the one method every statement and fetch
    goes through.)
    """

    def __init__(self, connector: Callable[[], sqlite3.Connection],
                 busy_timeout_ms: int) -> None:
        super().__init__(connector, 64)
        # a thread of its own for what may wait: no board rendering queues ahead of a COMMIT
        self._waits = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        #: how long BEGIN waits for another process's write lock, on the thread (`begin`);
        #: the connection's own busy_timeout is 0, so that nothing waits on the loop's thread
        self._busy_timeout_ms = int(busy_timeout_ms)

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    @property
    def raw(self) -> sqlite3.Connection:
        return self._conn

    async def commit(self) -> None:
        """COMMIT (the fsync) on the thread, started before the loop's thread goes on.

        The thread needs the GIL to start the COMMIT, and the loop's thread, going on to the
        callers just acknowledged, would hold it until it next waits or for the interpreter's
        switch interval (5 ms): the COMMIT would start after them, where it can run beside them
        (SQLite lets go of the GIL while it writes and syncs). So the loop's thread waits on a
        lock, which lets go of the GIL, until the thread is in the COMMIT: a thread's wake-up,
        at most one switch interval.
        """
        started = threading.Lock()
        started.acquire()

        def commit() -> None:
            started.release()
            self._conn.execute("COMMIT")

        committed = asyncio.get_running_loop().run_in_executor(self._waits, commit)
        started.acquire(timeout=sys.getswitchinterval())
        await committed

    async def begin(self) -> None:
        """BEGIN IMMEDIATE: at once when SQLite's write lock is free (returning without
        letting any other task run), else on the thread, waiting up to busy_timeout."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
        await asyncio.get_running_loop().run_in_executor(self._waits, self._begin_waiting)

    def _begin_waiting(self) -> None:
        raw = self._conn
        raw.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
        try:
            raw.execute("BEGIN IMMEDIATE")
        finally:
            raw.execute("PRAGMA busy_timeout = 0")

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            self._waits.shutdown()


async def connect_inline(path: Path, busy_timeout_ms: int = 5000) -> InlineConnection:
    """The writer's connection: busy_timeout 0 (only `begin` waits, on the thread), and
    savepoints' journals in memory (`temp_store`), never spilled to a file."""
    def connector() -> sqlite3.Connection:
        raw = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        for pragma in ("busy_timeout = 0", "temp_store = MEMORY"):
            raw.execute(f"PRAGMA {pragma}")
        return raw

    db = InlineConnection(connector, busy_timeout_ms)
    await db  # starts its thread and opens the file there
    return db


class _Ticket:
    """One queued block (`GroupCommit.transaction`) and its three hand-overs."""

    __slots__ = ("committed", "done", "go")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        # writer -> caller: your savepoint is open, go (or: the transaction could not begin)
        self.go: asyncio.Future[None] = loop.create_future()
        # caller -> writer: the work is done (None) or raised (the error)
        self.done: asyncio.Future[BaseException | None] = loop.create_future()
        # writer -> caller: the COMMIT returned (None) or failed
        self.committed: asyncio.Future[None] = loop.create_future()


@dataclass(frozen=True, eq=False)
class Alike(Generic[Item, T]):
    """A kind of job that the writer runs together with those of its kind queued behind it
    (`GroupCommit.run_alike`), each job an item.

    `together` runs statements for all the items at once, with nothing to wait for (it runs
    on the event loop's thread), and returns each item's result in order; or None, when not
    every item can land as it is (a stale version, say): then, as when it raises, what it did
    is undone and each item is run by `alone`, in a savepoint of its own, which says why.
    """

    together: Callable[[list[Item]], list[T] | None]
    alone: Callable[[Item], Awaitable[T]]


_Job = tuple["asyncio.Future[Any]", "Alike[Any, Any] | None", Any]
"""One queued job: the future its caller awaits (done once the COMMIT returned: the work's
result, or why it did not land), its kind (None: the item is the work, a coroutine function;
`GroupCommit.run`) and its item (`GroupCommit.run_alike`). A plain tuple and an exact Future,
and no coroutine between them and the caller: a turn's wait is the most frequent of all."""


_Taken = tuple[_Ticket | _Job, Any, BaseException | None]
"""A write taken into a batch, its job's result, and its own error (its work alone undone)."""


def _settle(future: asyncio.Future[Any], result: Any = None,
            error: BaseException | None = None) -> None:
    if future.done():
        return
    if isinstance(error, asyncio.CancelledError):
        future.cancel()
    elif error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


async def _settled(committed: asyncio.Future[None]) -> None:
    """Wait for the commit of a write whose work is in the batch.

    Cancelled meanwhile, it still waits: the write's fate is the commit's, and a caller that
    goes on must find it settled (landed or not), as when every write had its own commit.
    """
    try:
        await asyncio.shield(committed)
    except asyncio.CancelledError:
        if not committed.done():
            await asyncio.wait([committed])  # a second cancel stops this wait
        if not committed.cancelled():
            committed.exception()  # seen: the cancel is what the caller gets
        raise


class GroupCommit:
    """The writer task and its queue; see the module's docstring."""

    def __init__(self, db: InlineConnection, *, max_batch: int = MAX_BATCH,
                 before_commit: Callable[[], None] = lambda: None,
                 failed: Callable[[Exception], None] = lambda error: None) -> None:
        self._db = db
        self._max_batch = max_batch
        #: raises when the batch must not be committed after all (then nothing of it is)
        self._before_commit = before_commit
        #: called with a job's error before its caller hears it: raises the back end's own
        #: error for it, if it has one (its caller then hears that instead)
        self._failed = failed
        self._queue: deque[_Ticket | _Job] = deque()
        #: while the writer waits for a write (nothing queued): done to wake it
        self._waking: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None
        #: the batch under way's: done once it is committed or lost (`settled`)
        self._under_way: asyncio.Future[None] | None = None
        self._closed = False
        self.batches = 0
        """Transactions committed (or tried): with `writes`, how well writes were grouped."""
        self.writes = 0

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[InlineConnection]:
        """Run the body as one write, in its own savepoint of a shared transaction.

        Returns once the transaction is committed. If the body raises, its work alone is
        undone, and the error is raised once the others' work is committed (so that what beat
        it is there to be read).
        """
        self._enqueue()
        ticket = _Ticket(asyncio.get_running_loop())
        self._queue.append(ticket)
        try:
            await ticket.go
        except BaseException as error:
            _settle(ticket.done, error)  # granted after all (cancelled late): let it go by
            raise
        try:
            yield self._db
        except BaseException as error:
            ticket.done.set_result(error)
            if not isinstance(error, asyncio.CancelledError):
                with contextlib.suppress(Exception):  # its own error says more
                    await ticket.committed
            raise
        ticket.done.set_result(None)
        await _settled(ticket.committed)

    async def run(self, work: Callable[[], Awaitable[T]]) -> T:
        """Have the writer run `work` as one write, in its own savepoint of a shared
        transaction; its result once the transaction is committed.

        The work must only run statements on the writer's connection (the writer and every
        write behind it wait for it).
        If it raises, its work alone is undone, and its error is raised once the others' work
        is committed. Cancelled while queued, it is skipped; cancelled once the writer has
        taken it, the call still returns only when the write has landed or not (as a block
        does).
        """
        outcome: asyncio.Future[T] = self._queued(None, work)
        try:
            return await outcome
        except asyncio.CancelledError:
            await self.settled()
            raise

    def run_alike(self, kind: Alike[Item, T], item: Item) -> asyncio.Future[T]:
        """As `run`, for an item of a kind of job that the writer runs together with the
        others of its kind queued right behind it (`Alike`): the future its caller awaits.

        A caller cancelled while awaiting it must then await `settled` before it goes on, so
        that it finds its write landed or not (`run` does). (No coroutine between the caller
        and its answer: a turn's wait, the most frequent of all.)
        """
        return self._queued(kind, item)

    async def settled(self) -> None:
        """Return once the batch under way, if any, is committed or lost: where a write whose
        caller was cancelled meanwhile is settled (the writer skips one still queued). A
        second cancel stops this wait."""
        batch = self._under_way
        if batch is not None and not batch.done():
            await asyncio.wait([batch])

    def _queued(self, kind: Alike[Any, T] | None, item: Any) -> asyncio.Future[T]:
        self._enqueue()
        outcome: asyncio.Future[T] = asyncio.Future()
        self._queue.append((outcome, kind, item))
        return outcome

    def _enqueue(self) -> None:
        """Check that writes are taken, and wake the writer for the one about to be queued."""
        if self._closed:
            raise ValueError("the storage is closed")
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        if self._waking is not None:  # else it is busy, and takes the queue when done
            self._wake()

    def _tell(self, job: _Job, result: Any = None, error: BaseException | None = None) -> None:
        """Settle a job that did not simply land: with its error as its caller is to hear it
        (the back end's own, where `failed` gives one)."""
        if isinstance(error, Exception):
            try:
                self._failed(error)
            except Exception as said:
                error = said
        _settle(job[0], result, error)

    def _refuse(self, write: _Ticket | _Job, error: BaseException) -> None:
        """Tell a write whose work was never let in why not."""
        if isinstance(write, _Ticket):
            _settle(write.go, error=error)
        else:
            self._tell(write, error=error)

    def _wake(self) -> None:
        waking, self._waking = self._waking, None
        if waking is not None and not waking.done():
            waking.set_result(None)

    async def close(self) -> None:
        """Take no more writes, and return when the queued ones are committed."""
        self._closed = True
        self._wake()
        if self._task is not None:
            await self._task
        for waiting in self._queue:
            self._refuse(waiting, ValueError("the storage is closed"))
        self._queue.clear()

    async def _run(self) -> None:
        while True:
            if not self._queue:
                if self._closed:
                    return
                self._waking = asyncio.get_running_loop().create_future()
                await self._waking
                continue
            try:
                await self._batch()
            except Exception:  # a bug here must not stop every later write
                _log.exception("the group-commit writer failed")

    async def _batch(self) -> None:
        """Begin, take what waits (up to the limit), each in its savepoint (a kind's jobs queued
        together in one), and commit."""
        first = self._queue.popleft()
        if _answer(first).done():  # its caller gave up while waiting
            return
        self._under_way = under_way = asyncio.get_running_loop().create_future()
        try:
            await self._run_batch(first)
        finally:
            under_way.set_result(None)

    async def _run_batch(self, first: _Ticket | _Job) -> None:
        db = self._db
        try:
            await db.begin()
        except Exception as error:
            self._refuse(first, error)
            return
        self.batches += 1
        #: the writes run alone, each with its result and its own error (its work alone undone)
        taken: list[_Taken] = []
        #: the jobs of a kind run together, with their results
        together: list[tuple[list[_Job], list[Any]]] = []
        count = 0
        #: the writes taken from the queue whose work is under way
        running: Sequence[_Ticket | _Job] = ()
        write: _Ticket | _Job | None = first
        try:
            while write is not None:
                if type(write) is tuple and write[1] is not None:
                    running = jobs = self._alike(write, self._max_batch - count)
                    if jobs:
                        await self._together(write[1], jobs, together, taken, not count)
                        count += len(jobs)
                elif not _answer(write).done():
                    running = (write,)
                    await self._alone(write, taken)
                    count += 1
                running = ()
                more = bool(self._queue) and count < self._max_batch
                write = self._queue.popleft() if more else None
            self._before_commit()
            await db.commit()
        except BaseException as error:
            # the transaction is lost: nobody's work in it is acknowledged; a write that failed
            # on its own is told its own error (a block raises its own already)
            with contextlib.suppress(sqlite3.Error):
                db.raw.execute("ROLLBACK")
            for done, _, failed in taken:
                if isinstance(done, _Ticket):
                    _settle(done.committed, error=error if failed is None else None)
                else:
                    self._tell(done, error=failed or error)
            for jobs, _ in together:
                for job in jobs:
                    self._tell(job, error=error)
            for waiting in running:  # those not settled above
                if isinstance(waiting, _Ticket) and waiting.go.done():
                    _settle(waiting.committed, error=error)  # its block was let in
                else:
                    self._refuse(waiting, error)  # its savepoint could not be opened
            if not isinstance(error, Exception):
                raise
            return
        self.writes += count
        for jobs, results in together:  # most: turns that landed
            for (outcome, _, _), result in zip(jobs, results, strict=True):
                if not outcome.done():  # else its caller was cancelled meanwhile
                    outcome.set_result(result)
        for done, result, failed in taken:
            if isinstance(done, _Ticket):
                _settle(done.committed)
            else:
                self._tell(done, result, failed)

    async def _alone(self, write: _Ticket | _Job, taken: list[_Taken]) -> None:
        """Run one write in a savepoint of its own, rolled back if its work raises; add it to
        `taken` with its result and its own error."""
        raw = self._db.raw
        raw.execute("SAVEPOINT write")
        result: Any = None
        failed: BaseException | None
        if isinstance(write, _Ticket):
            write.go.set_result(None)
            failed = await write.done
        else:
            _, kind, item = write
            try:
                result = await (item() if kind is None else kind.alone(item))
                failed = None
            except Exception as error:
                failed = error
        taken.append((write, result, failed))
        if failed is not None:
            raw.execute("ROLLBACK TO write")
        raw.execute("RELEASE write")

    def _alike(self, first: _Job, room: int) -> list[_Job]:
        """`first` and the jobs of its kind queued right behind it, at most `room`, less those
        whose callers gave up while waiting."""
        queue, kind = self._queue, first[1]
        jobs = [] if first[0].done() else [first]
        while queue and len(jobs) < room:
            job = queue[0]
            if type(job) is not tuple or job[1] is not kind:
                break
            queue.popleft()
            if not job[0].done():
                jobs.append(job)
        return jobs

    async def _together(self, kind: Alike[Any, Any], jobs: list[_Job],
                        together: list[tuple[list[_Job], list[Any]]], taken: list[_Taken],
                        opening: bool) -> None:
        """Run a kind's jobs together (`Alike.together`): in a savepoint, or with none when
        they are `opening` the transaction (nothing else written in it yet); if not all of
        them can land, undo it (ROLLBACK and BEGIN again, when opening) and run each alone."""
        db, raw = self._db, self._db.raw
        if not opening:
            raw.execute("SAVEPOINT write")
        try:
            results = kind.together([item for _, _, item in jobs])
        except Exception:  # each, run alone, says why
            results = None
        if results is None:
            if opening:
                raw.execute("ROLLBACK")
                await db.begin()
            else:
                raw.execute("ROLLBACK TO write")
                raw.execute("RELEASE write")
            for job in jobs:
                await self._alone(job, taken)
            return
        if not opening:
            raw.execute("RELEASE write")
        if len(results) != len(jobs):
            raise ValueError(f"{len(jobs)} jobs together gave {len(results)} results")
        together.append((jobs, results))


def _answer(write: _Ticket | _Job) -> asyncio.Future[Any]:
    """The future that tells a queued write's caller it may go on (or why not); done before
    the writer takes it when the caller gave up."""
    return write.go if isinstance(write, _Ticket) else write[0]
