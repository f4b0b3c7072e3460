"""How far each side is from connecting: the engine's understanding of a TwixT position.

A side's *distance* is the least number of pegs it still has to place to join its borders:
stepping (a knight's move) onto an empty hole costs 1, onto its own peg 0; the opponent's
pegs, the opponent's border rows and steps crossed by an opponent link are impassable. It is
computed as layered flood fills on bitboards (Python ints): layer k holds every hole reachable
for at most k pegs, so a whole board costs a few dozen big-int operations per layer.

Filling from both borders gives, per empty hole, the cheapest path through it; the holes on a
shortest path are where the side wants to play and where its opponent wants to block, and a
layer of the shortest paths with few holes is a weak point (one peg there lengthens the path).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from twixt.rules import Colour
from twixt.rules.position import Position

#: a distance for a side that can no longer connect
UNREACHABLE = 1000


@dataclass(frozen=True)
class Leaf:
    """The constants of the leaf evaluation (`win_chance`): a logistic model of the side to
    move's result in the differences of the two sides' distances, narrow terms and layer
    sums. Both cores take them as parameters, so one set is one engine."""

    #: how sharply a difference in effective distance turns into a chance of winning
    sharpness: float
    #: what having the move is worth, in pegs
    tempo: float
    #: pegs added to a distance whose shortest paths all pass one hole (less when wider)
    narrow: float
    #: pegs added for each layer of the shortest paths, divided by its width
    weak: float


#: the constants set by matches: NARROW measured at 75% against none (12x12 pp, 400 nodes),
#: WEAK against 79d3449 on 24x24 pp at 300 nodes (70% of 20 games at 2.0, 60% at 1.0, 5 of
#: 13 at 4.0); as a forecast of real games' results far too sure (held-out log-loss 1.26)
BY_MATCHES = Leaf(sharpness=0.9, tempo=0.5, narrow=3.0, weak=2.0)
#: the same model fitted by maximum likelihood to who won, on every position of the 454
#: decided training games (`benchmarks/fit_evaluation.py`): held-out log-loss 0.619
#: (accuracy 64.1% against 56.8%); the narrow term predicts nothing there
FITTED = Leaf(sharpness=0.36, tempo=0.35, narrow=0.0, weak=0.41)
#: the engine's leaf evaluation (one setting: both cores read the four names below)
LEAF = FITTED
NARROW = LEAF.narrow
WEAK = LEAF.weak


Spread = Callable[[int], int]


def spreader(allow: list[int], shifts: tuple[int, ...]) -> Spread:
    """A function giving the holes one open knight step from a bitboard; `allow[step]` holds
    the holes whose `step` is open. Written out step by step: the hottest code of the engine.
    Steps 0, 1, 6 and 7 go down the board (a higher index), 2 to 5 up."""
    a0, a1, a2, a3, a4, a5, a6, a7 = allow
    s0, s1, s2, s3, s4, s5, s6, s7 = shifts
    n2, n3, n4, n5 = -s2, -s3, -s4, -s5

    def spread(bits: int) -> int:
        return (((bits & a0) << s0) | ((bits & a1) << s1) | ((bits & a6) << s6)
                | ((bits & a7) << s7) | ((bits & a2) >> n2) | ((bits & a3) >> n3)
                | ((bits & a4) >> n4) | ((bits & a5) >> n5))
    return spread


def _layers(start: int, goal: int, own: int, empty: int, spread: Spread,
            cap: int) -> list[int]:
    """Cumulative reach for 0, 1, 2, … pegs from the border `start`; stops at the layer that
    touches `goal` (its index is the distance), or returns [] when `goal` is out of reach or
    further than `cap`."""
    reached = 0
    layers: list[int] = []
    entry = start & own
    # the holes next to an own peg: only from those can a step reach one for nothing
    by_own = spread(own) if own else 0
    while True:
        # own pegs cost nothing: close over the open steps between them
        new = entry
        grow = entry
        while grow:
            reached |= grow
            grow = spread(grow) & own & ~reached if grow & by_own else 0
            new |= grow
        layers.append(reached)
        if reached & goal:
            return layers
        if len(layers) > cap:
            return []
        entry = spread(new)
        if len(layers) == 1:
            entry |= start
        entry &= empty & ~reached
        if not entry:
            return []


@dataclass(frozen=True)
class Side:
    """One colour's connection as seen by the flood fills."""

    distance: int
    #: per layer k (1…distance): empty holes on a shortest path whose k-th peg they would be
    path_layers: tuple[int, ...]
    #: empty holes on some shortest path
    path: int

    @property
    def width(self) -> int:
        """The fewest holes any peg of a shortest path can choose from (1: a single weak
        point that one opposing peg blocks)."""
        return min((layer.bit_count() for layer in self.path_layers), default=0)

    def effective(self, narrow: float) -> float:
        """The distance, longer by `narrow` pegs when one hole is all its shortest paths
        have at some layer (a peg there cuts them all), less when they are wider; and longer
        by `WEAK` / width for every layer, so that each narrow point counts, not only the
        narrowest: a block at a distance narrows a layer ahead of a chain without
        lengthening its shortest path, and only this term sees it."""
        if self.distance >= UNREACHABLE:
            return float(UNREACHABLE)
        counts = [layer.bit_count() for layer in self.path_layers]  # once: a hot path
        width = min(counts, default=0)   # `self.width`
        weak = sum(1.0 / count for count in counts if count)
        return self.distance + (narrow / width if width else 0.0) + WEAK * weak


def side(pos: Position, colour: Colour, *, paths: bool = True, cap: int = UNREACHABLE) -> Side:
    """Measure `colour`'s distance (and, with `paths`, its shortest paths) on `pos`."""
    geo = pos.geo
    opponent = colour.opponent
    op_first, op_second = geo.border_masks[opponent]
    own = pos.peg_bits[colour]
    empty = geo.all_mask & ~pos.occupied & ~op_first & ~op_second
    spread = spreader(pos.allow[colour], geo.step_shifts)
    first, second = geo.border_masks[colour]
    forward = _layers(first, second, own, empty, spread, cap)
    if not forward:
        return Side(UNREACHABLE, (), 0)
    distance = len(forward) - 1
    if not paths or distance == 0:
        return Side(distance, (), 0)
    backward = _layers(second, first, own, empty, spread, cap)
    path_layers = []
    path = 0
    before = forward[0]
    for k in range(1, distance + 1):
        layer = forward[k] & ~before & backward[distance + 1 - k] & empty
        before = forward[k]
        path_layers.append(layer)
        path |= layer
    return Side(distance, tuple(path_layers), path)


#: how sharply a difference in distance turns into a chance of winning (`LEAF`)
SHARPNESS = LEAF.sharpness
#: what having the move is worth, in pegs (`LEAF`)
TEMPO = LEAF.tempo


def win_chance(mine: Side, theirs: Side) -> float:
    """The chance that the side to move (with `mine`) wins, from both sides' distances."""
    # both sides' narrow points count alike (with BY_MATCHES: 75% against not counting the
    # side to move's, 12x12 pp at 400 nodes): it has to spend its move there
    a, b = mine.effective(NARROW), theirs.effective(NARROW)
    if a >= UNREACHABLE and b >= UNREACHABLE:
        return 0.5
    if a >= UNREACHABLE:
        return 0.01
    if b >= UNREACHABLE:
        return 0.99
    x = SHARPNESS * (b - a + TEMPO)
    return 1.0 / (1.0 + math.exp(-x))
