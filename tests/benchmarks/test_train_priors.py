"""The training of the engine's priors (benchmarks/train_priors.py) works: it learns from the
corpus without the real-game benchmark's games, its fit makes the played holes likelier than
a blind guess, and what it writes is what the engine loads."""

from __future__ import annotations

import math
from pathlib import Path

from train_priors import CORPUS, GAMES, Data, fit, training_games, written

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
    data = Data(games)
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
