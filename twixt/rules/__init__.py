"""The rules of TwixT and Double TwixT as this project plays them (classic and pp).

Pure domain code: no I/O, no clocks, no asyncio. Start with `Game`; records live in
`rules.records`.

Each name below is imported from its module when it is first used, so that what needs one
small module of the rules (the record formats a help text lists: `rules.formats`) does not
wait for all of them.
"""

from twixt.rules import later

#: `typing.TYPE_CHECKING` without importing typing, a tenth of Python's start that a help
#: text need not wait for (type checkers read any `TYPE_CHECKING` as true)
TYPE_CHECKING = False

if TYPE_CHECKING:
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
    from twixt.rules.model import (
        Colour,
        Hole,
        Link,
        Outcome,
        Peg,
        Reason,
        RuleSet,
        column_letters,
    )
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

#: the module each name comes from
_HOMES = {
    **dict.fromkeys(("IllegalMoveError", "InvalidMoveError", "OutOfTurnError", "RecordError",
                     "TwixtError", "quote", "visible"), "errors"),
    **dict.fromkeys(("Game", "GameOptions", "Turn"), "game"),
    **dict.fromkeys(("MAX_SIZE", "MIN_SIZE", "parse_size"), "geometry"),
    **dict.fromkeys(("Colour", "Hole", "Link", "Outcome", "Peg", "Reason", "RuleSet",
                     "column_letters"), "model"),
    **dict.fromkeys(("Action", "Command", "Placement", "parse_command"), "notation"),
}


__getattr__ = later.importer(__name__, _HOMES)
