"""Many writes at once, as group commit sees them: each lands or fails alone, in order.

Real asyncio tasks send their writes in the same moment, so that they share a transaction
(on SQLite: one commit for all that wait); whatever one of them does wrong must not cost the
others, and every version check still holds.
"""

import asyncio
import random

import pytest

from tests.storage.storage_helpers import random_turn, result_of, start_game, start_games
from twixt.storage import (
    GameFinishedError,
    GameResult,
    NotFoundError,
    Result,
    StaleVersionError,
    rebuild,
)

GAMES = 60
TURNS = 8


async def play_out(store, game_id, turns, rng):
    """Append `turns` random legal turns one after the other; return the texts that landed."""
    game = rebuild(await store.load_game(game_id))
    texts = []
    for version in range(turns):
        if game.is_over:
            break
        actor, text = random_turn(game, rng)
        assert await store.append_turn(game_id, version, actor, text,
                                       finish=result_of(game)) == version + 1
        texts.append(text)
    return texts


async def test_many_games_appended_at_once_all_land_in_order(store):
    games = await start_games(store, GAMES)
    played = await asyncio.gather(*(play_out(store, g.id, TURNS, random.Random(g.id))
                                    for g in games))
    for game, texts in zip(games, played, strict=True):
        loaded = await store.load_game(game.id)
        assert loaded.game.version == len(texts)
        assert [t.number for t in loaded.turns] == list(range(1, len(texts) + 1))
        assert [t.command for t in loaded.turns] == texts
        rebuild(loaded)


async def test_racing_appends_on_many_games_one_wins_each_version(store):
    games = await start_games(store, 20)
    rules = {g.id: rebuild(await store.load_game(g.id)) for g in games}
    rng = random.Random(3)
    for version in range(5):
        entries = {g.id: [random_turn(rules[g.id].copy(), rng) for _ in range(4)]
                   for g in games}
        sent = [(game_id, entry) for game_id, four in entries.items() for entry in four]
        outcomes = await asyncio.gather(
            *(store.append_turn(game_id, version, actor, text)
              for game_id, (actor, text) in sent),
            return_exceptions=True)
        by_game: dict[int, list[object]] = {}
        for (game_id, _), outcome in zip(sent, outcomes, strict=True):
            by_game.setdefault(game_id, []).append(outcome)
        for game_id, results in by_game.items():
            assert results.count(version + 1) == 1
            losers = [r for r in results if r != version + 1]
            assert all(isinstance(r, StaleVersionError) and r.actual == version + 1
                       for r in losers)
            winner = entries[game_id][results.index(version + 1)]
            loaded = await store.load_game(game_id)
            assert loaded.turns[-1].command == winner[1]
            assert loaded.game.version == version + 1
            rules[game_id] = rebuild(loaded)


async def test_a_failing_write_among_many_costs_only_itself(store):
    games = await start_games(store, 12)
    good, stale, finished, half_done, missing = games[:8], games[8], games[9], games[10], 10**9
    await store.finish_game(finished.id, 0, GameResult(Result.ABORTED, "abort"))
    texts = {}
    for game in [*good, stale, half_done]:
        actor, text = random_turn(rebuild(await store.load_game(game.id)), random.Random(game.id))
        texts[game.id] = (actor, text)
    sends = [store.append_turn(g.id, 0, *texts[g.id]) for g in good[:4]]
    sends.append(store.append_turn(stale.id, 5, *texts[stale.id]))
    sends.append(store.append_turn(finished.id, 0, 1, "A1"))
    sends.append(store.append_turn(missing, 0, 1, "A1"))
    # fails after its version check, its turn and half of the game's end are written
    sends.append(store.append_turn(half_done.id, 0, *texts[half_done.id],
                                   finish=GameResult(Result.RED, "resignation",
                                                     (half_done.seats[0].user_id, 999))))
    sends += [store.append_turn(g.id, 0, *texts[g.id]) for g in good[4:]]
    outcomes = await asyncio.gather(*sends, return_exceptions=True)
    assert outcomes[:4] == [1] * 4 and outcomes[8:] == [1] * 4
    assert isinstance(outcomes[4], StaleVersionError)
    assert isinstance(outcomes[5], GameFinishedError)
    assert isinstance(outcomes[6], NotFoundError)
    assert isinstance(outcomes[7], ValueError)
    for game in good:
        loaded = await store.load_game(game.id)
        assert [t.command for t in loaded.turns] == [texts[game.id][1]]
    for game in (stale, half_done):
        loaded = await store.load_game(game.id)
        assert (loaded.game.version, loaded.turns, loaded.game.is_active) == (0, (), True)
        assert loaded.game.result is None


async def test_writes_of_every_kind_sent_together_all_land(store):
    games = await start_games(store, 6)
    texts = {g.id: random_turn(rebuild(await store.load_game(g.id)), random.Random(g.id))
             for g in games}
    outcomes = await asyncio.gather(
        *(store.append_turn(g.id, 0, *texts[g.id]) for g in games[:3]),
        store.remember_users({7: "seven", 8: "eight"}),
        start_game(store, channel_id=100, users=(50, 51)),
        start_game(store, channel_id=100, users=(52, 53)),  # one channel: one of two
        store.finish_game(games[3].id, 0, GameResult(Result.DRAW, "agreement")),
        store.vote_abort(games[4].id, 9),
        return_exceptions=True)
    assert outcomes[:3] == [1, 1, 1]
    assert sorted(type(o).__name__ for o in outcomes[4:6]) == ["ChannelBusyError", "StoredGame"]
    assert await store.user_names([7, 8]) == {7: "seven", 8: "eight"}
    assert not (await store.get_game(games[3].id)).is_active
    assert await store.vote_abort(games[4].id, 10) == frozenset({9, 10})
    assert all(not isinstance(o, Exception) or type(o).__name__ == "ChannelBusyError"
               for o in outcomes)


@pytest.mark.parametrize("seed", range(3))
async def test_turns_cancelled_among_others_land_whole_or_not_at_all(store, seed):
    rng = random.Random(seed)
    games = await start_games(store, 10)
    for version in range(4):
        attempts = {}
        for game in games:
            actor, text = random_turn(rebuild(await store.load_game(game.id)), rng)
            attempts[game.id] = asyncio.create_task(
                store.append_turn(game.id, version, actor, text))
        for _ in range(rng.randint(0, 6)):
            await asyncio.sleep(0)
        for task in rng.sample(list(attempts.values()), 5):
            task.cancel()
        await asyncio.gather(*attempts.values(), return_exceptions=True)
        for game in games:
            loaded = await store.load_game(game.id)
            assert len(loaded.turns) == loaded.game.version
            if loaded.game.version == version:  # cancelled before it landed: send it again
                actor, text = random_turn(rebuild(loaded), rng)
                await store.append_turn(game.id, version, actor, text)
            assert (await store.get_game(game.id)).version == version + 1
