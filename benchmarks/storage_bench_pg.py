"""The PostgreSQL section of `storage_bench.py`: the same games and turns on `PostgresStorage`,
next to SQLite's, with raw asyncpg as the floor in the same run.

The server is a throw-away one started here (its data beside the repository, like SQLite's
files, since /tmp may be a RAM disk where fsync is free), with PostgreSQL's defaults for
durability (fsync on, synchronous_commit on): a turn is acknowledged once its commit is flushed.
Or pass `--postgres URL` for a server of your own (each round makes and drops a database).

The floor: raw asyncpg through a pool of the same size, one task a game as for the storage,
each turn one `INSERT` into `turns` committed on its own (autocommit: one round trip and one
WAL flush, the least a durable turn can cost), on a database with the same schema and games.
"""

from __future__ import annotations

import asyncio
import time

import asyncpg
from postgres_bench import new_database, postgres_server
from storage_workload import Figures, create_games, play_all

from twixt.storage.postgres import PostgresStorage


async def storage_round(url: str, games: int, logs: list[list[str]],
                        connections: int) -> tuple[float, list[float]]:
    async with await PostgresStorage.open(url, max_connections=connections) as store:
        return await play_all(store, await create_games(store, games), logs)


async def raw_round(url: str, games: int, logs: list[list[str]],
                    connections: int) -> tuple[float, list[float]]:
    async with await PostgresStorage.open(url) as store:  # the same schema and games
        ids = await create_games(store, games)
    latencies: list[float] = []
    async with asyncpg.create_pool(url, min_size=connections, max_size=connections) as pool:

        async def raw_play(game_id: int, log: list[str]) -> None:
            for number, text in enumerate(log, 1):
                begun = time.perf_counter()
                async with pool.acquire() as conn:
                    await conn.execute(
                        "INSERT INTO turns (game_id, number, actor_id, command, played_at) "
                        "VALUES ($1, $2, $3, $4, now())", game_id, number, 1 + number % 2, text)
                latencies.append(time.perf_counter() - begun)

        started = time.perf_counter()
        await asyncio.gather(*(raw_play(game_id, logs[i % len(logs)])
                               for i, game_id in enumerate(ids)))
        elapsed = time.perf_counter() - started
    return len(latencies) / elapsed, latencies


async def postgres_section(games_list: list[int], rounds: int, logs: list[list[str]],
                           sqlite_rates: dict[int, float], url: str | None,
                           connections: int) -> None:
    async with postgres_server(url) as server_url:
        if server_url is None:
            return
        print(f"PostgreSQL ({connections} connections a pool):")
        for games in games_list:
            storage, raw = Figures(), Figures()
            for _ in range(rounds):
                for figures, measure in ((storage, storage_round), (raw, raw_round)):
                    async with new_database(server_url) as database:
                        figures.add(*await measure(database, games, logs, connections))
            print(storage.line(f"postgresql, {games} games at once"))
            print(raw.line("raw asyncpg, INSERT+COMMIT a turn"))
            print(f"{'postgresql / raw asyncpg':>34}: {storage.rate / raw.rate:7.2f}×")
            if games in sqlite_rates:
                print(f"{'postgresql / sqlite storage':>34}: "
                      f"{storage.rate / sqlite_rates[games]:7.2f}×")
