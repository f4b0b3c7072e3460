"""Speed of durable storage: turns committed per second with many games played at once.

Each round opens a fresh SQLite file (WAL, synchronous=FULL), creates the games and lets one
asyncio task a game append pre-played legal turns as fast as storage takes them: every turn
is acknowledged only once it is committed and fsynced, each under its version check. The
tasks form a closed loop (each sends its next turn when the last one is acknowledged), so the
latency under load includes the queue for SQLite's single writer: by Little's law it is about
games / throughput.

The floor, measured in the same run on a file with the same schema and games: raw sqlite3 in
one thread, one `INSERT` into `turns` and one `COMMIT` a turn (WAL, synchronous=FULL), the
games' turns interleaved. It has no queue, so its latency is one commit's; its turns/s is
what the storage is compared with. A last line plays games one at a time: a lone turn's
latency, with nothing to group it with.

    python benchmarks/storage_bench.py                      # 1,000 and 10,000 games at once
    python benchmarks/storage_bench.py --games 1000 --rounds 5
    python benchmarks/storage_bench.py --games 1000 10000 100000 --turns 4
    python benchmarks/storage_bench.py --no-postgres         # SQLite only
    python benchmarks/storage_bench.py --postgres postgresql://…   # your own server

Then the same games and turns on PostgreSQL, next to SQLite's, with raw asyncpg's
INSERT + COMMIT a turn as the floor in the same run (storage_bench_pg.py says how).

Prints the median of the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from contextlib import closing
from pathlib import Path

from storage_workload import Figures, create_games, play_all, played_logs

from twixt.storage import SqliteStorage

ALONE_GAMES = 100


async def storage_round(path: Path, games: int, logs: list[list[str]],
                        at_once: bool) -> tuple[float, list[float]]:
    """Turns per second and each turn's latency: all games at once, or one by one."""
    async with await SqliteStorage.open(path) as store:
        return await play_all(store, await create_games(store, games), logs, at_once)


async def raw_round(path: Path, games: int, logs: list[list[str]]) -> tuple[float, list[float]]:
    """The same turns through raw sqlite3: one INSERT and one COMMIT a turn, one thread."""
    async with await SqliteStorage.open(path) as store:  # the same schema and games
        ids = await create_games(store, games)
    turns = [(game_id, number + 1, 1 + number % 2, text)
             for number in range(max(map(len, logs)))
             for i, game_id in enumerate(ids)
             for text in logs[i % len(logs)][number:number + 1]]
    return await asyncio.to_thread(raw_commits, path, turns)


def raw_commits(path: Path, turns: list[tuple[int, int, int, str]]) -> tuple[float, list[float]]:
    latencies = []
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
            db.execute(f"PRAGMA {pragma}")
        started = time.perf_counter()
        for game_id, number, actor_id, command in turns:
            begun = time.perf_counter()
            db.execute("BEGIN")
            db.execute("INSERT INTO turns (game_id, number, actor_id, command, played_at) "
                       "VALUES (?, ?, ?, ?, datetime('now'))",
                       (game_id, number, actor_id, command))
            db.execute("COMMIT")
            latencies.append(time.perf_counter() - begun)
        elapsed = time.perf_counter() - started
    return len(turns) / elapsed, latencies


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="*", default=[1000, 10_000],
                        help="how many games at once, one curve point each")
    parser.add_argument("--turns", type=int, default=10, help="turns each game plays")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", metavar="URL", default=None,
                        help="a PostgreSQL server to measure on (default: a throw-away one)")
    parser.add_argument("--pg-connections", type=int, default=10,
                        help="PostgreSQL connections a pool (the bot's default: 10)")
    parser.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    args = parser.parse_args()
    logs = played_logs(random.Random(1), args.turns)
    # beside the repository, not in /tmp, which may be a RAM disk where fsync is free
    here = Path(__file__).parent
    print(f"{args.turns} turns a game, median of {args.rounds} rounds")
    sqlite_rates: dict[int, float] = {}
    for games in args.games:
        storage, raw = Figures(), Figures()
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory(dir=here) as folder:
                storage.add(*await storage_round(Path(folder) / "bench.db", games, logs, True))
            with tempfile.TemporaryDirectory(dir=here) as folder:
                raw.add(*await raw_round(Path(folder) / "raw.db", games, logs))
        print(storage.line(f"storage, {games} games at once"))
        print(raw.line("raw sqlite3, a commit a turn"))
        print(f"{'storage / raw sqlite3':>34}: {storage.rate / raw.rate:7.2f}×")
        sqlite_rates[games] = storage.rate
    alone = Figures()
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory(dir=here) as folder:
            alone.add(*await storage_round(Path(folder) / "bench.db", ALONE_GAMES, logs, False))
    print(alone.line("storage, one game at a time"))
    if not args.no_postgres:  # its own section: storage_bench_pg.py
        from storage_bench_pg import postgres_section

        await postgres_section(args.games, args.rounds, logs, sqlite_rates, args.postgres,
                               args.pg_connections)


if __name__ == "__main__":
    asyncio.run(main())
