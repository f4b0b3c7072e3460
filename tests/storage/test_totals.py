"""Stats, head-to-head and the leaderboard from running totals (migration 0006) say exactly what
counting every game says: on a random mix of wins, draws, aborts, continued imports, Double
TwixT, several guilds, games still running and games finishing at once; and on a database
upgraded from before the totals existed. History pages by offset."""

import asyncio
import random
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

import twixt.storage.backends.sqlite
import twixt.storage.games
from support.old_queries import OLD_HEAD_TO_HEAD, OLD_LEADERBOARD, OLD_STATS
from tests.storage.storage_helpers import start_game
from twixt.storage import GameResult, GameSetup, GameStatus, PlayerStats, Result, SqliteStorage
from twixt.storage.schema import apply_migrations, full_check, migrations

GUILDS = (100, 200)
USERS = tuple(range(1, 8))
IMPORTED = GameSetup(size="8x8", rules="pp", imported_turns="0: C3\n1: F6")


def random_result(rng: random.Random, users: tuple[int, ...]) -> GameResult:
    """Red, Black, a draw or an abort, rated now and then (never an abort)."""
    result = rng.choice([Result.RED, Result.RED, Result.BLACK, Result.BLACK, Result.DRAW,
                         Result.ABORTED])
    red, black = users[0::2], users[1::2]
    winners = {Result.RED: red, Result.BLACK: black}.get(result, ())
    rated = (red, black) if result is not Result.ABORTED and rng.random() < 0.5 else None
    return GameResult(result, "test", winners, rated_sides=rated)


async def play_random_mix(store, rng: random.Random, count: int) -> None:
    """`count` games on random channels: most end (a few of them together), some go on."""
    endings = []
    for channel in range(1, count + 1):
        users = tuple(rng.sample(USERS, rng.choice((2, 2, 2, 4))))
        setup = IMPORTED if len(users) == 2 and rng.random() < 0.15 else GameSetup("8x8", "pp")
        game = await start_game(store, channel_id=channel, users=users, setup=setup,
                                guild_id=rng.choice(GUILDS))
        if rng.random() < 0.1:
            continue  # still being played
        result = random_result(rng, users)
        if rng.random() < 0.5:
            endings.append(store.append_turn(game.id, 0, users[0], "resign", finish=result))
        else:
            endings.append(store.finish_game(game.id, 0, result))
        if len(endings) == 5:  # finished together, racing for the totals
            await asyncio.gather(*endings)
            endings = []
    await asyncio.gather(*endings)


async def recounted(store) -> tuple[dict[tuple[int, int], list[int]],
                                    dict[tuple[int, int, int], list[int]]]:
    """Totals counted from every game, as stats were counted before 0006: per (guild, user)
    games, wins, losses, draws; per (guild, user, opponent) wins, losses, draws."""
    players: dict[tuple[int, int], list[int]] = {}
    pairs: dict[tuple[int, int, int], list[int]] = {}
    for game in await store.list_games(limit=1_000_000):
        outcome = game.result
        if (game.status is not GameStatus.FINISHED or outcome is None
                or outcome.result is Result.ABORTED or game.setup.imported_turns is not None):
            continue
        for me in game.seats:
            won = me.user_id in outcome.winners
            counts = [int(won), int(outcome.result is not Result.DRAW and not won),
                      int(outcome.result is Result.DRAW)]
            total = players.setdefault((game.guild_id, me.user_id), [0, 0, 0, 0])
            for i, n in enumerate([1, *counts]):
                total[i] += n
            for them in game.seats:
                if them.team != me.team:
                    pair = pairs.setdefault((game.guild_id, me.user_id, them.user_id), [0, 0, 0])
                    for i, n in enumerate(counts):
                        pair[i] += n
    return players, pairs


async def assert_totals_agree(store) -> None:
    players, pairs = await recounted(store)
    ranked_ids: set[tuple[int, int]] = set()
    for guild in (*GUILDS, 999):
        board = await store.leaderboard(guild, limit=1000)
        assert [p.rating for p in board] == sorted((p.rating for p in board), reverse=True)
        paged = [p for start in range(0, len(USERS), 3)
                 for p in await store.leaderboard(guild, limit=3, offset=start)]
        assert paged == list(board)
        ranked_ids |= {(guild, p.user_id) for p in board}
        for user in (*USERS, 99):
            stats = await store.player_stats(guild, user)
            games, wins, losses, draws = players.get((guild, user), [0, 0, 0, 0])
            assert (stats.games, stats.wins, stats.losses, stats.draws) == (
                games, wins, losses, draws), (guild, user)
            assert (stats.rating is not None) == ((guild, user) in ranked_ids)
            if stats.rating is not None:
                assert stats in board
            for other in (*USERS, 99):
                expected = tuple(pairs.get((guild, user, other), [0, 0, 0]))
                assert await store.head_to_head(guild, user, other) == expected
    assert sum(p[0] for p in players.values()) > 0 and len(pairs) > 10  # the mix was a mix


async def test_totals_agree_with_counting_every_game(store):
    await play_random_mix(store, random.Random(12), 120)
    await assert_totals_agree(store)


async def test_an_import_an_abort_and_partners_count_nowhere(store):
    imported = await start_game(store, 1, (1, 2), setup=IMPORTED)
    await store.finish_game(imported.id, 0, GameResult(Result.RED, "resignation", (1,)))
    aborted = await start_game(store, 2, (1, 2))
    await store.finish_game(aborted.id, 0, GameResult(Result.ABORTED, "aborted"))
    team = await start_game(store, 3, (1, 2, 3, 4))
    await store.finish_game(team.id, 0, GameResult(Result.BLACK, "resignation", (2, 4)))
    assert await store.player_stats(100, 1) == PlayerStats(100, 1, games=1, losses=1)
    assert await store.head_to_head(100, 1, 2) == (0, 1, 0)
    assert await store.head_to_head(100, 4, 1) == (1, 0, 0)
    assert await store.head_to_head(100, 1, 3) == (0, 0, 0)  # partners


async def test_a_history_page_by_offset_is_the_slice_of_the_whole_list(store):
    for i in range(25):
        game = await start_game(store, channel_id=7 if i % 3 else 8, users=(1, 2 + i % 2))
        await store.finish_game(game.id, 0, GameResult(Result.DRAW, "agreement"))
    await start_game(store, channel_id=7, users=(1, 2))
    for where in ({"channel_id": 7}, {"user_id": 2}, {"user_id": 1, "visible_to": (8, 3)}):
        everything = await store.list_games(limit=1000, **where)
        pages = [await store.list_games(limit=4, offset=start, **where)
                 for start in range(0, len(everything) + 4, 4)]
        assert [g for page in pages for g in page] == list(everything)
        assert pages[-1] == ()


@pytest.mark.sqlite_only
async def test_an_upgraded_database_counts_the_games_it_had(db_path, monkeypatch):
    """Games finished before 0006 (no totals written) are counted by its backfill."""
    before = migrations()[:5]
    assert before[-1].version == 5
    with monkeypatch.context() as old:
        old.setattr(twixt.storage.backends.sqlite, "migrations", lambda: before)

        # no totals written at a game's end, nor waiting or conditional moves to forget
        # (0008, 0009), nor tournaments to look at (0011)
        old.setattr(twixt.storage.games, "AFTER_FINISH", ())

        async def no_glicko(self, db, guild_id, result, sides, at):
            pass  # the ratings table of then has no deviation (0007); 0007 has its own test
        old.setattr(SqliteStorage, "_rate", no_glicko)
        async with await SqliteStorage.open(db_path) as store:
            with newer_columns(db_path):
                await play_random_mix(store, random.Random(5), 80)
    async with await SqliteStorage.open(db_path) as store:
        await assert_totals_agree(store)
        await play_random_mix_after(store)
        await assert_totals_agree(store)


@contextmanager
def newer_columns(db_path: Path) -> Iterator[None]:
    """While today's code plays on a database of an older schema: the columns that later
    migrations add to its tables, added for the time being (with their defaults, without
    their checks) and dropped again, so that the later migrations add them as they would."""
    with tempfile.TemporaryDirectory() as folder:
        newest = Path(folder) / "newest.db"
        apply_migrations(newest, migrations())
        with closing(sqlite3.connect(newest)) as new, closing(sqlite3.connect(db_path)) as old:
            added = [(table, column, kind, default)
                     for (table,) in old.execute("SELECT name FROM sqlite_master "
                                                 "WHERE type = 'table'")
                     for _, column, kind, _, default, _ in new.execute(
                         f"PRAGMA table_info({table})")
                     if column not in {row[1] for row in old.execute(
                         f"PRAGMA table_info({table})")}]
            for table, column, kind, default in added:
                old.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}"
                            + ("" if default is None else f" DEFAULT {default}"))
            old.commit()
    yield
    with closing(sqlite3.connect(db_path)) as old:
        for table, column, _, _ in added:
            old.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        old.commit()


@pytest.mark.sqlite_only
async def test_the_full_check_finds_totals_that_differ_from_the_games(db_path):
    async with await SqliteStorage.open(db_path) as store:
        await play_random_mix(store, random.Random(8), 40)
    assert full_check(db_path) == []
    with closing(sqlite3.connect(db_path)) as db, db:
        db.execute("UPDATE player_totals SET wins = wins + 1 WHERE guild_id = 100 AND user_id = 1")
        db.execute("DELETE FROM pair_totals WHERE guild_id = 200 AND user_id = 2 AND other_id = 3")
        db.execute("INSERT INTO pair_totals VALUES (300, 1, 2, 1, 0, 0)")
    assert sorted(full_check(db_path)) == [
        "pair_totals (guild_id 200, user_id 2, other_id 3) differs from counting the games again",
        "pair_totals (guild_id 300, user_id 1, other_id 2) differs from counting the games again",
        "player_totals (guild_id 100, user_id 1) differs from counting the games again"]


async def play_random_mix_after(store) -> None:
    """More games on top of the backfilled totals (channels the first mix did not use)."""
    rng = random.Random(6)
    for channel in range(1000, 1030):
        users = tuple(rng.sample(USERS, 2))
        game = await start_game(store, channel_id=channel, users=users,
                                guild_id=rng.choice(GUILDS))
        await store.finish_game(game.id, 0, random_result(rng, users))


@pytest.mark.sqlite_only
async def test_the_old_full_scan_queries_give_the_same_answers(db_path):
    async with await SqliteStorage.open(db_path) as store:
        await play_random_mix(store, random.Random(7), 150)
        with closing(sqlite3.connect(db_path)) as old:
            for guild in (*GUILDS, 999):
                ranked = [row[0] for row in old.execute(OLD_LEADERBOARD, (guild, 1000, 0))]
                assert [p.user_id for p in await store.leaderboard(guild, 1000)] == ranked
                for user in (*USERS, 99):
                    row = old.execute(OLD_STATS.format(marks="?"), (guild, user)).fetchone()
                    stats = await store.player_stats(guild, user)
                    assert (stats.games, stats.wins, stats.losses, stats.draws) == (
                        tuple(row[1:]) if row else (0, 0, 0, 0))
                    for other in USERS:
                        assert await store.head_to_head(guild, user, other) == old.execute(
                            OLD_HEAD_TO_HEAD, (user, other, guild)).fetchone()
            played = Counter(row[0] for row in old.execute(
                "SELECT result FROM games WHERE status = 'finished'"))
            assert len(played) == 4  # red, black, draw and aborted all occurred
