"""What an engine worker costs to start: the CPU a spawned worker of the bot's pool
(`twixt.service.EnginePool`) spends before its first call returns, beside the floor of a bare
interpreter's start, measured in one run.

    python benchmarks/pool_worker_bench.py [--rounds 7]

Each round opens a pool of one worker, runs one call that reads the worker's own CPU time
(user + system, from its start: the interpreter, the modules it imports to unpickle its start
and the call, and the call), and closes the pool. The floor is `python -c pass`, started as
often. The figures are medians over the rounds. The aim (issue 46, the tests' and the bot's
workers): a worker imports the engine and the rules, not the service, storage or rendering
(its `twixt` packages are printed). `PYTHONPATH=OTHER_TREE` measures another tree's pool.

Only the standard library is imported at the top: a spawned worker runs this file's top level
again (as `__mp_main__`) to find `worker_cpu`, and must import no more than the pool makes it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys


def worker_cpu() -> tuple[float, list[str]]:
    """In the worker: its CPU seconds so far, and the `twixt` packages it has imported."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    packages = {".".join(name.split(".")[:2]) for name in sys.modules if name.startswith("twixt")}
    return used.ru_utime + used.ru_stime, sorted(packages)


async def one_worker() -> tuple[float, list[str]]:
    """A pool of one worker, one call, closed."""
    from twixt.service import EnginePool

    pool = EnginePool(1)
    try:
        return await pool.run("bench", worker_cpu)
    finally:
        await pool.close()


def floor() -> float:
    """The CPU of one bare interpreter's start (a child, read when it is reaped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    print(f"load average {os.getloadavg()[0]:.2f}")
    workers, floors = [], []
    packages: list[str] = []
    for _ in range(rounds):  # in turns, so that the load falls on both alike
        cpu, packages = asyncio.run(one_worker())
        workers.append(cpu)
        floors.append(floor())
    worker, bare = statistics.median(workers), statistics.median(floors)
    print(f"worker start-up CPU  {worker * 1000:7.1f} ms (median of {rounds})")
    print(f"floor: python -c pass {bare * 1000:7.1f} ms")
    print(f"worker / floor       {worker / bare:7.2f}x")
    print("twixt packages in the worker:", ", ".join(packages))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
