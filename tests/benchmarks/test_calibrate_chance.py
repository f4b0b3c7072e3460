"""benchmarks/calibrate_chance.py: the refit and the held-out measure of the engine's chance."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from calibrate_chance import (
    calibration_error,
    cross_chances,
    fitted_map,
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
