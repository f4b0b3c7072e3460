"""Brute-force answers to check the rules engine against: slow, obvious, independent."""

from __future__ import annotations

from collections import deque

from twixt.rules import Colour, Game, Hole

KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def segments_intersect(p1, p2, q1, q2) -> bool:
    """Proper crossing of two segments by exact rational arithmetic on their parameters."""
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = p1, p2, q1, q2
    denominator = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3)
    if denominator == 0:
        return False  # parallel knight links never overlap beyond a shared end
    t_num = (x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3)
    u_num = (x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1)
    if denominator < 0:
        denominator, t_num, u_num = -denominator, -t_num, -u_num
    # strictly inside both segments: a touch at an end is no crossing
    return 0 < t_num < denominator and 0 < u_num < denominator


def links_cross(a, b) -> bool:
    return segments_intersect((a.a.col, a.a.row), (a.b.col, a.b.row),
                              (b.a.col, b.a.row), (b.b.col, b.b.row))


def connected_by_bfs(game: Game, colour: Colour) -> bool:
    """Whether colour's links join a peg in one border row to a peg in the other."""
    cols, rows = game.options.cols, game.options.rows
    pegs = {p.hole for p in game.pegs() if p.colour is colour}
    adjacent: dict[Hole, set[Hole]] = {h: set() for h in pegs}
    for link in game.links():
        if link.colour is colour:
            adjacent[link.a].add(link.b)
            adjacent[link.b].add(link.a)

    def first(h: Hole) -> bool:
        return h.row == 0 if colour is Colour.RED else h.col == 0

    def second(h: Hole) -> bool:
        return h.row == rows - 1 if colour is Colour.RED else h.col == cols - 1

    queue = deque(h for h in pegs if first(h))
    seen = set(queue)
    while queue:
        hole = queue.popleft()
        if second(hole):
            return True
        for other in adjacent[hole] - seen:
            seen.add(other)
            queue.append(other)
    return False


def can_still_connect_by_bfs(game: Game, colour: Colour) -> bool:
    """The blockade test of docs/rules.md by plain BFS over holes, with a segment test for
    each step."""
    cols, rows = game.options.cols, game.options.rows
    corners = {(0, 0), (cols - 1, 0), (0, rows - 1), (cols - 1, rows - 1)}
    opponent_pegs = {(p.hole.col, p.hole.row) for p in game.pegs() if p.colour is not colour}
    opponent_links = [((lk.a.col, lk.a.row), (lk.b.col, lk.b.row))
                      for lk in game.links() if lk.colour is not colour]

    def open_hole(c: int, r: int) -> bool:
        if not (0 <= c < cols and 0 <= r < rows) or (c, r) in corners:
            return False
        in_opponent_border = (c in (0, cols - 1)) if colour is Colour.RED else (r in (0, rows - 1))
        return not in_opponent_border and (c, r) not in opponent_pegs

    def first(c: int, r: int) -> bool:
        return r == 0 if colour is Colour.RED else c == 0

    def second(c: int, r: int) -> bool:
        return r == rows - 1 if colour is Colour.RED else c == cols - 1

    start = [(c, r) for c in range(cols) for r in range(rows) if first(c, r) and open_hole(c, r)]
    queue = deque(start)
    seen = set(start)
    while queue:
        c, r = queue.popleft()
        if second(c, r):
            return True
        for dc, dr in KNIGHT:
            nxt = (c + dc, r + dr)
            if nxt in seen or not open_hole(*nxt):
                continue
            if any(segments_intersect((c, r), nxt, a, b) for a, b in opponent_links):
                continue
            seen.add(nxt)
            queue.append(nxt)
    return False
