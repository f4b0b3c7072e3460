"""The project's commands as real processes, and the processes below them, read from /proc
(Linux): what a test or a benchmark checks is left behind after a process is stopped or
killed, and how it gets a game in which the bot owes a long search."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

TWIXT = str(Path(sys.executable).with_name("twixt"))
#: the bot moves first in a long game at its strongest level: it searches for seconds
BOT_FIRST = "ann: challenge bot level 5 size 48 swap no first them\n"
#: how long a broken build may keep a test waiting for a process (not a measure of speed)
HANG = 60.0


def patience() -> float:
    """`HANG` stretched by how many runnable processes share each core (the load average
    over the cores, at least 1): a process that needs a second of CPU takes ten or more by
    the clock when 20 share two cores, as on a machine running the suite beside other work."""
    return HANG * max(1.0, os.getloadavg()[0] / len(os.sched_getaffinity(0)))


async def until(condition: Callable[[], object], what: str,
                process: subprocess.Popen[bytes] | None = None) -> None:
    """Poll `condition()` until it holds; fail naming `what` after `patience()` seconds
    (taken again at each poll, so a load that rises meanwhile lengthens it), or at once if
    `process` has ended meanwhile (with its exit status and its last lines of stderr, if
    piped): a build that breaks the process fails without waiting out the bound."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not condition():
        if process is not None and process.poll() is not None:
            said = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise AssertionError(f"still waiting for {what}, but the process ended with "
                                 f"{process.returncode}: {said[-2000:]}")
        waited = loop.time() - start
        assert waited < patience(), f"still waiting for {what} after {waited:.0f} s"
        await asyncio.sleep(0.05)


def environment(database: Path) -> dict[str, str]:
    """This environment without the bot's settings, then a token, the database and one
    engine worker."""
    kept = {key: value for key, value in os.environ.items()
            if not key.startswith(("DISCORD_", "TWIXT_"))}
    return {**kept, "DISCORD_TOKEN": "token", "TWIXT_DB": str(database),
            "TWIXT_ENGINE_WORKERS": "1"}


def descendants(pid: int) -> set[int]:
    """The processes below `pid` now (its engine workers and resource tracker)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # the command name is in brackets and may hold spaces: the fields after it
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # ended meanwhile
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        children = {child for child, of in parents.items() if of == parent}
        todo.extend(children - found)
        found |= children
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie has ended; only its parent has not looked)."""
    running = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if state != "Z":
            running.add(pid)
    return running


def searching(pid: int) -> set[int]:
    """The engine workers below `pid` (spawned by multiprocessing)."""
    workers = set()
    for child in descendants(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            workers.add(child)
    return workers


async def kill_play_while_it_searches(database: Path) -> set[int]:
    """`twixt play` starts a game the bot moves first in, and is SIGKILLed while the engine
    searches; the processes it had started."""
    script = database.with_suffix(".txt")
    script.write_text(BOT_FIRST)
    play = subprocess.Popen([TWIXT, "play", str(script), "--db", str(database), "--out",
                             str(database.parent / "boards")], cwd=database.parent,
                            env=environment(database), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        await until(lambda: searching(play.pid), "the engine to search", play)
        started = descendants(play.pid)
    finally:
        play.kill()
        play.wait()
    return started
