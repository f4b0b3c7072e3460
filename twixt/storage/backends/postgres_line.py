"""The line for PostgreSQL's connections, and the turns that wait in it together.

With a thousand games at once, every storage operation waits for one of a few pooled
connections. `Line` hands the places out first come, first served (asyncpg's own queue lets a
newcomer overtake a woken waiter, which then waits at the back again: the p99 of a turn was
two and a half to four times its p50).

A turn (one guarded statement, committed on its own) is the operation there are most of, and
what it costs is a round trip and a WAL flush more than the work. So turns that wait in line
together go through together (`TurnBatches`): a turn that finds a batch still waiting, with
nobody asked behind it, joins it; otherwise it starts one, which takes its place in line like
any operation. When the batch's place comes, one statement writes all its turns, each under
its own version check, and one COMMIT makes them durable; only then does any of their callers
go on (one batch at a time: see `PostgresStorage._writing`). So no operation is overtaken
by one asked after it, a turn alone is still one round trip, and a thousand games waiting
cost a few statements, not a thousand.

A game is in at most one unfinished batch: a second turn of the same game (two players racing)
waits until the first's batch has landed. So batches never wait for each other's rows.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from twixt.storage.games import NewTurn

#: the most turns one statement writes, so that no batch (and no wait for it) is unbounded
MAX_BATCH = 256


class Line:
    """`places` places, handed out in the order they were asked for."""

    def __init__(self, places: int) -> None:
        self._free = places
        self._waiting: deque[asyncio.Future[None]] = deque()
        #: how many times a place was asked for: a batch is joinable while nobody asked after it
        self.asked = 0

    def ask(self) -> asyncio.Future[None]:
        """A place, when the future is done; asked now, with no await, so the order of asking
        is the order of serving. Who gets one hands it back (`give_back`)."""
        self.asked += 1
        granted = asyncio.get_running_loop().create_future()
        if self._free and not self._waiting:
            self._free -= 1
            granted.set_result(None)
        else:
            self._waiting.append(granted)
        return granted

    def give_back(self) -> None:
        """The place goes straight to the first waiter still waiting (never to a newcomer)."""
        while self._waiting:
            granted = self._waiting.popleft()
            if not granted.done():  # a waiter cancelled meanwhile is passed over
                granted.set_result(None)
                return
        self._free += 1

    async def wait(self, granted: asyncio.Future[None]) -> None:
        """Wait for a place asked for; cancelled just as it was handed over, hand it on."""
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self.give_back()
            raise

    @asynccontextmanager
    async def place(self) -> AsyncIterator[None]:
        await self.wait(self.ask())
        try:
            yield
        finally:
            self.give_back()


@dataclass(eq=False)
class PendingTurn(NewTurn):
    """One turn waiting to be written, and its caller's answer: the new version, or why not."""

    landed: asyncio.Future[int] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())

    def answer(self, version: int) -> None:
        if not self.landed.done():  # its caller may have been cancelled
            self.landed.set_result(version)

    def refuse(self, error: BaseException) -> None:
        if not self.landed.done():
            self.landed.set_exception(error)


@dataclass(eq=False)
class _Batch:
    turns: list[PendingTurn]
    #: `Line.asked` once this batch was in line: others may join while it is unchanged
    asked: int
    started: bool = False
    finished: asyncio.Event = field(default_factory=asyncio.Event)


class TurnBatches:
    """Turns that wait together, written together (see the module's docstring).

    `write(turns)` runs on a connection taken when the batch's place in `line` came; it must
    answer or refuse every turn it is given, and may raise, which refuses those it left.
    """

    def __init__(self, line: Line, write: Callable[[list[PendingTurn]], Awaitable[None]],
                 refusal: Callable[[BaseException], BaseException]) -> None:
        self._line = line
        self._write = write
        self._refusal = refusal
        self._open: _Batch | None = None
        #: the batch each game's turn is in, until it has landed
        self._unfinished: dict[int, _Batch] = {}
        self._carriers: set[asyncio.Task[None]] = set()

    async def append(self, turn: PendingTurn) -> int:
        """Write the turn with those waiting beside it; its new version once committed."""
        while (ahead := self._unfinished.get(turn.game_id)) is not None:
            await ahead.finished.wait()
        batch = self._open
        if (batch is None or batch.started or batch.asked != self._line.asked
                or len(batch.turns) >= MAX_BATCH):
            batch = self._open = _Batch([], self._line.asked + 1)
            granted = self._line.ask()
            carrier = asyncio.create_task(self._carry(batch, granted))
            self._carriers.add(carrier)
            carrier.add_done_callback(self._carriers.discard)
        batch.turns.append(turn)
        self._unfinished[turn.game_id] = batch
        try:
            return await turn.landed
        except asyncio.CancelledError:
            # a caller cancelled before its batch started leaves it (its future is cancelled,
            # so the batch skips it); once the statement is under way, the caller goes only
            # when the turn has landed or not, as it would with a statement of its own
            if batch.started:
                await batch.finished.wait()
            raise

    async def _carry(self, batch: _Batch, granted: asyncio.Future[None]) -> None:
        """Wait for the batch's place, then write it; every turn gets its answer, whatever
        happens (a carrier is cancelled only when the storage closes under it)."""
        try:
            await self._line.wait(granted)
            try:
                batch.started = True
                if self._open is batch:
                    self._open = None
                await self._write([turn for turn in batch.turns if not turn.landed.done()])
            finally:
                self._line.give_back()
        except BaseException as error:
            refusal = self._refusal(error)
            for turn in batch.turns:
                turn.refuse(refusal)
            if not isinstance(error, Exception):
                raise
        finally:
            for turn in batch.turns:
                if self._unfinished.get(turn.game_id) is batch:
                    del self._unfinished[turn.game_id]
            batch.finished.set()
            if self._open is batch:
                self._open = None

    async def close(self) -> None:
        """Let the batches in line finish (their callers are waiting for them)."""
        while self._carriers:
            await asyncio.gather(*self._carriers, return_exceptions=True)
