"""The head-to-head instruments work (not how strong the engine is: that is the benchmarks'):
two versions of the engine, each in its own process, play a real game under the referee, and
the interval the match prints is Wilson's."""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pytest
from engine_games import positions
from engine_match import (
    BASELINE,
    CANDIDATE,
    EngineProcess,
    GameResult,
    Setup,
    Version,
    add_arguments,
    engine_folder,
    first_peg,
    install,
    play_game,
    versions,
    wilson,
)

from twixt.rules import Game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("points", "games", "low", "high"), [
    (17, 20, 0.6396, 0.9476),    # 85% over 20 games: the aim (docs/engine-measurements.md)
    (10, 10, 0.7225, 1.0),
    (0, 10, 0.0, 0.2775),
    (10, 20, 0.2993, 0.7007),
    (0, 0, 0.0, 1.0),            # no games: nothing is known
])
def test_wilson_interval(points: float, games: int, low: float, high: float) -> None:
    assert wilson(points, games) == pytest.approx((low, high), abs=5e-4)


def test_two_versions_play_a_tiny_game_to_its_end(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """This tree from its path against this tree unpacked from git, on 6×6 at 0.05 s."""
    monkeypatch.setenv("TWIXT_ENGINE_CACHE", str(tmp_path))
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True)
    if head.returncode:
        pytest.skip("not a git checkout: no revision to unpack")
    baseline = install("HEAD")
    assert baseline.path == tmp_path / head.stdout.strip()
    assert engine_folder(baseline.path) == baseline.path / "twixt" / "engine"
    candidate = install(str(ROOT))
    setup = Setup("6", "classic", True, 0.05, seed=3, resign=False)   # to its end
    engines = {CANDIDATE: EngineProcess(candidate), BASELINE: EngineProcess(baseline)}
    try:
        result = play_game(setup, 1, engines)
    finally:
        for engine in engines.values():
            engine.close()
    # every move the referee took is legal: replaying them gives the same end
    game = Game((BASELINE, CANDIDATE), size=6, rules="classic", swap=True)
    for move in result.moves:
        game.play(move)
    assert result.moves[0] == first_peg(setup, 0)
    assert result.winner in (CANDIDATE, BASELINE, "draw")
    assert result.reason in ("connection", "blockade", "move cap")
    assert game.is_over or result.reason == "move cap"
    assert f"game   2: candidate second seat, opening {result.moves[0]}" in result.line()


def test_a_revision_from_before_the_twixt_package_installs_and_answers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """79d3449 has `engine/`, `rules/` and `language/` at the top (the baseline of the
    matches in docs/engine.md): it unpacks in its own layout and its worker imports it."""
    monkeypatch.setenv("TWIXT_ENGINE_CACHE", str(tmp_path))
    known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", "79d3449^{commit}"],
                           capture_output=True)
    if known.returncode:
        pytest.skip("79d3449 is not in this checkout's history")
    old = install("79d3449")
    assert engine_folder(old.path) == old.path / "engine"
    engine = EngineProcess(old)
    try:
        reply = engine.ask({"size": "8", "rules": "classic", "swap": False, "moves": ["D4"],
                            "limit": {"nodes": 30}, "seed": 0})
    finally:
        engine.close()
    assert "error" not in reply
    game = Game(("red", "black"), size=8, rules="classic", swap=False)
    game.play("D4")
    game.play(reply["move"])   # a legal reply, by this tree's rules


@pytest.mark.parametrize("swap", [True, False])
def test_the_openings_differ_and_come_again_with_the_seed(swap: bool) -> None:
    setup = Setup("24", "pp", swap, 1.0, seed=10)
    openings = [first_peg(setup, pair) for pair in range(50)]
    assert len(set(openings)) == 50
    assert openings == [first_peg(setup, pair) for pair in range(50)]
    assert openings != [first_peg(Setup("24", "pp", swap, 1.0, seed=11), pair)
                        for pair in range(50)]


def test_a_worker_error_loses_the_game_and_names_it() -> None:
    """A version that cannot answer (here: a board its rules refuse) loses, not crashes."""
    engine = EngineProcess(Version("this tree", ROOT))
    try:
        reply = engine.ask({"size": "3", "rules": "pp", "swap": False, "moves": [],
                            "limit": {"nodes": 10}, "seed": 0})
    finally:
        engine.close()
    assert "error" in reply and "TwixtError" in reply["error"]


def test_the_benchmark_s_memory_bound_reaches_the_worker_s_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TWIXT_BENCH_MAX_BYTES sets the tree's bound of the tree the worker loaded: a bound that
    cannot hold a 24×24 root is refused by the search, a small one prunes and answers."""
    answers = []
    for bound in ("1000", "96000"):
        monkeypatch.setenv("TWIXT_BENCH_MAX_BYTES", bound)
        engine = EngineProcess(Version("this tree", ROOT))
        try:
            answers.append(engine.ask({"size": "24", "rules": "pp", "swap": False,
                                       "moves": ["L12"], "limit": {"nodes": 2000},
                                       "seed": 0}))
        finally:
            engine.close()
    assert "max_bytes holds the root" in answers[0]["error"]
    assert answers[1]["nodes"] == 2000 and "error" not in answers[1]
    # the line a game prints gives each side's nodes a move
    result = GameResult(0, CANDIDATE, "connection", ["L12"], {CANDIDATE: [1.0], BASELINE: [2.0]},
                        {CANDIDATE: [2000], BASELINE: [500]})
    assert "baseline 2.00 s/move 500 nodes/move, candidate 1.00 s/move 2,000 nodes/move" in (
        result.line())


@pytest.mark.parametrize(("core", "expected"), [(None, "compiled"), ("python", "python")])
def test_core_python_runs_both_versions_on_the_fallback(core: str | None,
                                                         expected: str) -> None:
    """`--core python` measures the Python cores against each other (their nodes a second
    fell with the priors: whether strength at equal time rose with them is a match of the
    fallbacks); without it each version runs its own core."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--baseline", str(ROOT), "--candidate", str(ROOT)]
                             + (["--core", core] if core else []))
    for version in versions(args):
        engine = EngineProcess(version)
        try:
            assert engine.core == expected
        finally:
            engine.close()


def test_the_real_game_positions_are_fixed_and_from_both_sides() -> None:
    sample = positions(200)
    assert len(sample) == 200
    assert sample == positions(200)
    assert all(4 <= len(position.moves) < 40 for position in sample)
    assert {position.mover_won for position in sample} == {True, False}
    assert sum(len(position.moves) % 2 for position in sample) > 50


def test_a_hung_engine_is_killed_and_its_answer_is_an_error() -> None:
    engine = EngineProcess(Version("this tree", ROOT))
    try:
        reply = engine.ask({"size": "24", "rules": "pp", "swap": False, "moves": ["L12"],
                            "limit": {"seconds": 60}, "seed": 0}, timeout=0.5)
        assert "no answer" in reply["error"]
        assert not engine.alive
    finally:
        engine.close()


class _Engine:
    """A stand-in for an engine's process: the first legal hole, with a fixed chance."""

    def __init__(self, win: float) -> None:
        self.win = win
        self.asked = 0

    def ask(self, request: dict[str, object], timeout: float | None = None) -> dict[str, object]:
        game = Game(("red", "black"), size=request["size"], rules=request["rules"],
                    swap=request["swap"])
        for move in request["moves"]:  # type: ignore[attr-defined]
            game.play(move)
        self.asked += 1
        return {"move": str(game.legal_placements()[0]), "win": self.win, "nodes": 1}


@pytest.mark.parametrize("resign", [True, False])
def test_a_side_resigns_as_the_bot_does(resign: bool) -> None:
    """At the third of its turns in a row under 2% by its own engine, as `EnginePlayer`;
    with `--play-out` the game goes on to its end."""
    hopeless, hopeful = _Engine(0.01), _Engine(0.5)
    setup = Setup("8", "pp", False, 0.05, seed=1, resign=resign)
    result = play_game(setup, 0, {CANDIDATE: hopeless, BASELINE: hopeful})  # type: ignore[dict-item]
    if resign:
        assert (result.winner, result.reason) == (BASELINE, "resignation")
        assert hopeless.asked == 3
        assert len(result.moves) == 1 + 3 + 2   # the opening peg, then 3 of each but the last
    else:
        assert result.reason != "resignation"
        assert hopeless.asked > 3


class _Asked:
    """An engine that plays the first legal hole and keeps the limits it was given."""

    def __init__(self) -> None:
        self.limits: list[dict[str, float]] = []

    def ask(self, request: dict[str, object], timeout: float) -> dict[str, object]:
        game = Game(("a", "b"), size=str(request["size"]), rules=str(request["rules"]),
                    swap=bool(request["swap"]))
        for move in request["moves"]:  # type: ignore[attr-defined]
            game.play(move)
        self.limits.append(request["limit"])  # type: ignore[arg-type]
        return {"move": str(game.legal_placements()[0]), "win": 0.5, "nodes": 1}


def test_fixed_nodes_and_the_candidates_factor_reach_the_engines() -> None:
    """`--nodes 300 --factor 2`: the baseline gets 300 nodes a move, the candidate 600 (a
    scaling test: the same version at twice the budget)."""
    candidate, baseline = _Asked(), _Asked()
    setup = Setup("8", "pp", False, 0.05, seed=1, resign=False, nodes=300, factor=2.0)
    play_game(setup, 0, {CANDIDATE: candidate, BASELINE: baseline})  # type: ignore[dict-item]
    assert candidate.limits and baseline.limits
    assert {tuple(limit.items()) for limit in candidate.limits} == {(("nodes", 600),)}
    assert {tuple(limit.items()) for limit in baseline.limits} == {(("nodes", 300),)}
    timed = Setup("8", "pp", False, 0.5, seed=1, factor=2.0)
    assert (timed.limit(CANDIDATE), timed.limit(BASELINE)) == ({"seconds": 1.0}, {"seconds": 0.5})
