"""The clocks at 1k, 10k and 100k timed games: a tick with nothing due, and turns' latency
while ticks run.

Each size gets a fresh SQLite file holding that many active games with a clock of three days
(six turns each, the turn begun 0 to 23 hours ago, so no reminder is due), written straight
into the tables. Two ticks are timed in the same run on the same file:

- *before*: the tick as it was up to migration 0005 — every timed game read (`timed_games`:
  all active games with their seats), its log replayed unless cached (the cache holds 2,048
  games) to find when its turn began, and its server's settings read — each game checked for
  a passed mark. Timed in steady state: after one tick has filled the cache where it can.
- *after*: `TwixtService.tick()` — expired challenges, undelivered reminders, and the games
  whose stored wake-up has come (an index look), which here are none.

Then turns' latency: channels play clocked games through the whole service (rules, commit
with its wake-up, board picture) among the timed games: alone, while the new tick runs once
a second (the dispatcher's beat when wake-ups are near), while it runs back to back, and
while the old tick runs back to back (as it did for most of every minute from a few
thousand games on).

    python benchmarks/clock_bench.py                      # 1k, 10k, 100k; turns at 10k
    python benchmarks/clock_bench.py --sizes 1000 10000 --turn-games 1000
    python benchmarks/clock_bench.py --no-postgres             # SQLite only
    python benchmarks/clock_bench.py --postgres postgresql://…   # your own server

Then the same tick with nothing due on PostgreSQL at the same sizes, next to SQLite's, with
the ratio PostgreSQL / SQLite (clock_bench_pg.py says how); the turns are SQLite's only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import statistics
import tempfile
import time
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from clock_workload import NOW, TIME, clock_rows, idle_ticks

from twixt.rules import Game
from twixt.service import Request, TwixtService, User, build_options
from twixt.service.cases.clocks import RESEND_AFTER
from twixt.service.commands import router
from twixt.service.pure.clock.timecontrol import clock_marks, time_control_of
from twixt.storage import GameStatus, SqliteStorage
from twixt.storage.rows import stamp


def fill(path: Path, games: int, rng: random.Random) -> None:
    """`games` active clocked games (see `clock_rows`) written into a new SQLite file."""
    game_rows, seat_rows, turn_rows = clock_rows(games, rng, stamp)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, size, rules, swap, time_control, "
            "version, created_at, updated_at, wake_at) "
            "VALUES (?, ?, ?, '24x24', 'classic', 0, ?, ?, ?, ?, ?)", game_rows)
        conn.executemany("INSERT INTO game_seats (game_id, seat, user_id, name) "
                         "VALUES (?, ?, ?, ?)", seat_rows)
        conn.executemany("INSERT INTO turns (game_id, number, actor_id, command, played_at) "
                         "VALUES (?, ?, ?, ?, ?)", turn_rows)


async def old_tick(service: TwixtService, now: datetime) -> int:
    """The tick before stored wake-ups: every timed game read and checked. Returns how many
    games had a mark passed (none here)."""
    desk, storage = service.desk, service.desk.storage
    await storage.expire_challenges(now)
    await storage.reclaim_reminders(now - RESEND_AFTER, now)
    passed = 0
    # `timed_games()` was this query: every active game with a clock, with its seats
    for stored in await storage.list_games(status=GameStatus.ACTIVE, limit=-1):
        if not stored.setup.time_control:
            continue
        turn_started = (await desk.live(stored)).turn_started  # the log, unless cached
        settings = await storage.guild_settings(stored.guild_id)
        marks = clock_marks(turn_started, time_control_of(stored.setup.time_control).start,
                            settings.reminder_hours)
        passed += now >= (marks.first or marks.final)
    return passed


async def tick_curve(sizes: list[int], repeat: int) -> dict[int, float]:
    """Prints the SQLite curve; returns the new tick's median seconds at each size."""
    print(f"tick with nothing due (after: median and slowest of {repeat}; before: one tick "
          "in steady state)")
    print(f"  {'timed games':>11}  {'before':>10}  {'after':>9}  {'slowest':>9}  "
          f"{'before/after':>12}")
    rows, medians = [], {}
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "clocks.db"
            await (await SqliteStorage.open(path)).close()
            fill(path, size, random.Random(size))
            async with await SqliteStorage.open(path) as storage:
                _, after = await idle_ticks(storage, repeat)
                old = TwixtService(storage, clock=lambda: NOW)
                # steady state: the games the cache's budget holds are in it; beyond, it churns
                assert await old_tick(old, NOW) == 0
                start = time.perf_counter()
                await old_tick(old, NOW)
                before = time.perf_counter() - start
        median, slowest = statistics.median(after), max(after)
        rows.append((size, before, median))
        medians[size] = median
        print(f"  {size:>11,}  {before * 1000:>8.1f}ms  {median * 1000:>7.2f}ms  "
              f"{slowest * 1000:>7.2f}ms  {before / median:>11.0f}×", flush=True)
    if len(rows) > 1:
        (small, before_small, after_small), (big, before_big, after_big) = rows[0], rows[-1]
        print(f"  growth from {small:,} to {big:,} games: before {before_big / before_small:.1f}×,"
              f" after {after_big / after_small:.2f}×")
    return medians


async def _start(service: TwixtService, channel: int) -> tuple[User, User]:
    red, black = User(channel * 10 + 1, f"red{channel}"), User(channel * 10 + 2, f"black{channel}")
    await service.challenges.challenge(Request(1, channel, red), black,
                                       build_options(swap="no", time=TIME))
    await service.challenges.accept(Request(1, channel, black))
    return red, black


async def _play(service: TwixtService, channel: int, players: tuple[User, User], turns: int,
                latencies: list[float], rng: random.Random) -> None:
    mirror = Game(("r", "b"), swap=False)
    for _ in range(turns):
        if mirror.is_over:
            break
        command = f"{rng.choice(mirror.legal_placements())} link all"
        seat = mirror.seat_to_move
        assert seat is not None
        start = time.perf_counter()
        await service.execute(Request(1, channel, players[seat]), router.read_command(command))
        latencies.append(time.perf_counter() - start)
        mirror.play(command)


async def turns_while(games: int, channels: int, turns: int,
                      ticking: str) -> tuple[list[float], int]:
    """Turns' latencies among `games` timed games, with ticks running meanwhile (`ticking`:
    "none"; "paced", the new tick once a second; "after" and "before", the new or the old
    tick back to back); and how many ticks ran."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "clocks.db"
        await (await SqliteStorage.open(path)).close()
        fill(path, games, random.Random(games))
        async with await SqliteStorage.open(path) as storage:
            service = TwixtService(storage)  # real time: the filled clocks are far from due
            players = [await _start(service, channel) for channel in range(1, channels + 1)]
            await service.tick()
            ticker = TwixtService(storage)  # a dispatcher of its own, as after a restart
            done, ticks = asyncio.Event(), 0

            async def keep_ticking() -> None:
                nonlocal ticks
                while not done.is_set():
                    if ticking == "before":
                        await old_tick(ticker, datetime.now(UTC))
                    else:
                        await ticker.tick()
                    ticks += 1
                    if ticking == "paced":  # the dispatcher's beat when wake-ups are near
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(done.wait(), timeout=1.0)
                    await asyncio.sleep(0)

            background = None if ticking == "none" else asyncio.create_task(keep_ticking())
            latencies: list[float] = []
            rng = random.Random(7)
            await asyncio.gather(*(_play(service, channel, pair, turns, latencies,
                                         random.Random(rng.random()))
                                   for channel, pair in enumerate(players, start=1)))
            done.set()
            if background is not None:
                await background
    return latencies, ticks


async def turn_latency(games: int, channels: int, turns: int) -> None:
    print(f"\nturns among {games:,} timed games: {channels} channels at once, {turns} turns "
          "each, board pictures included")
    base = None
    for ticking, label in [("none", "no ticks"), ("paced", "new ticks, one a second"),
                           ("after", "new ticks back to back"),
                           ("before", "old ticks back to back")]:
        latencies, ticks = await turns_while(games, channels, turns, ticking)
        cuts = statistics.quantiles(latencies, n=100)
        p99 = cuts[98]
        base = base or p99
        note = "" if ticking == "none" else f"  ({ticks} ticks ran; p99 {p99 / base:.2f}× alone)"
        print(f"  {label:<24} p50 {cuts[49] * 1000:>5.0f} ms   p99 {p99 * 1000:>5.0f} ms{note}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10_000, 100_000],
                        help="timed games for the tick curve (none: skip the curve)")
    parser.add_argument("--repeat", type=int, default=30, help="new ticks timed per size")
    parser.add_argument("--turn-games", type=int, default=10_000,
                        help="timed games around the turns (0: skip the turns)")
    parser.add_argument("--postgres", metavar="URL", default=None,
                        help="a PostgreSQL server to measure on (default: a throw-away one)")
    parser.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    if args.sizes:
        sqlite_medians = asyncio.run(tick_curve(args.sizes, args.repeat))
        if not args.no_postgres:  # its own section: clock_bench_pg.py
            from clock_bench_pg import postgres_section

            asyncio.run(postgres_section(args.sizes, args.repeat, sqlite_medians,
                                         args.postgres))
    if args.turn_games:
        asyncio.run(turn_latency(args.turn_games, args.channels, args.turns))


if __name__ == "__main__":
    main()
