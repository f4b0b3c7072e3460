"""A real service over a real SQLite file."""

from __future__ import annotations

import random

import pytest

from tests.fakes import Clock, FakeThreads
from twixt.service import Port, TwixtService
from twixt.storage import SqliteStorage


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
    return TwixtService(storage, Port(threads=threads), clock=clock, rng=random.Random(1))
