"""`stats`, a leaderboard page and a deep history page against the number of finished games.

For each size (1k, 10k, 100k finished games in one guild of 100 players) a fresh SQLite file
is built fast: the schema before the totals (migration 5), games and seats inserted directly in
one transaction (a mix of wins, draws, aborts, continued imports and Double TwixT), then
opening the store applies migration 0006, whose backfill counts them (its time is printed).

Then, through the same store and read snapshot, each query is timed (median of many calls):
- `stats`: `player_stats` and `head_to_head`, as the stats command asks them;
- leaderboard page 1 (11 rows, as the command asks);
- history page 10 of a player who played every tenth game, asked by that player (offset 90);
next to the full-scan queries used before the totals (and the history read of page × 10 + 1
games), in the same run. The curve ends with the ratio of 100k to 1k for each. On PostgreSQL,
a last line counts the games rows the history page reads at each size, from its plan: a count,
the same under any load, where a time on a shared machine is not.

    python benchmarks/stats_bench.py [--sizes 1000 10000 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from contextlib import AsyncExitStack, closing
from pathlib import Path

from stats_workload import (
    ASKER,
    COLUMNS,
    GUILD,
    HISTORY_PAGE,
    Call,
    finished_rows,
    measure,
    print_table,
    store_calls,
)

from twixt.storage import SqliteStorage
from twixt.storage.schema import apply_migrations, migrations

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# the old queries, kept once in support/, shared with the test that they agree with the totals
from support.old_queries import OLD_HEAD_TO_HEAD, OLD_LEADERBOARD, OLD_RATINGS, OLD_STATS

AT = "2026-01-01T00:00:00.000000+00:00"


def build(path: Path, games: int, rng: random.Random) -> None:
    """Finished games inserted directly, on the schema before the totals."""
    apply_migrations(path, tuple(m for m in migrations() if m.version < 6))
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN")
        for table, rows in finished_rows(games, rng, AT).items():
            columns = COLUMNS[table]
            db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) "
                           f"VALUES ({', '.join('?' * len(columns))})", rows)
        db.execute("COMMIT")


def queries(store: SqliteStorage) -> dict[str, Call]:
    """What is timed on one database: the new reads and, after each, the old one."""
    asker, other = ASKER, 2

    async def old_stats() -> None:
        async with store._read() as db:  # the same snapshot and connection as the store's own
            await db.fetch_all(OLD_STATS.format(marks="?"), GUILD, other)
            await db.fetch_all(OLD_RATINGS.format(marks="?"), GUILD, other)
        async with store._read() as db:
            await db.fetch_all(OLD_HEAD_TO_HEAD, asker, other, GUILD)

    async def old_leaderboard() -> None:
        async with store._read() as db:
            ranked = [row[0] for row in
                      await db.fetch_all(OLD_LEADERBOARD, GUILD, 11, 0)]
            page = ", ".join("?" * len(ranked))
            await db.fetch_all(OLD_STATS.format(marks=page), GUILD, *ranked)
            await db.fetch_all(OLD_RATINGS.format(marks=page), GUILD, *ranked)

    offset = (HISTORY_PAGE - 1) * 10
    new = store_calls(store)
    old = [("stats, full scan", old_stats), ("leaderboard, full scan", old_leaderboard),
           (f"history page {HISTORY_PAGE}, {offset + 11} games read", lambda: store.list_games(
               user_id=asker, guild_id=GUILD, limit=offset + 11, visible_to=(1, asker)))]
    return {name: call for pair in zip(new.items(), old, strict=True) for name, call in pair}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--postgres", metavar="URL", default=None,
                        help="a PostgreSQL server to measure on (default: a throw-away one)")
    parser.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    args = parser.parse_args()
    calls: dict[tuple[str, int], dict[str, Call]] = {}
    async with AsyncExitStack() as stack:
        # beside the repository, not in /tmp, which may be a RAM disk
        folder = stack.enter_context(tempfile.TemporaryDirectory(dir=Path(__file__).parent))
        for size in args.sizes:
            path = Path(folder) / f"stats-{size}.db"
            started = time.perf_counter()
            await asyncio.to_thread(build, path, size, random.Random(size))
            built = time.perf_counter() - started
            started = time.perf_counter()
            store = await stack.enter_async_context(await SqliteStorage.open(path))
            print(f"{size:>7} finished games: inserted in {built:.1f} s; opening the file "
                  "with migration 0006 (checks, backfill of the totals) took "
                  f"{(time.perf_counter() - started) * 1000:.0f} ms")
            calls["sqlite", size] = queries(store)
        reads = ""
        if not args.no_postgres:  # its own section: stats_bench_pg.py
            from stats_bench_pg import history_reads, postgres_stores

            stores = await stack.enter_async_context(postgres_stores(args.sizes, args.postgres))
            calls.update((("postgresql", size), store_calls(pg)) for size, pg in stores.items())
            reads = await history_reads(stores)
        times = await measure(calls)
    print_table(times, args.sizes)
    print(reads)


if __name__ == "__main__":
    asyncio.run(main())
