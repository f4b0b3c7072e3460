"""User names and abort votes (migration 0002)."""

from tests.storage.storage_helpers import start_game


async def test_names_are_remembered_and_the_newest_wins(store):
    await store.remember_users({1: "alice", 2: "bob"})
    await store.remember_users({2: "Bobby"})
    assert await store.user_names([1, 2, 3]) == {1: "alice", 2: "Bobby"}
    assert await store.user_names([]) == {}


async def test_abort_votes_gather_per_game(store):
    first = await start_game(store, 10)
    second = await start_game(store, 11, users=(3, 4))
    assert await store.vote_abort(first.id, 1) == {1}
    assert await store.vote_abort(first.id, 1) == {1}
    assert await store.vote_abort(second.id, 3) == {3}
    assert await store.vote_abort(first.id, 2) == {1, 2}


async def test_a_reminder_is_claimed_once_per_game_version_and_stage(store):
    game = await start_game(store, 10)
    assert await store.claim_reminder(game.id, 0, "first")
    assert not await store.claim_reminder(game.id, 0, "first")
    assert await store.claim_reminder(game.id, 0, "final")
    assert await store.claim_reminder(game.id, 1, "first")
