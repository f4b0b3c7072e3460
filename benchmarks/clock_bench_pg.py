"""The PostgreSQL section of `clock_bench.py`: the tick with nothing due on `PostgresStorage`
at the same sizes, next to SQLite's, with the ratio PostgreSQL / SQLite.

Each size gets a new database (on a throw-away server unless `--postgres URL`, see
`postgres_bench.py`) holding the same games as SQLite's file, written with COPY and then
analysed (as autovacuum would soon do), so that the planner knows the tables' sizes. The tick
timed is the same `TwixtService.tick()`: expired challenges, undelivered reminders and
`claim_due_games` (an index look on `wake_at`), which finds none.
"""

from __future__ import annotations

import random
import statistics

import asyncpg
from clock_workload import clock_rows, idle_ticks
from postgres_bench import new_database, postgres_server

from twixt.storage.backends.postgres import PostgresStorage

GAME_COLUMNS = ["id", "guild_id", "channel_id", "time_control", "version", "created_at",
                "updated_at", "wake_at"]


async def fill(url: str, games: int, rng: random.Random) -> None:
    """`games` active clocked games (see `clock_rows`) copied into the database at `url`."""
    game_rows, seat_rows, turn_rows = clock_rows(games, rng, lambda moment: moment)
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            # the columns COPY leaves out take their defaults; these are what SQLite's get
            await conn.copy_records_to_table(
                "games", records=[(*row, "24x24", "classic", False) for row in game_rows],
                columns=[*GAME_COLUMNS, "size", "rules", "swap"])
            await conn.copy_records_to_table(
                "game_seats", records=seat_rows, columns=["game_id", "seat", "user_id", "name"])
            await conn.copy_records_to_table(
                "turns", records=turn_rows,
                columns=["game_id", "number", "actor_id", "command", "played_at"])
            await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), $1)",
                               games)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def postgres_section(sizes: list[int], repeat: int, sqlite_medians: dict[int, float],
                           url: str | None) -> None:
    async with postgres_server(url) as server_url:
        if server_url is None:
            return
        print(f"\nPostgreSQL: the same tick with nothing due (median and slowest of {repeat}),"
              " next to SQLite's")
        print(f"  {'timed games':>11}  {'sqlite':>9}  {'postgresql':>10}  {'slowest':>9}  "
              f"{'postgresql/sqlite':>17}")
        medians = []
        for size in sizes:
            async with new_database(server_url) as database:
                await (await PostgresStorage.open(database)).close()  # the schema
                await fill(database, size, random.Random(size))
                async with await PostgresStorage.open(database) as storage:
                    _, ticks = await idle_ticks(storage, repeat)
            median, slowest = statistics.median(ticks), max(ticks)
            medians.append(median)
            sqlite = sqlite_medians.get(size)
            sqlite_text = "—" if sqlite is None else f"{sqlite * 1000:.2f}ms"
            ratio = "—" if sqlite is None else f"{median / sqlite:.2f}×"
            print(f"  {size:>11,}  {sqlite_text:>9}  {median * 1000:>8.2f}ms  "
                  f"{slowest * 1000:>7.2f}ms  {ratio:>17}", flush=True)
        if len(medians) > 1:
            print(f"  growth from {sizes[0]:,} to {sizes[-1]:,} games: "
                  f"postgresql {medians[-1] / medians[0]:.2f}×")
