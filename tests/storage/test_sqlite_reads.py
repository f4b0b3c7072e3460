"""SQLite's reads by key (`SqliteStorage._read_by`): run at once on the event loop's thread,
each in a snapshot of its own; where SQLite would make such a read wait, it runs on the
reader's thread instead, with the same answer."""

import sqlite3
from contextlib import closing

import pytest

from tests.storage.storage_helpers import start_game
from twixt.storage import NotFoundError, SqliteStorage

pytestmark = pytest.mark.sqlite_only


@pytest.fixture
async def storage(tmp_path):
    async with await SqliteStorage.open(tmp_path / "reads.db") as opened:
        yield opened


async def test_a_read_at_once_sees_each_commit_made_before_it(storage: SqliteStorage):
    game = await start_game(storage, channel_id=7)
    assert (await storage.get_game(game.id)).version == 0
    await storage.append_turn(game.id, 0, game.seats[0].user_id, "G6")
    assert (await storage.get_game(game.id)).version == 1
    assert (await storage.active_game(game.channel_id)).version == 1  # type: ignore[union-attr]


async def test_a_read_sqlite_would_make_wait_is_read_on_the_readers_thread(
        storage: SqliteStorage, tmp_path):
    """The glance is given a file another connection holds in exclusive locking mode, so
    that SQLite answers it SQLITE_BUSY at once (it never waits): the read is made on the
    reader's thread, and says the same, a game missing included."""
    game = await start_game(storage, channel_id=7)
    locked = tmp_path / "locked.db"
    with closing(sqlite3.connect(locked, isolation_level=None)) as holder:
        holder.execute("PRAGMA journal_mode = WAL")
        holder.execute("CREATE TABLE games (id INTEGER)")
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("INSERT INTO games VALUES (1)")  # now holds the file
        busy = sqlite3.connect(locked, isolation_level=None, check_same_thread=False)
        busy.execute("PRAGMA busy_timeout = 0")
        with pytest.raises(sqlite3.OperationalError) as waited:
            busy.execute("SELECT 1 FROM games").fetchall()
        assert waited.value.sqlite_errorcode == sqlite3.SQLITE_BUSY
        glancer, storage._glancer = storage._glancer, busy
        try:
            assert (await storage.get_game(game.id)).id == game.id
            with pytest.raises(NotFoundError):
                await storage.get_game(game.id + 99)
            assert (await storage.user_prefs(game.seats[0].user_id)).palette == "normal"
        finally:
            storage._glancer = glancer
            busy.close()


async def test_a_read_of_one_statement_runs_with_no_transaction(storage: SqliteStorage,
                                                                 tmp_path):
    """A game's version, a player's settings and a game's conditional moves are one statement
    each, which SQLite reads in a snapshot of its own: no BEGIN and ROLLBACK around them, and
    each sees the commits made before it. A game and its seats, two statements, are still read
    in one snapshot. And no read is left open: a checkpoint may empty the whole log."""
    game = await start_game(storage, channel_id=7)
    user = game.seats[0].user_id
    await storage.update_user_prefs(user, palette="colour-blind")
    traced: list[str] = []
    storage._glancer.set_trace_callback(traced.append)
    try:
        assert await storage.live_versions([game.id]) == {game.id: 0}
        await storage.append_turn(game.id, 0, user, "G6")
        assert await storage.live_versions([game.id]) == {game.id: 1}
        assert (await storage.user_prefs(user)).palette == "colour-blind"
        assert (await storage.users_prefs([user]))[user].palette == "colour-blind"
        assert await storage.conditionals(game.id) == ()
        alone = list(traced)
        traced.clear()
        assert (await storage.get_game(game.id)).version == 1
    finally:
        storage._glancer.set_trace_callback(None)
    assert len(alone) == 5
    assert not [sql for sql in alone if sql.split()[0] in ("BEGIN", "ROLLBACK")]
    assert (traced[0], traced[-1], len(traced)) == ("BEGIN", "ROLLBACK", 4)
    with closing(sqlite3.connect(tmp_path / "reads.db", isolation_level=None)) as other:
        assert other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0  # not busy
