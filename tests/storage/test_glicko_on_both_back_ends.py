"""Glicko-2 ratings in storage: on both back ends a Double TwixT result moves each partner by
their own deviation, and a database from the Elo bot (SQLite before 0007, PostgreSQL before
0004) keeps each player's Elo rating as their start, with deviation 250."""

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

import twixt.storage.backends.postgres
import twixt.storage.backends.sqlite
from support.pg_server import new_database
from tests.storage.conftest import migrated_to
from tests.storage.storage_helpers import start_game
from twixt.storage import GameResult, Result, SqliteStorage
from twixt.storage.backends.postgres import PostgresStorage
from twixt.storage.ratings import START_VOLATILITY, Rating, rate_game
from twixt.storage.schema import migrations

ELO_AT = datetime(2025, 11, 1, 9, 30, tzinfo=UTC)
LATER = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
#: the deviation an Elo rating starts from (twixt/storage/migrations/0007_glicko.sql says why)
MIGRATED_DEVIATION = 250.0
#: (user, Elo rating, rated games) of the players of the old database, in guild 100
ELO = ((1, 1640.5, 12), (2, 1420.0, 3))


async def test_partners_of_different_ratings_each_move_by_their_own_deviation(store):
    # 1 and 2 play a game first, so that the team of 1 and 3 has a sure and an unsure partner
    first = await start_game(store, channel_id=1, users=(1, 2))
    await store.finish_game(first.id, 0, GameResult(Result.RED, "resignation", (1,),
                                                    rated_sides=((1,), (2,))), now=LATER)
    before = {user: await store.player_stats(100, user) for user in (1, 2, 3, 4)}
    team = await start_game(store, channel_id=2, users=(1, 2, 3, 4))
    at = LATER + timedelta(days=10)
    await store.finish_game(team.id, 0, GameResult(Result.BLACK, "connection", (2, 4),
                                                   rated_sides=((1, 3), (2, 4))), now=at)

    def standing(user):
        stats = before[user]
        if stats.rating is None:
            return Rating()
        return Rating(stats.rating, stats.deviation, stats.volatility, stats.rated_at)

    (one, three), (two, four) = rate_game([standing(1), standing(3)],
                                          [standing(2), standing(4)], 0.0, at)
    after = {user: await store.player_stats(100, user) for user in (1, 2, 3, 4)}
    assert [after[user].rating_at(at) for user in (1, 2, 3, 4)] == [one, two, three, four]
    # the newcomer of the losing team loses more than their partner, who is a game surer
    assert 1500 - after[3].rating > before[1].rating - after[1].rating > 0
    assert after[3].deviation > after[1].deviation
    assert [after[user].rated_games for user in (1, 2, 3, 4)] == [2, 2, 1, 1]


async def _assert_migrated(store) -> None:
    for user, rating, games in ELO:
        stats = await store.player_stats(100, user)
        assert (stats.rating, stats.rated_games) == (rating, games)
        assert (stats.deviation, stats.volatility, stats.rated_at) == (
            MIGRATED_DEVIATION, START_VOLATILITY, ELO_AT)
    assert [p.user_id for p in await store.leaderboard(100)] == [1, 2]
    # the next game is rated from there, the deviation grown since the last Elo game
    game = await start_game(store, channel_id=9, users=(2, 1))
    await store.finish_game(game.id, 0, GameResult(Result.RED, "resignation", (2,),
                                                   rated_sides=((2,), (1,))), now=LATER)
    [upset], [loser] = rate_game([Rating(1420.0, MIGRATED_DEVIATION, 0.06, ELO_AT)],
                                 [Rating(1640.5, MIGRATED_DEVIATION, 0.06, ELO_AT)], 1.0, LATER)
    two = await store.player_stats(100, 2)
    assert (two.rating, two.deviation, two.rated_games) == (upset.rating, upset.deviation, 4)
    assert two.rating > 1550 and (await store.player_stats(100, 1)).rating == loser.rating


@pytest.mark.sqlite_only
async def test_an_elo_database_keeps_its_ratings_as_the_start(db_path, monkeypatch):
    before = migrations()[:6]
    assert before[-1].version == 6 and migrations()[6].name == "glicko"
    with monkeypatch.context() as old:
        old.setattr(twixt.storage.backends.sqlite, "migrations", lambda: before)
        async with await SqliteStorage.open(db_path):
            pass
    with closing(sqlite3.connect(db_path)) as db, db:
        db.executemany("INSERT INTO ratings (guild_id, user_id, rating, rated_games, "
                       "updated_at) VALUES (100, ?, ?, ?, ?)",
                       [(*row, ELO_AT.isoformat()) for row in ELO])
    async with await SqliteStorage.open(db_path) as store:
        await _assert_migrated(store)


async def test_an_elo_database_on_postgresql_keeps_its_ratings_as_the_start(pg_server):
    url = await new_database(pg_server)
    assert twixt.storage.backends.postgres.migrations()[3].name == "glicko"
    await migrated_to(url, 3)
    conn = await asyncpg.connect(url)
    try:
        for user, rating, games in ELO:
            await conn.execute("INSERT INTO ratings (guild_id, user_id, rating, rated_games, "
                               "updated_at) VALUES (100, $1, $2, $3, $4)",
                               user, rating, games, ELO_AT)
    finally:
        await conn.close()
    async with await PostgresStorage.open(url) as store:
        await _assert_migrated(store)
