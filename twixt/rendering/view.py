"""A frozen picture-sized summary of a game after some turn: what the renderer needs, no more.

Building it is the only place rendering talks to `rules`; everything after is pure drawing.
Earlier positions come from `copy()` and `undo()`, which restore each turn exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from twixt.rules import Colour, Game, Hole, Link, Outcome, Peg, Turn


@dataclass(frozen=True)
class Team:
    """One colour's players in seat order, and whether the team may still call privilege."""

    colour: Colour
    players: tuple[str, ...]
    seats: tuple[int, ...]
    privilege: bool


@dataclass(frozen=True)
class BoardView:
    """A position as the picture shows it."""

    cols: int
    rows: int
    rules: str
    pegs: tuple[Peg, ...]
    links: tuple[Link, ...]
    is_double: bool
    moves: int                      # moves made (pegs and the swap), the count players keep
    last: Turn | None               # the latest turn, for the caption
    marked: Turn | None             # the latest turn that placed a peg (see `fresh`)
    player_to_move: str | None
    seat_to_move: int | None
    colour_to_move: Colour
    teams: tuple[Team, Team]        # Red's team first
    draw_offered_by: Colour | None
    outcome: Outcome | None
    chain_holes: frozenset[Hole]
    chain_links: frozenset[Link]
    #: time left to the player to move in a clocked game, e.g. "2d 3h left" (the service's)
    clock: str | None = None

    def is_marked_seat(self, seat: int) -> bool:
        """Whether a seat's pegs carry the partner mark: the second player of each team."""
        return self.is_double and seat >= 2

    @property
    def fresh(self) -> Turn | None:
        """The turn the board marks as just made (its peg ringed, its new links haloed): the
        latest that placed a peg, while the game goes on. A final board marks none: its news
        is the result, and after a resignation, a loss on time or a draw the last peg is not
        the last turn's."""
        return self.marked if self.outcome is None else None

    @property
    def last_peg(self) -> Hole | None:
        return self.fresh.placed if self.fresh else None


def view_of(game: Game) -> BoardView:
    """Summarise a game as it stands now."""
    chain_holes, chain_links = game.winning_chain()
    seats = range(len(game.players))
    teams = tuple(
        Team(colour, game.players_of(colour),
             tuple(s for s in seats if game.colour_of_seat(s) is colour),
             game.privilege_available(colour))
        for colour in (Colour.RED, Colour.BLACK))
    return BoardView(
        cols=game.geometry.cols, rows=game.geometry.rows, rules=game.options.rules.value,
        pegs=tuple(game.pegs()), links=tuple(game.links()), is_double=game.is_double,
        moves=game.moves_made, last=game.last_turn, marked=game.last_peg_turn,
        player_to_move=game.player_to_move, seat_to_move=game.seat_to_move,
        colour_to_move=game.colour_to_move,
        teams=(teams[0], teams[1]), draw_offered_by=game.draw_offered_by,
        outcome=game.outcome, chain_holes=frozenset(chain_holes),
        chain_links=frozenset(chain_links))


def game_at(game: Game, turns: int) -> Game:
    """The game as it stood after its first `turns` turns (negative counts from the end)."""
    total = len(game.history)
    if turns < 0:
        turns += total
    if not 0 <= turns <= total:
        raise ValueError(f"the game has turns 0 to {total}, not {turns}")
    earlier = game.copy()
    for _ in range(total - turns):
        earlier.undo()
    return earlier
