"""Claims for several processes over one database: a due game is claimed by one claimer (its
wake-up moves to the end of a lease), a reminder never delivered is claimed again by one,
and both can be limited to the guilds of some shards. Claimers race as real asyncio tasks,
on PostgreSQL each on connections of its own storage."""

import asyncio
from datetime import timedelta

import pytest

from tests.storage.storage_helpers import T0, clocked
from twixt.storage import SqliteStorage
from twixt.storage.backends.postgres import PostgresStorage
from twixt.storage.shards import Shards

H = timedelta(hours=1)
LEASE = T0 + 5 * timedelta(minutes=1)


def guild_of_shard(shard: int, count: int, n: int = 0) -> int:
    """A snowflake-like guild id that Discord gives to `shard` of `count`."""
    return ((n * count + shard) << 22) | 12345


def test_the_shard_of_a_guild_is_discords():
    shards = Shards(4, (1, 3))
    assert shards.shard_of(guild_of_shard(3, 4, n=7)) == 3
    assert shards.holds(guild_of_shard(1, 4)) and shards.holds(guild_of_shard(3, 4, n=2))
    assert not shards.holds(guild_of_shard(0, 4)) and not shards.holds(guild_of_shard(2, 4))
    # a real guild id: (id >> 22) % count, as discord.py's AutoShardedClient computes it
    assert Shards(2, (0,)).shard_of(81384788765712384) == (81384788765712384 >> 22) % 2
    assert Shards.all_of(3).everything and Shards(3, (0, 1, 2)).sql() == "1 = 1"


@pytest.mark.parametrize("count, ids, why", [
    (0, (0,), "a shard count is 1 or more"),
    (2, (), "at least one shard id"),
    (2, (2,), "shard ids are 0 to 1"),
    (2, (1, 1), "given twice"),
])
def test_shards_that_cannot_be(count, ids, why):
    with pytest.raises(ValueError, match=why):
        Shards(count, ids)


async def test_a_due_game_is_claimed_once_until_its_lease_ends(store):
    games = [await clocked(store, channel) for channel in range(1, 4)]
    claimed = await store.claim_due_games(T0, LEASE, 10)
    assert sorted(g.id for g in claimed) == [g.id for g in games]
    assert await store.claim_due_games(T0, LEASE, 10) == ()  # taken
    assert await store.next_wake() == LEASE
    # a claimer that died: the games are due again when the lease ends
    again = await store.claim_due_games(LEASE, LEASE + H, 2)
    assert len(again) == 2
    assert len(await store.claim_due_games(LEASE, LEASE + H, 2)) == 1
    # the claimer stores the real wake-up under the version check
    assert await store.set_wake(games[0].id, 0, T0 + 24 * H)
    assert await store.next_wake() == LEASE + H


async def test_claims_keep_to_the_shards_asked_for(store):
    zero = await clocked(store, 1, guild_id=guild_of_shard(0, 2))
    one = await clocked(store, 2, guild_id=guild_of_shard(1, 2, n=5))
    assert await store.next_wake(shards=Shards(2, (1,))) == T0
    [mine] = await store.claim_due_games(T0, LEASE, shards=Shards(2, (1,)))
    assert mine.id == one.id
    assert await store.next_wake(shards=Shards(2, (1,))) == LEASE
    assert await store.next_wake(shards=Shards(2, (0,))) == T0
    [theirs] = await store.claim_due_games(T0, LEASE, shards=Shards(2, (0,)))
    assert theirs.id == zero.id
    for game in (zero, one):
        assert await store.claim_reminder(game.id, 0, "first", now=T0)
    assert await store.reclaim_reminders(T0 + H, T0 + H, shards=Shards(2, (0,))) == (
        (zero.id, 0, "first"),)
    assert await store.reclaim_reminders(T0 + H, T0 + H, shards=Shards(2, (0, 1))) == (
        (one.id, 0, "first"),)


async def test_an_undelivered_reminder_is_claimed_again_once(store):
    game = await clocked(store, 1)
    assert await store.claim_reminder(game.id, 0, "first", now=T0)
    assert await store.reclaim_reminders(T0, T0 + H) == ()  # not old enough
    assert await store.reclaim_reminders(T0 + H, T0 + H) == ((game.id, 0, "first"),)
    assert await store.reclaim_reminders(T0 + H, T0 + H) == ()  # claimed again just now
    assert await store.reclaim_reminders(T0 + 2 * H, T0 + 2 * H) == ((game.id, 0, "first"),)
    await store.reminder_delivered(game.id, 0, "first", now=T0 + 2 * H)
    assert await store.reclaim_reminders(T0 + 9 * H, T0 + 9 * H) == ()


async def second_storage(store):
    """Another storage on the same database: another process's connections."""
    if isinstance(store, PostgresStorage):
        return await PostgresStorage.open(store.url)
    return store  # SQLite: one process, one writer; the claims still race as tasks


async def test_claimers_racing_take_every_game_and_reminder_once(store):
    games = [await clocked(store, channel) for channel in range(1, 121)]
    for game in games:
        assert await store.claim_reminder(game.id, 0, "final", now=T0)
    other = await second_storage(store)
    try:
        stores = [store, other] * 4

        async def claim_games(s):
            mine = []
            while batch := await s.claim_due_games(T0, LEASE, 7):
                mine += [g.id for g in batch]
                await asyncio.sleep(0)
            return mine

        async def claim_reminders(s):
            mine = []
            while batch := await s.reclaim_reminders(T0 + H, T0 + H, 5):
                mine += batch
                await asyncio.sleep(0)
            return mine

        taken = await asyncio.gather(*(claim_games(s) for s in stores))
        resent = await asyncio.gather(*(claim_reminders(s) for s in stores))
    finally:
        if other is not store:
            await other.close()
    every = sorted(i for ids in taken for i in ids)
    assert every == [g.id for g in games]  # each once, none left out
    assert sorted(r for rs in resent for r in rs) == [(g.id, 0, "final") for g in games]
    assert sum(1 for ids in taken if ids) > 1  # they did race


@pytest.mark.sqlite_only
async def test_sqlite_with_nothing_due_claims_without_a_write(store: SqliteStorage,
                                                              monkeypatch):
    await clocked(store, 1, now=T0 + H)
    monkeypatch.setattr(store, "_write", None)  # any write would fail
    assert await store.claim_due_games(T0, LEASE) == ()
    assert await store.reclaim_reminders(T0, T0) == ()
