"""Which core runs the search: the compiled one (twixt/engine/_core.c) when it was built, else the
search of `engine.search` in Python (the fallback), which is also the compiled core's
definition: both choose the same move for the same position, seed and node count.

`setup.py` builds the compiled core when a C compiler and Python's headers are there and goes
on without it when they are not; `TWIXT_ENGINE_CORE=python` forces the fallback (to compare
the two, or to rule the compiled core out). `engine.about` finds out which runs: `CORE`, and
`DESCRIPTION` in one line for start-up, with the reason when it is the fallback.

The compiled core gets the board's tables once per size and rule set (bitboards as
little-endian bytes, the other tables as arrays of C ints) and the position once per search;
the constants it uses come from the Python modules, so they are written down once.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

# which core runs is found out in `engine.about`, which a help text can read without this
from twixt.engine.about import CHOICE as CHOICE
from twixt.engine.about import CORE as CORE
from twixt.engine.about import DESCRIPTION as DESCRIPTION
from twixt.engine.board import Board
from twixt.engine.candidates import centre
from twixt.engine.evaluate import NARROW, SHARPNESS, TEMPO, UNREACHABLE, WEAK, Side
from twixt.engine.patterns import (
    AHEAD,
    AREAS,
    ASIDE,
    CUTS,
    DENIES,
    FAR,
    OFFSETS,
    STEPS_NEAR,
    TABLE_SIZE,
    WIDTHS,
    area_levels,
    frame,
    weights,
)
from twixt.engine.search import (
    C_PUCT,
    FIRST_PLAY_URGENCY,
    MAX_NODES,
    PV_LENGTH,
    ROOT_WIDTH,
    WIDTH,
    Search,
    SearchOutcome,
)
from twixt.rules import Colour, RuleSet
from twixt.rules.geometry import FORWARD_STEPS, OPPOSITE_STEP, geometry
from twixt.rules.position import Position

if TYPE_CHECKING:
    from twixt.engine import _core

#: the compiled core's bound on its tree: its nodes take 40 bytes and its listed moves 16
#: each (`search.NODE_BYTES`, `search.EDGE_BYTES`), in one block of this size; when the tree
#: would outgrow it, the search prunes it to half (`Search._prune`) and goes on (it is full
#: at about 1,800,000 nodes on 12×12 and 870,000 on 24×24), so that level 5 and any time
#: limit search until their time, or `search.MAX_NODES`, is used up
MAX_BYTES = 300 * 1024 * 1024
#: the colours' numbers in the compiled core
_COLOUR = {Colour.RED: 0, Colour.BLACK: 1}
_NOTHING = 0xFF


#: whether searches run compiled (the tests switch it to run every engine test on both cores)
compiled = CORE == "compiled"


def search(board: Board, colour: Colour, nodes: int | None, deadline: float | None, *,
           noise: float, rng_values: Sequence[float], max_bytes: int | None = None,
           root_scores: Sequence[float] | None = None) -> SearchOutcome:
    """Search from `board` with `colour` to move, for at most `nodes` nodes (None:
    `MAX_NODES`) and until `deadline` (a `time.perf_counter` value, or None), with the root's
    moves ranked by `root_scores` (per hole index, `engine.policy.root_scores`; None: by the
    patterns) and their priors mixed with `noise` of `rng_values`, its tree pruned to stay
    within `max_bytes` (None: the core's own bound; both cores prune alike for the same
    bound)."""
    if not compiled:
        python = Search(board, colour, noise=noise, rng_values=list(rng_values),
                        max_bytes=max_bytes, root_scores=root_scores)
        python.run(nodes, deadline)
        return python.outcome()
    return compiled_search(board, colour, nodes, deadline, noise=noise, rng_values=rng_values,
                           max_bytes=max_bytes, root_scores=root_scores)


def prepare(board: Board) -> None:
    """Build what a process's first search of this board size and rule set would build (the
    compiled core's tables and weights), so that a level's time cap, a bound for safety,
    counts the search alone and a slow first start cannot cut the level's nodes short."""
    if compiled:
        _tables(board.geo.cols, board.geo.rows, board.rules)
        _weights()
        _prior_params()


def compiled_search(board: Board, colour: Colour, nodes: int | None, deadline: float | None, *,
                    noise: float, rng_values: Sequence[float], max_bytes: int | None = None,
                    root_scores: Sequence[float] | None = None) -> SearchOutcome:
    """`search` by the compiled core (ImportError when it was not built)."""
    from twixt.engine import _core

    geo = board.geo
    pegs, links = _encoded(board.pos)
    budget = min(nodes if nodes is not None else MAX_NODES, MAX_NODES)
    params = (C_PUCT, FIRST_PLAY_URGENCY, NARROW, WEAK, SHARPNESS, TEMPO, noise, WIDTH,
              ROOT_WIDTH, UNREACHABLE, PV_LENGTH, MAX_BYTES if max_bytes is None else max_bytes)
    recent = board.recent(colour)
    # the tables and weights first (a process's first search builds them), then the time
    # left: the core counts its seconds from when it starts, and the deadline is the caller's
    tables = _tables(geo.cols, geo.rows, board.rules)
    learned, prior_params = _weights(), _prior_params()
    seconds = -1.0 if deadline is None else max(0.0, deadline - time.perf_counter())
    found = _core.search(tables, pegs, links, (recent.last, recent.own_last), _COLOUR[colour],
                         budget, seconds, list(rng_values), params, learned, prior_params,
                         None if root_scores is None else array("d", root_scores).tobytes())
    done, root_eval, terminal, moves, priors, visits, values, lines, prunes, kept = found
    return SearchOutcome(nodes=done, root_eval=root_eval, terminal=terminal, moves=tuple(moves),
                   priors=tuple(priors), visits=tuple(visits), values=tuple(values),
                   lines=tuple(tuple(line) for line in lines), prunes=prunes, kept_bytes=kept)


def compiled_side(pos: Position, colour: Colour, rules: RuleSet, *, paths: bool = True,
                  cap: int = UNREACHABLE) -> Side:
    """`engine.evaluate.side` by the compiled core (for the tests that hold the two equal)."""
    from twixt.engine import _core

    geo = pos.geo
    distance, layers, path = _core.side(_tables(geo.cols, geo.rows, rules), *_encoded(pos),
                                        _COLOUR[colour], paths, cap)
    return Side(distance, tuple(int.from_bytes(layer, "little") for layer in layers),
                int.from_bytes(path, "little"))


def _encoded(pos: Position) -> tuple[bytes, bytes]:
    """The position for the compiled core: a colour per hole and per link id (255: none)."""
    count = len(pos.peg_colour)
    pegs = bytearray([_NOTHING]) * count
    for index, owner in enumerate(pos.peg_colour):
        if owner is not None:
            pegs[index] = _COLOUR[owner]
    links = bytearray([_NOTHING]) * (4 * count)
    for lid, owner in pos.links.items():
        links[lid] = _COLOUR[owner]
    return bytes(pegs), bytes(links)


@lru_cache(maxsize=1)
def _prior_params() -> _core.PriorParams:
    """`engine.patterns`' constants for the compiled core: how far offsets count, the size of
    the table of weights, the knight's steps counted to the nearest peg, the columns ahead of
    and rows aside of an opponent's chain end that count, where each feature's levels start,
    the path-width buckets, the most `cut`, `denies` and area levels, and the shipped area
    shapes (`area_slots`); the core refuses other numbers of features, buckets or steps than
    it was written for."""
    return (FAR, TABLE_SIZE, STEPS_NEAR, AHEAD, ASIDE, OFFSETS, WIDTHS, CUTS, DENIES, AREAS,
            area_slots(area_levels()))


#: the area hash's multiplier (Fibonacci hashing; the compiled core's area_level uses it)
_AREA_HASH = 0x9E3779B97F4A7C15


def area_slots(levels: dict[int, int]) -> bytes:
    """`levels` (area code -> level) as the compiled core looks them up: an open-addressed
    hash of a power of two of slots, at most half of them used, probed upwards from the
    code's Fibonacci hash; the slots' codes (-1: empty), then their levels, as 64-bit ints."""
    bits = max(1, (2 * len(levels)).bit_length())
    size = 1 << bits
    keys = array("q", [-1]) * size
    found = array("q", [0]) * size
    for key, level in sorted(levels.items()):
        at = ((key * _AREA_HASH) & 0xFFFFFFFFFFFFFFFF) >> (64 - bits)
        while keys[at] >= 0:
            at = (at + 1) & (size - 1)
        keys[at], found[at] = key, level
    return keys.tobytes() + found.tobytes()


@lru_cache(maxsize=1)
def _weights() -> bytes:
    """The learned weights as the compiled core reads them (doubles, about 3 MB)."""
    return weights().tobytes()


@lru_cache(maxsize=8)
def _tables(cols: int, rows: int, rules: RuleSet) -> _core.Tables:
    """The compiled core's tables of one board size and rule set (about 0.6 MB on 48×48)."""
    from twixt.engine import _core

    geo = geometry(cols, rows)
    count = cols * rows
    width = (count + 63) // 64 * 8
    red, black = geo.border_masks[Colour.RED], geo.border_masks[Colour.BLACK]
    masks = (geo.all_mask, *red, *black, geo.placeable[Colour.RED],
             geo.placeable[Colour.BLACK], *geo.step_masks, centre(cols, rows))
    neighbours = array("i", [-1]) * (16 * count)
    for index, row in enumerate(geo.neighbours):
        for j, (neighbour, lid, _step) in enumerate(row):
            neighbours[16 * index + 2 * j] = neighbour
            neighbours[16 * index + 2 * j + 1] = lid
    # per link id: lower end, then upper ends, forward steps and their opposites
    ends = array("i", [-1]) * (16 * count)
    for lid, pair in enumerate(geo.link_ends):
        if pair is not None:
            step = FORWARD_STEPS[lid & 3]
            for part, value in enumerate((*pair, step, OPPOSITE_STEP[step])):
                ends[part * 4 * count + lid] = value
    crossings = array("i", [-1]) * (36 * count)
    for lid, crossed in enumerate(geo.crossings):
        crossings[9 * lid: 9 * lid + len(crossed)] = array("i", crossed)
    # per colour: the ring's neighbours, their link ids, the square's and the outer square's
    # neighbours, then each hole's along and across
    frames = array("i")
    for colour in (Colour.RED, Colour.BLACK):
        seen = frame(geo, colour)
        frames.extend(neighbour for ring in seen.ring for neighbour, _lid in ring)
        frames.extend(lid for ring in seen.ring for _neighbour, lid in ring)
        frames.extend(neighbour for square in seen.square for neighbour in square)
        frames.extend(neighbour for outer in seen.outer for neighbour in outer)
        frames.extend(seen.along)
        frames.extend(seen.across)
    return _core.tables(
        cols, rows, rules is RuleSet.CLASSIC,
        b"".join(bits.to_bytes(width, "little") for bits in masks),
        array("i", geo.step_shifts).tobytes(), neighbours.tobytes(), ends.tobytes(),
        crossings.tobytes(), frames.tobytes())
