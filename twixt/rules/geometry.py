"""Precomputed tables for one board size: holes, link positions, crossings, bit masks.

Built once per size and shared by every game of that size, so that checking whether a link
may be placed looks at its 9 crossing positions instead of scanning the links on the board,
and so that reachability (for blockade) can run on Python ints used as bitboards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from twixt.rules.errors import IllegalMoveError, TwixtError, quote
from twixt.rules.model import Colour, Hole
from twixt.rules.numbers import whole_number

MIN_SIZE = 5
MAX_SIZE = 48

#: The eight knight steps as (columns, rows).
KNIGHT_STEPS: tuple[tuple[int, int], ...] = (
    (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2),
)
#: The four steps that go to a higher hole index (row-major); a link is stored from its lower end.
FORWARD_STEPS: tuple[int, ...] = tuple(i for i, (dc, dr) in enumerate(KNIGHT_STEPS) if dr > 0)
#: for each step, the step that goes back
OPPOSITE_STEP = {i: KNIGHT_STEPS.index((-dc, -dr)) for i, (dc, dr) in enumerate(KNIGHT_STEPS)}


def segments_cross(p1: tuple[int, int], p2: tuple[int, int],
                   q1: tuple[int, int], q2: tuple[int, int]) -> bool:
    """True when the open segments p1-p2 and q1-q2 cross; touching at an end is no crossing."""

    def orient(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    if {p1, p2} & {q1, q2}:
        return False
    return (orient(p1, p2, q1) * orient(p1, p2, q2) < 0
            and orient(q1, q2, p1) * orient(q1, q2, p2) < 0)


@cache
def _relative_crossings() -> dict[int, tuple[tuple[int, int, int], ...]]:
    """For a link from (0, 0) along each forward step: crossing links as (dc, dr, forward step)."""
    table = {}
    for step in FORWARD_STEPS:
        dc, dr = KNIGHT_STEPS[step]
        found = []
        for oc in range(-3, 4):
            for orow in range(-3, 4):
                for other in FORWARD_STEPS:
                    ec, er = KNIGHT_STEPS[other]
                    if segments_cross((0, 0), (dc, dr), (oc, orow), (oc + ec, orow + er)):
                        found.append((oc, orow, other))
        assert len(found) == 9, "every knight link has exactly 9 crossing positions"
        table[step] = tuple(found)
    return table


@dataclass(frozen=True)
class Geometry:
    """One board size. A hole is named by its index `row * cols + col`; link ids are
    `4 * lower + k`, from the link's lower index and its forward step `k` (0–3)."""

    cols: int
    rows: int
    on_board: tuple[bool, ...]
    #: per index: its Hole, made once so that listing holes creates no objects
    holes: tuple[Hole, ...]
    #: per link id: (lower index, upper index), or None where the link would leave the board
    link_ends: tuple[tuple[int, int] | None, ...]
    #: per link id: ids of the link positions that cross it (at most 9)
    crossings: tuple[tuple[int, ...], ...]
    #: per index: ((neighbour index, link id, step), ...) for each knight neighbour on the board
    neighbours: tuple[tuple[tuple[int, int, int], ...], ...]
    #: bitboards
    all_mask: int
    border_masks: dict[Colour, tuple[int, int]]
    #: per colour: the holes it may ever place in (all but the opponent's border rows)
    placeable: dict[Colour, int]
    #: per step: holes whose knight step stays on the board, and the index shift of that step
    step_masks: tuple[int, ...]
    step_shifts: tuple[int, ...]

    def index(self, hole: Hole) -> int:
        """The index of a hole, or IllegalMoveError when it is not on this board."""
        if not (0 <= hole.col < self.cols and 0 <= hole.row < self.rows):
            raise IllegalMoveError("{hole} is not on the board ({cols}×{rows})", hole=hole,
                                   cols=self.cols, rows=self.rows)
        idx = hole.row * self.cols + hole.col
        if not self.on_board[idx]:
            raise IllegalMoveError("{hole} is a corner, and the board has no corner holes",
                                   hole=hole)
        return idx

    def hole(self, index: int) -> Hole:
        """The hole at an index (the inverse of `index`)."""
        return self.holes[index]

    def link_id(self, a: int, b: int) -> int | None:
        """The link id joining the holes at indices a and b, or None when they are not a knight's
        move apart."""
        for neighbour, lid, _step in self.neighbours[a]:
            if neighbour == b:
                return lid
        return None

    def in_border(self, index: int, colour: Colour) -> bool:
        """Whether the hole at `index` is in one of `colour`'s border rows."""
        first, second = self.border_masks[colour]
        return bool(((first | second) >> index) & 1)



def parse_size(text: str) -> tuple[int, int]:
    """Read a board size: `24` (square) or `24x18` (columns × rows)."""
    numbers = [whole_number(part) for part in text.lower().replace("×", "x").split("x")]
    if len(numbers) == 1:
        numbers *= 2
    if len(numbers) != 2 or numbers[0] is None or numbers[1] is None:
        raise TwixtError("{text} is not a board size: write 24 or 24x18", text=quote(text))
    cols, rows = numbers[0], numbers[1]
    check_board_size(cols, rows, text)
    return cols, rows


def check_board_size(cols: int, rows: int, text: str | None = None) -> None:
    """TwixtError unless a board of `cols` × `rows` (written `text`) is 5–48 each way."""
    if not (MIN_SIZE <= cols <= MAX_SIZE and MIN_SIZE <= rows <= MAX_SIZE):
        raise TwixtError("a board is {min} to {max} holes each way, not {size}",
                         min=MIN_SIZE, max=MAX_SIZE, size=text or f"{cols}×{rows}")


@cache
def geometry(cols: int, rows: int) -> Geometry:
    """The shared tables for a board of `cols` × `rows` (5–48 each way)."""
    check_board_size(cols, rows)
    corners = {(0, 0), (cols - 1, 0), (0, rows - 1), (cols - 1, rows - 1)}
    count = cols * rows
    on_board = tuple((i % cols, i // cols) not in corners for i in range(count))

    def at(c: int, r: int) -> int | None:
        if 0 <= c < cols and 0 <= r < rows and on_board[r * cols + c]:
            return r * cols + c
        return None

    link_ends: list[tuple[int, int] | None] = [None] * (4 * count)
    for idx in range(count):
        if not on_board[idx]:
            continue
        c, r = idx % cols, idx // cols
        for k, step in enumerate(FORWARD_STEPS):
            dc, dr = KNIGHT_STEPS[step]
            other = at(c + dc, r + dr)
            if other is not None:
                link_ends[4 * idx + k] = (idx, other)

    relative = _relative_crossings()
    crossings: list[tuple[int, ...]] = [()] * (4 * count)
    for lid, ends in enumerate(link_ends):
        if ends is None:
            continue
        c, r = ends[0] % cols, ends[0] // cols
        step = FORWARD_STEPS[lid % 4]
        found = []
        for oc, orow, other_step in relative[step]:
            start = at(c + oc, r + orow)
            if start is None:
                continue
            other_lid = 4 * start + FORWARD_STEPS.index(other_step)
            if link_ends[other_lid] is not None:
                found.append(other_lid)
        crossings[lid] = tuple(found)

    neighbours = []
    for idx in range(count):
        row: list[tuple[int, int, int]] = []
        if on_board[idx]:
            c, r = idx % cols, idx // cols
            for step, (dc, dr) in enumerate(KNIGHT_STEPS):
                other = at(c + dc, r + dr)
                if other is None:
                    continue
                lower, upper_step = (idx, step) if other > idx else (other, OPPOSITE_STEP[step])
                lid = 4 * lower + FORWARD_STEPS.index(upper_step)
                row.append((other, lid, step))
        neighbours.append(tuple(row))

    def mask(pred: Callable[[int, int], bool]) -> int:
        bits = 0
        for idx in range(count):
            if on_board[idx] and pred(idx % cols, idx // cols):
                bits |= 1 << idx
        return bits

    def step_stays_on(dc: int, dr: int) -> Callable[[int, int], bool]:
        return lambda c, r: at(c + dc, r + dr) is not None

    step_masks = []
    step_shifts = []
    for dc, dr in KNIGHT_STEPS:
        step_masks.append(mask(step_stays_on(dc, dr)))
        step_shifts.append(dr * cols + dc)

    all_mask = mask(lambda c, r: True)
    red_border = mask(lambda c, r: r in (0, rows - 1))
    black_border = mask(lambda c, r: c in (0, cols - 1))
    return Geometry(
        cols=cols,
        rows=rows,
        on_board=on_board,
        holes=tuple(Hole(i % cols, i // cols) for i in range(count)),
        link_ends=tuple(link_ends),
        crossings=tuple(crossings),
        neighbours=tuple(neighbours),
        all_mask=all_mask,
        border_masks={
            Colour.RED: (mask(lambda c, r: r == 0), mask(lambda c, r: r == rows - 1)),
            Colour.BLACK: (mask(lambda c, r: c == 0), mask(lambda c, r: c == cols - 1)),
        },
        placeable={Colour.RED: all_mask & ~black_border, Colour.BLACK: all_mask & ~red_border},
        step_masks=tuple(step_masks),
        step_shifts=tuple(step_shifts),
    )
