"""The pie rule: whether to swap Red's first peg, and which first peg to offer.

With swap on, the first peg should be worth about as much as the move it gives away: a peg
in the middle of the board is swapped, one next to a Black border (a side column) is not,
since it is easily cut off. The measure is how far the peg is from Black's borders (the side
columns) and, less, from Red's own border rows, as a share of the board; the boundary is the
one Little Golem players use on 24×24 (columns C–D and V–W from the sides are about even).
"""

from __future__ import annotations

import random

from twixt.rules import Game

#: a peg this deep into the board (0 at a side, 1 in the centre) or deeper is swapped
SWAP_DEPTH = 0.3


def depth(cols: int, rows: int, col: int, row: int) -> float:
    """How central a hole is for Red: 0 on a side column or a border row, 1 in the middle.

    The distance from the side columns counts most: a peg near Black's border is cut off by
    a wall of Black links; one near Red's own border rows is merely slow."""
    across = min(col, cols - 1 - col) / max(1.0, (cols - 1) / 2)
    along = min(row, rows - 1 - row) / max(1.0, (rows - 1) / 2)
    return min(across, 0.5 + along)


def should_swap(game: Game) -> bool:
    """Whether the side to move, offered a swap, takes Red's first peg."""
    pegs = game.pegs()
    if len(pegs) != 1:
        return False
    hole = pegs[0].hole
    return depth(game.geometry.cols, game.geometry.rows, hole.col, hole.row) >= SWAP_DEPTH


def fair_first_peg(game: Game, rng: random.Random) -> int:
    """A first peg for Red that a good opponent should not want to swap, nor be glad to get:
    a hole just outside the swapped region, away from the rows' ends; chosen by `rng`."""
    geo = game.geometry
    cols, rows = geo.cols, geo.rows
    choices = []
    for index in range(cols * rows):
        if not (geo.placeable[game.colour_to_move] >> index) & 1:
            continue
        col, row = index % cols, index // cols
        d = depth(cols, rows, col, row)
        if d < SWAP_DEPTH and d >= SWAP_DEPTH - 0.25 and 0.25 <= row / (rows - 1) <= 0.75:
            choices.append(index)
    if not choices:
        choices = [index for index in range(cols * rows)
                   if (geo.placeable[game.colour_to_move] >> index) & 1]
    return rng.choice(sorted(choices))
