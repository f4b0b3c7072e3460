"""The training of the engine's priors (benchmarks/train_priors.py) works: it learns from the
corpus without the real-game benchmark's games, its fit makes the played holes likelier than
a blind guess, and what it writes is what the engine loads."""

from __future__ import annotations

import json
import math
from itertools import islice
from pathlib import Path

import numpy as np
from engine_games import played_ranks, positions
from train_priors import (
    CORPUS,
    EVERY_PEG,
    GAMES,
    OUTPUT,
    Data,
    fit,
    game_events,
    held_out_events,
    ranks,
    training_games,
    written,
)

from twixt.engine import patterns
from twixt.rules.records import load


def test_the_benchmark_s_games_are_not_learned_from() -> None:
    benchmark = {path.name for path in GAMES.glob("*.twixt")}
    assert len(benchmark) == 100
    assert not benchmark & {path.name for path in CORPUS.glob("*.twixt")}
    games, _same_opening = training_games()
    assert len(games) == 728 and not benchmark & {name for name, _game in games}


def test_a_fit_on_a_few_games_makes_the_played_holes_likelier_and_loads() -> None:
    games = [(path.name, load(path)) for path in sorted(CORPUS.glob("*.twixt"))[100:104]]
    data = Data(game_events(games))
    holes_a_choice = len(data.event) / data.events
    learned, likelihood = fit(data, 3)
    # a blind guess gives each choice's played hole 1 / (its holes): about -6 a move
    assert likelihood > -math.log(holes_a_choice) + 1.0
    contents = written(learned, data.areas, {"command": "test"})
    table = patterns.table_from(contents)
    assert len(table) == patterns.TABLE_SIZE
    assert any(table[patterns.OFFSETS[0] + code] for code in learned[0])
    # the area shapes kept load with their levels, each in every mirror image
    assert data.areas
    areas = patterns.areas_from(contents)
    for level, shape in enumerate(data.areas, start=1):
        assert {areas[image] for image in patterns.area_images(shape)} == {level}


def test_the_corpus_says_where_it_comes_from() -> None:
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    assert "eeichinger/twixt_t1j" in readme and "without the 100" in readme
    assert Path(CORPUS / "index.csv").read_text(encoding="utf-8").count("\n") == 729


def test_the_measure_ranks_the_played_pegs_as_the_engine_does() -> None:
    # the shipped weights, read as the training reads them, against the engine's own ranking
    shipped = json.loads(OUTPUT.read_text(encoding="utf-8"))["features"]["area"]
    count = 12
    held_out = Data(islice(held_out_events(), count), [int(shape) for shape in shipped])
    found = ranks(held_out, np.array(patterns.weights()))
    expected = played_ranks(positions(EVERY_PEG)[:count])
    assert found.tolist() == expected
    assert len(positions(EVERY_PEG)) == 2523
