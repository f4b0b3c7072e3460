"""Which holes the search looks at, and in what order (its priors).

A side wants to play on its own shortest paths (to shorten them) and on its opponent's (to
block them); a hole in a narrow layer of a shortest path counts for more, since there the
path has few alternatives. Holes a knight's step from the mover's own pegs join a chain at
once and get a bonus. On an empty or nearly empty big board every hole lies on some shortest
path, so the holes near the pegs (two knight steps) and the centre are looked at first.
"""

from __future__ import annotations

import math
from functools import cache

from twixt.engine.evaluate import Side, spreader
from twixt.rules import Colour
from twixt.rules.geometry import Geometry, geometry
from twixt.rules.position import Position

#: at most this many holes are scored per node
SCORED = 64


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


def _holes(bits: int) -> list[int]:
    """The indices of the set bits, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def near(geo: Geometry, bits: int) -> int:
    """Holes one knight step (whatever links stand) from `bits`."""
    return spreader(list(geo.step_masks), geo.step_shifts)(bits)


def ranked(pos: Position, colour: Colour, mine: Side, theirs: Side, free: int,
           count: int) -> tuple[list[int], list[float]]:
    """Up to `count` holes for `colour` to play, best first, with prior probabilities."""
    geo = pos.geo
    joining = spreader(pos.allow[colour], geo.step_shifts)(pos.peg_bits[colour]) & free
    pool = (mine.path | theirs.path) & free
    if pool.bit_count() > SCORED:
        around = near(geo, pos.occupied)
        around |= near(geo, around)
        focused = pool & around
        if focused.bit_count() < count:
            focused |= pool & centre(geo.cols, geo.rows)
        if focused:
            pool = focused
    if not pool:
        pool = free
    scores: dict[int, float] = {}
    for layers, weight in ((mine.path_layers, 1.0), (theirs.path_layers, 0.9)):
        for layer in layers:
            inside = layer & pool
            if not inside:
                continue
            value = weight * (1.0 + 2.0 / layer.bit_count())
            for hole in _holes(inside):
                scores[hole] = scores.get(hole, 0.0) + value
    for hole in _holes(joining & pool):
        scores[hole] = scores.get(hole, 0.0) + 0.6
    if len(scores) < count:
        for hole in _holes(pool)[: 4 * count]:
            scores.setdefault(hole, 0.0)
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:count]
    if not best:
        return [], []
    top = best[0][1]
    weights = [math.exp(1.5 * (score - top)) for _hole, score in best]
    total = sum(weights)
    return [hole for hole, _score in best], [w / total for w in weights]
