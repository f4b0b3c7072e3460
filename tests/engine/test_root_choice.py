"""The root's final choice weighs each move's visits with the policy's prior
(`search.PRIOR_CHOICE`): the network foresees the players' move more often than the visits
do, so a move the network likes much more is played over one visited a little more."""

from __future__ import annotations

from twixt.engine import search
from twixt.engine.search import SearchOutcome


def _outcome(visits: tuple[int, ...], priors: tuple[float, ...],
             values: tuple[float, ...] | None = None) -> SearchOutcome:
    count = len(visits)
    if values is None:
        values = tuple(0.5 * v for v in visits)
    return SearchOutcome(nodes=sum(visits) + 1, root_eval=0.5, terminal=None,
                         moves=tuple(range(10, 10 + count)), priors=priors, visits=visits,
                         values=values, lines=((),) * count)


def test_a_move_the_network_likes_far_more_is_chosen_over_one_visited_a_little_more():
    found = _outcome((400, 300), (0.1, 0.6))
    assert found.best() == 1
    assert found.principal_variation(found.choice(0.0, 0.5))[0] == 11


def test_visits_still_decide_between_moves_the_network_likes_alike():
    assert _outcome((300, 400), (0.3, 0.3)).best() == 1
    # a move the search all but ignored is not played for its prior alone
    assert _outcome((990, 9), (0.2, 0.8)).best() == 0


def test_a_move_never_visited_is_not_chosen_whatever_its_prior():
    assert _outcome((5, 0), (0.01, 0.99)).best() == 0


def test_ties_go_to_the_better_value_then_the_prior():
    assert _outcome((100, 100), (0.4, 0.4), (40.0, 60.0)).best() == 1
    # 800 × 0.5³ = 100 × 1.0³, the same mean value: the prior decides
    assert _outcome((800, 100), (0.5, 1.0), (400.0, 50.0)).best() == 1


def test_without_the_prior_weight_the_most_visited_is_chosen(monkeypatch):
    monkeypatch.setattr(search, "PRIOR_CHOICE", 0.0)
    assert _outcome((400, 300), (0.1, 0.6)).best() == 0
