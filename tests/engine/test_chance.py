"""twixt/engine/chance.py: the chance the engine reports, calibrated on real games."""

from __future__ import annotations

import pytest

from twixt.engine import Limit, think
from twixt.engine.chance import Calibration, calibrated, shipped
from twixt.rules import Game


def test_the_shipped_calibration_says_where_it_was_learned() -> None:
    found = shipped()
    assert found.provenance["positions"] > 1000
    assert "benchmarks/games/corpus" in found.provenance["corpus"]
    assert found.provenance["command"].startswith("python benchmarks/calibrate_chance.py")


def test_the_map_keeps_the_order_of_the_searchs_values() -> None:
    """It changes no move: a better value is a better chance."""
    values = [i / 100 for i in range(1, 100)]
    chances = [calibrated(value) for value in values]
    assert chances == sorted(chances) and len(set(chances)) == len(chances)


def test_a_decided_position_stays_decided() -> None:
    assert (calibrated(0.0), calibrated(1.0)) == (0.0, 1.0)


def test_the_side_to_move_is_no_longer_given_more_than_it_wins() -> None:
    """On real games the search's value gave the side to move about ten points more than it
    went on to win: the shipped map gives an even search's side to move less than half, and a
    confident search less than it says."""
    assert calibrated(0.5) < 0.5
    assert calibrated(0.8) < 0.8 and calibrated(0.2) > 0.2


@pytest.mark.parametrize(("slope", "bias", "value", "chance"),
                         [(1.0, 0.0, 0.7, 0.7), (0.5, 0.0, 0.8, 2 / 3), (1.0, -1.0, 0.5, 0.2689)])
def test_the_logistic_map(slope: float, bias: float, value: float, chance: float) -> None:
    assert Calibration(slope, bias).chance(value) == pytest.approx(chance, abs=1e-4)


def test_think_reports_the_calibrated_chance_of_its_searched_value() -> None:
    game = Game(("alice", "bob"), size=12, swap=False)
    for move in ("F6", "G8", "H5"):
        game.play(move)
    result = think(game, Limit(nodes=300), seed=0)
    assert result.searched is not None
    assert result.win == calibrated(result.searched)
    assert result.win != result.searched
