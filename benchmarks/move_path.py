"""The modules one move passes through: a `/twixt move`-equivalent call of the service
(`TwixtService.answer` with a parsed `commands.Move`, in a game between two people on a real
SQLite file), traced with `sys.setprofile` in every thread (the board is drawn in a worker
thread), counting the project's modules (`twixt.*`) whose functions it calls, and how often
the route crosses from one module into another.

A count, not a timing: it is the same on any machine for the same code, so it can be compared
before and after a change of the service's structure (docs/benchmarks.md quotes it).

    python benchmarks/move_path.py [--move M12] [--list]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from twixt.rules import parse_command
from twixt.service import Request, TwixtService, User, build_options
from twixt.service import commands as cmd
from twixt.storage import SqliteStorage

GUILD, CHANNEL = 1, 100
ALICE, BOB = User(11, "alice"), User(12, "bob")


class Route:
    """The project's modules entered while `on` (from any thread), and the calls that cross
    from one module into another."""

    def __init__(self) -> None:
        self.on = False
        self.modules: Counter[str] = Counter()
        self.crossings: Counter[str] = Counter()
        self._lock = threading.Lock()

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if not self.on or event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("twixt."):
            return
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
        with self._lock:
            self.modules[module] += 1
            if caller != module:
                self.crossings[module] += 1


async def trace_move(route: Route, move: str) -> None:
    """One move of alice's (red, first to move) in a fresh game with bob, traced into
    `route`; the bot is not at the table, so the move is all the work."""
    with tempfile.TemporaryDirectory() as folder:
        async with await SqliteStorage.open(Path(folder) / "path.db") as storage:
            service = TwixtService(storage)
            await service.challenges.challenge(Request(GUILD, CHANNEL, ALICE), BOB,
                                               build_options())
            await service.challenges.accept(Request(GUILD, CHANNEL, BOB))
            asked = cmd.Move(parse_command(move))  # read at the edge, as a front end does
            route.on = True
            reply = await service.answer(Request(GUILD, CHANNEL, ALICE), asked, {})
            route.on = False
            await service.close()
    if reply.refused:
        raise SystemExit(f"the move was refused: {reply.text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--move", default="M12", help="the move alice plays (default M12)")
    parser.add_argument("--list", action="store_true",
                        help="list the modules, with how often the route enters each")
    args = parser.parse_args()
    route = Route()
    # set before any thread starts, so the worker threads (drawing, SQLite) are traced too
    threading.setprofile(route.profile)
    sys.setprofile(route.profile)
    try:
        asyncio.run(trace_move(route, args.move))
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    service = [module for module in route.modules if module.startswith("twixt.service.")]
    print(f"one move ({args.move}) passes through {len(route.modules)} modules of the project "
          f"({len(service)} of them the service's), entering one from another "
          f"{sum(route.crossings.values())} times "
          f"({sum(route.crossings[module] for module in service)} into the service's)")
    if args.list:
        for module in sorted(route.modules):
            print(f"  {module:45} entered {route.crossings[module]:3}  "
                  f"calls {route.modules[module]:5}")


if __name__ == "__main__":
    main()
