"""Elo ratings per guild: every player starts at 1500; a team plays at its average rating and
each partner gains or loses what the team does.

Pure arithmetic, used by storage inside the transaction that records a result, so that two
games ending at once both count (a rating read outside it could lose an update).
"""

from __future__ import annotations

from collections.abc import Sequence

START = 1500.0
K = 32.0


def expected(rating: float, opponent: float) -> float:
    """The expected score of `rating` against `opponent`."""
    return 1.0 / (1.0 + 10 ** ((opponent - rating) / 400.0))


def new_ratings(side_a: Sequence[float], side_b: Sequence[float],
                score_a: float) -> tuple[list[float], list[float]]:
    """Ratings after a game; `score_a` is 1 for a win of side A, 0.5 a draw, 0 a loss."""
    team_a = sum(side_a) / len(side_a)
    team_b = sum(side_b) / len(side_b)
    change = K * (score_a - expected(team_a, team_b))
    return [r + change for r in side_a], [r - change for r in side_b]
