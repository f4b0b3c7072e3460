"""The small vocabulary of TwixT: colours, rule sets, holes, links, outcomes.

Everything here is an immutable value; the mutable game lives in `game.py`.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from twixt.language import Message, message
from twixt.rules.errors import InvalidMoveError, quote


class Colour(enum.Enum):
    """A side of the board. Red joins top and bottom, Black joins left and right."""

    RED = "red"
    BLACK = "black"

    #: the other colour; a plain attribute (set below) because it is read on every move
    opponent: Colour

    # members are singletons: identity hashing is correct and much cheaper than Enum's
    __hash__ = object.__hash__

    @property
    def title(self) -> str:
        """The colour's name as a message writes it: `Red`, `Black`."""
        # annotated because mypy reads `value` as Any once the enum declares `opponent`
        value: str = self.value
        return value.capitalize()


    @property
    def said(self) -> Message:
        """The colour's name as a value of a message, said in the reader's language."""
        return _SAID[self]


Colour.RED.opponent = Colour.BLACK
Colour.BLACK.opponent = Colour.RED
_SAID = {Colour.RED: message("Red"), Colour.BLACK: message("Black")}


class RuleSet(enum.Enum):
    """`classic`: every link blocks, removal allowed. `pp`: own links may cross, auto-linking."""

    CLASSIC = "classic"
    PP = "pp"


class Reason(enum.Enum):
    """Why a game ended; the values are the words of the replay JSON."""

    CONNECTION = "connection"
    RESIGNATION = "resignation"
    TIME = "time"
    AGREEMENT = "agreement"
    BLOCKADE = "blockade"
    NO_MOVES = "no-moves"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, like python-chess's `Outcome`.

    `winner` is None for a draw; `winners` names the players of the winning side.
    """

    reason: Reason
    winner: Colour | None
    winners: tuple[str, ...] = ()

    @property
    def result(self) -> str:
        """`red`, `black` or `draw`, as the replay JSON writes it."""
        return self.winner.value if self.winner else "draw"


#: a hole as written: column letters and a row in ASCII digits, a few of each at most
_HOLE_RE = re.compile(r"^([a-z]{1,4})([0-9]{1,6})$", re.IGNORECASE)


def column_letters(col: int) -> str:
    """Spreadsheet-style column name of a 0-based column: 0 → A, 25 → Z, 26 → AA."""
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


@dataclass(frozen=True, order=True)
class Hole:
    """A hole by 0-based column and row; written `G6` (column letters, 1-based row)."""

    col: int
    row: int

    def __str__(self) -> str:
        return f"{column_letters(self.col)}{self.row + 1}"

    @classmethod
    def parse(cls, text: str) -> Hole:
        """Read `G6` or `ab12` (any case). The board size is checked by the game, not here."""
        match = _HOLE_RE.match(text.strip())
        if not match or int(match.group(2)) < 1:
            raise InvalidMoveError(
                "{text} is not a hole: write a column letter and a row, like G6",
                text=quote(text))
        col = 0
        for ch in match.group(1).upper():
            col = col * 26 + (ord(ch) - ord("A") + 1)
        return cls(col - 1, int(match.group(2)) - 1)

    def mirrored(self) -> Hole:
        """The hole across the main diagonal, as Little Golem's swap moves a peg."""
        return Hole(self.row, self.col)


@dataclass(frozen=True)
class Link:
    """A link between two pegs of one colour, written `F5-G7`."""

    a: Hole
    b: Hole
    colour: Colour

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"

    @property
    def ends(self) -> frozenset[Hole]:
        """Both holes, in no order, to ask whether a peg is at either end."""
        return frozenset((self.a, self.b))


@dataclass(frozen=True)
class Peg:
    """A peg in a hole: its colour and the seat (0–3) of the player who placed it."""

    hole: Hole
    colour: Colour
    seat: int
