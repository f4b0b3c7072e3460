"""Speed of durable storage: turns committed per second with many games played at once.

Each round opens a fresh SQLite file (WAL, synchronous=FULL), creates the games and lets one
asyncio task a game append pre-played legal turns as fast as storage takes them: every turn
is acknowledged only once it is committed and fsynced, each under its version check. The
tasks form a closed loop (each sends its next turn when the last one is acknowledged), so the
latency under load includes the queue for SQLite's single writer: by Little's law it is about
games / throughput.

The floors, measured in the same run on a file with the same schema and games: raw sqlite3 in
one thread (WAL, synchronous=FULL), the games' turns interleaved, with no queue, so their
latency is one commit's. First one `INSERT` into `turns` and one `COMMIT` a turn; then as many
turns to a commit as the storage's group commit put in one in the same round (printed), each
turn one `INSERT` (`executemany`); and the same again writing the rows the storage writes: its
two statements, each once for all the commit's turns (`executemany`, as the storage runs them):
`games.MOVE_GAME`, the game moved on under its version check with its wake-up and whose move it
now waits for since when, and `games.LOG_TURN`, the turn, each turn at a moment of its own, the
values made before the clock starts. The storage is given the same turns as the service gives
them (each at its moment, saying that the game now waits for the other player since then; these
values, as the floors' rows, made before the clock starts: `storage_workload.waiting_turns`), so
both change the same rows and the same indexes (`games_waiting_for` too). The storage's
turns/s is compared with each floor, and its CPU time a turn
(the process's, which load moves far less than the time by the clock: on a shared machine the
fsyncs wait for other programs' writes); the `aim` line says whether the storage's turns/s is
at least half that of the floor writing its rows (issue 46). A last line plays games one at a
time: a lone turn's latency, with nothing to group it with.

    python benchmarks/storage_bench.py                      # 1,000 and 10,000 games at once
    python benchmarks/storage_bench.py --games 1000 --rounds 5
    python benchmarks/storage_bench.py --games 1000 10000 100000 --turns 4
    python benchmarks/storage_bench.py --no-postgres         # SQLite only
    python benchmarks/storage_bench.py --no-sqlite           # PostgreSQL only
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
import statistics
import tempfile
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage_workload import Figures, create_games, load_line, play_all, played_logs

from twixt.app import freeze_start_up
from twixt.storage import SqliteStorage, rows
from twixt.storage.games import LOG_TURN, MOVE_GAME

ALONE_GAMES = 100
#: the turns/s SQLite's storage should reach, as a share of the floor writing its rows as many
#: to a commit (issue 46)
AIM = 0.5
LOG = ("INSERT INTO turns (game_id, number, actor_id, command, played_at) "
       "VALUES (?, ?, ?, ?, datetime('now'))")


async def storage_round(path: Path, games: int, logs: list[list[str]],
                        at_once: bool) -> tuple[float, list[float], float, float]:
    """Turns per second, each turn's latency, the process's CPU time a turn and the turns a
    commit: all games at once, or one by one."""
    async with await SqliteStorage.open(path) as store:
        ids = await create_games(store, games)
        group = store._writes
        batches, writes = group.batches, group.writes
        cpu = time.process_time()
        rate, latencies = await play_all(store, ids, logs, at_once, waiting=True)
        cpu = (time.process_time() - cpu) / len(latencies)
        return rate, latencies, cpu, (group.writes - writes) / max(1, group.batches - batches)


async def raw_round(path: Path, games: int, logs: list[list[str]], batch: int, *,
                    move_games: bool = False) -> tuple[float, list[float], float]:
    """The same turns through raw sqlite3, `batch` of them a commit, one thread; with
    `move_games`, in the storage's two statements a turn."""
    async with await SqliteStorage.open(path) as store:  # the same schema and games
        ids = await create_games(store, games)
    turns = [(game_id, number + 1, 1 + number % 2, text)
             for number in range(max(map(len, logs)))
             for i, game_id in enumerate(ids)
             for text in logs[i % len(logs)][number:number + 1]]
    return await asyncio.to_thread(raw_commits, path, turns, batch, move_games)


def raw_commits(path: Path, turns: list[tuple[int, int, int, str]], batch: int,
                move_games: bool) -> tuple[float, list[float], float]:
    """Turns per second, each turn's latency (a commit's counts once for each of its turns),
    and the process's CPU time a turn."""
    latencies = []
    (move, move_width), (log, log_width) = MOVE_GAME, LOG_TURN
    began = datetime.now(UTC)
    # each turn's row as the storage's, at a moment of its own: the game now waits for the
    # other player since then
    moved = [(game_id, number - 1, actor_id, command, at, None, True, 3 - actor_id, None, at)
             for i, (game_id, number, actor_id, command) in enumerate(turns)
             for at in [rows.stamp(began + timedelta(microseconds=i))]]
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
            db.execute(f"PRAGMA {pragma}")
        started, cpu = time.perf_counter(), time.process_time()
        for first in range(0, len(turns), batch):
            together = turns[first:first + batch]
            begun = time.perf_counter()
            db.execute("BEGIN")
            if move_games:
                values = moved[first:first + batch]
                db.executemany(move, [row[:move_width] for row in values])
                db.executemany(log, [row[:log_width] for row in values])
            else:
                db.executemany(LOG, together)
            db.execute("COMMIT")
            latencies.extend([time.perf_counter() - begun] * len(together))
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    return len(turns) / elapsed, latencies, cpu / len(turns)


async def sqlite_section(games_list: list[int], rounds: int,
                         logs: list[list[str]]) -> dict[int, float]:
    """SQLite's lines, beside its floors in the same rounds; its turns/s for each count of
    games."""
    # beside the repository, not in /tmp, which may be a RAM disk where fsync is free
    here = Path(__file__).parent
    sqlite_rates: dict[int, float] = {}
    for games in games_list:
        storage, raw, together, moved = Figures(), Figures(), Figures(), Figures()
        batches = []
        for _ in range(rounds):
            with tempfile.TemporaryDirectory(dir=here) as folder:
                rate, latencies, cpu, batch = await storage_round(Path(folder) / "bench.db",
                                                                  games, logs, True)
                storage.add(rate, latencies, cpu=cpu)
                batches.append(batch)
            for figures, size, move_games in ((raw, 1, False), (together, round(batch), False),
                                              (moved, round(batch), True)):
                with tempfile.TemporaryDirectory(dir=here) as folder:
                    rate, latencies, cpu = await raw_round(Path(folder) / "raw.db", games, logs,
                                                           size, move_games=move_games)
                    figures.add(rate, latencies, cpu=cpu)
        print(storage.line(f"storage, {games} games at once"))
        print(f"{'turns a commit':>34}: {statistics.mean(batches):7.1f} on average")
        print(raw.line("raw sqlite3, a commit a turn"))
        print(together.line("raw sqlite3, as many a commit"))
        print(moved.line("the same, the storage's rows"))
        for label, floor in (("a commit a turn", raw), ("as many a commit", together),
                             ("the storage's rows", moved)):
            print(f"{'storage / ' + label:>34}: {storage.rate / floor.rate:7.2f}× the turns/s, "
                  f"{storage.cpu / floor.cpu:5.1f}× the CPU a turn")
        share = storage.rate / moved.rate
        print(f"{'aim (issue 46)':>34}: the storage's rows' turns/s × {AIM:.2f} or more: "
              f"{share:.3f}×, {'met' if share >= AIM else 'not met'}")
        print(load_line())
        sqlite_rates[games] = storage.rate
    alone = Figures()
    for _ in range(rounds):
        with tempfile.TemporaryDirectory(dir=here) as folder:
            rate, latencies, cpu, _ = await storage_round(Path(folder) / "bench.db",
                                                          ALONE_GAMES, logs, False)
            alone.add(rate, latencies, cpu=cpu)
    print(alone.line("storage, one game at a time"))
    return sqlite_rates


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
    measured = parser.add_mutually_exclusive_group()
    measured.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    measured.add_argument("--no-sqlite", action="store_true", help="measure PostgreSQL only")
    args = parser.parse_args()
    logs = played_logs(random.Random(1), args.turns)
    freeze_start_up()  # as the bot does once started: no full collection walks start-up's objects
    print(f"{args.turns} turns a game, median of {args.rounds} rounds; {load_line().strip()}")
    sqlite_rates = ({} if args.no_sqlite
                    else await sqlite_section(args.games, args.rounds, logs))
    if not args.no_postgres:  # its own section: storage_bench_pg.py
        from storage_bench_pg import postgres_section

        await postgres_section(args.games, args.rounds, logs, sqlite_rates, args.postgres,
                               args.pg_connections)


if __name__ == "__main__":
    asyncio.run(main())
