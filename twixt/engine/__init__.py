"""A TwixT engine: it chooses an action for the side to move in any position the rules allow.

The shape follows python-chess's `chess.engine`: the caller passes a `Limit` (a level, a time,
a number of nodes) and gets a `PlayResult` back (the move as a player types it, the chance that
the side to move wins, the expected line, the work done). Nothing else is shared between the
caller and the search, so the search can run in another process. Imports only `rules`.

`LEVELS`, `CORE` and `DESCRIPTION` come from `engine.about`, which loads nothing of the
search; the rest of `engine.api` (and with it the search's modules and numpy) is imported
when one of its names is first used, so that a help text that names the levels starts fast.
"""

from twixt.engine.about import CORE, DESCRIPTION, LEVELS
from twixt.rules import later

#: `typing.TYPE_CHECKING` without importing typing, a tenth of Python's start that a help
#: text need not wait for (type checkers read any `TYPE_CHECKING` as true)
TYPE_CHECKING = False

if TYPE_CHECKING:
    from twixt.engine.api import (
        LevelLimit,
        Limit,
        PlayResult,
        level_limit,
        pegs_to_connect,
        think,
    )

__all__ = ["CORE", "DESCRIPTION", "LEVELS", "LevelLimit", "Limit", "PlayResult", "level_limit",
           "pegs_to_connect", "think"]


#: every name but the levels' comes from `engine.api`
__getattr__ = later.importer(__name__, dict.fromkeys(__all__[3:], "api"))
