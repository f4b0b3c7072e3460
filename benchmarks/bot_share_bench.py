"""One player cannot take the engine from everybody: how long another player's bot move waits
on an idle bot, and while one player holds the most games with the bot the server allows
(`botgames`, 5 by default), each of them owing the bot a move all the time.

The whole service runs (SQLite, the engine pool's worker processes, the real engine): the
holder's games are at level 5 on 48×48 (the strongest, longest search; the holder answers
each bot move at once, so the bot always owes every one of them a move), the other player's
game at level 3 on 24×24. A free worker goes to the player with the fewest searches running,
so the other player's move waits at most for the first of the holder's searches to end: the
bound is the idle wait plus one of the holder's searches. Printed: the waits (median and
worst), the holder's longest search, and the extra wait as a share of that search.

    python benchmarks/bot_share_bench.py [--workers 2] [--samples 6]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from twixt.engine import LevelLimit, Limit, PlayResult, think
from twixt.rules import Game, parse_command
from twixt.service import Port, Reply, Request, TwixtService, User, build_options
from twixt.service import commands as cmd
from twixt.service.desk.engine_pool import EnginePool
from twixt.service.desk.engine_seats import THE_ENGINE_PLAYER
from twixt.storage import GuildSettings, SqliteStorage, Storage

GUILD = 1
HOLDER, OTHER = User(1, "holder"), User(2, "other")
HOLDER_CHANNEL, OTHER_CHANNEL = 100, 200
MOST = GuildSettings().bot_games
#: the file each search notes its level and seconds in (the workers inherit the environment)
SEARCH_LOG = "TWIXT_BENCH_SEARCHES"


def timed_think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """The engine's search, noting how long it took in the worker (the bot keeps only the
    move; a worker can say more only through a file)."""
    result = think(game, limit, seed=seed)
    level = limit.level if isinstance(limit, LevelLimit) else 0
    with open(os.environ[SEARCH_LOG], "a", encoding="utf-8") as log:
        log.write(f"{level} {result.seconds}\n")
    return result


def searches(log: Path, level: int) -> list[float]:
    """The seconds of each search at `level` so far."""
    lines = log.read_text(encoding="utf-8").split() if log.exists() else []
    return [float(seconds) for at, seconds in zip(lines[::2], lines[1::2], strict=True)
            if int(at) == level]


class Table:
    """The service with both players, and when the bot last spoke in each channel."""

    def __init__(self, storage: Storage, workers: int) -> None:
        self.service = TwixtService(storage, Port(post=self.heard),
                                    engine_pool=EnginePool(workers))
        self.service.engine_player.think = timed_think
        self.rng = random.Random(7)
        self.answered: dict[int, asyncio.Event] = {}
        self.holding = True

    async def heard(self, reply: Reply) -> None:
        channel = reply.channel_id
        assert channel is not None
        self.answered.setdefault(channel, asyncio.Event()).set()
        if channel != OTHER_CHANNEL and self.holding:  # the bot owes the holder at once again
            asyncio.get_running_loop().create_task(self.move(HOLDER, channel))

    async def move(self, player: User, channel: int) -> None:
        """A random legal peg for `player`."""
        game = await self.service.channel_game(channel)
        if game.is_over:
            return
        peg = self.rng.choice(game.legal_placements())
        self.answered[channel] = asyncio.Event()
        await self.service.execute(Request(GUILD, channel, player),
                                   cmd.Move(parse_command(str(peg))))

    async def challenge(self, player: User, channel: int, **options: str) -> None:
        self.answered[channel] = asyncio.Event()
        await self.service.execute(Request(GUILD, channel, player),
                                   cmd.Challenge(THE_ENGINE_PLAYER, build_options(**options)))

    async def other_waits(self, samples: int) -> list[float]:
        """The other player's moves, one after the bot's answer to the last: each wait."""
        waits = []
        for _ in range(samples):
            start = time.perf_counter()
            await self.move(OTHER, OTHER_CHANNEL)
            await self.answered[OTHER_CHANNEL].wait()
            waits.append(time.perf_counter() - start)
        return waits


async def measure(workers: int, samples: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "searches"
        os.environ[SEARCH_LOG] = str(log)
        async with await SqliteStorage.open(Path(folder) / "bench.db") as storage:
            table = Table(storage, workers)
            try:
                await table.challenge(OTHER, OTHER_CHANNEL, size="24", level="3", swap="no",
                                      first="me")
                idle = await table.other_waits(samples)
                for n in range(MOST):
                    await table.challenge(HOLDER, HOLDER_CHANNEL + n, size="48", level="5",
                                          swap="no", first="them")
                while len(searches(log, 5)) < workers:  # the holder's searches in full flow
                    await asyncio.sleep(0.1)
                loaded = await table.other_waits(samples)
                table.holding = False
            finally:
                await table.service.close()
            held = searches(log, 5)
    search = max(held)
    # what holding the bot added to a move: each held wait beyond the idle bot's median
    extra = statistics.median(loaded) - statistics.median(idle)
    worst = max(loaded) - statistics.median(idle)
    print(f"{workers} workers; the holder: {MOST} games at level 5 on 48x48, "
          f"{len(held)} searches, median {statistics.median(held):.2f} s, "
          f"longest {search:.2f} s")
    print(f"other player's bot move (level 3, 24x24), {samples} moves each:")
    print(f"  idle bot:  median {statistics.median(idle):.2f} s, worst {max(idle):.2f} s")
    print(f"  held bot:  median {statistics.median(loaded):.2f} s, worst {max(loaded):.2f} s")
    print(f"  extra wait beyond the idle median: median {extra:.2f} s, worst {worst:.2f} s = "
          f"{worst / search:.2f} of the holder's longest search (bound: 1.00)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="engine worker processes")
    parser.add_argument("--samples", type=int, default=6, help="the other player's moves")
    args = parser.parse_args()
    asyncio.run(measure(args.workers, args.samples))


if __name__ == "__main__":
    main()
