"""Conditional moves in storage: one row a player and game, under the version check, gone
with the game's end, and never part of the turn log."""

from datetime import UTC, datetime

import pytest

from tests.fakes import Clock
from tests.service.helpers import start_game as start_service_game
from tests.service.people import ALICE, BOB, asking
from tests.storage.storage_helpers import start_game
from tests.typed import enter
from twixt.service import TwixtService
from twixt.storage import (
    GameFinishedError,
    GameResult,
    Result,
    StaleVersionError,
    StoredConditionals,
)

T0 = datetime(2030, 1, 1, tzinfo=UTC)


async def test_stored_conditionals_come_back_and_a_new_store_replaces_them(store):
    game = await start_game(store, channel_id=1)
    await store.store_conditionals(game.id, 2, 0, 0, "plan one", now=T0)
    await store.store_conditionals(game.id, 2, 0, 0, "plan two", now=T0)
    assert await store.conditionals(game.id) == (
        StoredConditionals(game.id, 2, 0, 0, "plan two", T0),)


async def test_conditionals_are_kept_under_the_version_check(store):
    game = await start_game(store, channel_id=1)
    await store.append_turn(game.id, 0, 1, "C3")
    with pytest.raises(StaleVersionError):
        await store.store_conditionals(game.id, 1, 0, 0, "too late")
    assert await store.conditionals(game.id) == ()


async def test_dropping_forgets_one_player_or_everyone(store):
    game = await start_game(store, channel_id=1)
    other = await start_game(store, channel_id=2, users=(3, 4))
    for user_id in (1, 2):
        await store.store_conditionals(game.id, user_id, 0, 0, f"plan {user_id}")
    await store.store_conditionals(other.id, 3, 0, 0, "elsewhere")
    await store.drop_conditionals(game.id, 1)
    assert [c.user_id for c in await store.conditionals(game.id)] == [2]
    await store.drop_conditionals(game.id)
    assert await store.conditionals(game.id) == ()
    assert [c.plan for c in await store.conditionals(other.id)] == ["elsewhere"]


async def test_a_finished_game_takes_no_new_conditionals(store):
    game = await start_game(store, channel_id=1)
    await store.append_turn(game.id, 0, 1, "resign",
                            finish=GameResult(Result.BLACK, "resignation", (2,)))
    with pytest.raises(GameFinishedError):
        await store.store_conditionals(game.id, 2, 1, 0, "plan")


async def test_conditionals_are_not_in_the_turn_log(store):
    game = await start_game(store, channel_id=1)
    await store.store_conditionals(game.id, 2, 0, 0, "if C3 then D5")
    loaded = await store.load_game(game.id)
    assert loaded.turns == () and loaded.game.version == 0


async def test_the_service_plays_a_stored_reply_after_a_restart(store):
    """Through the service over each back end: stored by one service, played by the next."""
    clock = Clock()
    first = TwixtService(store, clock=clock)
    await start_service_game(first, size="12", swap="no")
    await enter(first, asking(ALICE), "F5")
    await enter(first, asking(BOB), "E5")
    await enter(first, asking(BOB), "if H9 then G6 link E5 if J10 then K8")
    restarted = TwixtService(store, clock=clock)
    reply = await enter(restarted, asking(ALICE), "H9")
    assert reply.plain.splitlines()[1:3] == ["bob answers at once with a stored move:",
                                            "**bob** (Black): `G6 link E5`"]
    [kept] = await store.conditionals(1)
    assert (kept.user_id, kept.at_version, kept.at_move) == (BOB.id, 4, 4)
    assert "if J10 then K8" in (await enter(restarted, asking(BOB), "if")).plain


async def test_a_games_end_forgets_its_unplayed_moves_in_the_same_transaction(store):
    """Conditional moves and moves waiting for confirmation can never be played once the
    game is over: the end drops them as it commits (no later step that a crash could skip);
    notes stay, to be read after the game."""
    won = await start_game(store, channel_id=1)
    aborted = await start_game(store, channel_id=2, users=(3, 4))
    for game, (red, black) in ((won, (1, 2)), (aborted, (3, 4))):
        await store.store_conditionals(game.id, black, 0, 0, "if C3 then D5")
        await store.hold_move(game.id, red, "C3", 0)
        await store.add_note(game.id, red, "my plan", most=5)
    await store.append_turn(won.id, 0, 1, "resign",
                            finish=GameResult(Result.BLACK, "resignation", (2,)))
    await store.finish_game(aborted.id, 0, GameResult(Result.ABORTED, "aborted"))
    for game, (red, _black) in ((won, (1, 2)), (aborted, (3, 4))):
        assert await store.conditionals(game.id) == ()
        assert await store.pending_move(game.id, red) is None
        assert [n.text for n in await store.notes(game.id, red, limit=5)] == ["my plan"]
