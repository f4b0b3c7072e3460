from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import SqliteStorage


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "twixt.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStorage]:
    async with await SqliteStorage.open(db_path) as opened:
        yield opened
