"""An upgrade from the release before the correspondence features (SQLite's schema 6,
PostgreSQL's 3), with rows in it, on both back ends: a running clocked game, a finished rated
one, a pending challenge and their totals come through as they were, with the new columns'
defaults (vacation allowed, no weekends off, Elo ratings as Glicko-2 starts), and play goes on
with notes, a waiting move, conditional moves, a vacation and a rated result."""

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

import twixt.storage.backends.postgres
import twixt.storage.backends.sqlite
from support.pg_server import new_database
from tests.storage.conftest import migrated_to
from twixt.storage import GameResult, Result, SqliteStorage
from twixt.storage.backends.postgres import PostgresStorage, _numbered
from twixt.storage.schema import full_check, migrations

THEN = datetime(2026, 2, 1, 12, 0, tzinfo=UTC)
NOW = THEN + timedelta(days=20)
#: the schema versions of the release before: SQLite's and PostgreSQL's
BEFORE = {"sqlite": 6, "postgresql": 3}

#: the rows of then, written as that schema had them (times and flags converted per back end)
OLD_ROWS = (
    ("INSERT INTO challenges (id, guild_id, channel_id, challenger_id, players, size, rules, "
     "swap, handicap, time_control, opening, first, thread, status, created_at, expires_at) "
     "VALUES (1, 100, 30, 7, 2, '24x24', 'pp', ?, 0, '3d', NULL, 'random', ?, 'pending', ?, ?)",
     (True, False, THEN, NOW + timedelta(days=1))),
    ("INSERT INTO challenge_invitees (challenge_id, slot, user_id) VALUES (1, 0, 8)", ()),
    ("INSERT INTO games (id, guild_id, channel_id, status, size, rules, swap, handicap, "
     "time_control, version, created_at, updated_at, wake_at) "
     "VALUES (1, 100, 1, 'active', '12x12', 'pp', ?, 0, '1d', 2, ?, ?, ?)",
     (False, THEN, THEN, THEN + timedelta(hours=12))),
    ("INSERT INTO games (id, guild_id, channel_id, status, size, rules, swap, handicap, "
     "version, created_at, updated_at, result, reason, finished_at) "
     "VALUES (2, 100, 2, 'finished', '12x12', 'pp', ?, 0, 1, ?, ?, 'red', 'resignation', ?)",
     (False, THEN, THEN, THEN)),
    ("INSERT INTO game_seats (game_id, seat, user_id, name, winner) VALUES "
     "(1, 0, 1, 'alice', ?), (1, 1, 2, 'bob', ?), (2, 0, 1, 'alice', ?), (2, 1, 2, 'bob', ?)",
     (False, False, True, False)),
    ("INSERT INTO turns (game_id, number, actor_id, command, played_at) VALUES "
     "(1, 1, 1, 'C3', ?), (1, 2, 2, 'D5', ?), (2, 1, 1, 'resign', ?)", (THEN, THEN, THEN)),
    ("INSERT INTO ratings (guild_id, user_id, rating, rated_games, updated_at) VALUES "
     "(100, 1, 1612.5, 7, ?), (100, 2, 1387.5, 7, ?)", (THEN, THEN)),
    ("INSERT INTO player_totals VALUES (100, 1, 1, 1, 0, 0), (100, 2, 1, 0, 1, 0)", ()),
    ("INSERT INTO pair_totals VALUES (100, 1, 2, 1, 0, 0), (100, 2, 1, 0, 1, 0)", ()),
)


def _sqlite_value(value):
    if isinstance(value, datetime):
        return value.isoformat(timespec="microseconds")
    return int(value) if isinstance(value, bool) else value


async def _old_sqlite(path, monkeypatch):
    with monkeypatch.context() as old:
        old.setattr(twixt.storage.backends.sqlite, "migrations",
                    lambda: migrations()[:BEFORE["sqlite"]])
        async with await SqliteStorage.open(path):
            pass
    with closing(sqlite3.connect(path)) as db, db:
        for sql, params in OLD_ROWS:
            db.execute(sql, [_sqlite_value(value) for value in params])
    return await SqliteStorage.open(path)


async def _old_postgres(url):
    await migrated_to(url, BEFORE["postgresql"])
    conn = await asyncpg.connect(url)
    try:
        for sql, params in OLD_ROWS:
            await conn.execute(_numbered(sql), *params)
    finally:
        await conn.close()
    return await PostgresStorage.open(url)


async def test_a_database_of_the_release_before_upgrades_with_its_rows_and_plays_on(
        backend, tmp_path, pg_server, monkeypatch):
    path = tmp_path / "twixt.db"
    store = (await _old_sqlite(path, monkeypatch) if backend == "sqlite"
             else await _old_postgres(await new_database(pg_server)))
    async with store:
        running, finished = await store.get_game(1), await store.get_game(2)
        assert (running.version, running.setup.time_control, running.setup.vacation) == (
            2, "1d", True)
        assert [(s.user_id, s.weekends_off) for s in running.seats] == [(1, False), (2, False)]
        assert finished.result == GameResult(Result.RED, "resignation", (1,))
        assert [t.command for t in (await store.load_game(1)).turns] == ["C3", "D5"]
        challenge = await store.get_challenge(1)
        assert (challenge.setup.swap, challenge.setup.vacation) == (True, True)
        alice = await store.player_stats(100, 1)
        assert (alice.games, alice.wins, alice.rating, alice.rated_games) == (1, 1, 1612.5, 7)
        assert (alice.deviation, alice.rated_at) == (250.0, THEN)
        assert await store.due_games(THEN) == ()  # its wake-up came along

        # and play goes on, with what the new tables keep
        assert await store.append_turn(1, 2, 1, "E7", now=NOW) == 3
        assert (await store.add_note(1, 2, "watch E7", most=5, now=NOW)).number == 1
        assert (await store.hold_move(1, 2, "F9", 3, now=NOW)).id == 1
        await store.store_conditionals(1, 1, 3, 3, "if F9 then G11", now=NOW)
        assert await store.add_vacation(100, 2, NOW, NOW + timedelta(days=2), 2, allowed=20,
                                        now=NOW)
        assert [g.id for g in await store.due_games(NOW)] == [1]  # the vacation woke it
        await store.append_turn(1, 3, 2, "resign", now=NOW, finish=GameResult(
            Result.RED, "resignation", (1,), rated_sides=((1,), (2,))))
        alice, bob = await store.player_stats(100, 1), await store.player_stats(100, 2)
        assert (alice.games, alice.wins, alice.rated_games) == (2, 2, 8)
        assert (bob.games, bob.losses, bob.rated_games) == (2, 2, 8)
        assert alice.rating > 1612.5 and bob.rating < 1387.5
        assert 110 < alice.deviation < 250 and alice.rated_at == NOW
        assert await store.head_to_head(100, 2, 1) == (0, 2, 0)
        assert [n.text for n in await store.notes(1, 2, limit=5)] == ["watch E7"]
    if backend == "sqlite":
        assert full_check(path) == []


@pytest.mark.parametrize("back_end", ["sqlite", "postgresql"])
def test_the_release_before_is_where_the_new_migrations_begin(back_end):
    """The versions above are the release before's: the next migration is the first new."""
    available = (migrations() if back_end == "sqlite"
                 else twixt.storage.backends.postgres.migrations())
    assert available[BEFORE[back_end]].name == "glicko"
