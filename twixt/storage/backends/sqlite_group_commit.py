"""Group commit for SQLite: the writes that arrive together share one transaction and one fsync.

One writer task owns the write connection. A write (`GroupCommit.transaction()`) queues a
ticket and waits; the writer opens one transaction (BEGIN IMMEDIATE) for everything waiting,
then gives each ticket in turn, in arrival order, a savepoint of its own and waits while the
caller runs its statements. A caller whose work raises (a stale version, a finished game, any
error) has its savepoint rolled back, and only it: the others' work stays. When nothing more is
waiting, or `MAX_BATCH` tickets are in, the writer commits, and only when COMMIT has returned
(with synchronous=FULL: fsynced) does any caller go on. Acknowledged therefore still means
durable, one turn or two hundred in the fsync.

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
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

MAX_BATCH = 256
"""The most writes one transaction takes, so that no batch (and no wait) is unbounded."""

_log = logging.getLogger(__name__)


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
    """One queued write and its three hand-overs."""

    __slots__ = ("committed", "done", "go")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        # writer -> caller: your savepoint is open, go (or: the transaction could not begin)
        self.go: asyncio.Future[None] = loop.create_future()
        # caller -> writer: the work is done (None) or raised (the error)
        self.done: asyncio.Future[BaseException | None] = loop.create_future()
        # writer -> caller: the COMMIT returned (None) or failed
        self.committed: asyncio.Future[None] = loop.create_future()


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
        self._queue: deque[_Ticket] = deque()
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.batches = 0
        """Transactions committed (or tried): with `writes`, how well writes were grouped."""
        self.writes = 0

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run the body as one write, in its own savepoint of a shared transaction.

        Returns once the transaction is committed. If the body raises, its work alone is
        undone, and the error is raised once the others' work is committed (so that what beat
        it is there to be read).
        """
        if self._closed:
            raise ValueError("the storage is closed")
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        ticket = _Ticket(asyncio.get_running_loop())
        self._queue.append(ticket)
        self._ready.set()
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

    async def close(self) -> None:
        """Take no more writes, and return when the queued ones are committed."""
        self._closed = True
        self._ready.set()
        if self._task is not None:
            await self._task
        for ticket in self._queue:
            _settle(ticket.go, error=ValueError("the storage is closed"))
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
        first = self._queue.popleft()
        if first.go.done():  # its caller gave up while waiting
            return
        try:
            await db.in_thread("BEGIN IMMEDIATE")
        except Exception as error:
            _settle(first.go, error=error)
            return
        self.batches += 1
        taken: list[tuple[_Ticket, bool]] = []  # each ticket, and whether its work stays
        ticket: _Ticket | None = first
        granted: _Ticket | None = None
        try:
            while ticket is not None:
                if not ticket.go.done():
                    db.raw.execute("SAVEPOINT write")
                    ticket.go.set_result(None)
                    granted = ticket
                    failed = await ticket.done
                    taken.append((ticket, failed is None))
                    granted = None
                    if failed is not None:
                        db.raw.execute("ROLLBACK TO write")
                    db.raw.execute("RELEASE write")
                more = bool(self._queue) and len(taken) < self._max_batch
                ticket = self._queue.popleft() if more else None
            self._before_commit()
            await db.in_thread("COMMIT")
        except BaseException as error:
            # the transaction is lost: nobody's work in it is acknowledged
            with contextlib.suppress(sqlite3.Error):
                db.raw.execute("ROLLBACK")
            for taken_ticket, kept in taken:
                _settle(taken_ticket.committed, error=error if kept else None)
            if granted is not None:
                _settle(granted.committed, error=error)
            elif ticket is not None:
                _settle(ticket.go, error=error)  # its savepoint could not be opened
            if not isinstance(error, Exception):
                raise
            return
        self.writes += len(taken)
        for taken_ticket, _ in taken:
            _settle(taken_ticket.committed)
