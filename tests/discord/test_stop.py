"""Stopping like a service: real processes, real signals, the real discord.py client against a
Discord-shaped server (`fake_discord`).

SIGTERM (`docker stop`) or SIGINT ends `twixt run` with exit 0 and the gateway closed with
1000, also while the engine searches (the search is abandoned and the move stays owed: the
game is still marked for the bot, which answers it after the restart). A SIGKILL of the bot or
of `twixt play` during a search leaves no engine worker nor multiprocessing's resource
tracker behind. How quickly it stops is measured in benchmarks/stop_bench.py; the waits here
only keep a broken build from hanging the suite.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.fake_discord import FakeDiscord
from support.processes import (
    alive,
    descendants,
    environment,
    kill_play_while_it_searches,
    searching,
    until,
)


def owed(database: Path) -> list[tuple[int, int, int]]:
    """(game, version, awaiting the bot) of each game the bot plays in."""
    with sqlite3.connect(database) as db:
        return db.execute("SELECT g.id, g.version, b.awaiting FROM bot_games b "
                          "JOIN games g ON g.id = b.game_id ORDER BY g.id").fetchall()


@pytest.fixture
def bots() -> Iterator[list[subprocess.Popen[bytes]]]:
    """The bot processes a test starts; any still running at its end are killed."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def start_bot(server: FakeDiscord, database: Path,
              bots: list[subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(server.bot_command(), cwd=database.parent,
                               env=environment(database), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    bots.append(process)
    return process


async def exit_code(process: subprocess.Popen[bytes]) -> int:
    await until(lambda: process.poll() is not None, "the bot to exit")
    return process.returncode


async def test_a_sigkilled_twixt_play_leaves_no_engine_process_behind(tmp_path):
    started = await kill_play_while_it_searches(tmp_path / "t.db")
    assert started  # a worker, and the resource tracker
    await until(lambda: not alive(started), f"processes {sorted(alive(started))} to end")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_bot_cleanly_while_it_searches(tmp_path, fake_discord,
                                                                bots, stop):
    database = tmp_path / "t.db"
    await kill_play_while_it_searches(database)
    assert owed(database) == [(1, 0, 1)]  # the bot's first move is owed
    bot = start_bot(fake_discord, database, bots)
    await until(lambda: searching(bot.pid), "the bot to search after its start", bot)
    started = descendants(bot.pid)
    bot.send_signal(stop)
    assert await exit_code(bot) == 0
    assert fake_discord.close_codes == [1000]
    assert b"Traceback" not in bot.stderr.read()
    # the resource tracker ends when it reads the end of its pipe, a moment after the bot
    await until(lambda: not alive(started), f"processes {sorted(alive(started))} to end")
    assert owed(database) == [(1, 0, 1)]  # still owed: answered after the restart


@pytest.mark.parametrize("ready", [True, False], ids=["ready", "before-ready"])
async def test_sigterm_stops_an_idle_bot_cleanly(tmp_path, fake_discord, bots, ready):
    fake_discord.hold_ready = not ready
    bot = start_bot(fake_discord, tmp_path / "t.db", bots)
    await until(fake_discord.identified.is_set, "the bot to identify", bot)
    if ready:
        await until(fake_discord.ready_sent.is_set, "READY")
    bot.send_signal(signal.SIGTERM)
    assert await exit_code(bot) == 0
    assert fake_discord.close_codes == [1000]


async def test_sigterm_stops_the_bot_cleanly_in_its_start(tmp_path, fake_discord, bots):
    # logged in, syncing its commands, not yet connected to the gateway
    fake_discord.hold_sync = True
    bot = start_bot(fake_discord, tmp_path / "t.db", bots)
    await until(fake_discord.sync_asked.is_set, "the bot to sync its commands", bot)
    bot.send_signal(signal.SIGTERM)
    assert await exit_code(bot) == 0
    assert bot.stderr.read().count(b"twixt:") == 0  # no "cannot reach Discord"
    assert fake_discord.close_codes == []


async def test_a_sigkilled_bot_leaves_no_engine_process_behind(tmp_path, fake_discord, bots):
    database = tmp_path / "t.db"
    await kill_play_while_it_searches(database)
    bot = start_bot(fake_discord, database, bots)
    await until(lambda: searching(bot.pid), "the bot to search after its start", bot)
    started = descendants(bot.pid)
    bot.kill()
    bot.wait()
    await until(lambda: not alive(started), f"processes {sorted(alive(started))} to end")
    assert owed(database) == [(1, 0, 1)]
