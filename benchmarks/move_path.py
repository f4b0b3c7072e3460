"""The modules one move passes through: a `/twixt move`-equivalent call of the service
(`TwixtService.answer` with a parsed `commands.Move`, in a game between two people on a real
SQLite file), traced with `sys.setprofile` in every thread (the board is drawn in a worker
thread), counting the project's modules (`twixt.*`) whose functions it calls, and how often
the route crosses from one module into another.

With `--web` the move is made as the web page makes it: `POST /api/g/TOKEN/act` to the web
board served in this process (over loopback), while the opponent's page follows the game
live: the route is traced from the request until that page has the new view. Either way it
also counts the statements the storage sent to SQLite for the move (through its connection's
seam).

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

from twixt.rules import parse_command
from twixt.service import Request, TwixtService, User, build_options
from twixt.service import commands as cmd
from twixt.storage import SqliteStorage
from twixt.storage.backends.sqlite import SqliteConnection

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
        self._count_statements()
        self._lock = threading.Lock()

    def _count_statements(self) -> None:
        """Count each statement the storage sends to SQLite while `on`: every one passes
        the connection's seam (`SqliteConnection._run`, `execute_many`), wrapped here (a
        profile's "call" would count a coroutine's every resumption)."""
        for name in ("_run", "execute_many"):
            sent = getattr(SqliteConnection, name)

            async def counted(connection: Any, *args: Any, _sent: Any = sent) -> Any:
                if self.on:
                    self.statements += 1
                return await _sent(connection, *args)

            setattr(SqliteConnection, name, counted)

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
    async with game_begun() as (_storage, service):
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
          f"the storage sent SQLite {route.statements} statements")
    if args.list:
        for module in sorted(route.modules):
            print(f"  {module:45} entered {route.crossings[module]:3}  "
                  f"calls {route.modules[module]:5}")


if __name__ == "__main__":
    main()
