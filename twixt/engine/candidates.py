"""Which holes the search looks at, and in what order (its priors).

A hole's prior is its strength under the model learned from real games (`engine.patterns`:
the shape of its knight's-step ring, how far it is from the last two pegs and the borders,
whether it lies on a narrow layer of either side's shortest paths), over the strengths of
the holes listed with it. Where people play is where the search looks first.

The holes scored are those a knight's step or two from the last two pegs (where most replies
are) and those on either side's shortest paths next to some peg, and at the root every free
hole: scoring all of them would cost more than the rest of a node, so a node below the root
scores only those (about 80 on a 24×24 board in the middle game, of some 500).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from functools import cache

from twixt.engine.board import Board
from twixt.engine.evaluate import Side, spreader
from twixt.engine.patterns import Recent, bit_indices, feature_weights, levels_of, scene, strength
from twixt.rules import Colour
from twixt.rules.geometry import Geometry, geometry


@cache
def centre(cols: int, rows: int) -> int:
    """The middle half of the board each way, as a bitboard."""
    geo = geometry(cols, rows)
    bits = 0
    for index, on in enumerate(geo.on_board):
        c, r = index % cols, index // cols
        if on and cols / 4 <= c < cols * 3 / 4 and rows / 4 <= r < rows * 3 / 4:
            bits |= 1 << index
    return bits


def near(geo: Geometry, bits: int) -> int:
    """Holes one knight step (whatever links stand) from `bits`."""
    return spreader(list(geo.step_masks), geo.step_shifts)(bits)


def pool(board: Board, recent: Recent, mine: Side, theirs: Side, free: int, *,
         everywhere: bool) -> int:
    """The holes to score: every free one (`everywhere`), else those within two knight's
    steps of the last two pegs and those on either side's shortest paths a knight's step
    from some peg (the centre when none of these is free: an empty board)."""
    if everywhere:
        return free
    geo = board.geo
    pegs = 0
    for peg in (recent.last, recent.own_last):
        if peg >= 0:
            pegs |= 1 << peg
    around = near(geo, pegs)
    around |= near(geo, around)
    found = (around | ((mine.path | theirs.path) & near(geo, board.pos.occupied))) & free
    return found or (centre(geo.cols, geo.rows) & free) or free


def ranked(board: Board, colour: Colour, recent: Recent, mine: Side, theirs: Side, free: int,
           count: int, *, everywhere: bool = False,
           given: Sequence[float] | None = None) -> tuple[list[int], list[float]]:
    """Up to `count` holes for `colour` to play, best first, with prior probabilities; the
    holes' logarithms of strength are the patterns' unless `given` (per hole index: the
    root's, from `engine.policy`)."""
    holes = pool(board, recent, mine, theirs, free, everywhere=everywhere)
    order = bit_indices(holes)
    # strongest first, equals by hole index: the smallest (negated strength, hole)
    if given is not None:
        scores = [(-given[hole], hole) for hole in order]
    else:
        table = feature_weights()
        found = levels_of(scene(board.pos, board.rules, colour, recent, mine, theirs, holes),
                          order)
        scores = [(-strength(table, levels), hole)
                  for levels, hole in zip(found, order, strict=True)]
    best = heapq.nsmallest(count, scores)
    if not best:
        return [], []
    top = best[0][0]
    odds = [math.exp(top - score) for score, _hole in best]
    total = sum(odds)
    return [hole for _score, hole in best], [w / total for w in odds]
