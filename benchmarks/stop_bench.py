"""How quickly `twixt run` stops on SIGTERM (`docker stop` kills 10 s after it; the aim is
5 s): connected and idle, and while the engine searches a level-5 move on 48×48 (a game the
bot owes a move, made by a `twixt play` killed mid-search, answered by the bot at its start).

The real `twixt run` in its own process, against the Discord-shaped local server of the
tests (support/fake_discord.py): from the signal to the process's exit, and the
close code the gateway got.

    python benchmarks/stop_bench.py [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.fake_discord import FakeDiscord  # shared with the tests, found above
from support.processes import environment, kill_play_while_it_searches, searching, until


async def stop_once(database: Path, search: bool) -> tuple[float, int, list[int | None]]:
    """Seconds from SIGTERM to exit, the exit code, and the gateway's close codes."""
    server = FakeDiscord()
    await server.start()
    bot = subprocess.Popen(server.bot_command(), cwd=database.parent,
                           env=environment(database), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        await until(server.ready_sent.is_set, "READY")
        if search:
            await until(lambda: searching(bot.pid), "the bot to search")
        start = time.perf_counter()
        bot.send_signal(signal.SIGTERM)
        await until(lambda: bot.poll() is not None, "the bot to exit")
        return time.perf_counter() - start, bot.returncode, server.close_codes
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        await server.stop()


async def measure(runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        owing = Path(folder) / "owing.db"
        await kill_play_while_it_searches(owing)
        for search in (False, True):
            seconds, codes = [], set()
            for run in range(runs):
                database = Path(folder) / f"run{run}-{search}.db"
                if search:  # the bot owes the move anew each run (a WAL-mode file: all of it)
                    for suffix in ("", "-wal", "-shm"):
                        if Path(f"{owing}{suffix}").exists():
                            shutil.copy(f"{owing}{suffix}", f"{database}{suffix}")
                took, code, closes = await stop_once(database, search)
                seconds.append(took)
                codes.add((code, tuple(closes)))
            what = "mid-search (level 5, 48x48)" if search else "connected, idle"
            print(f"{what:28} SIGTERM to exit: median {statistics.median(seconds):.2f} s, "
                  f"worst {max(seconds):.2f} s over {runs}; (exit, gateway close) {codes}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="stops of each kind")
    asyncio.run(measure(parser.parse_args().runs))


if __name__ == "__main__":
    main()
