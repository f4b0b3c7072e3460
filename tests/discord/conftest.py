from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord.helpers import Commands
from tests.fakes import Clock
from twixt.app.bot import discord_bot
from twixt.config import Settings
from twixt.discord.app import TwixtBot
from twixt.discord.slash import slash_groups
from twixt.storage import SqliteStorage


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


@pytest.fixture
def settings(db_path: Path) -> Settings:
    return Settings(token="token", database=db_path)


@pytest.fixture
def clock() -> Clock:
    """The service's time, moved by hand: clocks run out without sleeping."""
    return Clock()


@pytest.fixture
async def client(settings: Settings, clock: Clock) -> AsyncIterator[TwixtBot]:
    """The real client over a real service and a real SQLite file; never logged in."""
    async with await SqliteStorage.open(settings.database) as storage:
        yield discord_bot(settings, storage, clock=clock)


@pytest.fixture
def slash(client: TwixtBot) -> Commands:
    """Every slash command, found by its name (see `helpers.run`)."""
    return Commands(slash_groups(client.service))
