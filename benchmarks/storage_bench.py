"""Speed of durable storage: turns committed per second with 1,000 games played at once.

Each round opens a fresh SQLite file (WAL, synchronous=FULL), creates 1,000 games and lets
1,000 asyncio tasks, one a game, append pre-played legal turns as fast as storage takes them;
every turn is its own fsynced transaction with the version check. Latency under load includes
the queue for SQLite's single writer, so it is also shown with the games played one at a time.
Prints the median of the rounds.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from rules import Game
from storage import GameSetup, Player, SqliteStorage

ROUNDS = 3
GAMES = 1000
TURNS_PER_GAME = 10
DISTINCT_LOGS = 50
SETUP = GameSetup(size="24x24", rules="classic")


def played_logs(rng: random.Random) -> list[list[str]]:
    """Legal random logs (canonical texts), played before the clock starts."""
    logs = []
    for _ in range(DISTINCT_LOGS):
        game = Game(players=("1", "2"), size=SETUP.size, rules=SETUP.rules)
        log = [game.play(str(rng.choice(game.legal_placements())), by=game.player_to_move).text
               for _ in range(TURNS_PER_GAME)]
        logs.append(log)
    return logs


async def play(store: SqliteStorage, game_id: int, log: list[str],
               latencies: list[float]) -> None:
    for version, text in enumerate(log):
        started = time.perf_counter()
        await store.append_turn(game_id, version, 1 + version % 2, text)
        latencies.append(time.perf_counter() - started)


async def one_round(folder: Path, logs: list[list[str]],
                    at_once: bool) -> tuple[float, list[float]]:
    """Turns per second and each turn's commit latency: all games at once, or one by one."""
    async with await SqliteStorage.open(folder / "bench.db") as store:
        ids = [(await store.create_game(guild_id=1, channel_id=channel, setup=SETUP,
                                        players=[Player(1, "one"), Player(2, "two")])).id
               for channel in range(GAMES)]
        latencies: list[float] = []
        games = [play(store, game_id, logs[i % len(logs)], latencies)
                 for i, game_id in enumerate(ids)]
        started = time.perf_counter()
        if at_once:
            await asyncio.gather(*games)
        else:
            for game in games:
                await game
        elapsed = time.perf_counter() - started
    return len(latencies) / elapsed, latencies


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def main() -> None:
    logs = played_logs(random.Random(1))
    for at_once, label in ((True, f"{GAMES} games at once"), (False, "one game at a time")):
        rates, p50s, p99s = [], [], []
        for _ in range(ROUNDS):
            # beside the repository, not in /tmp, which may be a RAM disk where fsync is free
            with tempfile.TemporaryDirectory(dir=Path(__file__).parent) as folder:
                rate, latencies = await one_round(Path(folder), logs, at_once)
            rates.append(rate)
            p50s.append(percentile(latencies, 0.50) * 1000)
            p99s.append(percentile(latencies, 0.99) * 1000)
        print(f"{label:>19}: {statistics.median(rates):6.0f} turns/s committed, "
              f"commit latency p50 {statistics.median(p50s):7.2f} ms, "
              f"p99 {statistics.median(p99s):7.2f} ms (median of {ROUNDS} rounds)")


if __name__ == "__main__":
    asyncio.run(main())
