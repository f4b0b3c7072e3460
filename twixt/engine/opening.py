"""The pie rule: whether to swap Red's first peg, and which first peg to offer.

With swap on, the first peg should be worth about as much as the move it gives away. How much
a first peg is worth comes from self-play: twixtbot (github BonyJordan/twixtbot, MIT; its
`swapmodel.py`) fitted the first player's result over its own games on 24×24 to where the
first peg stood, folded into one quarter of the board (`x` the column, 1–11 away from the
nearer side column; `y` the row, 0–11 away from the nearer border row of the first player):

    first player's score = 0.494481 − 0.00366079·(x − 6) + 0.0225597·(y − 5.5)
                           + 0.00114293·(x − 6)·(y − 5.5)

The row matters most: a peg six rows or more into the board is worth swapping almost anywhere
across it, while one near the first player's own border row (T1j's near-corner openings such
as F3 or T3, which the earlier rule here swapped) is not: by the fit, the second player who
swaps it takes the weaker side (against T1j itself too few games were played to tell,
docs/engine.md). Another board is measured in the same units, its coordinates scaled to
24×24.
"""

from __future__ import annotations

import random

from twixt.rules import Game

#: the fit's coefficients (constant, across, along, across × along) and centre
_BETAS = (0.494481, -0.00366079, 0.0225597, 0.00114293)
_CENTRE = (6.0, 5.5)
#: the board the fit was made on (holes a side)
_FITTED = 24
#: a first peg is offered when the fit gives its player within this much of an even game
FAIR_MARGIN = 0.01


def first_player_score(cols: int, rows: int, col: int, row: int) -> float:
    """The first player's expected score (0–1) after a first peg at (`col`, `row`) on a
    board of `cols` × `rows`, when the second player does not swap."""
    across = min(col, cols - 1 - col) * (_FITTED - 1) / max(1, cols - 1)
    along = min(row, rows - 1 - row) * (_FITTED - 1) / max(1, rows - 1)
    x, y = across - _CENTRE[0], along - _CENTRE[1]
    constant, by_x, by_y, by_xy = _BETAS
    return constant + by_x * x + by_y * y + by_xy * x * y


def should_swap(game: Game) -> bool:
    """Whether the side to move, offered a swap, takes Red's first peg: when the peg is worth
    more than half to the first player."""
    pegs = game.pegs()
    if len(pegs) != 1:
        return False
    hole = pegs[0].hole
    return first_player_score(game.geometry.cols, game.geometry.rows, hole.col, hole.row) > 0.5


def fair_first_peg(game: Game, rng: random.Random) -> int:
    """A first peg for Red that a good opponent should not want to swap, nor be glad to get:
    a hole the fit gives within `FAIR_MARGIN` of an even game on the side of not swapping (the
    nearest such holes when none is that close); chosen by `rng`."""
    geo = game.geometry
    cols, rows = geo.cols, geo.rows
    placeable = [index for index in range(cols * rows)
                 if (geo.placeable[game.colour_to_move] >> index) & 1]
    scores = {index: first_player_score(cols, rows, index % cols, index // cols)
              for index in placeable}
    kept = [index for index, score in scores.items() if score <= 0.5] or placeable
    closest = min(0.5 - scores[index] if scores[index] <= 0.5 else 1.0 for index in kept)
    choices = [index for index in kept
               if 0.5 - scores[index] <= max(FAIR_MARGIN, closest) and scores[index] <= 0.5]
    return rng.choice(sorted(choices or kept))
