"""What a hole looks like to the side that may play it: the features of the learned priors.

Each empty hole is described by a few *features*, each with a small number of *levels*, seen
from the side to move as if it were Red (it joins the top and bottom rows; for Black the
board is read transposed, so one table serves both colours):

- `ring`: the eight holes a knight's step away, each empty, an own peg the new peg could
  link to, an own peg a standing link keeps it from, an opponent's peg, or off the board
  (or in the opponent's border rows); 5**8 codes, one weight per shape up to the board's
  mirror images (left-right, top-bottom);
- `last`, `own_last`: how far (rows, columns; up to 6 each) the hole is from the opponent's
  last peg and from the side's own last peg;
- `edge`: how far it is from the side's nearer border row and from the nearer side column;
- `mine`, `theirs`: whether it lies on the side's (the opponent's) shortest paths, and how
  narrow the layer of those paths is there (a hole every path passes through, or one of 20).

The weights are learned from real games (`benchmarks/train_priors.py`, Coulom's
Bradley–Terry model fitted by minorization–maximization) and shipped in
`twixt/engine/data/priors.json`; a hole's strength is the product of its levels' weights,
added here as logarithms, and `engine.candidates` turns strengths into priors. The compiled
core computes the same levels and adds the same logarithms in the same order
(`features_index` below is the order of the table it is given).
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from twixt.engine.evaluate import Side
from twixt.rules import Colour, RuleSet
from twixt.rules.geometry import KNIGHT_STEPS, Geometry, geometry
from twixt.rules.position import Position

#: the ring's holes as (across, along) offsets, for the side seen as Red: (columns, rows)
RING = KNIGHT_STEPS
#: a ring hole's states
EMPTY, LINKABLE, CUT_OFF, THEIRS, OFF = range(5)
STATES = 5
RING_CODES = STATES ** len(RING)
#: offsets to a recent peg and from the borders are counted up to this
FAR = 6
SPAN = FAR + 1
#: the level of `last` / `own_last` when there is no such peg
NO_PEG = SPAN * SPAN
#: upper bounds of the path-width buckets (0: not on a shortest path)
WIDTHS = (1, 2, 3, 4, 6, 10, 20)

#: the features in the order their logarithms are added, with their number of levels
FEATURES: tuple[tuple[str, int], ...] = (
    ("ring", RING_CODES),
    ("last", NO_PEG + 1),
    ("own_last", NO_PEG + 1),
    ("edge", SPAN * SPAN),
    ("mine", len(WIDTHS) + 2),
    ("theirs", len(WIDTHS) + 2),
)
#: where each feature's levels start in the flat table of logarithms
OFFSETS: tuple[int, ...] = tuple(sum(size for _name, size in FEATURES[:i])
                                 for i in range(len(FEATURES)))
TABLE_SIZE = sum(size for _name, size in FEATURES)


def width_level(width: int) -> int:
    """The bucket of a shortest-path layer of `width` holes (0: not on a shortest path)."""
    if not width:
        return 0
    for level, bound in enumerate(WIDTHS, start=1):
        if width <= bound:
            return level
    return len(WIDTHS) + 1


def _mirrored(code: int, across: bool, along: bool) -> int:
    """A ring code read in a mirror (left-right: `across`, top-bottom: `along`)."""
    states = [(code // STATES ** i) % STATES for i in range(len(RING))]
    out = 0
    for i, (dx, da) in enumerate(RING):
        j = RING.index((-dx if across else dx, -da if along else da))
        out += states[i] * STATES ** j
    return out


def canonical(code: int) -> int:
    """The smallest code among a ring code's mirror images (one weight serves them all)."""
    return min(_mirrored(code, across, along) for across in (False, True)
               for along in (False, True))


@dataclass(frozen=True)
class Frame:
    """A board seen from one colour as Red: per hole its (across, along) coordinates and,
    per ring position, the neighbour's index and link id (-1: off the board)."""

    across: tuple[int, ...]
    along: tuple[int, ...]
    across_size: int
    along_size: int
    ring: tuple[tuple[tuple[int, int], ...], ...]
    #: holes the colour may not place in (the opponent's border rows)
    barred: int


def frame(geo: Geometry, colour: Colour) -> Frame:
    """`geo` seen from `colour` as Red (Black's board transposed)."""
    return _frame(geo.cols, geo.rows, colour)


@cache
def _frame(cols: int, rows: int, colour: Colour) -> Frame:
    geo = geometry(cols, rows)
    red = colour is Colour.RED
    count = geo.cols * geo.rows
    across = tuple((i % geo.cols) if red else (i // geo.cols) for i in range(count))
    along = tuple((i // geo.cols) if red else (i % geo.cols) for i in range(count))
    slot_of_step = {step: RING.index((dc, dr) if red else (dr, dc))
                    for step, (dc, dr) in enumerate(KNIGHT_STEPS)}
    ring = []
    for index in range(count):
        slots = [(-1, -1)] * len(RING)
        for neighbour, lid, step in geo.neighbours[index]:
            slots[slot_of_step[step]] = (neighbour, lid)
        ring.append(tuple(slots))
    return Frame(across, along, geo.cols if red else geo.rows, geo.rows if red else geo.cols,
                 tuple(ring), geo.all_mask & ~geo.placeable[colour])


def ring_code(pos: Position, rules: RuleSet, colour: Colour, seen: Frame, hole: int) -> int:
    """The ring around `hole` for `colour` (see the module's docstring)."""
    peg_colour = pos.peg_colour
    mine, theirs = pos.cross_count[colour], pos.cross_count[colour.opponent]
    own_blocks = rules is RuleSet.CLASSIC
    barred = seen.barred
    code = 0
    scale = 1
    for neighbour, lid in seen.ring[hole]:
        if neighbour < 0:
            state = OFF
        else:
            owner = peg_colour[neighbour]
            if owner is None:
                state = OFF if (barred >> neighbour) & 1 else EMPTY
            elif owner is not colour:
                state = THEIRS
            elif theirs[lid] or (own_blocks and mine[lid]):
                state = CUT_OFF
            else:
                state = LINKABLE
        code += state * scale
        scale *= STATES
    return code


def offset_level(seen: Frame, hole: int, peg: int) -> int:
    """How far `hole` is from `peg` (rows and columns, up to `FAR`), or `NO_PEG`."""
    if peg < 0:
        return NO_PEG
    rows = min(abs(seen.along[hole] - seen.along[peg]), FAR)
    cols = min(abs(seen.across[hole] - seen.across[peg]), FAR)
    return rows * SPAN + cols


def edge_level(seen: Frame, hole: int) -> int:
    """How far `hole` is from the nearer own border row and the nearer side column."""
    along, across = seen.along[hole], seen.across[hole]
    rows = min(along, seen.along_size - 1 - along, FAR)
    cols = min(across, seen.across_size - 1 - across, FAR)
    return rows * SPAN + cols


def widths(side: Side, pool: int) -> dict[int, int]:
    """Per hole of `pool` on `side`'s shortest paths: the number of holes of its layer."""
    found: dict[int, int] = {}
    for layer in side.path_layers:
        inside = layer & pool
        if not inside:
            continue
        width = layer.bit_count()
        while inside:
            low = inside & -inside
            inside ^= low
            found[low.bit_length() - 1] = width
    return found


@dataclass(frozen=True)
class Recent:
    """The opponent's last peg and the side's own last peg (-1: none), the `last` and
    `own_last` features' reference points."""

    last: int = -1
    own_last: int = -1


def levels(pos: Position, rules: RuleSet, colour: Colour, seen: Frame, recent: Recent,
           hole: int, mine_width: int, theirs_width: int) -> tuple[int, ...]:
    """The level of each feature (`FEATURES`' order) of `hole` for `colour`."""
    return (ring_code(pos, rules, colour, seen, hole), offset_level(seen, hole, recent.last),
            offset_level(seen, hole, recent.own_last), edge_level(seen, hole),
            width_level(mine_width), width_level(theirs_width))


def strength(table: array[float], found: tuple[int, ...]) -> float:
    """The logarithm of a hole's strength: its levels' logarithms added in `FEATURES`'
    order (the compiled core adds them in the same order, so the sums agree to the bit)."""
    total = 0.0
    for offset, level in zip(OFFSETS, found, strict=True):
        total += table[offset + level]
    return total


DATA = "priors.json"


@cache
def weights() -> array[float]:
    """The shipped weights as one flat table of natural logarithms (`OFFSETS` says where each
    feature's levels are; every ring code has the weight of its canonical shape)."""
    return table_from(json.loads(resources.files("twixt.engine").joinpath("data", DATA)
                                 .read_text(encoding="utf-8")))


def table_from(data: dict[str, Any]) -> array[float]:
    """The flat table of logarithms from the data file's contents (levels it does not name
    weigh 1: a logarithm of 0)."""
    table = array("d", bytes(8 * TABLE_SIZE))
    learned = data["features"]
    for (name, size), offset in zip(FEATURES, OFFSETS, strict=True):
        if name == "ring":
            # each learned shape weighs the same in all its mirror images
            for code, value in learned["ring"].items():
                for across in (False, True):
                    for along in (False, True):
                        table[offset + _mirrored(int(code), across, along)] = value
        else:
            values = learned[name]
            if len(values) != size:
                raise ValueError(f"{DATA}: {name} has {len(values)} levels, not {size}")
            for level, value in enumerate(values):
                table[offset + level] = value
    return table
