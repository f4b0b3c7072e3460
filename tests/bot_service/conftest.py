"""A real service over a real SQLite file, and people to play with."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.service import Context, TwixtService, User
from storage import SqliteStorage

ALICE, BOB, CAROL, DAVE = (User(i, n) for i, n in [(11, "alice"), (12, "bob"), (13, "carol"),
                                                   (14, "dave")])
GUILD, CHANNEL = 1, 100


class Clock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class FakeThreads:
    """Threads as the service sees them: a new channel id per game."""

    def __init__(self) -> None:
        self.opened: list[tuple[int, str]] = []

    async def open_thread(self, channel_id: int, name: str) -> int:
        self.opened.append((channel_id, name))
        return 1000 + len(self.opened)


def ctx(user: User, channel: int = CHANNEL, manager: bool = False) -> Context:
    return Context(GUILD, channel, user, can_manage=manager)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def threads() -> FakeThreads:
    return FakeThreads()


@pytest.fixture
async def storage(tmp_path):
    store = await SqliteStorage.open(tmp_path / "twixt.db")
    yield store
    await store.close()


@pytest.fixture
def service(storage, clock, threads) -> TwixtService:
    return TwixtService(storage, threads=threads, clock=clock, rng=random.Random(1))
