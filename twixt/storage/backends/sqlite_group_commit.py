"""Group commit for SQLite: the writes that arrive together share one transaction and one fsync.

One writer task owns the write connection. A write queues and waits; the writer opens one
transaction (BEGIN IMMEDIATE) for everything waiting, then gives each write in turn, in arrival
order, a savepoint of its own. A write comes in one of two forms:
- a block (`GroupCommit.transaction()`): the writer hands the connection over and waits while
  the caller runs its statements (three hand-overs between tasks: any code fits in the block);
- a job (`GroupCommit.run(work)`): a coroutine function of the connection, which the writer
  runs itself, so that its caller is woken once, when the commit has returned. A turn, the write
  there are most of, is a job: with a thousand games, the hand-overs cost more than its two
  statements.
A write whose work raises (a stale version, a finished game, any error) has its savepoint rolled
back, and only it: the others' work stays. When nothing more is waiting, or `MAX_BATCH` writes
are in, the writer commits, and only when COMMIT has returned (with synchronous=FULL: fsynced)
does any caller go on. Acknowledged therefore still means durable, one turn or two hundred in
the fsync.

Statements run at once on the event loop's thread (`InlineConnection`): inside a transaction
that already holds SQLite's write lock they neither wait for a lock nor sync, and take a few
microseconds, less than a hop to a worker thread. What can wait, BEGIN IMMEDIATE (on another
process's lock, up to busy_timeout) and COMMIT (the fsync, a checkpoint), runs on a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Generic, TypeVar

import aiosqlite

MAX_BATCH = 256
"""The most writes one transaction takes, so that no batch (and no wait) is unbounded."""

_log = logging.getLogger(__name__)

T = TypeVar("T")


class InlineConnection(aiosqlite.Connection):
    """An aiosqlite connection whose statements run on the calling (event loop) thread.

    It keeps aiosqlite's interface, so the same query helpers serve it and the reader;
    aiosqlite's thread only opens the file, and `in_thread` runs what may wait. Only the
    group-commit writer may use it, and only one task at a time. (It overrides aiosqlite's
    `_execute`, the one method every statement and fetch goes through.)
    """

    def __init__(self, connector: Callable[[], sqlite3.Connection]) -> None:
        super().__init__(connector, 64)
        # a thread of its own for what may wait: no board rendering queues ahead of a COMMIT
        self._waits = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    @property
    def raw(self) -> sqlite3.Connection:
        return self._conn

    async def in_thread(self, sql: str) -> None:
        """A statement that may wait (for a lock, for the disk), off the event loop."""
        await asyncio.get_running_loop().run_in_executor(self._waits, self._conn.execute, sql)

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            self._waits.shutdown()


async def connect_inline(path: Path) -> InlineConnection:
    def connector() -> sqlite3.Connection:
        return sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    db = InlineConnection(connector)
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


class _Job(Generic[T]):
    """One queued job (`GroupCommit.run`): the work, and its caller's answer."""

    __slots__ = ("batch", "outcome", "work")

    def __init__(self, work: Callable[[], Awaitable[T]], loop: asyncio.AbstractEventLoop) -> None:
        self.work = work
        # writer -> caller, once the COMMIT returned: the work's result, or why it did not land
        self.outcome: asyncio.Future[T] = loop.create_future()
        #: once the writer has taken the job: its batch, done when committed (or not)
        self.batch: asyncio.Future[None] | None = None


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
                 before_commit: Callable[[], None] = lambda: None) -> None:
        self._db = db
        self._max_batch = max_batch
        #: raises when the batch must not be committed after all (then nothing of it is)
        self._before_commit = before_commit
        self._queue: deque[_Ticket | _Job[Any]] = deque()
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
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
        ticket = _Ticket(self._enqueue())
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
        is committed. Cancelled once the writer has taken it, the call still returns only
        when the write has landed or not (as a block does).
        """
        job = _Job(work, self._enqueue())
        self._queue.append(job)
        try:
            return await job.outcome
        except asyncio.CancelledError:
            # cancelled while queued, the writer skips it (its outcome is done)
            if job.batch is not None and not job.batch.done():
                await asyncio.wait([job.batch])  # a second cancel stops this wait
            raise

    def _enqueue(self) -> asyncio.AbstractEventLoop:
        """Check that writes are taken, and wake the writer for the one about to be queued."""
        if self._closed:
            raise ValueError("the storage is closed")
        loop = asyncio.get_running_loop()
        if self._task is None:
            self._task = loop.create_task(self._run())
        self._ready.set()
        return loop

    async def close(self) -> None:
        """Take no more writes, and return when the queued ones are committed."""
        self._closed = True
        self._ready.set()
        if self._task is not None:
            await self._task
        for waiting in self._queue:
            _settle(waiting.go if isinstance(waiting, _Ticket) else waiting.outcome,
                    error=ValueError("the storage is closed"))
        self._queue.clear()

    async def _run(self) -> None:
        while True:
            if not self._queue:
                if self._closed:
                    return
                self._ready.clear()
                await self._ready.wait()
                continue
            try:
                await self._batch()
            except Exception:  # a bug here must not stop every later write
                _log.exception("the group-commit writer failed")

    async def _batch(self) -> None:
        """Begin, take what waits (up to the limit), each in its savepoint, and commit."""
        db = self._db
        raw = db.raw
        first = self._queue.popleft()
        if _answer(first).done():  # its caller gave up while waiting
            return
        try:
            await db.in_thread("BEGIN IMMEDIATE")
        except Exception as error:
            _settle(_answer(first), error=error)
            return
        self.batches += 1
        #: done once the batch is committed or lost, for the callers of jobs cancelled meanwhile
        settled = asyncio.get_running_loop().create_future()
        # each write taken, its job's result, and its own error (its work alone is undone)
        taken: list[tuple[_Ticket | _Job[Any], Any, BaseException | None]] = []
        write: _Ticket | _Job[Any] | None = first
        granted: _Ticket | None = None
        try:
            while write is not None:
                if not _answer(write).done():
                    raw.execute("SAVEPOINT write")
                    result: Any = None
                    failed: BaseException | None
                    if isinstance(write, _Job):
                        write.batch = settled
                        try:
                            result, failed = await write.work(), None
                        except Exception as error:
                            failed = error
                    else:
                        write.go.set_result(None)
                        granted = write
                        failed = await write.done
                        granted = None
                    taken.append((write, result, failed))
                    if failed is not None:
                        raw.execute("ROLLBACK TO write")
                    raw.execute("RELEASE write")
                more = bool(self._queue) and len(taken) < self._max_batch
                write = self._queue.popleft() if more else None
            self._before_commit()
            await db.in_thread("COMMIT")
        except BaseException as error:
            # the transaction is lost: nobody's work in it is acknowledged; a write that failed
            # on its own is told its own error (a block raises its own already)
            with contextlib.suppress(sqlite3.Error):
                raw.execute("ROLLBACK")
            for done, _, failed in taken:
                if isinstance(done, _Job):
                    _settle(done.outcome, error=failed or error)
                else:
                    _settle(done.committed, error=error if failed is None else None)
            if granted is not None:
                _settle(granted.committed, error=error)
            elif write is not None:
                _settle(_answer(write), error=error)  # its savepoint could not be opened
            settled.set_result(None)
            if not isinstance(error, Exception):
                raise
            return
        self.writes += len(taken)
        for done, result, failed in taken:
            if isinstance(done, _Job):
                _settle(done.outcome, result, failed)
            else:
                _settle(done.committed)
        settled.set_result(None)


def _answer(write: _Ticket | _Job[Any]) -> asyncio.Future[Any]:
    """The future that tells a queued write's caller it may go on (or why not); done before
    the writer takes it when the caller gave up."""
    return write.go if isinstance(write, _Ticket) else write.outcome
