"""Where is it my move: `next` and the daily digest against the number of games and players.

For each size (10k and 100k games in progress by default, one player for every five games,
one player in a hundred taking a digest) a fresh database is filled directly: the games, their
seats, whose move each waits for (half of them clocked), and the digests, fifty of them due at
the measured moment whatever the size. Then, on SQLite and on PostgreSQL (a throw-away server
unless `--postgres URL`, see `postgres_bench.py`), each is timed (median of many calls):

- `next`: one player's most urgent waiting game (`Storage.waiting_games`, limit 2, as `next`
  asks) — a player with 20 games waiting, the same at every size;
- the digests due (`Storage.due_digests`) at the moment fifty are due;
- a whole digest round as the clocks' tick runs it (`YourMove.digests`: the due digests
  claimed and moved on, each player's waiting games read, fifty messages made), on a copy
  of the database each time so that every round finds fifty due.

The line ends with the ratio of the largest size to the smallest: flat means about 1.

    python benchmarks/digest_bench.py [--sizes 10000 100000] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack, closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
from postgres_bench import new_database, postgres_server

from twixt.service import TwixtService
from twixt.storage import SqliteStorage, Storage
from twixt.storage import waiting as waits
from twixt.storage.backends.postgres import PostgresStorage

NOW = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)
GAMES_PER_PLAYER = 5
ASKER = 1          # the measured player
ASKER_WAITING = 20
DUE = 50           # digests due at NOW, at every size
GAME_COLUMNS = ("id", "guild_id", "channel_id", "status", "size", "rules", "swap", "handicap",
                "time_control", "version", "created_at", "updated_at", "to_move_id", "due_at",
                "waiting_since")
SEAT_COLUMNS = ("game_id", "seat", "user_id", "name")
DIGEST_COLUMNS = ("user_id", "hour", "zone", "locale", "next_at")


def rows(games: int, rng: random.Random) -> dict[str, list[tuple[object, ...]]]:
    """Games in progress in 50 servers and in DMs, each waiting for one of its two players;
    the asker waits in `ASKER_WAITING` of them; digests for one player in a hundred."""
    players = max(games // GAMES_PER_PLAYER, 100)
    game_rows: list[tuple[object, ...]] = []
    seat_rows: list[tuple[object, ...]] = []
    for game_id in range(1, games + 1):
        red = ASKER if game_id <= ASKER_WAITING else rng.randrange(2, players)
        black = rng.randrange(2, players)
        while black == red:
            black = rng.randrange(2, players)
        since = NOW - timedelta(minutes=rng.randrange(1, 60 * 24 * 20))
        clocked = game_id % 2 == 0
        due = since + timedelta(days=3) if clocked else None
        guild = 0 if game_id % 10 == 0 else 1000 + game_id % 50
        game_rows.append((game_id, guild, 10_000_000 + game_id, "active", "24", "classic",
                          True, 0, "3d" if clocked else None, 1, since, since, red, due, since))
        seat_rows += [(game_id, 0, red, f"p{red}"), (game_id, 1, black, f"p{black}")]
    subscribers = rng.sample(range(2, players), max(players // 100, DUE))
    digest_rows: list[tuple[object, ...]] = [(uid, 8, "Europe/Berlin", "en",
                    NOW - timedelta(minutes=1) if index < DUE else NOW + timedelta(hours=1 + index))
                   for index, uid in enumerate(subscribers)]
    return {"games": game_rows, "game_seats": seat_rows, "digests": digest_rows}


def _sqlite_value(value: object) -> object:
    return value.isoformat(timespec="microseconds") if isinstance(value, datetime) else value


async def sqlite_file(folder: Path, games: int) -> Path:
    """A migrated SQLite file holding the rows."""
    path = folder / f"digest-{games}.db"
    async with await SqliteStorage.open(path):
        pass
    with closing(sqlite3.connect(path)) as db, db:
        for table, records in rows(games, random.Random(games)).items():
            columns = {"games": GAME_COLUMNS, "game_seats": SEAT_COLUMNS,
                       "digests": DIGEST_COLUMNS}[table]
            db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                           f"({', '.join('?' * len(columns))})",
                           [tuple(_sqlite_value(v) for v in record) for record in records])
        db.execute("ANALYZE")
    return path


async def postgres_database(url: str, games: int) -> None:
    """The same rows in a migrated PostgreSQL database, analysed."""
    async with await PostgresStorage.open(url):
        pass
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            for table, records in rows(games, random.Random(games)).items():
                columns = {"games": GAME_COLUMNS, "game_seats": SEAT_COLUMNS,
                           "digests": DIGEST_COLUMNS}[table]
                await conn.copy_records_to_table(table, columns=columns, records=records)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def median_ms(call: Callable[[], Awaitable[object]], times: int) -> float:
    """The median of `times` calls, after a few that warm the caches and the pool."""
    for _ in range(20):
        await call()
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        await call()
        spent.append(time.perf_counter() - started)
    return statistics.median(spent) * 1000


async def lookups(store: Storage) -> tuple[float, float]:
    async def next_game() -> None:
        found = await store.waiting_games(ASKER, 2)
        assert len(found) == 2

    async def due() -> None:
        assert len(await store.due_digests(NOW, 100)) == DUE

    return await median_ms(next_game, 300), await median_ms(due, 300)


async def digest_round(store: Storage) -> int:
    service = TwixtService(store, clock=lambda: NOW)
    return len(await service.your_move.digests(NOW))


async def sqlite_figures(folder: Path, games: int) -> tuple[float, float, float]:
    path = await sqlite_file(folder, games)
    with closing(sqlite3.connect(path)) as db:
        for sql, values in ((waits.WAITING_FOR, (ASKER, 2)),
                            (waits.DUE_DIGESTS, (_sqlite_value(NOW), 100))):
            plan = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", values)]
            print(f"SQLite {games} games, plan: {'; '.join(plan)}")
    async with await SqliteStorage.open(path) as store:
        next_ms, due_ms = await lookups(store)
    rounds = []
    for attempt in range(5):
        copy = folder / f"round-{games}-{attempt}.db"
        shutil.copy(path, copy)
        async with await SqliteStorage.open(copy) as store:
            started = time.perf_counter()
            said = await digest_round(store)
            rounds.append(time.perf_counter() - started)
        assert said > 0, "no digest said"
        copy.unlink()
    return next_ms, due_ms, statistics.median(rounds) * 1000


async def postgres_figures(server: str, games: int) -> tuple[float, float, float]:
    rounds = []
    async with new_database(server) as url:
        await postgres_database(url, games)
        conn = await asyncpg.connect(url)
        for sql, values in ((waits.WAITING_FOR, (ASKER, 2)), (waits.DUE_DIGESTS, (NOW, 100))):
            numbered = sql
            for number in range(1, sql.count("?") + 1):
                numbered = numbered.replace("?", f"${number}", 1)
            plan = [row[0] for row in await conn.fetch(f"EXPLAIN {numbered}", *values)]
            scans = [line.strip(" ->") for line in plan if "Scan" in line]
            print(f"PostgreSQL {games} games, plan: {'; '.join(scans)}")
        await conn.close()
        async with await PostgresStorage.open(url) as store:
            next_ms, due_ms = await lookups(store)
            for _ in range(5):
                conn = await asyncpg.connect(url)
                await conn.execute("UPDATE digests SET next_at = $1 WHERE user_id IN "
                                   "(SELECT user_id FROM digests ORDER BY next_at LIMIT $2)",
                                   NOW - timedelta(minutes=1), DUE)
                await conn.close()
                started = time.perf_counter()
                said = await digest_round(store)
                rounds.append(time.perf_counter() - started)
                assert said > 0, "no digest said"
    return next_ms, due_ms, statistics.median(rounds) * 1000


def report(backend: str, figures: dict[int, tuple[float, float, float]]) -> None:
    sizes = sorted(figures)
    print(f"\n{backend}: median ms")
    print(f"{'games':>8} {'next':>8} {'due digests':>12} {'digest round (50)':>18}")
    for size in sizes:
        next_ms, due_ms, round_ms = figures[size]
        print(f"{size:>8} {next_ms:>8.3f} {due_ms:>12.3f} {round_ms:>18.1f}")
    if len(sizes) > 1:
        first, last = figures[sizes[0]], figures[sizes[-1]]
        ratios = [b / a for a, b in zip(first, last, strict=True)]
        print(f"{f'{sizes[-1]}/{sizes[0]}':>8} {ratios[0]:>7.2f}x {ratios[1]:>11.2f}x "
              f"{ratios[2]:>17.2f}x")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--postgres", help="a PostgreSQL server's URL (default: a throw-away)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=Path(__file__).parent) as folder:
        report("SQLite", {size: await sqlite_figures(Path(folder), size)
                          for size in args.sizes})
    async with AsyncExitStack() as stack:
        server = await stack.enter_async_context(postgres_server(args.postgres))
        if server is not None:
            report("PostgreSQL", {size: await postgres_figures(server, size)
                                  for size in args.sizes})


if __name__ == "__main__":
    asyncio.run(main())
