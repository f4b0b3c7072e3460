"""The compiled core is the Python search made fast, not another engine: on random positions
of every board shape and both rule sets it measures the same distances and shortest-path
layers as `engine.evaluate.side`, and its search, run for the same nodes with the same seed,
gives the Python search's tree at the root (moves, priors, visits, values, expected lines),
so `think` answers alike move for move."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.conftest import require_compiled
from tests.engine.test_engine import _new, _random_turn
from twixt.engine import LEVELS, Limit, core, level_limit, policy, think
from twixt.engine.board import Board
from twixt.engine.evaluate import UNREACHABLE, side
from twixt.engine.search import EDGE_BYTES, MAX_NODES, NODE_BYTES, ROOT_WIDTH, Search
from twixt.rules import Game

ROOT = Path(__file__).resolve().parents[2]


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game in progress on a square, oblong or handicap board of 5 to 48, either rules,
    two or four players, after a random number of random turns (linked or not)."""
    players = draw(st.sampled_from((2, 2, 4)))
    cols = draw(st.integers(5, 48))
    rows = draw(st.sampled_from((cols, draw(st.integers(5, 48)))))
    handicap = draw(st.sampled_from((0, 0, 0, min(3, rows - 5))))
    game = _new(players, (cols, rows), draw(st.sampled_from(("pp", "classic"))),
                not handicap and draw(st.booleans()), handicap)
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.sampled_from((0, 1, 3, 10, 30, 80)))):
        if game.is_over:
            break
        _random_turn(game, rng)
    return game


def checked(examples: int) -> settings:
    """Hypothesis settings: the same examples on every run, no per-example deadline."""
    return settings(max_examples=examples, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(params=["compiled"])
def engine_core(request: pytest.FixtureRequest) -> str:
    """These tests compare the two cores themselves: they run once, where both can run."""
    require_compiled()
    return str(request.param)


@checked(150)
@given(games())
def test_distances_and_path_layers_are_evaluate_side(game):
    pos = game.position
    for colour in (game.colour_to_move, game.colour_to_move.opponent):
        for paths, cap in ((True, UNREACHABLE), (False, UNREACHABLE), (False, 1), (True, 2)):
            assert core.compiled_side(pos, colour, game.rules, paths=paths, cap=cap) == side(
                pos, colour, paths=paths, cap=cap)


@checked(60)
@given(games(), st.sampled_from((1, 2, 20, 150)), st.sampled_from((0.0, 0.05, 0.6)),
       st.integers(0, 1000), st.booleans())
def test_the_search_gives_the_python_search_s_root(game, nodes, noise, seed, by_policy):
    """With the root's moves ranked by the patterns or by the policy network."""
    if game.is_over:
        return
    rng = random.Random(seed)
    values = [rng.random() for _ in range(ROOT_WIDTH)]
    colour = game.colour_to_move
    scores = policy.root_scores(Board(game), colour) if by_policy else None
    python = Search(Board(game), colour, noise=noise, rng_values=values, root_scores=scores)
    python.run(nodes, None)
    compiled = core.compiled_search(Board(game), colour, nodes, None, noise=noise,
                                    rng_values=values, root_scores=scores)
    assert compiled == python.outcome()
    assert compiled.nodes <= nodes


@checked(25)
@given(games(), st.integers(0, 1000))
def test_think_answers_alike_on_both_cores(game, seed):
    if game.is_over:
        return
    answers = []
    for compiled in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(core, "compiled", compiled)
            result = think(game, Limit(nodes=60), seed=seed)
        answers.append((result.move, result.win, result.pv, result.nodes, result.root_moves))
    assert answers[0] == answers[1]


def test_level_5_searches_until_its_time_cap_only_when_compiled(monkeypatch):
    """The levels below keep their nodes (their ladder is measured in nodes) on both cores."""
    budgets = {}
    for compiled in (True, False):
        monkeypatch.setattr(core, "compiled", compiled)
        budgets[compiled] = [(limit.nodes, limit.seconds)
                             for limit in map(level_limit, LEVELS)]
    assert budgets[True][:-1] == budgets[False][:-1]
    assert budgets[True][-1] == (MAX_NODES, 10.0)
    assert budgets[False][-1] == (30000, 10.0)


def test_ctrl_c_ends_a_compiled_search_under_way(tmp_path):
    """The search runs without the interpreter's lock but takes it back now and then, so a
    signal's handler (here Ctrl-C's KeyboardInterrupt) still ends it."""
    script = tmp_path / "think.py"
    # Ctrl-C's handler set explicitly: a process started with SIGINT ignored (as a shell starts
    # a job in the background, `pytest &`) hands the ignoring on, and Python then installs no
    # handler, so the signal would do nothing and the search would run its whole bound
    script.write_text(
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from twixt.engine import Limit, core, think\n"
        "from twixt.engine.search import MAX_NODES\n"
        "from twixt.rules import Game\n"
        "assert core.compiled\n"
        "game = Game(('a', 'b'), size=48, swap=False)\n"
        "game.play('X24')\n"
        "print('thinking', flush=True)\n"
        "think(game, Limit(nodes=MAX_NODES))\n"
        "print('finished', flush=True)\n")
    environment = {key: value for key, value in os.environ.items() if key != core.CHOICE}
    with subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, cwd=ROOT,
                          env=environment) as process:
        assert process.stdout is not None
        assert process.stdout.readline() == "thinking\n"
        time.sleep(0.3)   # into the search, which would take seconds
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=60)
        finally:
            process.kill()   # not left searching (and the test waiting on it) if it failed
    assert "finished" not in out and "KeyboardInterrupt" in err


def test_a_machine_that_refuses_the_trees_block_still_gets_a_search(tmp_path, engine_core):
    """The compiled tree asks for its whole bound (300 MB) at once; a process allowed only
    about 150 MB more address space (as under strict overcommit or a small container) gets a
    smaller bound instead of a MemoryError, and its search runs all its nodes."""
    if engine_core != "compiled":
        pytest.skip("the Python core grows its tree node by node")
    script = tmp_path / "think.py"
    script.write_text(
        "import resource\n"
        "from twixt.engine import Limit, core, think\n"
        "from twixt.rules import Game\n"
        "assert core.compiled and core.MAX_BYTES >= 300 * 1024 * 1024\n"
        "game = Game(('a', 'b'), size=24, swap=False)\n"
        "game.play('L12')\n"
        "think(game, Limit(nodes=50))   # the tables and weights loaded first\n"
        "pages = int(open('/proc/self/statm').read().split()[0])\n"
        "room = pages * resource.getpagesize() + 150 * 1024 * 1024\n"
        "resource.setrlimit(resource.RLIMIT_AS, (room, room))\n"
        "print(think(game, Limit(nodes=3000)).nodes, flush=True)\n")
    environment = {key: value for key, value in os.environ.items() if key != core.CHOICE}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=ROOT, env=environment, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "3000\n"


@checked(20)
@given(games(), st.sampled_from((60, 250)), st.sampled_from((2, 4, 8)), st.integers(0, 1000))
def test_both_cores_prune_alike_for_the_same_bound(game, nodes, rooms, seed):
    """A bound of a few expansions' room: the tree is pruned once or many times (or, on the
    smallest, cannot go on past the root and its children), and both cores do it at the same
    moments, keeping the same nodes, so the root's statistics stay equal."""
    if game.is_over:
        return
    geo = game.position.geo
    bound = rooms * (geo.cols * geo.rows + 8) * EDGE_BYTES
    rng = random.Random(seed)
    values = [rng.random() for _ in range(ROOT_WIDTH)]
    colour = game.colour_to_move
    python = Search(Board(game), colour, noise=0.05, rng_values=values, max_bytes=bound)
    python.run(nodes, None)
    compiled = core.compiled_search(Board(game), colour, nodes, None, noise=0.05,
                                    rng_values=values, max_bytes=bound)
    assert compiled == python.outcome()
    # a prune leaves at most half the bound, or the search cannot go on
    assert compiled.kept_bytes <= bound // 2 or compiled.nodes < nodes


def test_both_cores_count_the_tree_in_the_same_units():
    from twixt.engine import _core

    assert (_core.NODE_BYTES, _core.EDGE_BYTES) == (NODE_BYTES, EDGE_BYTES)


def test_twixt_engine_core_python_forces_the_fallback_and_says_why():
    """What the README promises: TWIXT_ENGINE_CORE=python runs the Python search even where
    the compiled core was built, and the start-up line says so."""
    done = subprocess.run(
        [sys.executable, "-c",
         "from twixt import engine; print(engine.CORE); print(engine.DESCRIPTION)"],
        capture_output=True, text=True, cwd=ROOT, check=True,
        env={**os.environ, core.CHOICE: "python"})
    assert done.stdout.splitlines() == [
        "python", f"engine core: Python (no compiled core: {core.CHOICE}=python)"]


def test_the_compiled_cores_seconds_are_what_is_left_once_its_tables_are_built(monkeypatch):
    """A process's first search builds the core's tables and weights (tens of milliseconds,
    more on a busy machine): the seconds the core is given are counted after that, so that
    the search still ends at the caller's deadline."""
    require_compiled()
    from twixt.engine import _core

    built: list[float] = []
    given: list[float] = []
    tables, search = core._tables, _core.search

    def timed_tables(*args):
        found = tables(*args)
        built.append(time.perf_counter())
        return found

    def recorded_search(*args):
        given.append(args[6])
        return search(*args)

    monkeypatch.setattr(core, "_tables", timed_tables)
    monkeypatch.setattr(_core, "search", recorded_search)
    game = Game(("a", "b"), size=12, swap=False)
    game.play("F6")
    deadline = time.perf_counter() + 60
    core.compiled_search(Board(game), game.colour_to_move, 20, deadline, noise=0.0,
                         rng_values=[0.5] * ROOT_WIDTH)
    [seconds] = given
    assert 0 < seconds <= deadline - built[0]
