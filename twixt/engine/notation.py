"""The engine's moves written in the move language, exactly as a player would type them.

In pp the links come by themselves, so a move is its hole (`G6`). In classic the engine adds
every legal link of the new peg (`G6 link E5 F8`): links that share the new peg never cross
each other, and each one joins the peg to a chain, which never hurts the own connection.
"""

from __future__ import annotations

from twixt.engine.board import Board
from twixt.rules import Colour, RuleSet


def move_text(board: Board, hole: int, colour: Colour) -> str:
    """The placement at `hole` for `colour` on the board as it is (nothing is changed)."""
    geo = board.geo
    name = str(geo.hole(hole))
    if board.rules is RuleSet.PP:
        return name
    links = board.place(hole, colour)
    board.take_back(hole, links)
    targets = []
    for lid in links:
        ends = geo.link_ends[lid]
        assert ends is not None, "only links on the board are made"
        targets.append(str(geo.hole(ends[1] if ends[0] == hole else ends[0])))
    return f"{name} link {' '.join(targets)}" if targets else name


def line_text(board: Board, holes: list[int], colour: Colour) -> list[str]:
    """A line of placements from the board as it is, alternating colours from `colour`."""
    texts = []
    placed: list[tuple[int, list[int]]] = []
    for hole in holes:
        if (board.pos.occupied >> hole) & 1 or not (board.free(colour) >> hole) & 1:
            break
        texts.append(move_text(board, hole, colour))
        placed.append((hole, board.place(hole, colour)))
        colour = colour.opponent
    for hole, links in reversed(placed):
        board.take_back(hole, links)
    return texts
