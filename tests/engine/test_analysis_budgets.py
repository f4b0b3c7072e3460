"""The analysis's default budget, by core (twixt/engine/analysis.py): the Python search keeps
what it was sized for, the compiled one searches far deeper, both in nodes (the same every run).

Like every engine test, each runs on both cores (tests/engine/conftest.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from twixt.engine import analysis
from twixt.engine.analysis import (
    BUDGETS,
    Budget,
    Screen,
    analyze_game,
    budget,
    deep_limit,
    default_limit,
)
from twixt.engine.api import level_limit, level_nodes
from twixt.rules import Game, records

#: the first 2 moves of a real 24×24 game (benchmarks/games/0109.twixt: Harald Hoppe against
#: Hartmut Thordsen, 1990, from eeichinger/twixt_t1j). The deeper look searches each
#: position, and the position after its own choice at each move it judges, at ten times a
#: position's nodes, most of an analysis (on the Python core 1-1.5 s of CPU a search, each
#: analysis made twice): two moves give five such searches, the deeper look choosing
#: otherwise than the player at both (four moves gave nine, at twice the CPU)
REAL = """[Board "24x24"]
[Rules "classic"]
[Swap "no"]
[Players "Harald Hoppe, Hartmut Thordsen"]
Harald Hoppe: T13
Hartmut Thordsen: O13
"""
BOARDS = (12, 24, 48)


def test_each_core_has_its_budget(engine_core: str) -> None:
    assert budget() == BUDGETS[engine_core]
    assert budget() == {"python": Budget(level=2, deep_level=4, by_board=False),
                        "compiled": Budget(level=4, deep_level=4, by_board=True)}[engine_core]


@pytest.mark.parametrize("size", BOARDS)
def test_the_python_core_keeps_the_budget_it_was_sized_for(engine_core: str, size: int) -> None:
    game = Game(size=size)
    limit = default_limit(game)
    if engine_core == "python":
        # level 2's 150 nodes a position on every board, the swings' deeper look ten times
        # that (level 4's, were it more)
        assert limit.nodes == level_limit(2).nodes == 150
        assert deep_limit(limit, game).nodes == max(level_nodes(4, game), 10 * 150)
    assert limit.seconds == analysis.POSITION_SECONDS == 1.0


@pytest.mark.parametrize(("size", "position", "deep"),
                         [(12, 2500, 25000), (24, 1250, 12500), (48, 625, 6250)])
def test_the_compiled_core_searches_at_level_4_and_the_swings_ten_times_deeper(
        engine_core: str, size: int, position: int, deep: int) -> None:
    game = Game(size=size)
    if engine_core == "compiled":
        assert default_limit(game).nodes == position == level_nodes(4, game)
        assert deep_limit(default_limit(game), game).nodes == deep
        assert deep == analysis.DEEP * position


@pytest.mark.parametrize("size", BOARDS)
def test_the_swings_ends_get_at_least_level_4_on_either_core(size: int) -> None:
    game = Game(size=size)
    assert deep_limit(default_limit(game), game).nodes >= level_nodes(4, game)


def test_the_swings_ends_are_searched_with_the_deep_nodes_and_the_same_twice() -> None:
    game = records.read(REAL)
    # the nodes alone: the seconds are a safety bound that a busy machine (or the slower
    # Python core) can reach first, which would cut the searches this test counts
    limit = replace(default_limit(game), seconds=None)
    # every move judged against the deeper look's choice (these two drop too little for the
    # analysis's screen)
    screen = Screen(least=-1.0, most=4)
    first = analyze_game(game, limit, screen=screen)
    deep = deep_limit(limit, game).nodes
    # every position, then the position after its choice at the moves it judged
    assert first.judged   # some move that lost something was judged again
    assert first.deep_nodes == (deep,) * len(first.deep_nodes)
    assert len(first.moves) + 1 <= len(first.deep_nodes) <= len(first.moves) * 2 + 1
    assert first.nodes >= sum(first.deep_nodes) + len(first.moves)
    assert analyze_game(game, limit, screen=screen) == first   # node budgets: the same twice
