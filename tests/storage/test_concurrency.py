"""Real asyncio tasks racing: on one game exactly one turn lands; many games all progress."""

import asyncio
import random

import pytest

from tests.storage.storage_helpers import random_turn, result_of, start_game, start_games
from twixt.rules import IllegalMoveError
from twixt.storage import ChannelBusyError, GameFinishedError, StaleVersionError, rebuild


async def race(store, game_id, version, entries):
    """Send every (actor, text) at the same version at once; return what each got back."""
    return await asyncio.gather(
        *(store.append_turn(game_id, version, actor, text) for actor, text in entries),
        return_exceptions=True)


async def test_of_turns_sent_at_once_exactly_one_lands(store):
    game = await start_game(store, channel_id=1)
    rules_game = rebuild(await store.load_game(game.id))
    entries = [random_turn(rules_game.copy(), random.Random(seed)) for seed in range(8)]
    outcomes = await race(store, game.id, 0, entries)
    landed = [i for i, outcome in enumerate(outcomes) if outcome == 1]
    assert len(landed) == 1
    assert all(isinstance(o, StaleVersionError) for i, o in enumerate(outcomes) if i not in landed)
    loaded = await store.load_game(game.id)
    assert [t.command for t in loaded.turns] == [entries[landed[0]][1]]
    rebuild(loaded)


async def test_the_loser_of_a_race_is_told_it_is_not_their_turn(store):
    game = await start_game(store, channel_id=1)
    seen = rebuild(await store.load_game(game.id))
    first, second = seen.copy(), seen.copy()
    mover = seen.player_to_move
    outcomes = await race(store, game.id, 0, [
        (int(mover), first.play(str(first.legal_placements()[0]), by=mover).text),
        (int(mover), second.play(str(second.legal_placements()[-1]), by=mover).text)])
    loser = next(o for o in outcomes if isinstance(o, StaleVersionError))
    assert (loser.game_id, loser.expected, loser.actual) == (game.id, 0, 1)
    # what the bot does next: read again, and let the rules answer
    fresh = rebuild(await store.load_game(game.id))
    with pytest.raises(IllegalMoveError, match="turn"):
        fresh.play(str(fresh.legal_placements()[0]), by=mover)


async def test_two_games_started_in_one_channel_at_once_give_one_game(store):
    outcomes = await asyncio.gather(start_game(store, channel_id=3, users=(1, 2)),
                                    start_game(store, channel_id=3, users=(3, 4)),
                                    return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["ChannelBusyError", "StoredGame"]
    assert any(isinstance(o, ChannelBusyError) for o in outcomes)


async def player(store, game_id, rng, turns):
    """A client that reads, thinks, and sends; on a stale board (or one another client's
    turn has just ended) it reads again."""
    landed = 0
    while landed < turns:
        loaded = await store.load_game(game_id)
        game = rebuild(loaded)
        if game.is_over:
            return
        actor, text = random_turn(game, rng)
        await asyncio.sleep(rng.random() / 1000)
        try:
            await store.append_turn(game_id, loaded.game.version, actor, text,
                                    finish=result_of(game))
            landed += 1
        except (StaleVersionError, GameFinishedError):
            continue


async def test_many_games_with_racing_clients_all_replay_legally(store):
    games = await start_games(store, 30)
    await asyncio.gather(*(player(store, g.id, random.Random(f"{g.id}-{k}"), 6)
                           for g in games for k in range(2)))
    for game in games:
        loaded = await store.load_game(game.id)
        assert [t.number for t in loaded.turns] == list(range(1, loaded.game.version + 1))
        replayed = rebuild(loaded)
        assert loaded.game.is_active != replayed.is_over
        assert len(loaded.turns) >= 6 or replayed.is_over


async def test_cancelled_turns_land_whole_or_not_at_all(store):
    game = await start_game(store, channel_id=1)
    rules_game = rebuild(await store.load_game(game.id))
    rng = random.Random(5)
    for version in range(10):
        actor, text = random_turn(rules_game.copy(), rng)
        attempt = asyncio.create_task(store.append_turn(game.id, version, actor, text))
        for _ in range(rng.randint(0, 4)):
            await asyncio.sleep(0)
        attempt.cancel()
        await asyncio.gather(attempt, return_exceptions=True)
        # whatever happened, the store is usable and the game is whole
        loaded = await store.load_game(game.id)
        assert len(loaded.turns) == loaded.game.version
        if loaded.game.version == version:
            actor, text = random_turn(rebuild(loaded), rng)
            await store.append_turn(game.id, version, actor, text)
        rules_game = rebuild(await store.load_game(game.id))
        assert len(rules_game.history) == version + 1
