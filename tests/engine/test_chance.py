"""twixt/engine/chance.py: the chance the engine reports, calibrated on real games."""

from __future__ import annotations

import math

import pytest

from twixt.engine import Limit, think
from twixt.engine.chance import Calibration, CurveLooks, calibrated, looks, shipped
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
    went on to win: the shipped map gives an even search's side to move less than half, and
    at any value less than the same value would give the other side were it to move."""
    assert calibrated(0.5) < 0.5
    for value in (0.05, 0.2, 0.35, 0.65, 0.8, 0.95):
        assert calibrated(value) < 1 - calibrated(1 - value)


@pytest.mark.parametrize(("slope", "bias", "value", "chance"),
                         [(1.0, 0.0, 0.7, 0.7), (0.5, 0.0, 0.8, 2 / 3), (1.0, -1.0, 0.5, 0.2689)])
def test_the_logistic_map(slope: float, bias: float, value: float, chance: float) -> None:
    assert Calibration(slope, bias).chance(value) == pytest.approx(chance, abs=1e-4)


def test_the_cubic_term_trusts_a_confident_value_more() -> None:
    """`logit(chance) = slope * z + curve * z**3 + bias`: at an even value it changes
    nothing, away from it it moves the chance further from a half, on both sides alike."""
    line, bent = Calibration(0.4, 0.0), Calibration(0.4, 0.0, curve=0.01)
    assert bent.chance(0.5) == line.chance(0.5) == 0.5
    z = math.log(0.9 / 0.1)
    assert bent.chance(0.9) == pytest.approx(1 / (1 + math.exp(-(0.4 * z + 0.01 * z ** 3))))
    assert bent.chance(0.9) > line.chance(0.9) and bent.chance(0.1) < line.chance(0.1)
    assert bent.chance(0.9) + bent.chance(0.1) == pytest.approx(1.0)
    assert Calibration.from_json(bent.as_json()) == bent


def test_think_reports_the_calibrated_chance_of_its_searched_value() -> None:
    game = Game(("alice", "bob"), size=12, swap=False)
    for move in ("F6", "G8", "H5"):
        game.play(move)
    result = think(game, Limit(nodes=300), seed=0)
    assert result.searched is not None
    assert result.win == calibrated(result.searched)
    assert result.win != result.searched


def test_the_looks_weigh_the_earlier_value_by_its_visits_in_logits() -> None:
    """The earlier search's look counts as `share` of the position's own nodes a visit: as
    many visits as share times nodes make it weigh as much as the position's own search."""
    look = CurveLooks(Calibration(1.0, 0.0), share=0.1)
    assert look.value(0.7, 1000) == 0.7
    assert look.value(0.7, 1000, 0.2, 0) == 0.7
    even = look.value(0.8, 1000, 0.2, 100)  # logits +1.386 and -1.386, weighed alike
    assert even == pytest.approx(0.5)
    assert 0.5 < look.value(0.8, 1000, 0.2, 50) < 0.8
    assert look.chance(0.8, 1000, 0.2, 100) == pytest.approx(0.5)


def test_the_later_search_weighs_as_weight_times_the_positions_own() -> None:
    """The search after the next move counts as `weight` times a search of its nodes: of the
    same nodes and weight 1 it weighs as much as the position's own; without a weight it is
    not weighed at all."""
    look = CurveLooks(Calibration(1.0, 0.0), share=0.1, weight=1.0)
    assert look.value(0.8, 1000, later=0.2, later_nodes=1000) == pytest.approx(0.5)
    assert look.value(0.8, 1000, 0.2, 100, 0.8, 2000) == pytest.approx(
        1 / (1 + math.exp(-math.log(4) * 2 / 4)))  # +1, -1, +2 shares of the logit of 0.8
    assert 0.5 < look.value(0.8, 1000, later=0.2, later_nodes=500) < 0.8
    assert CurveLooks(Calibration(1.0, 0.0), share=0.1).value(0.8, 1000, later=0.2,
                                                         later_nodes=1000) == 0.8


def test_the_looks_leave_a_decided_position_decided() -> None:
    """A decided look has no logit to weigh: the position's own value stands."""
    look = CurveLooks(Calibration(0.5, -0.2), share=0.1, weight=1.0)
    assert look.value(1.0, 1000, 0.4, 500) == 1.0
    assert look.value(0.6, 1000, 0.0, 500) == 0.6
    assert look.value(0.6, 1000, later=1.0, later_nodes=1000) == 0.6
    assert look.chance(0.0, 1000, 0.9, 500, 0.9, 1000) == 0.0


def test_the_shipped_looks_say_where_they_were_learned() -> None:
    found = looks()
    assert found.share > 0 and found.weight > 0
    assert found.calibration.provenance["positions"] > 500
    assert found.calibration.provenance["command"] == shipped().provenance["command"]
    assert " fit" in found.calibration.provenance["command"]
