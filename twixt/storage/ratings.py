"""Glicko-2 ratings per guild: a rating, how far off it may be (the deviation, RD) and how
erratic the player's results are (the volatility), after Mark Glickman, "Example of the
Glicko-2 system" (2013), the system lichess and OGS use.

Each game is its own rating period, rated when it ends (as lichess does). Between games the
deviation grows with the time since the player's last rated game, `t` rating periods of
`PERIOD`: φ' = √(φ² + σ²·t), never above the start's 350. So a player back after months is
uncertain again (shown provisional, `1500?`), and their next results move them further. The
game's own period then widens it once more by σ'² (the paper's step 6, kept as it is): this
keeps a burst of games finished on one day from narrowing a deviation towards nothing.
Everyone in a game is rated from their deviation as grown to the game's end, the opponents'
included.

A team (Double TwixT) plays at its partners' combined rating: the mean rating and the root of
the mean squared deviation. Each partner is rated as a player with the team's rating and their
own deviation and volatility, against the other team's combined values; the change in rating
is added to the partner's own rating.

Pure arithmetic, used by storage inside the transaction that records a result, so that two
games ending at once both count (a rating read outside it could lose an update).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

#: Glicko-2's scale: μ = (r − 1500) / SCALE, φ = RD / SCALE
SCALE = 173.7178
START = 1500.0
#: a newcomer's deviation, and the most any deviation grows to
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: the most a volatility grows to (lichess's bound): a run of upsets may raise it, but not so
#: far that one more game throws a rating thousands of points
MAX_VOLATILITY = 0.1
#: the system constant τ, how far the volatility may move in one period. Glickman suggests
#: 0.3 to 1.2; 0.5 is the paper's own, in the middle: with a game per period and few games
#: in a server, a larger τ would let one surprising result swing the volatility.
TAU = 0.5
#: the volatility's iteration stops when its bracket is this narrow (the paper's ε) ...
EPSILON = 0.000001
#: ... or after this many steps (the Illinois method needs a handful; this bounds the loop)
MAX_ITERATIONS = 100
#: one rating period of inactivity: half a week. With σ = 0.06 a deviation grows by about
#: 10 points (in quadrature) a period. Simulated against opponents of RD 80: a player who
#: finishes a game a week settles near RD 82 and is provisional again after about six months
#: away, one with a game a fortnight near 93 and four months; a week's period would take over
#: a year, two days would make the fortnightly player provisional after three weeks.
PERIOD = timedelta(days=3.5)
#: above this (grown) deviation a rating is provisional, shown `1500?` (lichess's 110)
PROVISIONAL = 110.0


@dataclass(frozen=True)
class Rating:
    """A player's rating, deviation and volatility, and when their last rated game ended
    (None for a newcomer)."""

    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    rated_at: datetime | None = None

    def at(self, now: datetime) -> Rating:
        """The rating as it stands at `now`: the deviation grown by the periods since the
        last rated game (none before it, none for a newcomer), at most `START_DEVIATION`."""
        if self.rated_at is None:
            return self
        periods = max((now - self.rated_at) / PERIOD, 0.0)
        grown = math.sqrt(self.deviation ** 2 + (self.volatility * SCALE) ** 2 * periods)
        return Rating(self.rating, min(grown, START_DEVIATION), self.volatility, self.rated_at)

    @property
    def provisional(self) -> bool:
        """Whether the deviation is too wide to trust the rating (see `at` for `now`)."""
        return self.deviation > PROVISIONAL


@dataclass(frozen=True)
class Opponent:
    """One game of a rating period: the opponent's rating and deviation, and the score
    (1 a win, 0.5 a draw, 0 a loss)."""

    rating: float
    deviation: float
    score: float


def rating_period(player: Rating, games: Sequence[Opponent]) -> Rating:
    """The player's rating, deviation and volatility after one rating period with `games`
    (the paper's steps 2 to 8); with no games only the deviation grows, by one period.
    `rated_at` is kept: the caller says when.

    >>> after = rating_period(Rating(1500, 200), [Opponent(1400, 30, 1), Opponent(1550, 100, 0),
    ...                                           Opponent(1700, 300, 0)])
    >>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
    (1464.05, 151.52, 0.059996)
    """
    mu = (player.rating - START) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, math.hypot(phi, sigma) * SCALE, sigma, player.rated_at)
    # step 3 and 4: the estimated variance v of the rating from the games alone, and the
    # estimated improvement delta
    inverse_v = 0.0
    improvement = 0.0
    for game in games:
        g = _g(game.deviation / SCALE)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - (game.rating - START) / SCALE)))
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (game.score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    # step 5, 6 and 7: the new volatility, the deviation grown by one period with it, and the
    # new deviation and rating
    new_sigma = _volatility(delta, phi, v, sigma)
    phi_star_squared = phi * phi + new_sigma * new_sigma
    new_phi = 1.0 / math.sqrt(1.0 / phi_star_squared + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(START + SCALE * new_mu, SCALE * new_phi, new_sigma, player.rated_at)


def rate_game(red: Sequence[Rating], black: Sequence[Rating], score_red: float,
              at: datetime) -> tuple[list[Rating], list[Rating]]:
    """Every player's rating after a game that ended at `at`, its own rating period;
    `score_red` is 1 for a win of Red, 0.5 a draw, 0 a loss. Deviations are first grown to
    `at` (see `Rating.at`); a side of two plays at its combined rating (see the module)."""
    red_now = [r.at(at) for r in red]
    black_now = [r.at(at) for r in black]
    return (_rate_side(red_now, _combined(black_now), score_red, at),
            _rate_side(black_now, _combined(red_now), 1.0 - score_red, at))


def _rate_side(side: Sequence[Rating], opponent: Rating, score: float,
               at: datetime) -> list[Rating]:
    team = _combined(side)
    game = [Opponent(opponent.rating, opponent.deviation, score)]
    rated = []
    for partner in side:
        after = rating_period(Rating(team.rating, partner.deviation, partner.volatility), game)
        rated.append(Rating(partner.rating + after.rating - team.rating,
                            min(after.deviation, START_DEVIATION), after.volatility, at))
    return rated


def _combined(side: Sequence[Rating]) -> Rating:
    """A side's rating: the mean rating, and the root of the mean squared deviation."""
    return Rating(sum(r.rating for r in side) / len(side),
                  math.sqrt(sum(r.deviation ** 2 for r in side) / len(side)))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _volatility(delta: float, phi: float, v: float, sigma: float) -> float:
    """Step 5: the new volatility σ', the root of `f` found by the Illinois algorithm (a
    regula falsi that halves the stale end's value), at most `MAX_ITERATIONS` steps; never
    above `MAX_VOLATILITY`."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (TAU * TAU))

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        high = _bracket(f, a)
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_ITERATIONS):
        if abs(high - low) <= EPSILON:
            break
        new = low + (low - high) * f_low / (f_high - f_low)
        f_new = f(new)
        if f_new * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = new, f_new
    return min(math.exp(low / 2.0), MAX_VOLATILITY)


def _bracket(f: Callable[[float], float], a: float) -> float:
    """The paper's search for the other end of the bracket: a − kτ for the first k with
    f ≥ 0 (f(a − kτ) ≥ k/τ − 1/2, so with τ < 2 the first k does; bounded all the same)."""
    k = 1
    while f(a - k * TAU) < 0 and k < MAX_ITERATIONS:
        k += 1
    return a - k * TAU
