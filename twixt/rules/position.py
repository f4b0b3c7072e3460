"""Pegs and links on a board, with the incremental structures that keep every check cheap.

Holes are named here by their `int` index in the board's `Geometry` (`row * cols + col`) and
links by their link id; `game.py` turns them into `Hole` and `Link` values at its edge.

- Crossing: for each link position and colour, the number of links of that colour crossing
  it, updated through the precomputed 9-entry crossing table when a link comes or goes.
- Connection: a union-find over hole indices plus one virtual node per border row, rebuilt only
  after a removal or an undo (which union-find cannot take back).
- Blockade: per colour and knight step, a bitboard of the holes from which that step is not
  crossed by an opponent link. Reachability is a flood fill over Python ints; a found path is
  kept as a witness and only searched again when an opponent peg or link lands on it.
"""

from __future__ import annotations

from typing import NamedTuple

from twixt.rules.geometry import FORWARD_STEPS, OPPOSITE_STEP, Geometry
from twixt.rules.model import Colour, RuleSet

_COLOURS = (Colour.RED, Colour.BLACK)


class Path(NamedTuple):
    """An open path as bitboards: its holes, and per knight step the holes it steps from."""

    holes: int
    steps_from: tuple[tuple[int, int], ...]   # (step, bitboard of holes it is taken from)


class Position:
    """The board: who has a peg where, which links stand, and what is still reachable."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        count = geo.cols * geo.rows
        self.peg_colour: list[Colour | None] = [None] * count
        self.peg_seat: list[int] = [-1] * count
        self.links: dict[int, Colour] = {}
        self.peg_bits = {Colour.RED: 0, Colour.BLACK: 0}
        self.occupied = 0
        self.cross_count = {c: [0] * (4 * count) for c in _COLOURS}
        #: whether `cross_count` is shared with a copy (`copy`): whichever of them changes a
        #: count first takes its own lists then (a copy most often places a peg that links
        #: nothing, and the lists are four entries a hole)
        self._counts_shared = False
        # allow[c][step]: holes from which `step` is not crossed by a link of c's opponent
        self.allow = {c: list(geo.step_masks) for c in _COLOURS}
        self._dsu: list[int] | None = None
        self._witness: dict[Colour, Path | None] = {c: None for c in _COLOURS}

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.geo = self.geo
        other.peg_colour = self.peg_colour.copy()
        other.peg_seat = self.peg_seat.copy()
        other.links = self.links.copy()
        other.peg_bits = self.peg_bits.copy()
        other.occupied = self.occupied
        other.cross_count = self.cross_count
        self._counts_shared = other._counts_shared = True
        other.allow = {c: masks.copy() for c, masks in self.allow.items()}
        other._dsu = self._dsu.copy() if self._dsu is not None else None
        other._witness = self._witness.copy()
        return other

    # --- changes -----------------------------------------------------------------------

    def place_peg(self, index: int, colour: Colour, seat: int) -> None:
        """Put a peg of `colour`, placed by `seat`, in the hole at `index`."""
        self.peg_colour[index] = colour
        self.peg_seat[index] = seat
        self.peg_bits[colour] |= 1 << index
        self.occupied |= 1 << index
        if self._dsu is not None:
            for virtual, border in zip(self._virtual_nodes(colour), self.geo.border_masks[colour],
                                       strict=True):
                if (border >> index) & 1:
                    self._union(index, virtual)

    def remove_peg(self, index: int) -> None:
        """Take the peg at `index` out; its links must be removed first."""
        colour = self.peg_colour[index]
        assert colour is not None
        self.peg_colour[index] = None
        self.peg_seat[index] = -1
        self.peg_bits[colour] &= ~(1 << index)
        self.occupied &= ~(1 << index)
        self._dsu = None

    def add_link(self, lid: int, colour: Colour) -> None:
        """Stand link `lid` for `colour`; whether it may stand is the caller's question."""
        self.links[lid] = colour
        self._count_crossings(lid, colour, +1)
        if self._dsu is not None:
            ends = self.geo.link_ends[lid]
            assert ends is not None, "only links on the board are ever added"
            self._union(*ends)

    def remove_link(self, lid: int) -> None:
        """Take link `lid` down."""
        colour = self.links.pop(lid)
        self._count_crossings(lid, colour, -1)
        self._dsu = None

    def _count_crossings(self, lid: int, colour: Colour, delta: int) -> None:
        if self._counts_shared:  # its own counts before the first change (`copy`)
            self.cross_count = {c: counts.copy() for c, counts in self.cross_count.items()}
            self._counts_shared = False
        counts = self.cross_count[colour]
        allow = self.allow[colour.opponent]
        link_ends = self.geo.link_ends
        threshold = 1 if delta > 0 else 0
        for other in self.geo.crossings[lid]:
            counts[other] += delta
            if counts[other] == threshold:
                ends = link_ends[other]
                assert ends is not None, "crossings lists only links on the board"
                lower, upper = ends
                step = FORWARD_STEPS[other & 3]
                back = OPPOSITE_STEP[step]
                if delta > 0:
                    allow[step] &= ~(1 << lower)
                    allow[back] &= ~(1 << upper)
                else:
                    allow[step] |= 1 << lower
                    allow[back] |= 1 << upper

    # --- questions ---------------------------------------------------------------------

    def links_of(self, index: int) -> list[int]:
        """Ids of the links standing at the hole at `index`."""
        return [lid for _n, lid, _s in self.geo.neighbours[index] if lid in self.links]

    def linkable(self, index: int, colour: Colour, rules: RuleSet) -> list[int]:
        """Ids of the links a peg of `colour` at `index` could add to its own pegs now."""
        peg_colour, links = self.peg_colour, self.links
        return [lid for neighbour, lid, _step in self.geo.neighbours[index]
                if peg_colour[neighbour] is colour and lid not in links
                and self.blocking_link(lid, colour, rules) is None]

    def blocking_link(self, lid: int, colour: Colour, rules: RuleSet) -> int | None:
        """A standing link that forbids `colour` to place link `lid`, or None."""
        opponent = colour.opponent
        own_blocks = rules is RuleSet.CLASSIC
        if not (self.cross_count[opponent][lid] or (own_blocks and self.cross_count[colour][lid])):
            return None
        for other in self.geo.crossings[lid]:
            owner = self.links.get(other)
            if owner is opponent or (own_blocks and owner is colour):
                return other
        return None

    def connected(self, colour: Colour) -> bool:
        """Whether `colour` has a chain of linked pegs joining its two border rows."""
        if self._dsu is None:
            self._rebuild_dsu()
        first, second = self._virtual_nodes(colour)
        return self._find(first) == self._find(second)

    def can_still_connect(self, colour: Colour) -> bool:
        """Whether some path of knight steps could still join `colour`'s border rows.

        The steps go through empty holes or `colour`'s own pegs, outside the opponent's border
        rows, and cross no opponent link; `colour`'s own links never count against it.
        """
        witness = self._witness[colour]
        if witness is not None and self._path_still_open(colour, witness):
            return True
        self._witness[colour] = self.find_open_path(colour)
        return self._witness[colour] is not None

    def find_open_path(self, colour: Colour) -> Path | None:
        """A shortest open path (see `can_still_connect`) searched afresh, or None."""
        geo = self.geo
        passable = self._passable(colour)
        first, second = geo.border_masks[colour]
        frontier = passable & first
        reach = frontier
        layers = [frontier]
        allow = self.allow[colour]
        shifts = geo.step_shifts
        while frontier:
            new = 0
            for step in range(8):
                moved = frontier & allow[step]
                if moved:
                    shift = shifts[step]
                    new |= (moved << shift) if shift > 0 else (moved >> -shift)
            new &= passable & ~reach
            if not new:
                return None
            layers.append(new)
            hit = new & second
            if hit:
                return self._trace_back(colour, layers, (hit & -hit).bit_length() - 1)
            reach |= new
            frontier = new
        return None

    def chain(self, colour: Colour) -> tuple[list[int], list[int]]:
        """Hole indices and link ids of a shortest linked chain joining `colour`'s borders,
        or two empty lists."""
        geo = self.geo
        first, second = geo.border_masks[colour]
        starts = [i for i in range(len(self.peg_colour))
                  if self.peg_colour[i] is colour and (first >> i) & 1]
        # per index reached: (the index it was reached from, the link between), None at a start
        came_from: dict[int, tuple[int, int] | None] = dict.fromkeys(starts)
        queue = list(starts)
        for index in queue:
            if (second >> index) & 1:
                indices, links = [index], []
                back = came_from[index]
                while back is not None:
                    index, lid = back
                    indices.append(index)
                    links.append(lid)
                    back = came_from[index]
                return indices[::-1], links[::-1]
            for neighbour, lid, _step in geo.neighbours[index]:
                if neighbour not in came_from and self.links.get(lid) is colour:
                    came_from[neighbour] = (index, lid)
                    queue.append(neighbour)
        return [], []

    # --- internals ---------------------------------------------------------------------

    def _passable(self, colour: Colour) -> int:
        opponent = colour.opponent
        first, second = self.geo.border_masks[opponent]
        return self.geo.all_mask & ~self.peg_bits[opponent] & ~first & ~second

    def _path_still_open(self, colour: Colour, path: Path) -> bool:
        """A handful of bitboard operations, however long the path."""
        if path.holes & ~self._passable(colour):
            return False
        allow = self.allow[colour]
        for step, bits in path.steps_from:  # noqa: SIM110 - a loop beats all() on this hot path
            if bits & ~allow[step]:
                return False
        return True

    def _trace_back(self, colour: Colour, layers: list[int], end: int) -> Path:
        allow = self.allow[colour]
        shifts = self.geo.step_shifts
        steps_from = [0] * 8
        index = end
        holes = 1 << end
        for layer in reversed(layers[:-1]):
            for step in range(8):
                before = index - shifts[step]
                if before >= 0 and (layer >> before) & 1 and (allow[step] >> before) & 1:
                    steps_from[step] |= 1 << before
                    holes |= 1 << before
                    index = before
                    break
        return Path(holes, tuple((step, bits) for step, bits in enumerate(steps_from) if bits))

    def _virtual_nodes(self, colour: Colour) -> tuple[int, int]:
        base = len(self.peg_colour) + (0 if colour is Colour.RED else 2)
        return base, base + 1

    def _rebuild_dsu(self) -> None:
        self._dsu = list(range(len(self.peg_colour) + 4))
        for index, colour in enumerate(self.peg_colour):
            if colour is not None:
                for virtual, border in zip(self._virtual_nodes(colour),
                                           self.geo.border_masks[colour], strict=True):
                    if (border >> index) & 1:
                        self._union(index, virtual)
        for lid in self.links:
            ends = self.geo.link_ends[lid]
            assert ends is not None, "only links on the board are ever added"
            self._union(*ends)

    def _find(self, node: int) -> int:
        parent = self._dsu
        assert parent is not None
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def _union(self, a: int, b: int) -> None:
        parent = self._dsu
        assert parent is not None
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
