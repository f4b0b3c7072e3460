"""Games, seats and the append-only turn log."""

import random
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from tests.rules.helpers import count_history_reads
from tests.storage.storage_helpers import play_turns, random_turn, start_game
from twixt.storage import (
    TAKEBACK,
    ChannelBusyError,
    GameFinishedError,
    GameResult,
    GameSetup,
    GameStatus,
    NotFoundError,
    OfferKind,
    Player,
    Result,
    StaleVersionError,
    rebuild,
)

T0 = datetime(2030, 1, 1, tzinfo=UTC)


async def test_a_new_game_has_its_seats_in_order_and_version_zero(store):
    players = [Player(4, "d"), Player(3, "c"), Player(2, "b"), Player(1, "a")]
    game = await store.create_game(guild_id=9, channel_id=7, players=players,
                                   setup=GameSetup(size="24x24", handicap=6, swap=False))
    assert [(s.number, s.user_id, s.name, s.team) for s in game.seats] == [
        (0, 4, "d", 0), (1, 3, "c", 1), (2, 2, "b", 0), (3, 1, "a", 1)]
    assert game.version == 0 and game.status is GameStatus.ACTIVE
    assert game.setup == GameSetup(size="24x24", handicap=6, swap=False)
    assert await store.get_game(game.id) == game


async def test_turns_come_back_in_order_with_actor_text_and_time(store):
    game = await start_game(store, channel_id=1)
    assert await store.append_turn(game.id, 0, 1, "C3", now=T0) == 1
    assert await store.append_turn(game.id, 1, 2, "D5", now=T0 + timedelta(hours=5)) == 2
    loaded = await store.load_game(game.id)
    assert loaded.game.version == 2
    assert [(t.number, t.actor_id, t.command, t.played_at) for t in loaded.turns] == [
        (1, 1, "C3", T0), (2, 2, "D5", T0 + timedelta(hours=5))]


async def test_a_turn_at_an_old_version_is_refused_and_changes_nothing(store):
    game = await start_game(store, channel_id=1)
    await store.append_turn(game.id, 0, 1, "C3")
    with pytest.raises(StaleVersionError) as stale:
        await store.append_turn(game.id, 0, 2, "D5")
    assert (stale.value.expected, stale.value.actual) == (0, 1)
    assert [t.command for t in (await store.load_game(game.id)).turns] == ["C3"]


async def test_the_last_turn_and_the_result_commit_together(store):
    game = await start_game(store, channel_id=1)
    finish = GameResult(Result.BLACK, "resignation", winners=(2,), rated_sides=((1,), (2,)))
    await store.append_turn(game.id, 0, 1, "resign", finish=finish, now=T0)
    done = await store.get_game(game.id)
    assert done.status is GameStatus.FINISHED and done.finished_at == T0
    assert done.result == GameResult(Result.BLACK, "resignation", winners=(2,))
    assert await store.active_game(1) is None


async def test_a_finished_game_takes_no_more_turns(store):
    game = await start_game(store, channel_id=1)
    await store.append_turn(game.id, 0, 1, "resign",
                            finish=GameResult(Result.BLACK, "resignation", (2,)))
    with pytest.raises(GameFinishedError, match=f"game {game.id} is over"):
        await store.append_turn(game.id, 1, 2, "C3")


async def test_a_winner_without_a_seat_rolls_the_whole_turn_back(store):
    game = await start_game(store, channel_id=1)
    with pytest.raises(ValueError, match="seat"):
        await store.append_turn(game.id, 0, 1, "resign",
                                finish=GameResult(Result.BLACK, "resignation", (99,)))
    loaded = await store.load_game(game.id)
    assert loaded.game.version == 0 and loaded.turns == () and loaded.game.is_active


async def test_an_abort_finishes_a_game_without_a_turn(store):
    game = await start_game(store, channel_id=1)
    done = await store.finish_game(game.id, 0, GameResult(Result.ABORTED, "aborted"))
    assert done.status is GameStatus.FINISHED and done.version == 0


@pytest.mark.sqlite_only  # PostgreSQL's own: test_storage_postgres.py
async def test_the_turn_log_cannot_be_rewritten(store, db_path):
    game = await start_game(store, channel_id=1)
    await store.append_turn(game.id, 0, 1, "C3")
    with closing(sqlite3.connect(db_path)) as conn:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE turns SET command = 'D4'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM turns")


async def test_a_channel_has_at_most_one_active_game(store):
    await start_game(store, channel_id=5, users=(1, 2))
    with pytest.raises(ChannelBusyError, match="channel 5 already has an active game"):
        await start_game(store, channel_id=5, users=(3, 4))


async def test_a_finished_game_frees_its_channel_and_is_kept(store):
    first = await start_game(store, channel_id=5)
    await store.finish_game(first.id, 0, GameResult(Result.DRAW, "agreement"))
    second = await start_game(store, channel_id=5)
    assert (await store.active_game(5)).id == second.id
    assert [g.id for g in await store.list_games(channel_id=5)] == [second.id, first.id]


async def test_unknown_games_are_not_found(store):
    with pytest.raises(NotFoundError):
        await store.get_game(404)
    with pytest.raises(NotFoundError):
        await store.append_turn(404, 0, 1, "C3")


async def test_games_of_a_user_are_listed_newest_first_in_pages(store):
    ids = [(await start_game(store, channel_id=c, users=(1, 10 + c))).id for c in range(5)]
    await start_game(store, channel_id=99, users=(7, 8))
    first_page = await store.list_games(user_id=1, limit=2)
    second_page = await store.list_games(user_id=1, limit=2, before_id=first_page[-1].id)
    rest = await store.list_games(user_id=1, limit=2, before_id=second_page[-1].id)
    assert [g.id for g in (*first_page, *second_page, *rest)] == ids[::-1]


async def test_games_can_be_listed_by_guild_and_status(store):
    active = await start_game(store, channel_id=1, guild_id=50)
    done = await start_game(store, channel_id=2, guild_id=50)
    await start_game(store, channel_id=3, guild_id=51)
    await store.finish_game(done.id, 0, GameResult(Result.DRAW, "agreement"))
    listed = await store.list_games(guild_id=50, status=GameStatus.ACTIVE)
    assert [g.id for g in listed] == [active.id]


async def test_a_played_game_replays_from_its_log(store):
    game = await start_game(store, channel_id=1)
    played = await play_turns(store, game, 200, random.Random(4))
    replayed = rebuild(await store.load_game(game.id))
    assert [t.text for t in replayed.history] == [t.text for t in played.history]
    assert replayed.outcome == played.outcome


@pytest.mark.parametrize("takebacks", [1, 200])
async def test_a_log_of_takebacks_replays_in_one_pass(store, monkeypatch, takebacks):
    # each takeback once read the whole log to see that there was a turn to take back
    game = await start_game(store, channel_id=1)
    version = 0
    for _ in range(takebacks):
        version = await store.append_turn(game.id, version, 1, "E3")
        version = await store.append_turn(game.id, version, 2, TAKEBACK)
    loaded = await store.load_game(game.id)
    reads = count_history_reads(monkeypatch)
    assert rebuild(loaded).moves_made == 0
    assert reads[0] == 0


async def test_a_double_twixt_game_replays_with_four_seats(store):
    game = await start_game(store, channel_id=1, users=(1, 2, 3, 4))
    played = await play_turns(store, game, 12, random.Random(8))
    assert rebuild(await store.load_game(game.id)).player_to_move == played.player_to_move


async def test_an_offer_is_open_until_closed_and_lapses_with_the_game(store):
    game = await start_game(store, channel_id=1)
    offer = await store.make_offer(game.id, OfferKind.TAKEBACK, 1, at_version=0, now=T0)
    assert await store.open_offers(game.id) == (offer,)
    assert await store.close_offer(game.id, OfferKind.TAKEBACK) == offer
    assert await store.close_offer(game.id, OfferKind.TAKEBACK) is None
    await store.make_offer(game.id, OfferKind.DRAW, 2, at_version=0)
    await store.finish_game(game.id, 0, GameResult(Result.DRAW, "agreement"))
    assert await store.open_offers(game.id) == ()


async def test_an_offer_on_a_changed_board_is_refused(store):
    game = await start_game(store, channel_id=1)
    actor, text = random_turn(rebuild(await store.load_game(game.id)), random.Random(1))
    await store.append_turn(game.id, 0, actor, text)
    with pytest.raises(StaleVersionError):
        await store.make_offer(game.id, OfferKind.DRAW, 2, at_version=0)


async def test_the_live_versions_of_some_games_are_read_in_one_statement(store):
    first = await start_game(store, channel_id=71)
    second = await start_game(store, channel_id=72)
    await store.append_turn(first.id, 0, first.seats[0].user_id, "G6")
    assert await store.live_versions([second.id, first.id, 999_999, first.id]) == {
        first.id: 1, second.id: 0}
    assert await store.live_versions([]) == {}


async def test_an_offer_made_or_closed_and_an_end_without_a_turn_move_the_live_version_on(
        store):
    game = await start_game(store, channel_id=73)
    await store.append_turn(game.id, 0, game.seats[0].user_id, "G6")
    seen = [(await store.live_versions([game.id]))[game.id]]
    await store.make_offer(game.id, OfferKind.TAKEBACK, game.seats[0].user_id, at_version=1)
    seen.append((await store.get_game(game.id)).live_version)
    await store.close_offer(game.id, OfferKind.TAKEBACK)
    seen.append((await store.live_versions([game.id]))[game.id])
    assert await store.close_offer(game.id, OfferKind.TAKEBACK) is None  # nothing to close
    seen.append((await store.live_versions([game.id]))[game.id])
    await store.finish_game(game.id, 1, GameResult(Result.ABORTED, "aborted"))
    finished = await store.get_game(game.id)
    assert [*seen, finished.live_version] == [1, 2, 3, 3, 4]
    assert finished.version == 1  # the log's version, its version checks' token, stays
