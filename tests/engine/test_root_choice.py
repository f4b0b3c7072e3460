"""The root's final choice can weigh each move's visits with the policy's prior
(`search.PRIOR_CHOICE`): the network foresees the players' move more often than the visits
do, so a move the network likes much more is then played over one visited a little more.
The engine keeps the weight at 0 (the most visited move): with it, more nodes bought too
little (docs/engine-measurements.md)."""

from __future__ import annotations

import pytest

from twixt.engine import search
from twixt.engine.search import SearchOutcome

#: the weight that brings the move to the players' 31% of the time (benchmarks/search_agreement.py)
WEIGHED = 3.0


@pytest.fixture
def weighed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "PRIOR_CHOICE", WEIGHED)


def _outcome(visits: tuple[int, ...], priors: tuple[float, ...],
             values: tuple[float, ...] | None = None) -> SearchOutcome:
    count = len(visits)
    if values is None:
        values = tuple(0.5 * v for v in visits)
    return SearchOutcome(nodes=sum(visits) + 1, root_eval=0.5, terminal=None,
                         moves=tuple(range(10, 10 + count)), priors=priors, visits=visits,
                         values=values, lines=((),) * count)


def test_a_move_the_network_likes_far_more_beats_one_visited_a_little_more(
        weighed: None) -> None:
    found = _outcome((400, 300), (0.1, 0.6))
    assert found.best() == 1
    assert found.principal_variation(found.choice(0.0, 0.5))[0] == 11


def test_visits_still_decide_between_moves_the_network_likes_alike(weighed: None) -> None:
    assert _outcome((300, 400), (0.3, 0.3)).best() == 1
    # a move the search all but ignored is not played for its prior alone
    assert _outcome((990, 9), (0.2, 0.8)).best() == 0


def test_a_move_never_visited_is_not_chosen_whatever_its_prior(weighed: None) -> None:
    assert _outcome((5, 0), (0.01, 0.99)).best() == 0


def test_ties_go_to_the_better_value_then_the_prior(weighed: None) -> None:
    assert _outcome((100, 100), (0.4, 0.4), (40.0, 60.0)).best() == 1
    # 800 × 0.5³ = 100 × 1.0³, the same mean value: the prior decides
    assert _outcome((800, 100), (0.5, 1.0), (400.0, 50.0)).best() == 1


def test_the_engine_plays_the_most_visited_move() -> None:
    assert _outcome((400, 300), (0.1, 0.6)).best() == 0
