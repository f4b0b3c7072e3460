"""Schema migrations, and the files storage refuses to touch."""

import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

import twixt.storage.backends.sqlite
from tests.storage.storage_helpers import start_game
from twixt.storage import DatabaseError, DatabaseFault, SqliteStorage, UnsupportedSchemaError
from twixt.storage.schema import Migration, migrations, unusable

LATEST = len(migrations())


def sql(path, statement, params=()):
    """Run one statement in its own connection, closed at once (so its WAL is checkpointed)."""
    with closing(sqlite3.connect(path)) as conn, conn:
        return conn.execute(statement, params).fetchall()


def recorded_versions(path):
    return [row[0] for row in sql(path, "SELECT version FROM schema_migrations ORDER BY 1")]


def with_extra(monkeypatch, sql):
    """Pretend the bot ships one migration more than the repository has."""
    extra = Migration(LATEST + 1, "test_extra", sql)
    monkeypatch.setattr(twixt.storage.backends.sqlite, "migrations", lambda: (*migrations(), extra))


def assert_untouched(path, before):
    """The file is byte for byte as it was, and no log of changes to it was written.

    Reading a WAL database, even read-only, may leave an empty -wal and a -shm beside it.
    """
    assert path.read_bytes() == before
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


async def test_a_new_database_gets_every_migration_and_wal(db_path):
    async with await SqliteStorage.open(db_path):
        pass
    assert recorded_versions(db_path) == list(range(1, LATEST + 1))
    assert sql(db_path, "PRAGMA journal_mode") == [("wal",)]


async def test_an_empty_file_becomes_a_database(db_path):
    db_path.touch()
    async with await SqliteStorage.open(db_path) as store:
        assert await store.active_game(1) is None
    assert recorded_versions(db_path)[-1] == LATEST


async def test_reopening_applies_nothing_twice_and_keeps_the_games(db_path):
    async with await SqliteStorage.open(db_path) as store:
        game = await start_game(store, channel_id=1)
    async with await SqliteStorage.open(db_path) as store:
        assert (await store.get_game(game.id)).seats == game.seats
    assert recorded_versions(db_path) == list(range(1, LATEST + 1))


async def test_an_older_database_is_upgraded_and_keeps_its_games(db_path, monkeypatch):
    async with await SqliteStorage.open(db_path) as store:
        game = await start_game(store, channel_id=1)
        await store.append_turn(game.id, 0, 1, "C3")
    with_extra(monkeypatch, "CREATE TABLE deadlines (game_id INTEGER PRIMARY KEY "
                            "REFERENCES games (id), due_at TEXT NOT NULL);\n"
                            "INSERT INTO deadlines SELECT id, updated_at FROM games;\n")
    async with await SqliteStorage.open(db_path) as store:
        assert (await store.load_game(game.id)).turns[0].command == "C3"
    assert recorded_versions(db_path)[-1] == LATEST + 1
    assert sql(db_path, "SELECT game_id FROM deadlines") == [(game.id,)]


async def test_a_failing_upgrade_changes_nothing(db_path, monkeypatch):
    async with await SqliteStorage.open(db_path):
        pass
    with_extra(monkeypatch, "CREATE TABLE half_done (x);\nSELECT * FROM no_such_table;\n")
    with pytest.raises(DatabaseError, match="upgrade"):
        await SqliteStorage.open(db_path)
    assert recorded_versions(db_path)[-1] == LATEST
    assert sql(db_path, "SELECT 1 FROM sqlite_schema WHERE name = 'half_done'") == []


async def test_a_database_from_a_newer_bot_is_refused_untouched(db_path):
    async with await SqliteStorage.open(db_path):
        pass
    sql(db_path, "INSERT INTO schema_migrations (version, name) VALUES (?, 'future')",
        (LATEST + 1,))
    before = db_path.read_bytes()
    with pytest.raises(UnsupportedSchemaError, match=f"schema version {LATEST + 1}.*upgrade"):
        await SqliteStorage.open(db_path)
    assert_untouched(db_path, before)


async def test_a_file_that_is_not_sqlite_is_refused_untouched(db_path):
    db_path.write_bytes(b"alice: G6\nbob: swap\n" * 300)
    before = db_path.read_bytes()
    with pytest.raises(DatabaseError, match="not a SQLite database"):
        await SqliteStorage.open(db_path)
    assert_untouched(db_path, before)
    assert not db_path.with_name(db_path.name + "-wal").exists()
    assert not db_path.with_name(db_path.name + "-shm").exists()


async def test_a_corrupt_database_is_refused_untouched(db_path):
    sql(db_path, "CREATE TABLE filler AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                 "SELECT i + 1 FROM n WHERE i < 200) SELECT printf('%500d', i) AS x FROM n")
    page_size = 4096
    data = bytearray(db_path.read_bytes())
    data[page_size + 8: page_size * 3] = b"\xa5" * (page_size * 2 - 8)
    db_path.write_bytes(bytes(data))
    with pytest.raises(DatabaseError, match="corrupt"):
        await SqliteStorage.open(db_path)
    assert_untouched(db_path, bytes(data))


async def test_a_truncated_database_is_refused_untouched(db_path):
    async with await SqliteStorage.open(db_path) as store:
        for channel in range(40):
            await start_game(store, channel_id=channel)
    cut = db_path.read_bytes()[:4096 * 3 + 100]
    db_path.write_bytes(cut)
    with pytest.raises(DatabaseError, match="corrupt"):
        await SqliteStorage.open(db_path)
    assert_untouched(db_path, cut)


async def test_another_programs_database_is_refused_untouched(db_path):
    sql(db_path, "CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    before = db_path.read_bytes()
    with pytest.raises(DatabaseError, match="another program"):
        await SqliteStorage.open(db_path)
    assert_untouched(db_path, before)


async def test_a_directory_is_not_a_database(tmp_path):
    with pytest.raises(DatabaseError):
        await SqliteStorage.open(tmp_path)


async def test_a_missing_folder_is_named_and_nothing_is_created(tmp_path):
    missing = tmp_path / "no" / "such" / "folder" / "twixt.db"
    with pytest.raises(DatabaseError, match=r"the folder .* does not exist"):
        await SqliteStorage.open(missing)
    assert not (tmp_path / "no").exists()


async def test_a_database_locked_by_another_process_is_named_and_left_untouched(db_path):
    async with await SqliteStorage.open(db_path) as store:
        await start_game(store, 1)
    before = db_path.read_bytes()
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "db.execute('PRAGMA locking_mode = EXCLUSIVE')\n"
         "db.execute('BEGIN EXCLUSIVE')\n"
         "print('locked', flush=True)\n"
         "time.sleep(60)\n", str(db_path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(DatabaseError, match="is locked by another program"):
            await SqliteStorage.open(db_path)
    finally:
        holder.kill()
        holder.wait()
    assert db_path.read_bytes() == before


def _error_of(path, *statements, uri=False):
    """The error real SQLite raises for the last of `statements` on `path`."""
    with closing(sqlite3.connect(path, uri=uri)) as db:
        try:
            for statement in statements:
                db.execute(statement)
            db.commit()
        except sqlite3.DatabaseError as error:
            return error
    raise AssertionError("no error")


def test_a_full_disk_and_a_read_only_file_are_named_not_called_corrupt(tmp_path):
    path = tmp_path / "t.db"
    sql(path, "CREATE TABLE t (x TEXT)")
    full = _error_of(path, "PRAGMA max_page_count = 2",
                     "INSERT INTO t VALUES (zeroblob(100000))")
    assert str(unusable(path, full)) == (f"{path} cannot grow: the disk is full; it was left "
                                         "untouched")
    read_only = _error_of(f"file:{path}?mode=ro", "INSERT INTO t VALUES ('x')", uri=True)
    assert str(unusable(path, read_only)) == (f"{path} may not be written: check its "
                                              "permissions; it was left untouched")
    # the fault travels with the line, for whoever decides what to tell the players
    assert unusable(path, full).fault is DatabaseFault.FULL
    assert unusable(path, read_only).fault is DatabaseFault.READ_ONLY
