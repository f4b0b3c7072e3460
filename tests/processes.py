"""The processes below a process, read from /proc (Linux): what a test checks is left behind
after a process is stopped or killed."""

from __future__ import annotations

from pathlib import Path


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
    found, todo = set(), [pid]
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
