"""`twixt web` and `twixt link` as real processes: a clean stop on SIGTERM with live pages
open, and what they say without a secret."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from pathlib import Path

import aiohttp
import pytest

from support.browser import SECRET, table, web_environment, web_server
from support.processes import HANG, TWIXT, until
from twixt.web import Signer


async def test_sigterm_stops_twixt_web_with_live_pages_open(tmp_path: Path):
    database = tmp_path / "twixt.db"
    table(database, "alice: challenge bob size 12 swap no", "bob: accept")
    with web_server(database) as (server, base):
        # `twixt link` as a process (the other tests' helper calls its `main` in theirs)
        linked = subprocess.run([TWIXT, "link", "--db", str(database), "--channel", "den",
                                 "--player", "bob", "--base-url", base],
                                env=web_environment(database), capture_output=True, text=True,
                                timeout=HANG, check=True)
        token = linked.stdout.strip().rsplit("/", 1)[1]
        async with aiohttp.ClientSession() as session:
            pages = [await session.get(f"{base}/api/g/{token}/live") for _ in range(3)]
            for page in pages:
                assert (await page.content.readline()).startswith(b"data: ")
            server.send_signal(signal.SIGTERM)
            await until(lambda: server.poll() is not None, "twixt web to stop")
            for page in pages:
                page.close()
        assert server.returncode == 0
        assert server.stderr is not None and "Traceback" not in server.stderr.read()


@pytest.mark.parametrize("attempt", range(3))
async def test_sigterm_stops_twixt_web_as_pages_open_on_game_after_game(tmp_path: Path,
                                                                          attempt: int):
    """Each page opened on another game makes the live pages' follower begin a new wait:
    SIGTERM as they open still stops the server (it once took the stop for the end of a
    wait, and waited on)."""
    database = tmp_path / "twixt.db"
    games = 12
    table(database, *(line for n in range(games)
                      for line in (f"alice@c{n}: challenge bob size 12", f"bob@c{n}: accept")))
    signer = Signer(SECRET.encode())
    with web_server(database) as (server, base):
        async with aiohttp.ClientSession() as session:
            pages = await asyncio.gather(*(
                session.get(f"{base}/api/g/{signer.token(game, None)}/live")
                for game in range(1, games + 1)))
            assert [page.status for page in pages] == [200] * games
            server.send_signal(signal.SIGTERM)
            await until(lambda: server.poll() is not None, "twixt web to stop")
            for page in pages:
                page.close()
        assert server.returncode == 0


def test_without_a_secret_twixt_web_says_its_links_die_with_it(tmp_path: Path):
    database = tmp_path / "twixt.db"
    table(database, "alice: challenge bob", "bob: accept")
    env = web_environment(database)
    del env["TWIXT_WEB_SECRET"]
    process = subprocess.Popen([TWIXT, "web", "--db", str(database), "--port", "0"], env=env,
                               text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None and process.stderr is not None
        assert "serving on http://127.0.0.1:" in process.stdout.readline()
        said = process.stderr.readline()
        assert said == ("twixt: TWIXT_WEB_SECRET is not set: links are signed with a random "
                        "secret of this process and stop working when it stops\n")
    finally:
        process.terminate()
        process.wait(timeout=HANG)
    refused = subprocess.run([TWIXT, "link", "--db", str(database), "--channel", "den",
                              "--player", "bob"], env=env, capture_output=True, text=True,
                             timeout=HANG)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("twixt: set TWIXT_WEB_SECRET")


def test_twixt_link_says_why_there_is_no_link(tmp_path: Path):
    env = web_environment(tmp_path / "twixt.db")
    missing = subprocess.run([TWIXT, "link", "--db", str(tmp_path / "none.db"), "--channel",
                              "den", "--player", "bob"], env=env, capture_output=True,
                             text=True, timeout=HANG)
    assert (missing.returncode, missing.stderr.count("\n")) == (2, 1)
    table(tmp_path / "twixt.db", "alice: challenge bob", "bob: accept")
    empty = subprocess.run([TWIXT, "link", "--db", str(tmp_path / "twixt.db"), "--channel",
                            "elsewhere", "--player", "bob"], env=env, capture_output=True,
                           text=True, timeout=HANG)
    assert (empty.returncode, empty.stderr) == (1, "twixt: this channel has no games\n")
