"""benchmarks/calibrate_chance.py: the refit and the held-out measure of the engine's chance."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import calibrate_chance
import numpy as np
import pytest
from calibrate_chance import (
    NODES,
    HeldOut,
    bands,
    calibration_error,
    cross_chances,
    engine_key,
    fitted_map,
    held_out,
    mapped,
    reliability,
    rows,
    searched,
)

from twixt.engine.chance import Calibration


def test_the_calibration_error_weighs_each_bands_gap_by_its_positions() -> None:
    """Two bands: 0.15 (won 1 of 2: a gap of 0.35) and 0.85 (won 2 of 2: 0.15), half the
    positions each; the table's own figure is the same."""
    chance = [0.15, 0.15, 0.85, 0.85]
    won = [True, False, True, True]
    assert calibration_error(np.array(chance), np.array(won)) == pytest.approx(0.25)
    assert reliability(zip(chance, won, strict=True))[0] == pytest.approx(0.25)
    weighed = calibration_error(np.array(chance), np.array(won), np.array([1, 1, 2, 2]))
    assert weighed == pytest.approx((2 * 0.35 + 4 * 0.15) / 6)


def test_the_fit_finds_the_map_the_results_were_drawn_from() -> None:
    rng = np.random.default_rng(1)
    z = rng.normal(0, 1.5, 100_000)
    truth = Calibration(0.5, -0.2, curve=0.02)
    won = (rng.random(len(z)) < mapped(truth, z)).astype(float)
    found = fitted_map(z, won, "cubic")
    assert (found.slope, found.bias, found.curve) == pytest.approx((0.5, -0.2, 0.02), abs=0.04)
    line = fitted_map(z, won, "line")
    assert line.curve == 0.0


def test_a_cubic_term_that_would_bend_the_map_back_is_left_out() -> None:
    """The shipped map must stay increasing (it changes no move): results flatter at the
    ends than a line give a negative cubic term, and the fit keeps the line instead."""
    rng = np.random.default_rng(2)
    z = rng.normal(0, 2.0, 20000)
    won = (rng.random(len(z)) < 1 / (1 + np.exp(-np.tanh(z)))).astype(float)
    found = fitted_map(z, won, "cubic")
    assert found.curve == 0.0 and found.slope > 0
    assert found == fitted_map(z, won, "line")


def test_each_position_is_judged_by_a_map_that_never_saw_its_game() -> None:
    """Cross-validation by game (`FOLDS` folds of the games in name order): game 0000, lost
    from every position, is foretold by the map of the games outside its fold (0000 and
    0005), not by one that learned its results."""
    rng = np.random.default_rng(3)
    z = rng.normal(1.0, 1.0, 500)
    data = [{"game": f"{number // 50:04}", "red_to_move": True,
             "red_won": number >= 50 and bool(rng.random() < 1 / (1 + math.exp(-z[number])))}
            for number in range(500)]
    chance = cross_chances(data, z, "line")
    outside = np.array([row["game"] not in ("0000", "0005") for row in data])
    won = np.array([row["red_won"] for row in data], dtype=float)
    assert chance[:50] == pytest.approx(mapped(fitted_map(z[outside], won[outside], "line"),
                                               z[:50]))
    assert chance[:50].mean() > 0.6


def test_the_cache_searches_a_game_once_and_joins_its_looks(tmp_path: Path) -> None:
    """One real training game searched at 20 nodes a position (in a real worker process):
    one file a game, every position with its search; a second call searches nothing (the
    file is not written again); `rows` gives each position the search after the next move's
    look at it."""
    paths = searched("training", [slice(0, 1)], tmp_path, jobs=1, nodes=20)
    assert len(paths) == 1 and paths[0].exists()
    written = paths[0].stat().st_mtime_ns
    lines = [json.loads(line) for line in paths[0].open()]
    assert [line["moves"] for line in lines] == list(range(len(lines)))
    assert all(line["nodes"] <= 40 for line in lines if line["searched"] is not None)
    assert searched("training", [slice(0, 1)], tmp_path, jobs=1, nodes=20) == paths
    assert paths[0].stat().st_mtime_ns == written
    joined = rows(paths)
    middle = joined[len(joined) // 2]
    after = next(row for row in joined if row["moves"] == middle["moves"] + 1)
    assert middle["later"] == pytest.approx(1 - after["searched"])
    assert middle["later_nodes"] == after["nodes"]


def test_a_band_counts_its_positions_their_mean_chance_and_share_won() -> None:
    count, mean, share = bands(np.array([0.05, 0.75, 0.71, 0.79, 1.0]),
                               np.array([0.0, 1.0, 1.0, 0.0, 1.0]))
    assert count.tolist() == [1, 0, 0, 0, 0, 0, 0, 3, 0, 1]
    assert mean[7] == pytest.approx(0.75) and share[7] == pytest.approx(2 / 3)
    assert math.isnan(mean[1]) and math.isnan(share[1]) and share[9] == 1.0


def _game(name: str, chances: list[float], red_won: bool) -> list[dict[str, Any]]:
    """A game's collected positions (as `collect` writes them), Red to move first."""
    return [{"game": name, "moves": mark, "red_to_move": mark % 2 == 0, "searched": chance,
             "win": chance, "nodes": NODES, "tried": {}, "played": None, "red_won": red_won}
            for mark, chance in enumerate(chances)]


def test_the_held_out_figures_judge_both_sides_and_both_colours() -> None:
    """Two games: Red won the first, Black the second. The side not to move's ECE is that of
    one minus each chance; Red to move's is of Red's turns alone; a game chosen twice counts
    twice."""
    data = (_game("a", [0.7, 0.2, 0.8, 0.3, 0.9, 0.1], True)
            + _game("b", [0.4, 0.6, 0.3, 0.65, 0.2, 0.8], False))
    chance = np.array([row["searched"] for row in data])
    judged = HeldOut(data, chance, curve=True)
    won = np.array([row["red_won"] == row["red_to_move"] for row in data], dtype=float)
    red = np.array([row["red_to_move"] for row in data])
    found = judged.figures(["a", "b"])
    assert found[0] == pytest.approx(calibration_error(chance, won))
    assert found[1] == pytest.approx(calibration_error(1 - chance, 1 - won))
    assert found[2] == pytest.approx(calibration_error(chance[red], won[red]))
    assert found[3] == pytest.approx(calibration_error(chance[~red], won[~red]))
    assert found[4] == pytest.approx(np.mean(chance - won))
    assert judged.figures(["a", "a", "b"])[4] == pytest.approx(
        np.mean(np.concatenate([chance[:6], chance]) - np.concatenate([won[:6], won])))
    assert found[6 + 7] == pytest.approx(1.0)  # the side to move's 70-80% band: 0.7, won


def test_measure_prints_every_figure_of_the_issue_in_one_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`measure` with no file: the held-out sets' games taken from the cache (nothing is
    searched when it holds them), both chances' ECE for both sides and both colours with
    intervals, the reliability table's 70-80% band, the zigzag, the floor, the thresholds."""
    monkeypatch.setattr(calibrate_chance, "HELD_OUT", (
        ("set one", "benchmark", slice(0, 2)), ("set two", "training", slice(0, 1))))
    monkeypatch.setattr(calibrate_chance, "leaf_touch", lambda: "the leaf's fit: measured")
    rng = np.random.default_rng(4)
    for which, count in (("benchmark", 2), ("training", 1)):
        folder = tmp_path / f"{engine_key()}-{NODES}" / which
        folder.mkdir(parents=True)
        for name, _ in calibrate_chance.games(which)[:count]:
            chances = list(rng.uniform(0.05, 0.95, 30))
            (folder / f"{name}.jsonl").write_text("".join(
                json.dumps(row) + "\n" for row in _game(name, chances, bool(rng.random() < 0.5))))
    held_out(tmp_path, jobs=1, resamples=20)
    printed = capsys.readouterr().out
    for needed in ("side to move", "side not to move", "Red to move", "Black to move",
                   "70-80%", "zigzag", "floor", "below 2%", "below 40%", "set one (2 games",
                   "set two (1 games", "the leaf's fit: measured", "3 games"):
        assert needed in printed, needed
    assert printed.count("the side not to move:") == 2  # both chances' tables
