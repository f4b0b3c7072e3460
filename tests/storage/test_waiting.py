"""Whose move each game waits for, and the daily digests (SQLite's migration 0015,
PostgreSQL's 0012), on both back ends: a turn says whose move comes next in the statement that
stores it, a player's waiting games come most urgent first from any server or DM, a finished
game waits for nobody, and a due digest is moved on once."""

from datetime import timedelta

from tests.storage.storage_helpers import SMALL, T0
from twixt.storage import GameResult, Player, Result, Storage, StoredDigest, StoredGame, Waiting


async def _game(store: Storage, channel_id: int, guild_id: int = 100,
                players: tuple[int, int] = (1, 2)) -> StoredGame:
    return await store.create_game(guild_id=guild_id, channel_id=channel_id, setup=SMALL,
                                   players=[Player(players[0], "a"), Player(players[1], "b")],
                                   now=T0)


async def test_a_players_waiting_games_come_most_urgent_first_from_anywhere(store):
    slow = await _game(store, 10)
    dm = await _game(store, 11, guild_id=0)  # a game in a direct message
    soon = await _game(store, 12, guild_id=200)
    later = await _game(store, 13)
    theirs = await _game(store, 14)
    await store.set_waiting(slow.id, Waiting(1, None, T0))
    await store.set_waiting(dm.id, Waiting(1, None, T0 - timedelta(days=2)))
    await store.append_turn(soon.id, 0, 2, "C3", now=T0,
                            waiting=Waiting(1, T0 + timedelta(hours=3), T0))
    await store.append_turn(later.id, 0, 2, "C3", now=T0,
                            waiting=Waiting(1, T0 + timedelta(days=2), T0))
    await store.set_waiting(theirs.id, Waiting(2, None, T0))
    found = await store.waiting_games(1, limit=10)
    assert [w.game.id for w in found] == [soon.id, later.id, dm.id, slow.id]
    assert found[0].due_at == T0 + timedelta(hours=3) and found[2].since == T0 - timedelta(days=2)
    assert found[2].game.guild_id == 0
    assert [w.game.id for w in await store.waiting_games(1, limit=2)] == [soon.id, later.id]


async def test_a_turn_without_waiting_keeps_it_and_an_end_clears_it(store):
    game = await _game(store, 10)
    await store.set_waiting(game.id, Waiting(1, None, T0))
    await store.append_turn(game.id, 0, 1, "C3", now=T0)  # said nothing: kept
    assert [w.game.id for w in await store.waiting_games(1, 5)] == [game.id]
    await store.append_turn(game.id, 1, 2, "F5", now=T0, waiting=Waiting(None, None, T0))
    assert await store.waiting_games(1, 5) == ()  # the bot's seat, say, to move
    await store.append_turn(game.id, 2, 2, "D4", now=T0, waiting=Waiting(2, None, T0))
    await store.append_turn(game.id, 3, 2, "resign", now=T0,
                            finish=GameResult(Result.RED, "resignation", (1,), None),
                            waiting=Waiting(2, None, T0))
    assert await store.waiting_games(2, 5) == ()


async def test_a_due_digest_is_moved_on_once(store):
    await store.set_digest(StoredDigest(1, 8, "Europe/Berlin", "de", T0))
    await store.set_digest(StoredDigest(2, 9, "UTC", "en", T0 + timedelta(hours=2)))
    assert await store.digest(3) is None
    due = await store.due_digests(T0 + timedelta(minutes=1), limit=10)
    assert [(d.user_id, d.hour, d.zone, d.locale, d.next_at) for d in due] == [
        (1, 8, "Europe/Berlin", "de", T0)]
    assert await store.advance_digests([(due[0], T0 + timedelta(days=1))]) == (1,)
    assert await store.advance_digests([(due[0], T0 + timedelta(days=1))]) == ()  # once
    assert await store.due_digests(T0 + timedelta(minutes=1), limit=10) == ()
    assert (await store.digest(1)).next_at == T0 + timedelta(days=1)
    assert await store.drop_digest(1) and not await store.drop_digest(1)
    assert await store.digest(1) is None
