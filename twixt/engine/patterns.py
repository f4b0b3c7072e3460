"""What a hole looks like to the side that may play it: the features of the learned priors.

Each empty hole is described by a few *features*, each with a small number of *levels*, seen
from the side to move as if it were Red (it joins the top and bottom rows; for Black the
board is read transposed, so one table serves both colours):

- `ring`: the eight holes a knight's step away, each empty, an own peg the new peg could
  link to, an own peg a standing link keeps it from, an opponent's peg, or off the board
  (or in the opponent's border rows); 5**8 codes, one weight per shape up to the board's
  mirror images (left-right, top-bottom);
- `square`: the eight holes around it (the 3×3 square), each empty, an own peg, an
  opponent's peg or off the board; 4**8 codes, one weight per shape up to the mirror images;
- `outer`: the same for the eight holes two rows or columns (or both) away: where a peg
  would make a mesh (one hole between two pegs) with it;
- `last`, `own_last`: where the hole is from the opponent's last peg and from the side's own
  last peg, in rows and columns (up to 6 each way), counted outwards (towards the peg's
  nearer border and side) or inwards;
- `near`: within how many knight's steps (1, 2, 3, or further) the nearest own peg and the
  nearest opponent's peg are;
- `chain`: how many of the side's chains (pegs joined by links) the new peg would link to
  (none, one, two or more), and whether it would lengthen one of them towards a border row;
- `ahead`: whether it lies in front of an end of an opponent's chain (1 to 6 columns beyond
  its outermost peg, towards the border the chain runs to, at most 2 rows aside), and where,
  the chain of the opponent's last peg apart from the others;
- `edge`: how far it is from the side's nearer border row and from the nearer side column;
- `mine`, `theirs`: whether it lies on the side's (the opponent's) shortest paths, and how
  narrow the layer of those paths is there (a hole every path passes through, or one of 20);
- `area`: the ring, the square and the outer square together (the 5×5 holes around it, with
  the ring's links): one weight for each such area shape up to the mirror images that people
  played at least a few times in the training games (`area_key`; any other shape: level 0);
- `cut`: how many of the opponent's possible links (from one of its pegs to another or to an
  empty hole it may play, not yet blocked) the new peg's links would cross, up to 4;
- `denies`: how many of the opponent's pegs a knight's step away the opponent could link to
  from the hole (the links the new peg takes from it), up to 3.

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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from operator import mul
from typing import Any

from twixt.engine.evaluate import Side, spreader
from twixt.rules import Colour, RuleSet
from twixt.rules.geometry import KNIGHT_STEPS, Geometry, geometry
from twixt.rules.position import Position

#: the ring's holes as (across, along) offsets, for the side seen as Red: (columns, rows)
RING = KNIGHT_STEPS
#: a ring hole's states
EMPTY, LINKABLE, CUT_OFF, THEIRS, OFF = range(5)
STATES = 5
RING_CODES = STATES ** len(RING)
#: the square's holes as (across, along) offsets, and their states
SQUARE = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
SQUARE_EMPTY, SQUARE_MINE, SQUARE_THEIRS, SQUARE_OFF = range(4)
SQUARE_STATES = 4
SQUARE_CODES: int = SQUARE_STATES ** len(SQUARE)
#: the outer square's holes (two away), with the square's states
OUTER = tuple((2 * dx, 2 * da) for dx, da in SQUARE)
#: offsets to a recent peg and from the borders are counted up to this
FAR = 6
SPAN = FAR + 1
#: a signed offset's levels: -FAR..FAR
SIGNED = 2 * FAR + 1
#: the level of `last` / `own_last` when there is no such peg
NO_PEG = SIGNED * SIGNED
#: knight's steps counted to the nearest peg (further: the next level)
STEPS_NEAR = 3
#: upper bounds of the path-width buckets (0: not on a shortest path)
WIDTHS = (1, 2, 3, 4, 6, 10, 20)
#: `ahead`: columns beyond an opponent's chain end, and rows aside, that count
AHEAD = 6
ASIDE = 2
#: `cut` and `denies` count up to these
CUTS = 4
DENIES = 3
#: the most area shapes the data file may name (their levels are 1.., any other shape's 0)
AREAS = 1023

#: the features in the order their logarithms are added, with their number of levels
FEATURES: tuple[tuple[str, int], ...] = (
    ("ring", RING_CODES),
    ("square", SQUARE_CODES),
    ("outer", SQUARE_CODES),
    ("last", NO_PEG + 1),
    ("own_last", NO_PEG + 1),
    ("near", (STEPS_NEAR + 1) ** 2),
    ("chain", 5),
    ("ahead", 2 * AHEAD * (ASIDE + 1) + 1),
    ("edge", SPAN * SPAN),
    ("mine", len(WIDTHS) + 2),
    ("theirs", len(WIDTHS) + 2),
    ("area", AREAS + 1),
    ("cut", CUTS + 1),
    ("denies", DENIES + 1),
)
#: the features whose levels are shapes, weighed alike in mirror images
SHAPES = {"ring": (RING, STATES), "square": (SQUARE, SQUARE_STATES),
          "outer": (OUTER, SQUARE_STATES)}
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


#: the board's mirrors: (left-right, top-bottom), the board itself first
_MIRRORS = ((False, False), (False, True), (True, False), (True, True))


def _images(shape: str, code: int) -> list[int]:
    """A shape's code read in each of the board's mirrors (`_MIRRORS`' order, itself first).
    Its states are read once for all four: the weights' table is built from thousands of
    codes at each start."""
    offsets, base = SHAPES[shape]
    states = []
    for _offset in offsets:
        code, state = divmod(code, base)
        states.append(state)
    return [sum(map(mul, states, powers)) for powers in _mirror_powers(shape)]


@cache
def _mirror_powers(shape: str) -> tuple[tuple[int, ...], ...]:
    """Per mirror (`_MIRRORS`) and position of a shape, the place value in the mirrored code
    of the state found there (worked out once)."""
    offsets, base = SHAPES[shape]
    return tuple(tuple(base ** offsets.index((-dx if across else dx, -da if along else da))
                       for dx, da in offsets) for across, along in _MIRRORS)


def canonical(shape: str, code: int) -> int:
    """The smallest code among a shape's mirror images (one weight serves them all)."""
    return min(_images(shape, code))


def area_key(ring: int, square: int, outer: int) -> int:
    """An area's code from its ring's, square's and outer square's codes."""
    return (ring * SQUARE_CODES + square) * SQUARE_CODES + outer


def area_images(key: int) -> set[int]:
    """An area's code in each of the board's mirrors (itself included)."""
    ring, rest = divmod(key, SQUARE_CODES * SQUARE_CODES)
    square, outer = divmod(rest, SQUARE_CODES)
    return {area_key(*mirrored) for mirrored in zip(_images("ring", ring),
                                                   _images("square", square),
                                                   _images("outer", outer), strict=True)}


@dataclass(frozen=True, eq=False)
class Frame:
    """A board seen from one colour as Red: per hole its (across, along) coordinates and,
    per ring position, the neighbour's index and link id (-1: off the board)."""

    across: tuple[int, ...]
    along: tuple[int, ...]
    across_size: int
    along_size: int
    ring: tuple[tuple[tuple[int, int], ...], ...]
    #: per hole and square (outer square) position, the neighbour's index (-1: off the board)
    square: tuple[tuple[int, ...], ...]
    outer: tuple[tuple[int, ...], ...]
    #: per hole, and once more at the end for the index -1 (off the board): its square state
    #: on the empty board (`SQUARE_OFF` where the colour may not place: the opponent's
    #: border rows), what `Scene.cells` starts from
    empty: tuple[int, ...]
    #: per hole: its ring's code with no peg a knight's step away (`OFF` where the ring's hole
    #: is off the board or in the opponent's border rows, else `EMPTY`)
    empty_ring: tuple[int, ...]
    #: per hole: whether the opponent may place there (not in the colour's border rows)
    opponent_placeable: tuple[bool, ...]
    #: per hole: its `edge` level (how far from the nearer own border row and side column)
    edge: tuple[int, ...]
    #: per (across, along): the hole's index (along * across_size + across)
    holes: tuple[int, ...]

    def index(self, across: int, along: int) -> int:
        """The index of the hole at (`across`, `along`) (both on the board)."""
        return self.holes[along * self.across_size + across]


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

    def around(index: int, offsets: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        c, r = index % cols, index // cols
        found = []
        for dx, da in offsets:
            dc, dr = (dx, da) if red else (da, dx)
            there = (r + dr) * cols + c + dc
            inside = 0 <= c + dc < cols and 0 <= r + dr < rows and geo.on_board[there]
            found.append(there if inside else -1)
        return tuple(found)

    along_size, across_size = (rows, cols) if red else (cols, rows)
    edge = tuple(min(along[i], along_size - 1 - along[i], FAR) * SPAN
                 + min(across[i], across_size - 1 - across[i], FAR) for i in range(count))
    empty = (*(SQUARE_EMPTY if (geo.placeable[colour] >> i) & 1 else SQUARE_OFF
               for i in range(count)), SQUARE_OFF)
    empty_ring = tuple(sum((EMPTY if empty[neighbour] == SQUARE_EMPTY else OFF) * STATES ** slot
                           for slot, (neighbour, _lid) in enumerate(slots)) for slots in ring)
    opponent_placeable = tuple(bool((geo.placeable[colour.opponent] >> i) & 1)
                               for i in range(count))
    holes = [0] * count
    for i in range(count):
        holes[along[i] * across_size + across[i]] = i
    return Frame(across, along, across_size, along_size, tuple(ring),
                 tuple(around(i, SQUARE) for i in range(count)),
                 tuple(around(i, OUTER) for i in range(count)), empty, empty_ring,
                 opponent_placeable, edge, tuple(holes))


def _outwards(position: int, size: int, offset: int) -> int:
    """`offset` from `position` counted positive towards the nearer end of `size` (from the
    middle, either way: positive), within -FAR..FAR, as a level 0..2 FAR."""
    if 2 * position < size - 1:
        offset = -offset
    elif 2 * position == size - 1:
        offset = abs(offset)
    return min(max(offset, -FAR), FAR) + FAR


@cache
def _axis(size: int, position: int, scale: int) -> tuple[int, ...]:
    """Per coordinate 0..`size` - 1: its `_outwards` level from a peg at `position`, times
    `scale` (a peg's rows and its columns are two such tables: `offset_tables`)."""
    return tuple(_outwards(position, size, there - position) * scale for there in range(size))


def offset_tables(seen: Frame, peg: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per row (along) and per column (across): its part of the `last` (`own_last`) level of
    a hole there, where the hole is from `peg` in rows and columns, outwards or inwards (the
    level is the row's part plus the column's; `NO_PEG` everywhere when `peg` is -1)."""
    if peg < 0:
        return (NO_PEG,) * seen.along_size, (0,) * seen.across_size
    return (_axis(seen.along_size, seen.along[peg], SIGNED),
            _axis(seen.across_size, seen.across[peg], 1))


def path_levels(side: Side, pool: int) -> dict[int, int]:
    """Per hole of `pool` on `side`'s shortest paths: the `width_level` of its layer."""
    found: dict[int, int] = {}
    for layer in side.path_layers:
        inside = layer & pool
        if not inside:
            continue
        level = width_level(layer.bit_count())
        while inside:
            low = inside & -inside
            inside ^= low
            found[low.bit_length() - 1] = level
    return found


@dataclass(frozen=True)
class Recent:
    """The opponent's last peg and the side's own last peg (-1: none), the `last` and
    `own_last` features' reference points."""

    last: int = -1
    own_last: int = -1


def reach(spread: Callable[[int], int], pegs: int) -> tuple[int, ...]:
    """The holes within 1, 2, … `STEPS_NEAR` knight's steps of `pegs` (`spread`: one step)."""
    found = []
    bits = pegs
    for _step in range(STEPS_NEAR):
        bits |= spread(bits)
        found.append(bits)
    return tuple(found)


#: hexadecimal digit -> the `near` level 15 - digit (`near_levels`)
_NEAR_OF_DIGIT = str.maketrans("0123456789abcdef", "".join(chr(15 - v) for v in range(16)))


def near_levels(mine: tuple[int, ...], theirs: tuple[int, ...], count: int) -> bytes:
    """Per hole of `count`: its `near` level from the side's and the opponent's `reach`. A
    hole's level is `STEPS_NEAR` * (`STEPS_NEAR` + 2) (15) less (`STEPS_NEAR` + 1) times the
    number of the side's reach bitboards holding it and the number of the opponent's: read
    as hexadecimal, a bitboard's binary digits put each hole in a digit of its own, so the
    bitboards are added in a few operations on whole numbers for all holes at once."""
    digits = 0
    for bits in mine:
        digits += (STEPS_NEAR + 1) * int(format(bits, "b"), 16)
    for bits in theirs:
        digits += int(format(bits, "b"), 16)
    return format(digits, f"0{count}x")[::-1].translate(_NEAR_OF_DIGIT).encode("latin-1")


@dataclass(frozen=True, eq=False)
class Scene:
    """What one node's holes are scored against, worked out once for all of them (so each
    hole's levels are a few table look-ups): the position seen from the side to move
    (`Frame`), each hole's state, the last two pegs' offset tables, the knight's-step reach of
    each colour's pegs (`reach`), and per hole the width level of its layer of each side's
    shortest paths (`path_levels`). It reads the position's link crossings as they stand:
    it serves until the next peg or link is placed or taken away."""

    seen: Frame
    #: per hole, then the index -1 (off the board, last): `SQUARE_EMPTY` (the side may place
    #: there), `SQUARE_MINE`, `SQUARE_THEIRS` or `SQUARE_OFF`, the square's states
    cells: list[int]
    #: per link id: how many of the side's (the opponent's) standing links cross it
    mine_crossed: list[int]
    theirs_crossed: list[int]
    #: whether a side's own links block its links too (classic rules), not only the other's
    own_blocks: bool
    #: per link id: 1 where the opponent may still link (from one of its pegs to another or
    #: to an empty hole it may play, not blocked), the links `cut` counts
    open_theirs: bytearray
    #: per link id: the link ids it crosses (`Geometry.crossings`)
    crossings: tuple[tuple[int, ...], ...]
    #: `offset_tables` of the opponent's last peg and of the side's own last peg
    last: tuple[tuple[int, ...], tuple[int, ...]]
    own_last: tuple[tuple[int, ...], tuple[int, ...]]
    #: per hole: its `near` level (`near_levels`)
    near: bytes
    mine_paths: dict[int, int]
    theirs_paths: dict[int, int]
    #: per own peg: its chain's number, lowest and highest row (along)
    mine_rows: dict[int, tuple[int, int, int]]
    #: per hole in front of an opponent's chain end: its `ahead` level
    ahead: dict[int, int]
    #: per area code (`area_key`, every mirror image): its `area` level (others: 0)
    areas: Mapping[int, int]


def scene(pos: Position, rules: RuleSet, colour: Colour, recent: Recent, mine: Side,
          theirs: Side, holes: int, areas: Mapping[int, int] | None = None) -> Scene:
    """The `Scene` of a node where `colour` (with `mine`) moves, for scoring `holes`; `areas`:
    the shipped area shapes (`area_levels`) unless given."""
    geo = pos.geo
    seen = frame(geo, colour)
    opponent = colour.opponent
    own_blocks = rules is RuleSet.CLASSIC
    mine_crossed, theirs_crossed = pos.cross_count[colour], pos.cross_count[opponent]
    cells = list(seen.empty)
    for peg in bit_indices(pos.peg_bits[colour]):
        cells[peg] = SQUARE_MINE
    open_theirs = bytearray(len(geo.link_ends))
    opponent_place, peg_colour, links = geo.placeable[opponent], pos.peg_colour, pos.links
    for peg in bit_indices(pos.peg_bits[opponent]):
        cells[peg] = SQUARE_THEIRS
        for neighbour, lid, _step in geo.neighbours[peg]:
            owner = peg_colour[neighbour]
            if ((owner is opponent or (owner is None and (opponent_place >> neighbour) & 1))
                    and lid not in links and not mine_crossed[lid]
                    and not (own_blocks and theirs_crossed[lid])):
                open_theirs[lid] = 1
    step = spreader(list(geo.step_masks), geo.step_shifts)
    return Scene(seen, cells, mine_crossed, theirs_crossed, own_blocks, open_theirs,
                 geo.crossings, offset_tables(seen, recent.last),
                 offset_tables(seen, recent.own_last), near_levels(
                     reach(step, pos.peg_bits[colour]), reach(step, pos.peg_bits[opponent]),
                     len(peg_colour)), path_levels(mine, holes),
                 path_levels(theirs, holes), chain_rows(seen, chains(pos, colour)),
                 ahead_levels(seen, chains(pos, opponent), recent.last),
                 area_levels() if areas is None else areas)


def bit_indices(bits: int) -> list[int]:
    """The indices of the set bits of `bits`, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def chains(pos: Position, colour: Colour) -> list[list[int]]:
    """`colour`'s pegs in chains (joined by its standing links), each chain lowest hole
    first, the chains in the order of their lowest holes."""
    neighbours, links, peg_colour = pos.geo.neighbours, pos.links, pos.peg_colour
    seen: set[int] = set()
    found = []
    bits = pos.peg_bits[colour]
    while bits:
        low = bits & -bits
        bits ^= low
        start = low.bit_length() - 1
        if start in seen:
            continue
        seen.add(start)
        members = [start]
        todo = [start]
        while todo:
            here = todo.pop()
            for neighbour, lid, _step in neighbours[here]:
                if (neighbour not in seen and peg_colour[neighbour] is colour
                        and links.get(lid) is colour):
                    seen.add(neighbour)
                    members.append(neighbour)
                    todo.append(neighbour)
        found.append(sorted(members))
    return found


def chain_rows(seen: Frame, own: list[list[int]]) -> dict[int, tuple[int, int, int]]:
    """Per peg of the side's chains `own`: its chain's number, lowest and highest row."""
    out = {}
    for number, members in enumerate(own):
        rows = [seen.along[peg] for peg in members]
        extent = (number, min(rows), max(rows))
        for peg in members:
            out[peg] = extent
    return out


def ahead_levels(seen: Frame, theirs: list[list[int]], last: int) -> dict[int, int]:
    """Per hole in front of an end of one of the opponent's chains `theirs` (which run
    across): the best (lowest) `ahead` level (`ahead_cells`), counted after all those of the
    chain holding the opponent's `last` peg for the other chains."""
    out: dict[int, int] = {}
    across = seen.across
    for members in theirs:
        beyond_last = 0 if last in members else AHEAD * (ASIDE + 1)
        columns = [across[peg] for peg in members]
        low, high = min(columns), max(columns)
        for peg in members:
            for direction, end in ((-1, low), (1, high)):
                if across[peg] != end:
                    continue
                for hole, level in ahead_cells(seen, peg, direction):
                    level += beyond_last
                    if level < out.get(hole, level + 1):
                        out[hole] = level
    return out


@cache
def ahead_cells(seen: Frame, peg: int, direction: int) -> tuple[tuple[int, int], ...]:
    """The holes 1 to `AHEAD` columns beyond `peg` in `direction` (-1, 1) and at most `ASIDE`
    rows aside, each with its `ahead` level: 1 + (columns beyond - 1) * (ASIDE + 1) + rows
    aside."""
    found = []
    for beyond in range(1, AHEAD + 1):
        across = seen.across[peg] + direction * beyond
        if not 0 <= across < seen.across_size:
            break
        for aside in range(-ASIDE, ASIDE + 1):
            along = seen.along[peg] + aside
            if 0 <= along < seen.along_size:
                found.append((seen.index(across, along),
                              1 + (beyond - 1) * (ASIDE + 1) + abs(aside)))
    return tuple(found)


def levels_of(scene: Scene, holes: Iterable[int]) -> Iterator[tuple[int, ...]]:
    """The level of each feature (`FEATURES`' order) of each of `holes` (holes the side may
    play) in `scene`. One pass per hole over its ring, its square and its outer square, read
    from the scene's `cells` (as the compiled core does): the ring's own pegs give `chain` and
    `cut`, its opponent's pegs `denies`."""
    seen = scene.seen
    rings, squares, outers, along, across = (seen.ring, seen.square, seen.outer, seen.along,
                                             seen.across)
    edges, opponent_placeable, empty_rings = seen.edge, seen.opponent_placeable, seen.empty_ring
    cells, mine, theirs, own_blocks = (scene.cells, scene.mine_crossed, scene.theirs_crossed,
                                       scene.own_blocks)
    open_theirs, crossings, mine_rows = scene.open_theirs, scene.crossings, scene.mine_rows
    (last_rows, last_cols), (own_rows, own_cols) = scene.last, scene.own_last
    nears = scene.near
    mine_paths, theirs_paths = scene.mine_paths, scene.theirs_paths
    ahead, areas = scene.ahead, scene.areas
    for hole in holes:
        near = nears[hole]
        mine_steps, theirs_steps = divmod(near, STEPS_NEAR + 1)
        ring = chain = cut = denies = 0
        if not (mine_steps and theirs_steps):   # a peg a knight's step away
            scale = 1
            extents = set()
            for neighbour, lid in rings[hole]:
                cell = cells[neighbour]
                if cell == SQUARE_OFF:
                    ring += OFF * scale
                elif cell == SQUARE_THEIRS:
                    ring += THEIRS * scale
                    if not (mine[lid] or (own_blocks and theirs[lid])):
                        denies += 1
                elif cell == SQUARE_MINE:
                    if theirs[lid] or (own_blocks and mine[lid]):
                        ring += CUT_OFF * scale
                    else:
                        ring += LINKABLE * scale
                        for crossing in crossings[lid]:
                            cut += open_theirs[crossing]
                        extents.add(mine_rows[neighbour])
                scale *= STATES
            if extents:   # `chain`: 1, 2 one chain (inside, beyond its rows); 3, 4 two or more
                row = along[hole]
                longer = any(row < low or row > high for _number, low, high in extents)
                chain = (1 if len(extents) == 1 else 3) + longer
        else:
            ring = empty_rings[hole]
        a, b, c, d, e, f, g, h = squares[hole]   # two bits a state (SQUARE_STATES: 4)
        square = (cells[a] | cells[b] << 2 | cells[c] << 4 | cells[d] << 6 | cells[e] << 8
                  | cells[f] << 10 | cells[g] << 12 | cells[h] << 14)
        a, b, c, d, e, f, g, h = outers[hole]
        outer = (cells[a] | cells[b] << 2 | cells[c] << 4 | cells[d] << 6 | cells[e] << 8
                 | cells[f] << 10 | cells[g] << 12 | cells[h] << 14)
        row, column = along[hole], across[hole]
        yield (ring, square, outer, last_rows[row] + last_cols[column],
               own_rows[row] + own_cols[column], near,
               chain, ahead.get(hole, 0), edges[hole], mine_paths.get(hole, 0),
               theirs_paths.get(hole, 0), areas.get(area_key(ring, square, outer), 0),
               min(cut, CUTS), min(denies, DENIES) if opponent_placeable[hole] else 0)


def strength(tables: tuple[list[float], ...], found: tuple[int, ...]) -> float:
    """The logarithm of a hole's strength: its levels' logarithms (`feature_weights`) added
    one by one from 0.0 in `FEATURES`' order (the compiled core adds them in the same order,
    so the sums agree to the bit). Written out feature by feature: a loop would cost more
    than the look-ups."""
    t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13 = tables
    f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13 = found
    return (0.0 + t0[f0] + t1[f1] + t2[f2] + t3[f3] + t4[f4] + t5[f5] + t6[f6] + t7[f7]
            + t8[f8] + t9[f9] + t10[f10] + t11[f11] + t12[f12] + t13[f13])


DATA = "priors.json"


@cache
def _shipped() -> dict[str, Any]:
    """The data file's contents."""
    data: dict[str, Any] = json.loads(resources.files("twixt.engine").joinpath("data", DATA)
                                      .read_text(encoding="utf-8"))
    return data


@cache
def weights() -> array[float]:
    """The shipped weights as one flat table of natural logarithms (`OFFSETS` says where each
    feature's levels are; every ring code has the weight of its canonical shape)."""
    return table_from(_shipped())


@cache
def feature_weights() -> tuple[list[float], ...]:
    """`weights` cut into one list per feature (`strength` reads them: a list's items are
    read faster than an array's)."""
    table = weights()
    return tuple(table[offset:offset + size].tolist()
                 for offset, (_name, size) in zip(OFFSETS, FEATURES, strict=True))


@cache
def area_levels() -> dict[int, int]:
    """The shipped area shapes: per area code, in every mirror image, its `area` level."""
    return areas_from(_shipped())


def areas_from(data: dict[str, Any]) -> dict[int, int]:
    """Per area code of the data file's shapes (and their mirror images): its level, the
    shapes numbered from 1 in the file's order."""
    shapes = data["features"]["area"]
    if len(shapes) > AREAS:
        raise ValueError(f"{DATA}: {len(shapes)} area shapes, more than {AREAS}")
    return {image: level for level, key in enumerate(shapes, start=1)
            for image in area_images(int(key))}


def table_from(data: dict[str, Any]) -> array[float]:
    """The flat table of logarithms from the data file's contents (levels it does not name
    weigh 1: a logarithm of 0)."""
    table = array("d", bytes(8 * TABLE_SIZE))
    learned = data["features"]
    for (name, size), offset in zip(FEATURES, OFFSETS, strict=True):
        if name == "area":
            for level, value in enumerate(learned[name].values(), start=1):
                table[offset + level] = value
        elif name in SHAPES:
            # each learned shape weighs the same in all its mirror images
            for code, value in learned[name].items():
                for image in _images(name, int(code)):
                    table[offset + image] = value
        else:
            values = learned[name]
            if len(values) != size:
                raise ValueError(f"{DATA}: {name} has {len(values)} levels, not {size}")
            for level, value in enumerate(values):
                table[offset + level] = value
    return table
