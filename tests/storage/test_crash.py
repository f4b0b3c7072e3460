"""SIGKILL at random moments never loses an acknowledged turn nor leaves a bad game."""

import asyncio
import random
import signal
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from twixt.storage import SqliteStorage, rebuild

WORKER = Path(__file__).with_name("crash_worker.py")
KILLS = 24


async def run_until_killed(database: Path | str, seed: int,
                           rng: random.Random) -> list[tuple[int, int]]:
    """Start the worker, let it commit a random number of turns, SIGKILL it; return its reports.

    Sometimes it is killed before its first turn, while opening or migrating the database.
    """
    worker = await asyncio.create_subprocess_exec(
        sys.executable, str(WORKER), str(database), str(seed),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    wanted = rng.randint(0, 60)
    lines = [await worker.stdout.readline() for _ in range(wanted)]
    await asyncio.sleep(rng.random() * (0.5 if wanted == 0 else 0.02))
    worker.send_signal(signal.SIGKILL)
    lines += (await worker.stdout.read()).splitlines(keepends=True)
    errors = (await worker.stderr.read()).decode()
    assert await worker.wait() == -signal.SIGKILL, f"the worker stopped by itself: {errors}"
    # a line cut short by the kill was never a report
    return [tuple(map(int, line.split())) for line in lines if line.endswith(b"\n")]


async def kill_again_and_again(database: Path | str, kills: int, rng: random.Random,
                               intact: Callable[[Any, list[tuple[int, int]]], Awaitable[None]],
                               ) -> list[tuple[int, int]]:
    """Kill the worker `kills` times at random moments, checking after each kill that the
    database is `intact` with every turn acknowledged so far; return those turns."""
    reported: list[tuple[int, int]] = []
    for kill in range(kills):
        reported += await run_until_killed(database, seed=kill, rng=rng)
        await intact(database, reported)
    return reported


def assert_none_lost(reported: list[tuple[int, int]], versions: dict[int, int]) -> None:
    """Every acknowledged (game, version) is there: the game's version reached it."""
    lost = [(game_id, version) for game_id, version in reported
            if versions.get(game_id, 0) < version]
    assert not lost, f"acknowledged turns lost: {lost[:5]}"


def integrity(db_path: Path) -> str:
    with closing(sqlite3.connect(db_path)) as conn:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]


async def assert_intact(db_path: Path, reported: list[tuple[int, int]]) -> None:
    async with await SqliteStorage.open(db_path) as store:
        games = await store.list_games(limit=1_000_000)
        for record in games:
            loaded = await store.load_game(record.id)
            assert [t.number for t in loaded.turns] == list(range(1, record.version + 1))
            assert rebuild(loaded).is_over == (not record.is_active)
        versions = {record.id: record.version for record in games}
    assert_none_lost(reported, versions)
    assert integrity(db_path) == "ok"


async def test_acknowledged_turns_survive_sigkill_at_random_moments(tmp_path):
    reported = await kill_again_and_again(tmp_path / "twixt.db", KILLS, random.Random(20240601),
                                          assert_intact)
    assert len(reported) > KILLS
