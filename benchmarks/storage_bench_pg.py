"""The PostgreSQL section of `storage_bench.py`: the same games and turns on `PostgresStorage`,
next to SQLite's, with raw asyncpg as the floor in the same run.

The server is a throw-away one started here (its data beside the repository, like SQLite's
files, since /tmp may be a RAM disk where fsync is free), with PostgreSQL's defaults for
durability (fsync on, synchronous_commit on): a turn is acknowledged once its commit is flushed.
Or pass `--postgres URL` for a server of your own (each round makes and drops a database).

The floor: raw asyncpg through a pool of the same size, one task a game as for the storage,
each turn one `INSERT` into `turns` committed on its own (autocommit: one WAL flush, the least
a durable turn can cost), on a database with the same schema and games. Twice: the pool as
asyncpg ships it, which sends its reset query when a connection is handed back (a second
round trip a turn), and the pool told to skip it (one round trip a turn). Each line is followed
by the part of a turn spent waiting for a connection (timed in the storage from the call until
its batch is written: the line and the pool's hand-over), and the storage's turns/s is compared
with both floors. The storage writes the turns that waited in line together in one statement
(`twixt.storage.backends.postgres_line`): how many a statement wrote is printed too, and the
garbage collector's runs during the storage's rounds (the full ones, and the longest), each a
stall of every turn under way.

Before the measured rounds, one round of the storage is played and not counted: a server
that has run, as a deployed one has, holds WAL files to recycle, where a new one (the
throw-away server) makes each 16 MB file the first time its WAL reaches it, writing it full of
zeros and fsyncing it inside the commit that crossed into it. That fell in the first measured
round of every run (+50-85 ms on one batch, and on every batch in line behind it), once in the
server's life.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

import asyncpg
from postgres_bench import new_database, postgres_server
from storage_workload import (
    COLLECTIONS,
    Figures,
    collections_line,
    create_games,
    load_line,
    play_all,
)

from twixt.storage.backends.postgres import PostgresStorage
from twixt.storage.backends.postgres_line import PendingTurn

Measured = tuple[float, list[float], list[float]]  # turns/s, latencies, waits (s)
#: how many turns each statement of the storage wrote, in the rounds of one curve point
BATCHES: list[int] = []


class TimedStorage(PostgresStorage):
    """The storage, timing each turn's wait for a connection (from its call until its batch
    is written) and counting the turns each statement writes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waits: list[float] = []
        self.batches: list[int] = []
        self._asked: dict[tuple[int, int], float] = {}

    async def append_turn(self, game_id: int, expected_version: int, *args: Any,
                          **kwargs: Any) -> int:
        self._asked[game_id, expected_version] = time.perf_counter()
        return await super().append_turn(game_id, expected_version, *args, **kwargs)

    async def _write_turns(self, turns: list[PendingTurn]) -> None:
        now = time.perf_counter()
        self.batches.append(len(turns))
        self.waits.extend(now - self._asked.pop((turn.game_id, turn.expected_version))
                          for turn in turns)
        await super()._write_turns(turns)


async def storage_round(url: str, games: int, logs: list[list[str]],
                        connections: int) -> Measured:
    # the pool filled before the clock starts, as the floor's is (`min_size`)
    async with await TimedStorage.open(url, min_connections=connections,
                                       max_connections=connections) as store:
        ids = await create_games(store, games)
        store.waits.clear()
        store.batches.clear()
        played = await play_all(store, ids, logs)
        BATCHES.extend(store.batches)
        return (*played, store.waits)


async def keep_session(conn: object) -> None:
    """A pool's `reset` that sends nothing (asyncpg still rolls back an open transaction)."""


async def raw_round(url: str, games: int, logs: list[list[str]], connections: int, *,
                    reset: bool) -> Measured:
    async with await PostgresStorage.open(url) as store:  # the same schema and games
        ids = await create_games(store, games)
    latencies: list[float] = []
    waits: list[float] = []
    async with asyncpg.create_pool(url, min_size=connections, max_size=connections,
                                   reset=None if reset else keep_session) as pool:

        async def raw_play(game_id: int, log: list[str]) -> None:
            for number, text in enumerate(log, 1):
                begun = time.perf_counter()
                async with pool.acquire() as conn:
                    waits.append(time.perf_counter() - begun)
                    await conn.execute(
                        "INSERT INTO turns (game_id, number, actor_id, command, played_at) "
                        "VALUES ($1, $2, $3, $4, now())", game_id, number, 1 + number % 2, text)
                latencies.append(time.perf_counter() - begun)

        started = time.perf_counter()
        await asyncio.gather(*(raw_play(game_id, logs[i % len(logs)])
                               for i, game_id in enumerate(ids)))
        elapsed = time.perf_counter() - started
    return len(latencies) / elapsed, latencies, waits


async def raw_reset_round(url: str, games: int, logs: list[list[str]],
                          connections: int) -> Measured:
    return await raw_round(url, games, logs, connections, reset=True)


async def raw_one_trip_round(url: str, games: int, logs: list[list[str]],
                             connections: int) -> Measured:
    return await raw_round(url, games, logs, connections, reset=False)


async def postgres_section(games_list: list[int], rounds: int, logs: list[list[str]],
                           sqlite_rates: dict[int, float], url: str | None,
                           connections: int) -> None:
    async with postgres_server(url) as server_url:
        if server_url is None:
            return
        print(f"PostgreSQL ({connections} connections a pool):")
        # a round not counted: the server's WAL files made, as a deployed server's are
        async with new_database(server_url) as database:
            await storage_round(database, games_list[0], logs, connections)
        for games in games_list:
            storage, raw, one_trip = Figures(), Figures(), Figures()
            BATCHES.clear()
            storage_collections: list[tuple[int, float]] = []
            for _ in range(rounds):
                for figures, measure in ((storage, storage_round), (raw, raw_reset_round),
                                         (one_trip, raw_one_trip_round)):
                    COLLECTIONS.clear()
                    async with new_database(server_url) as database:
                        figures.add(*await measure(database, games, logs, connections))
                    if figures is storage:
                        storage_collections += COLLECTIONS
            print(storage.line(f"postgresql, {games} games at once"))
            print(storage.wait_line())
            print(f"{'postgresql p99 / p50':>34}: {storage.tail:7.2f}×")
            print(load_line())
            COLLECTIONS[:] = storage_collections
            print(collections_line())
            print(f"{'turns a statement':>34}: {statistics.mean(BATCHES):7.1f} on average, "
                  f"{max(BATCHES)} at most ({len(BATCHES)} statements)")
            print(raw.line("raw asyncpg, INSERT+COMMIT a turn"))
            print(raw.wait_line())
            print(one_trip.line("raw asyncpg, no reset on hand-back"))
            print(one_trip.wait_line())
            print(f"{'postgresql / raw asyncpg':>34}: {storage.rate / raw.rate:7.2f}×")
            print(f"{'postgresql / raw, no reset':>34}: {storage.rate / one_trip.rate:7.2f}×")
            if games in sqlite_rates:
                print(f"{'postgresql / sqlite storage':>34}: "
                      f"{storage.rate / sqlite_rates[games]:7.2f}×")
