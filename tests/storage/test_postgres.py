"""PostgreSQL's own: its migrations, the databases it refuses, its append-only log, the opener.

What both back ends share runs on both through the `store` fixture; this is what only
PostgreSQL has.
"""

import asyncio
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

import twixt.storage.backends.postgres
from support.pg_server import new_database
from tests.storage.conftest import fresh_database
from tests.storage.storage_helpers import start_game
from twixt.storage import (
    DatabaseError,
    DatabaseFault,
    SqliteStorage,
    UnsupportedSchemaError,
    database_setting,
    missing_file,
    open_storage,
)
from twixt.storage.backends.postgres import (
    PostgresConnection,
    PostgresStorage,
    migrations,
    safe_url,
)
from twixt.storage.schema import Migration

LATEST = len(migrations())


async def fetch(url, query, *args):
    conn = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await conn.fetch(query, *args)]
    finally:
        await conn.close()


async def test_a_new_database_gets_every_migration_once(pg_server):
    url = await new_database(pg_server)
    async with await PostgresStorage.open(url) as store:
        game = await start_game(store, channel_id=1)
    async with await PostgresStorage.open(url) as store:
        assert (await store.get_game(game.id)).id == game.id
    assert await fetch(url, "SELECT version FROM schema_migrations ORDER BY 1") == [
        (version,) for version in range(1, LATEST + 1)]


async def test_processes_starting_together_migrate_once(pg_server):
    url = await new_database(pg_server)
    stores = await asyncio.gather(*(PostgresStorage.open(url) for _ in range(6)))
    for store in stores:
        await store.close()
    assert len(await fetch(url, "SELECT version FROM schema_migrations")) == LATEST


async def test_a_newer_schema_is_refused_untouched(pg_server, monkeypatch):
    url = await fresh_database(pg_server)
    extra = Migration(LATEST + 1, "from_the_future", "CREATE TABLE future (x integer);")
    monkeypatch.setattr(twixt.storage.backends.postgres, "migrations",
                        lambda: (*migrations(), extra))
    async with await PostgresStorage.open(url):
        pass
    monkeypatch.undo()
    with pytest.raises(UnsupportedSchemaError, match=f"schema version {LATEST + 1}"):
        await PostgresStorage.open(url)


async def test_a_database_that_may_not_be_written_is_refused_at_start(pg_server):
    url = await fresh_database(pg_server)
    name = url.split("@/", 1)[1].split("?")[0]
    await fetch(pg_server.dsn(), f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    with pytest.raises(DatabaseError) as refused:
        await PostgresStorage.open(url)
    assert refused.value.fault is DatabaseFault.READ_ONLY
    assert "ReadOnlySQLTransactionError" in str(refused.value)


def test_a_full_disk_is_named_full_not_a_failure_of_the_database():
    failed = twixt.storage.backends.postgres._failed(asyncpg.DiskFullError("could not extend file"))
    assert failed is not None and failed.fault is DatabaseFault.FULL
    # the other faults by the same table; a broken key is no fault of the database
    faults = {error.__class__: twixt.storage.backends.postgres._failed(error)
              for error in (ConnectionRefusedError(), asyncpg.DataCorruptedError("bad page"),
                            asyncpg.ReadOnlySQLTransactionError("read-only"))}
    assert {kind: failed.fault for kind, failed in faults.items() if failed is not None} == {
        ConnectionRefusedError: DatabaseFault.UNREACHABLE,
        asyncpg.DataCorruptedError: DatabaseFault.BROKEN,
        asyncpg.ReadOnlySQLTransactionError: DatabaseFault.READ_ONLY}
    assert twixt.storage.backends.postgres._failed(asyncpg.UniqueViolationError("taken")) is None


async def test_another_programs_database_is_refused_untouched(pg_server):
    url = await new_database(pg_server)
    conn = await asyncpg.connect(url)
    await conn.execute("CREATE TABLE invoices (id integer)")
    await conn.close()
    with pytest.raises(DatabaseError, match="another program"):
        await PostgresStorage.open(url)
    assert await fetch(url, "SELECT to_regclass('schema_migrations')::text") == [(None,)]


async def test_a_server_that_is_not_there_is_named_in_one_line(tmp_path):
    url = f"postgresql://twixt:secret@/twixt?host={tmp_path}"
    with pytest.raises(DatabaseError) as refused:
        await PostgresStorage.open(url)
    message = str(refused.value)
    assert "\n" not in message and "secret" not in message and "twixt:***@" in message
    # named as a server that cannot be reached, not as a broken database
    assert refused.value.fault is DatabaseFault.UNREACHABLE


def test_a_password_is_never_shown():
    assert safe_url("postgresql://bot:hunter2@db:5432/twixt") == "postgresql://bot:***@db:5432/twixt"
    assert safe_url("postgresql://db/twixt") == "postgresql://db/twixt"


async def test_the_turn_log_cannot_be_rewritten(pg_server):
    url = await fresh_database(pg_server)
    async with await PostgresStorage.open(url) as store:
        game = await start_game(store, channel_id=1)
        await store.append_turn(game.id, 0, 1, "C3")
    conn = await asyncpg.connect(url)
    try:
        for statement in ("UPDATE turns SET command = 'D4'", "DELETE FROM turns",
                          "TRUNCATE turns CASCADE"):
            with pytest.raises(asyncpg.RaiseError, match="append-only"):
                await conn.execute(statement)
    finally:
        await conn.close()


async def test_a_statement_without_a_row_count_changes_no_rows(pg_server):
    """The seam's `execute` says how many rows a statement changed; a statement whose status
    has no count (ANALYZE, which the benchmarks run) changed none."""
    conn = await asyncpg.connect(await fresh_database(pg_server))
    try:
        db = PostgresConnection(conn)
        assert await db.execute("ANALYZE") == 0
        assert await db.execute("INSERT INTO users (user_id, name) VALUES (?, ?)", 1, "a") == 1
    finally:
        await conn.close()


async def test_the_database_setting_chooses_the_back_end(pg_server, tmp_path):
    assert database_setting("postgresql://db/twixt") == "postgresql://db/twixt"
    assert database_setting("postgres://db/twixt") == "postgres://db/twixt"
    assert database_setting("data/twixt.db") == Path("data/twixt.db")
    async with await open_storage(await fresh_database(pg_server)) as store:
        assert isinstance(store, PostgresStorage)
    async with await open_storage(tmp_path / "twixt.db") as store:
        assert isinstance(store, SqliteStorage)


async def test_a_sqlite_url_names_the_same_file_as_its_path(tmp_path, monkeypatch):
    """Like encode/databases: `sqlite:///relative`, `sqlite:////absolute`; and the plain path
    a setting held before URLs keeps working."""
    monkeypatch.chdir(tmp_path)
    assert database_setting("sqlite:///data/twixt.db") == Path("data/twixt.db")
    assert database_setting(f"sqlite:///{tmp_path}/t.db") == tmp_path / "t.db"
    assert database_setting("sqlite:twixt.db") == Path("twixt.db")
    async with await open_storage("sqlite:///twixt.db") as store:
        await start_game(store, channel_id=7)
    assert missing_file("twixt.db") is None
    assert missing_file("sqlite:///other.db") == Path("other.db")
    async with await open_storage("twixt.db") as store:
        assert (await store.active_game(7)) is not None
    assert not (tmp_path / "other.db").exists()


async def test_a_scheme_of_no_back_end_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DatabaseError, match=r"^mysql:// names no database"):
        await open_storage("mysql://db/twixt")
    assert list(tmp_path.iterdir()) == []


def test_twixt_db_may_name_a_postgresql_database():
    from twixt.config import Settings

    url = "postgresql://bot:secret@db.example:5432/twixt"
    assert Settings.from_environment({"TWIXT_DB": url}).database == url
    assert Settings.from_environment({"TWIXT_DB": "games.db"}).database == Path("games.db")


async def test_the_terminal_table_plays_and_exports_on_postgresql(pg_server, tmp_path):
    """`twixt play --db postgresql://…` and `twixt export`, end to end, over two sittings."""
    url = await new_database(pg_server)
    twixt = str(Path(sys.executable).with_name("twixt"))

    def run(*args, stdin=""):
        return subprocess.run([twixt, *args], cwd=tmp_path, input=stdin, capture_output=True,
                              text=True, check=False, timeout=120)

    first = await asyncio.to_thread(run, "play", "--db", url, "--channel", "den", stdin=(
        "alice: challenge bob size 12 swap no\nbob: accept\nalice: G6\n"))
    assert first.returncode == 0, first.stderr
    second = await asyncio.to_thread(run, "play", "--db", url, "--channel", "den",
                                     stdin="bob: G8\nalice: resign\nalice: resign yes\n")
    assert second.returncode == 0, second.stderr
    exported = await asyncio.to_thread(run, "export", "--db", url, "--channel", "den")
    assert exported.returncode == 0, exported.stderr
    assert "alice: G6" in exported.stdout and "bob: G8" in exported.stdout
    checked = await asyncio.to_thread(run, "check", "--db", url)
    assert checked.returncode == 2 and "SQLite file" in checked.stderr
