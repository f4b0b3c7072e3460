"""Where `twixt think --seconds S` starts counting: at the process's start, as the program
that started it counts, so that Python's own start and the imports come out of S instead of
being added to it (a referee that allows S seconds and a little gets the answer in time).

Linux says when a process started (/proc/self/stat: clock ticks since boot, on the clock of
`time.CLOCK_BOOTTIME`); elsewhere the moment this module was first imported stands in, which
misses only the interpreter's start. Both are given as `time.perf_counter` moments, the clock
of the engine's deadlines.
"""

from __future__ import annotations

import os
import time

_IMPORTED = time.perf_counter()
#: the field of /proc/self/stat that holds the start, counted after the command's name
_STARTTIME = 19


def process_start() -> float:
    """The `time.perf_counter` moment this process started (at the latest, when this module
    was imported)."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        ticks = int(fields[_STARTTIME])
        running = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):  # not Linux
        return _IMPORTED
    return min(_IMPORTED, time.perf_counter() - running)


def left_of(seconds: float, started: float) -> float:
    """What is left of `seconds` counted from the `time.perf_counter` moment `started`
    (nothing, once they are spent)."""
    return max(0.0, seconds - (time.perf_counter() - started))
