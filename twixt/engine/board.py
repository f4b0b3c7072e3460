"""The search's own board: a copy of the game's `Position` that pegs are put in and taken out.

The tree search walks down from the root by placing pegs and back up by taking them out, so
the board is made from the `Game` once per search and never copied again. A placed peg gets
every link it may have (pp: all not crossed by the opponent; classic: also not crossed by an
own link), which is what the engine's moves do too (see `engine.notation`).
"""

from __future__ import annotations

from twixt.engine.patterns import Recent
from twixt.rules import Colour, Game, RuleSet
from twixt.rules.geometry import Geometry
from twixt.rules.position import Position


class Board:
    """Pegs and links of a game in progress, changed in place by `place` and `take_back`."""

    __slots__ = ("geo", "placed", "pos", "rules")

    def __init__(self, game: Game) -> None:
        self.geo: Geometry = game.geometry
        self.pos: Position = game.position.copy()
        self.rules: RuleSet = game.rules
        #: the holes of the game's pegs, in the order they were placed
        self.placed: tuple[int, ...] = tuple(
            self.geo.index(turn.placed) for turn in game.history if turn.placed is not None)

    def recent(self, colour: Colour) -> Recent:
        """The last peg of `colour`'s opponent and `colour`'s own last peg still standing
        (a swap changes a peg's colour; the priors look at both)."""
        last = own_last = -1
        for hole in reversed(self.placed):
            owner = self.pos.peg_colour[hole]
            if owner is colour and own_last < 0:
                own_last = hole
            elif owner is colour.opponent and last < 0:
                last = hole
            if last >= 0 and own_last >= 0:
                break
        return Recent(last, own_last)

    def free(self, colour: Colour) -> int:
        """Bitboard of the empty holes `colour` may place in."""
        return self.geo.placeable[colour] & ~self.pos.occupied

    def place(self, index: int, colour: Colour) -> list[int]:
        """Put a peg of `colour` at `index` with every link it may have; return those links
        (for `take_back`). Links of one new peg share that peg, so they never cross."""
        pos = self.pos
        pos.place_peg(index, colour, 0)
        links = pos.linkable(index, colour, self.rules)
        for lid in links:
            pos.add_link(lid, colour)
        return links

    def take_back(self, index: int, links: list[int]) -> None:
        """Undo `place`."""
        pos = self.pos
        for lid in links:
            pos.remove_link(lid)
        pos.remove_peg(index)

    def connected_through(self, index: int) -> bool:
        """Whether the linked chain holding the peg at `index` joins its colour's two borders
        (the win test after a placement: only the new peg's chain can have changed)."""
        pos, geo = self.pos, self.geo
        colour = pos.peg_colour[index]
        assert colour is not None
        first, second = geo.border_masks[colour]
        chain = 1 << index
        todo = [index]
        links = pos.links
        neighbours = geo.neighbours
        while todo:
            here = todo.pop()
            for neighbour, lid, _step in neighbours[here]:
                if not (chain >> neighbour) & 1 and links.get(lid) is colour:
                    chain |= 1 << neighbour
                    todo.append(neighbour)
        return bool(chain & first) and bool(chain & second)
