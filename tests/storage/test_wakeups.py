"""Each clocked game's next wake-up, kept with the game (the timers-table pattern): set with
a turn and under the version check, found by an index, cleared at the end, and made due at
once by a change of the clock settings or by an upgrade from a schema without it."""

import sqlite3
from contextlib import closing
from datetime import timedelta

import pytest

from tests.storage.storage_helpers import T0, clocked, start_game
from twixt.storage import GameResult, Result, SqliteStorage
from twixt.storage.schema import apply_migrations, migrations

H = timedelta(hours=1)


async def due_ids(store, now, limit=100):
    return sorted(game.id for game in await store.due_games(now, limit))


async def test_a_clocked_game_is_due_at_once_and_a_game_without_a_clock_never(store):
    game = await clocked(store, 1)
    await start_game(store, channel_id=2)
    assert await due_ids(store, T0) == [game.id]
    assert await due_ids(store, T0 - timedelta(microseconds=1)) == []
    assert await store.next_wake() == T0


async def test_no_clock_running_means_no_wake_up(store):
    await start_game(store, channel_id=1)
    assert await store.next_wake() is None
    assert await store.due_games(T0 + 1000 * H) == ()


async def test_a_turn_stores_its_wake_up_and_only_due_games_are_read(store):
    games = [await clocked(store, channel) for channel in range(1, 6)]
    for hours, game in enumerate(games, start=1):
        assert await store.append_turn(game.id, 0, 1, "C3", wake_at=T0 + hours * H,
                                       now=T0) == 1
    assert await store.next_wake() == T0 + H
    assert await store.due_games(T0) == ()
    assert await due_ids(store, T0 + 2 * H) == [games[0].id, games[1].id]
    # bounded, the earliest first
    assert await due_ids(store, T0 + 10 * H, limit=3) == [g.id for g in games[:3]]
    [due] = await store.due_games(T0 + H)
    assert due == await store.get_game(games[0].id) and due.version == 1


async def test_setting_a_wake_up_is_under_the_version_check(store):
    game = await clocked(store, 1)
    assert await store.set_wake(game.id, 0, T0 + 5 * H)
    assert await store.next_wake() == T0 + 5 * H
    await store.append_turn(game.id, 0, 1, "C3", wake_at=T0 + 2 * H, now=T0 + H)
    assert not await store.set_wake(game.id, 0, T0 + 9 * H)  # stale: the turn's stands
    assert await store.next_wake() == T0 + 2 * H
    assert await store.set_wake(game.id, 1, None)
    assert await store.next_wake() is None
    assert await store.due_games(T0 + 1000 * H) == ()
    plain = await start_game(store, channel_id=2)
    assert not await store.set_wake(plain.id, 0, T0)  # no clock, no wake-up
    assert await store.next_wake() is None


async def test_a_turn_without_a_wake_up_is_due_by_its_time_at_the_latest(store):
    game = await clocked(store, 1)
    await store.set_wake(game.id, 0, T0 + 5 * H)
    await store.append_turn(game.id, 0, 1, "C3", now=T0 + H)
    assert await store.next_wake() == T0 + H
    await store.set_wake(game.id, 1, None)
    await store.append_turn(game.id, 1, 2, "D4", now=T0 + 2 * H)
    assert await store.next_wake() == T0 + 2 * H
    await store.set_wake(game.id, 2, T0)
    await store.append_turn(game.id, 2, 1, "E5", now=T0 + 3 * H)
    assert await store.next_wake() == T0  # an earlier wake-up stays


async def test_a_finished_game_has_no_wake_up(store):
    resigned, aborted = await clocked(store, 1), await clocked(store, 2)
    await store.append_turn(resigned.id, 0, 1, "resign", now=T0 + H,
                            finish=GameResult(Result.BLACK, "resignation", (2,)))
    await store.finish_game(aborted.id, 0, GameResult(Result.ABORTED, "aborted"), now=T0 + H)
    assert await store.next_wake() is None
    assert await store.due_games(T0 + 1000 * H) == ()
    assert not await store.set_wake(resigned.id, 1, T0)


async def test_changing_a_clock_setting_makes_the_guilds_clocks_due_at_once(store):
    moved, waiting, elsewhere = (await clocked(store, 1), await clocked(store, 2),
                                 await clocked(store, 3, guild_id=200))
    await store.append_turn(moved.id, 0, 1, "C3", wake_at=T0 + 6 * H, now=T0 + H)
    await store.set_wake(waiting.id, 0, None)  # say its time ran out and it was announced
    await store.set_wake(elsewhere.id, 0, T0 + 5 * H)
    await store.update_guild_settings(100, thread_default=True)  # no clock setting
    assert await due_ids(store, T0 + H) == []
    await store.update_guild_settings(100, forfeit_on_timeout=True)
    # each as of its last move; the other guild's clock is not touched
    assert await due_ids(store, T0) == [waiting.id]
    assert await due_ids(store, T0 + H) == [moved.id, waiting.id]
    assert await store.next_wake() == T0
    await store.set_wake(moved.id, 1, T0 + 9 * H)
    await store.set_wake(waiting.id, 0, T0 + 9 * H)
    await store.update_guild_settings(100, reminder_hours=12)
    assert await due_ids(store, T0 + H) == [moved.id, waiting.id]


@pytest.mark.sqlite_only
async def test_an_upgrade_makes_every_running_clock_due_and_nothing_else(db_path):
    apply_migrations(db_path, migrations()[:4])  # a database from before wake-ups
    stamp = (T0 + H).isoformat(timespec="microseconds")
    with closing(sqlite3.connect(db_path)) as conn, conn:
        for channel, status, clock, result in [(1, "active", "1d", None),
                                               (2, "finished", "1d", "red"),
                                               (3, "active", None, None)]:
            conn.execute("INSERT INTO games (guild_id, channel_id, status, size, rules, "
                         "time_control, created_at, updated_at, result) "
                         "VALUES (1, ?, ?, '8x8', 'pp', ?, ?, ?, ?)",
                         (channel, status, clock, stamp, stamp, result))
    async with await SqliteStorage.open(db_path) as store:
        [due] = await store.due_games(T0 + H)
        assert (due.channel_id, await store.next_wake()) == (1, T0 + H)
