"""twixt/engine/chance.py: the chance the engine reports, calibrated on real games."""

from __future__ import annotations

import pytest

from twixt.engine import Limit, think
from twixt.engine.chance import Calibration, SecondLook, calibrated, second_look, shipped
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


def test_a_second_look_weighs_the_two_values_by_their_visits_in_logits() -> None:
    """The earlier search's look counts as `share` of the position's own nodes a visit: as
    many visits as share times nodes make it weigh as much as the position's own search."""
    look = SecondLook(Calibration(1.0, 0.0), share=0.1)
    assert look.value(0.7, 1000, None, 0) == 0.7
    assert look.value(0.7, 1000, 0.2, 0) == 0.7
    even = look.value(0.8, 1000, 0.2, 100)  # logits +1.386 and -1.386, weighed alike
    assert even == pytest.approx(0.5)
    assert 0.5 < look.value(0.8, 1000, 0.2, 50) < 0.8
    assert look.chance(0.8, 1000, 0.2, 100) == pytest.approx(0.5)


def test_a_second_look_leaves_a_decided_position_decided() -> None:
    """A decided look has no logit to weigh: the position's own value stands."""
    look = SecondLook(Calibration(0.5, -0.2), share=0.1)
    assert look.value(1.0, 1000, 0.4, 500) == 1.0
    assert look.value(0.6, 1000, 0.0, 500) == 0.6
    assert look.chance(0.0, 1000, 0.9, 500) == 0.0


def test_the_shipped_second_look_says_where_it_was_learned() -> None:
    found = second_look()
    assert found.share > 0
    assert found.calibration.provenance["positions"] > 500
    assert "--parents" in found.calibration.provenance["command"]
