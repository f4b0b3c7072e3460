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
games), in the same run. The curve ends with the ratio of 100k to 1k for each.

    python benchmarks/stats_bench.py [--sizes 1000 10000 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from storage import SqliteStorage
from storage.schema import migrate, migrations

GUILD = 1
PLAYERS = 200
RANKED = 100  # players with a rating (on the leaderboard)
CALLS = 400
ROUNDS = 20
HISTORY_PAGE = 10
ASKER = 1  # plays every tenth game: page 10 of their history exists at every size
AT = "2026-01-01T00:00:00.000000+00:00"

#: the queries of `stats`, head-to-head and the leaderboard before the totals, word for word
OLD_STATS = (
    "SELECT s.user_id, count(*), sum(s.winner), "
    "sum(g.result <> 'draw' AND s.winner = 0), sum(g.result = 'draw') "
    "FROM game_seats s JOIN games g ON g.id = s.game_id "
    "WHERE g.guild_id = ? AND g.status = 'finished' AND g.result <> 'aborted' "
    "AND g.opening IS NULL AND s.user_id IN ({marks}) GROUP BY s.user_id")
OLD_RATINGS = ("SELECT user_id, rating, rated_games FROM ratings "
               "WHERE guild_id = ? AND user_id IN ({marks})")
OLD_HEAD_TO_HEAD = (
    "SELECT coalesce(sum(me.winner), 0), "
    "coalesce(sum(g.result <> 'draw' AND me.winner = 0), 0), "
    "coalesce(sum(g.result = 'draw'), 0) "
    "FROM games g JOIN game_seats me ON me.game_id = g.id AND me.user_id = ? "
    "JOIN game_seats them ON them.game_id = g.id AND them.user_id = ? "
    "AND them.team <> me.team "
    "WHERE g.guild_id = ? AND g.status = 'finished' AND g.result <> 'aborted' "
    "AND g.opening IS NULL")
OLD_LEADERBOARD = ("SELECT user_id FROM ratings WHERE guild_id = ? "
                   "ORDER BY rating DESC, user_id LIMIT ? OFFSET ?")


def build(path: Path, games: int, rng: random.Random) -> None:
    """Finished games inserted directly, on the schema before the totals."""
    migrate(path, tuple(m for m in migrations() if m.version < 6))
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN")
        game_rows, seat_rows = [], []
        for game_id in range(1, games + 1):
            users = rng.sample(range(ASKER + 1, PLAYERS + 1), 4 if rng.random() < 0.1 else 2)
            if game_id % 10 == 0:
                users[rng.randrange(len(users))] = ASKER
            result = rng.choices(["red", "black", "draw", "aborted"], [45, 40, 10, 5])[0]
            opening = "0: C3\n1: F6" if rng.random() < 0.03 else None
            game_rows.append((game_id, GUILD, game_id % 500, "finished", "24x24", "classic",
                              AT, AT, result, "test", AT, opening))
            seat_rows += [(game_id, seat, user, f"player {user}",
                           int(result == ("red", "black")[seat % 2]))
                          for seat, user in enumerate(users)]
        db.executemany("INSERT INTO games (id, guild_id, channel_id, status, size, rules, "
                       "created_at, updated_at, result, reason, finished_at, opening) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", game_rows)
        db.executemany("INSERT INTO game_seats (game_id, seat, user_id, name, winner) "
                       "VALUES (?, ?, ?, ?, ?)", seat_rows)
        db.executemany("INSERT INTO ratings (guild_id, user_id, rating, rated_games, updated_at) "
                       "VALUES (?, ?, ?, ?, ?)",
                       [(GUILD, user, rng.gauss(1500, 200), 10, AT)
                        for user in range(1, RANKED + 1)])
        db.execute("COMMIT")


Call = Callable[[], Awaitable[Any]]


def queries(store: SqliteStorage) -> dict[str, Call]:
    """What is timed on one database: the new reads and, beside each, the old one."""
    asker, other = ASKER, 2

    async def new_stats() -> None:
        await store.player_stats(GUILD, other)
        await store.head_to_head(GUILD, asker, other)

    async def old_stats() -> None:
        async with store._read() as db:  # the same snapshot and connection as the store's own
            await (await db.execute(OLD_STATS.format(marks="?"), [GUILD, other])).fetchall()
            await (await db.execute(OLD_RATINGS.format(marks="?"), [GUILD, other])).fetchall()
        async with store._read() as db:
            await (await db.execute(OLD_HEAD_TO_HEAD, (asker, other, GUILD))).fetchall()

    async def old_leaderboard() -> None:
        async with store._read() as db:
            ranked = [row[0] for row in
                      await (await db.execute(OLD_LEADERBOARD, (GUILD, 11, 0))).fetchall()]
            page = ", ".join("?" * len(ranked))
            await (await db.execute(OLD_STATS.format(marks=page), [GUILD, *ranked])).fetchall()
            await (await db.execute(OLD_RATINGS.format(marks=page), [GUILD, *ranked])).fetchall()

    offset = (HISTORY_PAGE - 1) * 10
    return {
        "stats": new_stats,
        "stats, full scan": old_stats,
        "leaderboard page": lambda: store.leaderboard(GUILD, limit=11),
        "leaderboard, full scan": old_leaderboard,
        f"history page {HISTORY_PAGE}": lambda: store.list_games(
            user_id=asker, guild_id=GUILD, limit=11, offset=offset, visible_to=(1, asker)),
        f"history page {HISTORY_PAGE}, {offset + 11} games read": lambda: store.list_games(
            user_id=asker, guild_id=GUILD, limit=offset + 11, visible_to=(1, asker)),
    }


async def time_calls(call: Call, times: list[float]) -> None:
    for _ in range(CALLS // ROUNDS):
        started = time.perf_counter()
        await call()
        times.append(time.perf_counter() - started)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    sizes = parser.parse_args().sizes
    # beside the repository, not in /tmp, which may be a RAM disk
    with tempfile.TemporaryDirectory(dir=Path(__file__).parent) as folder:
        stores: dict[int, SqliteStorage] = {}
        try:
            for size in sizes:
                path = Path(folder) / f"stats-{size}.db"
                started = time.perf_counter()
                await asyncio.to_thread(build, path, size, random.Random(size))
                built = time.perf_counter() - started
                started = time.perf_counter()
                stores[size] = await SqliteStorage.open(path)
                print(f"{size:>7} finished games: inserted in {built:.1f} s; opening the file "
                      "with migration 0006 (checks, backfill of the totals) took "
                      f"{(time.perf_counter() - started) * 1000:.0f} ms")
            # the sizes take turns, round after round, so a busy moment hits them all alike
            times: dict[tuple[str, int], list[float]] = {}
            for _ in range(ROUNDS):
                for size, store in stores.items():
                    for name, call in queries(store).items():
                        await time_calls(call, times.setdefault((name, size), []))
        finally:
            for store in stores.values():
                await store.close()
    print()
    header = "".join(f"{size:>10,}" for size in sizes)
    print(f"{'median ms per call':<34}{header}   ratio {sizes[-1]:,}/{sizes[0]:,}")
    for name in queries(stores[sizes[0]]):
        values = [statistics.median(times[name, size]) * 1000 for size in sizes]
        figures = "".join(f"{ms:>10.3f}" for ms in values)
        print(f"{name:<34}{figures}   {values[-1] / values[0]:>6.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
