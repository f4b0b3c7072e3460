"""The modules one move passes through: a `/twixt move`-equivalent call of the service
(`TwixtService.answer` with a parsed `commands.Move`, in a game between two people on a real
SQLite file), traced with `sys.setprofile` in every thread (the board is drawn in a worker
thread), counting the project's modules (`twixt.*`) whose functions it calls, and how often
the route crosses from one module into another.

With `--web` the move is made as the web page makes it: `POST /api/g/TOKEN/act` to the web
board served in this process (over loopback), while the opponent's page follows the game
live: the route is traced from the request until that page has the new view. Either way it
also counts the statements SQLite ran for the storage (its own trace, on every connection:
BEGIN, COMMIT and the like included) and how often the storage handed work to a thread (a
statement to aiosqlite's, a commit to the writer's).

A count, not a timing: it is the same on any machine for the same code, so it can be compared
before and after a change of the service's structure (docs/benchmarks.md quotes it).

    python benchmarks/move_path.py [--move M12] [--web] [--list]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from types import FrameType
from typing import Any

import aiosqlite

from twixt.rules import parse_command
from twixt.service import Request, TwixtService, User, build_options
from twixt.service import commands as cmd
from twixt.storage import SqliteStorage
from twixt.storage.backends.sqlite_group_commit import InlineConnection

GUILD, CHANNEL = 1, 100
ALICE, BOB = User(11, "alice"), User(12, "bob")


class Route:
    """The project's modules entered while `on` (from any thread), and the calls that cross
    from one module into another."""

    def __init__(self) -> None:
        self.on = False
        self.modules: Counter[str] = Counter()
        self.crossings: Counter[str] = Counter()
        self.statements = 0
        self.hand_overs = 0
        self._count_hand_overs()
        self._lock = threading.Lock()

    async def watch(self, storage: SqliteStorage) -> None:
        """Count each statement SQLite runs for the storage while `on`, on any of its
        connections (its writer's, its reader's, its glance's; BEGIN, COMMIT and the like
        included): SQLite's own trace of what it runs."""

        def traced(_statement: str) -> None:
            if self.on:
                self.statements += 1

        reader = storage._reader
        storage._writer.raw.set_trace_callback(traced)  # type: ignore[attr-defined]
        storage._glancer.set_trace_callback(traced)
        await reader._execute(  # type: ignore[no-untyped-call]
            lambda: reader._conn.set_trace_callback(traced))

    def _count_hand_overs(self) -> None:
        """Count each hand-over of the storage's work to a thread while `on`: a statement
        given to aiosqlite's thread (the reader's) and one the writer runs on its own."""
        for owner, name in ((aiosqlite.Connection, "_execute"), (InlineConnection, "in_thread")):
            run = getattr(owner, name)

            async def counted(connection: Any, *args: Any, _run: Any = run, **kwargs: Any
                              ) -> Any:
                if self.on:
                    self.hand_overs += 1
                return await _run(connection, *args, **kwargs)

            setattr(owner, name, counted)

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if not self.on:
            return
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("twixt."):
            return
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
        with self._lock:
            self.modules[module] += 1
            if caller != module:
                self.crossings[module] += 1


@contextlib.asynccontextmanager
async def game_begun() -> AsyncIterator[tuple[SqliteStorage, TwixtService]]:
    """A fresh game of alice's (red, first to move) with bob on a throw-away SQLite file; the
    bot is not at the table, so a move is all the work that follows."""
    with tempfile.TemporaryDirectory() as folder:
        async with await SqliteStorage.open(Path(folder) / "path.db") as storage:
            service = TwixtService(storage)
            await service.challenges.challenge(Request(GUILD, CHANNEL, ALICE), BOB,
                                               build_options())
            await service.challenges.accept(Request(GUILD, CHANNEL, BOB))
            try:
                yield storage, service
            finally:
                await service.close()


async def trace_web_move(route: Route, move: str) -> None:
    """The same move made on the web page: alice's seat link posts it to the board."""
    from aiohttp.test_utils import TestClient, TestServer

    from twixt.web import Signer, WebBoard

    async with game_begun() as (storage, service):
        await route.watch(storage)
        signer = Signer(b"move-path-secret-0123456789abcdef")
        board = WebBoard(service, signer)
        game_id = (await storage.active_game(CHANNEL)).id  # type: ignore[union-attr]
        async with TestClient(TestServer(board.app())) as client:
            # bob's page follows the game live: the move ends when it has the new view
            live = await client.get(f"/api/g/{signer.token(game_id, 1)}/live")
            await live.content.readuntil(b"\n\n")
            await asyncio.sleep(0.2)  # the page settled: what follows is the move's
            route.on = True
            answer = await client.post(f"/api/g/{signer.token(game_id, 0)}/act",
                                       json={"control": "move", "text": move})
            await asyncio.wait_for(live.content.readuntil(b"\n\n"), 10)
            route.on = False
            live.close()
            if answer.status != 200:
                raise SystemExit(f"the move was refused: {await answer.text()}")


async def trace_move(route: Route, move: str) -> None:
    """One move of alice's (red, first to move) in a fresh game with bob, traced into
    `route`; the bot is not at the table, so the move is all the work."""
    async with game_begun() as (storage, service):
        await route.watch(storage)
        asked = cmd.Move(parse_command(move))  # read at the edge, as a front end does
        route.on = True
        reply = await service.answer(Request(GUILD, CHANNEL, ALICE), asked, {})
        route.on = False
    if reply.refused:
        raise SystemExit(f"the move was refused: {reply.text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--move", default="M12", help="the move alice plays (default M12)")
    parser.add_argument("--web", action="store_true",
                        help="make the move through the web board, as its page does")
    parser.add_argument("--list", action="store_true",
                        help="list the modules, with how often the route enters each")
    args = parser.parse_args()
    route = Route()
    # set before any thread starts, so the worker threads (drawing, SQLite) are traced too
    threading.setprofile(route.profile)
    sys.setprofile(route.profile)
    try:
        asyncio.run((trace_web_move if args.web else trace_move)(route, args.move))
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    service = [module for module in route.modules if module.startswith("twixt.service.")]
    print(f"one move ({args.move}) passes through {len(route.modules)} modules of the project "
          f"({len(service)} of them the service's), entering one from another "
          f"{sum(route.crossings.values())} times "
          f"({sum(route.crossings[module] for module in service)} into the service's); "
          f"SQLite ran {route.statements} statements for the storage, which handed work to "
          f"a thread {route.hand_overs} times")
    if args.list:
        for module in sorted(route.modules):
            print(f"  {module:45} entered {route.crossings[module]:3}  "
                  f"calls {route.modules[module]:5}")


if __name__ == "__main__":
    main()
