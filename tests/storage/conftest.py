"""The `store` every storage test runs on: once on SQLite, once on PostgreSQL.

One throw-away PostgreSQL server serves the whole session (`pg_server`, started on first
use); each test gets a database of its own, copied from a template that was migrated once.
A test that pokes at SQLite itself (its files, pragmas, its migrations) is marked
`@pytest.mark.sqlite_only` and runs on SQLite alone. Without PostgreSQL's programs the
PostgreSQL half fails, saying how to install them: it is never skipped.
"""

import asyncio
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest
from pg_server import PgServer, PostgresMissing, new_database

from storage import SqliteStorage
from storage.postgres import PostgresStorage

BACKENDS = ("sqlite", "postgresql")
TEMPLATE = "twixt_template"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: the test is about SQLite itself")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`store` (and `backend`) run on both back ends unless the test is SQLite's own."""
    if "backend" not in metafunc.fixturenames:
        return
    sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
    metafunc.parametrize("backend", BACKENDS[:1] if sqlite_only else BACKENDS)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "twixt.db"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL server for the session, with a migrated template database."""
    try:
        server = PgServer.create()
    except PostgresMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    try:
        # in a thread of its own: the first test to ask may already run in an event loop
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, _make_template(server)).result()
        yield server
    finally:
        server.stop()


async def _make_template(server: PgServer) -> None:
    admin = await asyncpg.connect(server.dsn())
    try:
        await admin.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await admin.close()
    await (await PostgresStorage.open(server.dsn(TEMPLATE))).close()


async def fresh_database(server: PgServer, *, migrated: bool = True) -> str:
    """The URL of a new database: migrated (a copy of the template) or bare."""
    return await new_database(server, TEMPLATE if migrated else "template0")


@pytest.fixture
async def pg_url(pg_server: PgServer) -> str:
    """A fresh migrated PostgreSQL database for one test."""
    return await fresh_database(pg_server)


@pytest.fixture
async def store(backend: str, request: pytest.FixtureRequest,
                db_path: Path) -> AsyncIterator[SqliteStorage | PostgresStorage]:
    opened: SqliteStorage | PostgresStorage
    if backend == "sqlite":
        opened = await SqliteStorage.open(db_path)
    else:
        server = request.getfixturevalue("pg_server")
        opened = await PostgresStorage.open(await fresh_database(server))
    async with opened:
        yield opened
