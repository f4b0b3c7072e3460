"""A web board in this process over a real SQLite file, a game played at the real terminal
table, and an HTTP client to ask it as a browser (or an attacker) would."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from support.browser import have_browser
from support.fake_discord import BOT_ID, CLIENT_SECRET, FakeDiscord
from twixt.app.table import open_table
from twixt.storage import SqliteStorage
from twixt.terminal import TerminalTable
from twixt.web import Signer, WebBoard
from twixt.web.activity import ActivityAuth

SECRET = b"a-secret-for-the-tests-only-0123456789"
START = ("alice: challenge bob size 12 swap no", "bob: accept", "alice: G6")


@pytest.fixture(scope="session")
def browser_installed() -> None:
    """For a module that drives the page in Chromium (`pytestmark`): fails at once, naming
    what to install, where the browser is missing."""
    assert have_browser(), ("the web tests need Debian's chromium and chromium-driver: "
                            "apt-get install chromium chromium-driver")


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    async with await SqliteStorage.open(tmp_path / "twixt.db") as opened:
        yield opened


@pytest.fixture
async def table(storage: SqliteStorage, tmp_path: Path) -> AsyncIterator[TerminalTable]:
    """The terminal table of channel `den`, with alice's first peg played against bob."""
    seated = open_table(storage, "den", tmp_path / "boards", out=io.StringIO())
    assert await seated.run(START) == 0
    yield seated
    await seated.close()


@pytest.fixture
async def board(table: TerminalTable, storage: SqliteStorage,
                fake_discord: FakeDiscord) -> AsyncIterator[WebBoard]:
    activity = ActivityAuth(BOT_ID, CLIENT_SECRET, "token", api=fake_discord.url + "/api/v10")
    web = WebBoard(table.service, Signer(SECRET), activity=activity)
    yield web
    await activity.close()


@pytest.fixture
async def http(board: WebBoard) -> AsyncIterator[TestClient]:
    async with TestClient(TestServer(board.app())) as client:
        yield client
