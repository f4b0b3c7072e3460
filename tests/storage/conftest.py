"""The `store` every storage test runs on: once on SQLite, once on PostgreSQL.

One throw-away PostgreSQL server serves the whole session (`pg_server`, started on first
use). Each test gets an empty migrated database: a copy of a template migrated once, emptied
after the test and handed to the next one (a new copy costs a quarter of a second, emptying
a few milliseconds). Tests that need a database of their own take `new_database`.
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

from support.pg_server import PgServer, PostgresMissing, new_database
from twixt.storage import SqliteStorage
from twixt.storage.backends import postgres
from twixt.storage.backends.postgres import PostgresConnection, PostgresStorage

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


async def migrated_to(url: str, count: int) -> None:
    """Apply the first `count` of PostgreSQL's migrations to the database at `url`: a database
    of the release that shipped no more, as its storage left it on opening it. (Today's
    storage cannot stand in for it: it prepares its turns' statement for today's schema.)"""
    conn = await asyncpg.connect(url)
    try:
        await postgres._migrate(PostgresConnection(conn), url, postgres.migrations()[:count])
    finally:
        await conn.close()


#: emptied migrated databases, ready for the next test
_EMPTIED: list[str] = []


async def _empty(url: str) -> None:
    """Delete every row (the turn log's guard is a trigger, not fired in replica mode) and
    start the ids at 1 again: as good as a new copy of the template."""
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.execute("SET LOCAL session_replication_role = replica")
            for (table,) in await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                    "AND tablename <> 'schema_migrations'"):
                await conn.execute(f"DELETE FROM {table}")
            for table, column in await conn.fetch(
                    "SELECT table_name, column_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND is_identity = 'YES'"):
                await conn.execute(f"ALTER TABLE {table} ALTER COLUMN {column} RESTART")
    finally:
        await conn.close()


@pytest.fixture
async def store(backend: str, request: pytest.FixtureRequest,
                db_path: Path) -> AsyncIterator[SqliteStorage | PostgresStorage]:
    opened: SqliteStorage | PostgresStorage
    if backend == "sqlite":
        opened = await SqliteStorage.open(db_path)
    else:
        server = request.getfixturevalue("pg_server")
        url = _EMPTIED.pop() if _EMPTIED else await fresh_database(server)
        opened = await PostgresStorage.open(url)
    async with opened:
        yield opened
    if backend != "sqlite":
        await _empty(url)
        _EMPTIED.append(url)
