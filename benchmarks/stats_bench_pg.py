"""The PostgreSQL section of `stats_bench.py`: the same `stats`, leaderboard page and history
page on `PostgresStorage` at the same sizes, next to SQLite's.

Each size gets a new database (on a throw-away server unless `--postgres URL`, see
`postgres_bench.py`) holding the same finished games and ratings as SQLite's file: the schema
before the totals (migrations 0001-0002), the rows written with COPY in one transaction, then
opening the store applies migration 0003, whose backfill counts them into player_totals and
pair_totals (its time is printed); the tables are then analysed, as autovacuum soon would.
"""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import UTC, datetime

import asyncpg
from postgres_bench import new_database, postgres_server
from stats_workload import COLUMNS, HISTORY_PAGE, finished_rows, store_calls

from support.pg_plans import history_page_reads  # stats_bench.py puts the repository on the path
from twixt.storage.backends.postgres import (
    PostgresConnection,
    PostgresStorage,
    _migrate,
    migrations,
)

AT = datetime(2026, 1, 1, tzinfo=UTC)
BEFORE_TOTALS = 2  # migration 0003 adds the totals


async def fill(url: str, games: int, rng: random.Random) -> None:
    """The schema before the totals and the finished games copied in."""
    conn = await asyncpg.connect(url)
    try:
        await _migrate(PostgresConnection(conn), "the benchmark's database",
                       migrations()[:BEFORE_TOTALS])
        async with conn.transaction():
            for table, records in finished_rows(games, rng, AT).items():
                await conn.copy_records_to_table(table, columns=COLUMNS[table],
                                                 records=records)
    finally:
        await conn.close()


@asynccontextmanager
async def postgres_stores(sizes: list[int], url: str | None
                          ) -> AsyncIterator[dict[int, PostgresStorage]]:
    """A store a size, its database filled as SQLite's file; none without PostgreSQL."""
    async with postgres_server(url) as server_url, AsyncExitStack() as stack:
        stores: dict[int, PostgresStorage] = {}
        if server_url is None:
            yield stores
            return
        for size in sizes:
            database = await stack.enter_async_context(new_database(server_url))
            started = time.perf_counter()
            await fill(database, size, random.Random(size))
            built = time.perf_counter() - started
            started = time.perf_counter()
            stores[size] = await stack.enter_async_context(
                await PostgresStorage.open(database))
            opened = time.perf_counter() - started
            async with stores[size]._single() as db:
                await db.execute("ANALYZE")
            print(f"{size:>7} finished games on PostgreSQL: copied in {built:.1f} s; opening "
                  f"with migration 0003 (backfill of the totals) took {opened * 1000:.0f} ms")
        yield stores


async def history_reads(stores: dict[int, PostgresStorage]) -> str:
    """A line: the games rows the timed history page reads at each size, counted in its plan
    (through a store of one connection on the same database, whose statements are seen)."""
    reads = []
    for size, store in stores.items():
        async with await PostgresStorage.open(store.url, max_connections=1) as alone:
            page = store_calls(alone)[f"history page {HISTORY_PAGE}"]
            reads.append(f"{size:,}: {await history_page_reads(alone, page)}")
    return (f"history page {HISTORY_PAGE} on PostgreSQL, games rows read (its plan's count): "
            + ", ".join(reads))
