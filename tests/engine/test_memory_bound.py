"""A search's tree stays within its memory bound without the search stopping early: when the
tree is full it is pruned to at most half the bound (the root and its children always kept)
and the search goes on to its nodes. On both cores (the conftest runs each test on each)."""

from __future__ import annotations

import pytest

from twixt.engine import Limit, core, think
from twixt.engine import search as python_search
from twixt.engine.board import Board
from twixt.engine.search import EDGE_BYTES, NODE_BYTES
from twixt.rules import Game

#: a bound that 2,000 nodes on 24×24 fill several times over (about 270 nodes fit)
TINY = 96 * 1024
NODES = 2_000


def _opening() -> Game:
    game = Game(("ann", "bob"), size=24, swap=False)
    for text in ("L12", "M14"):
        game.play(text)
    return game


def test_a_full_tree_is_pruned_and_the_search_runs_all_its_nodes():
    game = _opening()
    board = Board(game)
    bounded = core.search(board, game.colour_to_move, NODES, None, noise=0.0, rng_values=[],
                          max_bytes=TINY)
    # it ran every node asked (the old search stopped when the tree was full)...
    assert bounded.nodes == NODES
    # ...by pruning, each time to at most half the bound
    assert bounded.prunes >= 3
    assert 0 < bounded.kept_bytes <= TINY // 2
    # the root's children are never dropped: their visits are all the search's but the root's
    assert sum(bounded.visits) == NODES - 1
    # and it still finds a move the unbounded search rates highly
    free = core.search(board, game.colour_to_move, NODES, None, noise=0.0, rng_values=[])
    assert free.prunes == 0
    best = bounded.best()
    assert best is not None
    ranked = sorted(range(len(free.moves)), key=lambda i: -free.visits[i])
    assert bounded.moves[best] in [free.moves[i] for i in ranked[:3]]


def test_think_within_a_tiny_bound_plays_a_legal_move(monkeypatch):
    monkeypatch.setattr(core, "MAX_BYTES", TINY)
    monkeypatch.setattr(python_search, "MAX_BYTES", TINY)
    game = _opening()
    result = think(game, Limit(nodes=NODES), seed=1)
    assert result.nodes == NODES
    game.play(result.move)


def test_a_bound_too_small_for_the_root_is_refused_with_the_cause():
    game = _opening()
    holes = 24 * 24
    smallest = NODE_BYTES + (holes + 8) * EDGE_BYTES
    with pytest.raises(ValueError, match="max_bytes holds the root"):
        core.search(Board(game), game.colour_to_move, 10, None, noise=0.0, rng_values=[],
                    max_bytes=smallest - 1)
    found = core.search(Board(game), game.colour_to_move, 10, None, noise=0.0, rng_values=[],
                        max_bytes=smallest)
    # the root and its moves fit, its children do not: it stops rather than overflow
    assert 1 <= found.nodes < 10
