"""The rules of TwixT and Double TwixT as this project plays them (classic and pp).

Pure domain code: no I/O, no clocks, no asyncio. Start with `Game`; records live in
`rules.records`.
"""

from twixt.rules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    OutOfTurnError,
    RecordError,
    TwixtError,
    quote,
    visible,
)
from twixt.rules.game import Game, GameOptions, Turn
from twixt.rules.geometry import MAX_SIZE, MIN_SIZE, parse_size
from twixt.rules.model import Colour, Hole, Link, Outcome, Peg, Reason, RuleSet, column_letters
from twixt.rules.notation import Action, Command, Placement, parse_command

__all__ = [
    "MAX_SIZE",
    "MIN_SIZE",
    "Action",
    "Colour",
    "Command",
    "Game",
    "GameOptions",
    "Hole",
    "IllegalMoveError",
    "InvalidMoveError",
    "Link",
    "OutOfTurnError",
    "Outcome",
    "Peg",
    "Placement",
    "Reason",
    "RecordError",
    "RuleSet",
    "Turn",
    "TwixtError",
    "column_letters",
    "parse_command",
    "parse_size",
    "quote",
    "visible",
]
