"""The cache of replayed games is bounded by what its games hold, not by how many they are."""

from __future__ import annotations

import random
import tracemalloc
from datetime import UTC, datetime

import pytest

from twixt.rules import Game
from twixt.service.desk.live_games import GameCache, LiveGame, estimate

T0 = datetime(2030, 1, 1, tzinfo=UTC)


def _game(size: int, pegs: int, rules: str = "pp", seed: int = 1) -> Game:
    game = Game(("ann", "ben"), size=size, rules=rules, swap=False)
    rng = random.Random(seed)
    while game.pegs_placed < pegs and not game.is_over:
        game.play(f"{rng.choice(game.legal_placements())} link all")
    return game


def _removals(loops: int) -> Game:
    """A classic game that takes a linked peg out and puts it back, again and again."""
    game = Game(("ann", "ben"), size=24, swap=False)
    for move in ("G6", "H9", "I7 link G6", "J10 link H9"):
        game.play(move)
    for _ in range(loops):
        game.play("remove I7; I7 link all")
        game.play("remove J10; J10 link all")
    return game


def _offers(pegs: int, offers: int) -> Game:
    game = _game(48, pegs)
    for _ in range(offers):
        game.play("offer draw", by=game.players[0])
        game.play("decline draw", by=game.players[1])
    return game


def _live(game: Game) -> LiveGame:
    return LiveGame(1, game, T0)


def test_big_games_weigh_more_and_push_more_games_out():
    small, big = _game(12, 4), _game(48, 400)
    cache = GameCache(budget=estimate(big) + 3 * estimate(small))
    for game_id in range(1, 4):
        cache.put(game_id, _live(small))
    cache.put(4, _live(big))
    assert len(cache) == 4 and cache.weight <= estimate(big) + 3 * estimate(small)
    cache.put(5, _live(big))  # one big game more: the oldest go until the whole fits
    assert [cache.get(i, 1) is not None for i in range(1, 6)] == [False] * 4 + [True]
    assert cache.weight == estimate(big)


def test_a_game_heavier_than_the_budget_is_not_kept():
    big = _game(48, 200)
    cache = GameCache(budget=estimate(big) - 1)
    cache.put(1, _live(big))
    assert cache.get(1, 1) is None and cache.weight == 0


def test_a_game_put_again_or_dropped_is_weighed_once():
    game = _game(24, 30)
    cache = GameCache()
    cache.put(1, _live(game))
    cache.put(1, LiveGame(2, game, T0))
    assert cache.weight == estimate(game) and cache.get(1, 2) is not None
    cache.drop(1)
    assert cache.weight == 0 and len(cache) == 0


@pytest.mark.parametrize("make", [
    lambda: Game(("ann", "ben"), size=48),
    lambda: _game(48, 500),
    lambda: _game(48, 500, rules="classic"),
    lambda: _removals(200),
    lambda: _offers(20, 300),
], ids=["empty 48x48", "pp 48x48", "classic 48x48", "removals", "offers"])
def test_the_estimate_is_not_below_what_a_game_holds(make):
    make()  # the board's shared tables are made once for every game of its size
    tracemalloc.start()
    try:
        game = make()
        for turn in game.history:  # what records and pictures ask of each turn, kept
            _ = turn.text, turn.links_added, turn.links_removed, turn.pegs_removed
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held <= estimate(game)

