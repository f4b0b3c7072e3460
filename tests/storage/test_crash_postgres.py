"""On PostgreSQL: SIGKILL of the bot, and SIGKILL of the server (then a restart), at random
moments never lose an acknowledged turn nor leave a bad game.

The server-kill test has a server of its own, since it kills it; the bot-kill test kills
only the bot and takes a new database on the session's server (`pg_server`).
"""

import asyncio
import random
import signal
import sys

import pytest

from support.pg_server import PgServer, PostgresMissing, new_database
from tests.storage.test_crash import WORKER, assert_none_lost, kill_again_and_again
from twixt.storage import rebuild
from twixt.storage.backends.postgres import PostgresStorage

BOT_KILLS = 12
SERVER_KILLS = 6


@pytest.fixture
def own_server():
    try:
        server = PgServer.create()
    except PostgresMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    yield server
    server.stop()


async def assert_intact(url: str, reported: list[tuple[int, int]]) -> None:
    async with await PostgresStorage.open(url) as store:
        games = await store.list_games(limit=1_000_000)
        versions = {}
        for record in games:
            # the game and its log as of one moment: a killed bot's last statement may still
            # commit on the server after the list was read
            loaded = await store.load_game(record.id)
            assert [t.number for t in loaded.turns] == list(range(1, loaded.game.version + 1))
            assert rebuild(loaded).is_over == (not loaded.game.is_active)
            versions[record.id] = loaded.game.version
    assert_none_lost(reported, versions)


async def test_acknowledged_turns_survive_sigkill_of_the_bot(pg_server):
    url = await new_database(pg_server)
    reported = await kill_again_and_again(url, BOT_KILLS, random.Random(20240602), assert_intact)
    assert len(reported) > BOT_KILLS


async def reports(stream: asyncio.StreamReader, into: list[tuple[int, int]]) -> None:
    """Collect the worker's acknowledgements as they come (a cut-off last line is none)."""
    while line := await stream.readline():
        if line.endswith(b"\n"):
            game_id, version = map(int, line.split())
            into.append((game_id, version))


async def test_acknowledged_turns_survive_sigkill_of_the_server(own_server):
    """The bot keeps playing while the server is killed and restarted under it, again and
    again; every turn it was told had committed is there afterwards."""
    url = await new_database(own_server)
    rng = random.Random(20240603)
    worker = await asyncio.create_subprocess_exec(
        sys.executable, str(WORKER), url, "7",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    reported: list[tuple[int, int]] = []
    reader = asyncio.create_task(reports(worker.stdout, reported))
    try:
        for _ in range(SERVER_KILLS):
            before = len(reported)
            while len(reported) < before + rng.randint(1, 80):  # mid-stream, at random
                assert worker.returncode is None, (await worker.stderr.read()).decode()
                await asyncio.sleep(0.001)
            await asyncio.to_thread(own_server.kill)
            acknowledged = list(reported)
            await asyncio.sleep(rng.random() * 0.2)
            await asyncio.to_thread(own_server.start)
            await assert_intact(url, acknowledged)
        # and the bot goes on after the last restart
        after = len(reported)
        while len(reported) < after + 20:
            assert worker.returncode is None, (await worker.stderr.read()).decode()
            await asyncio.sleep(0.01)
    finally:
        if worker.returncode is None:
            worker.send_signal(signal.SIGKILL)
        await worker.wait()
        await reader
    await assert_intact(url, reported)
    assert len(reported) > SERVER_KILLS
