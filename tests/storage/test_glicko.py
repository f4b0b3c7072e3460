"""Glicko-2 arithmetic (twixt/storage/ratings.py) against Glickman's worked example, and what this
bot adds to it: a game per rating period, deviations that grow while a player is away, and
teams that play at their combined rating."""

import math
from datetime import UTC, datetime, timedelta

import pytest

from twixt.storage.ratings import (
    MAX_VOLATILITY,
    PERIOD,
    PROVISIONAL,
    SCALE,
    START_DEVIATION,
    Opponent,
    Rating,
    rate_game,
    rating_period,
)

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_the_worked_example_of_glickmans_paper():
    """"Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won), 1550/100 and
    1700/300 (lost) ends at r' 1464.06, RD' 151.52, σ' 0.05999. The paper rounds μ' to
    −0.2069 before scaling back, which is where its 1464.06 comes from: unrounded it is
    1464.0507."""
    after = rating_period(Rating(1500, 200, 0.06),
                          [Opponent(1400, 30, 1), Opponent(1550, 100, 0), Opponent(1700, 300, 0)])
    assert after.rating == pytest.approx(1500 + SCALE * -0.2069, abs=0.01)
    assert after.rating == pytest.approx(1464.0507, abs=0.0001)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    after = rating_period(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    # the paper's φ' = √(φ² + σ²), in rating points √(200² + (0.06·173.7178)²)
    assert after.deviation == pytest.approx(math.hypot(200, 0.06 * SCALE))
    assert after.volatility == 0.06


def test_newcomers_who_draw_stay_level_and_both_become_surer():
    [red], [black] = rate_game([Rating()], [Rating()], 0.5, NOW)
    assert red.rating == pytest.approx(1500) and black.rating == pytest.approx(1500)
    assert red.deviation == pytest.approx(black.deviation) and red.deviation < 300
    assert red.rated_at == black.rated_at == NOW


def test_a_win_moves_the_unsure_player_more_than_the_sure_one():
    sure = Rating(1500, 60, 0.06, NOW)
    [newcomer], [established] = rate_game([Rating()], [sure], 1.0, NOW)
    assert newcomer.rating - 1500 > 150
    assert 0 < 1500 - established.rating < 15
    # the same game, each rated against the other as one rating period
    alone = rating_period(Rating(), [Opponent(1500, 60, 1)])
    assert newcomer.rating == pytest.approx(alone.rating)
    assert newcomer.deviation == pytest.approx(alone.deviation)


def test_the_deviation_grows_with_the_periods_since_the_last_rated_game():
    rating = Rating(1600, 80, 0.06, NOW)
    assert rating.at(NOW) == rating
    eight = rating.at(NOW + 8 * PERIOD)
    assert eight.deviation == pytest.approx(math.sqrt(80 ** 2 + 8 * (0.06 * SCALE) ** 2))
    assert (eight.rating, eight.volatility, eight.rated_at) == (1600, 0.06, NOW)
    # half a period counts for half; a clock behind the last game grows nothing
    assert rating.at(NOW + PERIOD / 2).deviation == pytest.approx(
        math.sqrt(80 ** 2 + (0.06 * SCALE) ** 2 / 2))
    assert rating.at(NOW - timedelta(days=30)).deviation == 80


def test_the_deviation_grows_to_a_newcomers_at_most():
    assert Rating(1600, 80, 0.06, NOW).at(NOW + 5000 * PERIOD).deviation == START_DEVIATION
    assert Rating().at(NOW).deviation == START_DEVIATION


def test_a_player_away_for_months_is_provisional_again():
    regular = Rating(1600, 95, 0.06, NOW)
    assert not regular.at(NOW + timedelta(days=30)).provisional
    assert regular.at(NOW + timedelta(days=180)).provisional
    assert Rating(1600, PROVISIONAL, 0.06).provisional is False
    assert Rating(1600, PROVISIONAL + 0.01, 0.06).provisional is True


def test_a_game_after_months_away_is_rated_from_the_grown_deviation():
    away = Rating(1500, 80, 0.06, NOW - timedelta(days=200))
    fresh = Rating(1500, 80, 0.06, NOW)
    opponent = Rating(1500, 80, 0.06, NOW)
    [after_away], _ = rate_game([away], [opponent], 1.0, NOW)
    [after_fresh], _ = rate_game([fresh], [opponent], 1.0, NOW)
    assert after_away.rating - 1500 > after_fresh.rating - 1500 > 0
    grown = away.at(NOW)
    assert after_away.rating == pytest.approx(
        rating_period(Rating(1500, grown.deviation), [Opponent(1500, 80, 1)]).rating)


def test_partners_move_by_their_own_deviation_from_the_teams_combined_rating():
    strong = Rating(1700, 60, 0.06, NOW)
    unsure = Rating(1500, 200, 0.07, NOW)
    other = [Rating(1550, 100, 0.06, NOW), Rating(1450, 100, 0.06, NOW)]
    (new_strong, new_unsure), (new_third, new_fourth) = rate_game([strong, unsure], other,
                                                                  0.0, NOW)
    # the team plays at 1600 with RD √((60² + 200²) / 2) against 1500 with RD 100
    team_deviation = math.sqrt((60 ** 2 + 200 ** 2) / 2)
    against = [Opponent(1500, 100, 0.0)]
    as_strong = rating_period(Rating(1600, 60, 0.06), against)
    as_unsure = rating_period(Rating(1600, 200, 0.07), against)
    assert new_strong.rating == pytest.approx(1700 + as_strong.rating - 1600)
    assert new_unsure.rating == pytest.approx(1500 + as_unsure.rating - 1600)
    assert (new_strong.deviation, new_strong.volatility) == pytest.approx(
        (as_strong.deviation, as_strong.volatility))
    assert (new_unsure.deviation, new_unsure.volatility) == pytest.approx(
        (as_unsure.deviation, as_unsure.volatility))
    # both lose, the unsure partner far more; the winners gain the same from the same team
    assert 1500 - new_unsure.rating > 3 * (1700 - new_strong.rating) > 0
    as_winner = rating_period(Rating(1500, 100, 0.06), [Opponent(1600, team_deviation, 1.0)])
    assert new_third.rating - 1550 == pytest.approx(as_winner.rating - 1500)
    assert new_fourth.rating - 1450 == pytest.approx(as_winner.rating - 1500)


def test_the_volatility_search_ends_on_wild_inputs_and_stays_bounded():
    # a huge surprise (Δ² > φ² + v), volatilities at and beyond their extremes: each search
    # ends, and the volatility comes out no larger than MAX_VOLATILITY
    for volatility in (0.0001, 0.06, 2.0):
        after = rating_period(Rating(1000, 30, volatility), [Opponent(3000, 30, 1.0)] * 5)
        assert 0 < after.volatility <= MAX_VOLATILITY
        assert 1000 < after.rating < 1200 and after.deviation < 60


def test_a_run_of_upsets_raises_the_volatility_a_little():
    player = Rating(1000, 30, 0.06, NOW)
    for _ in range(60):
        [player], _ = rate_game([player], [Rating(3000, 30, 0.06, NOW)], 1.0, NOW)
    assert 0.06 < player.volatility < 0.065
    assert 2000 < player.rating < 3000
