"""A TwixT engine: it chooses an action for the side to move in any position the rules allow.

The shape follows python-chess's `chess.engine`: the caller passes a `Limit` (a level, a time,
a number of nodes) and gets a `PlayResult` back (the move as a player types it, the chance that
the side to move wins, the expected line, the work done). Nothing else is shared between the
caller and the search, so the search can run in another process. Imports only `rules`.
"""

from twixt.engine.api import (
    LEVELS,
    LevelLimit,
    Limit,
    PlayResult,
    level_limit,
    pegs_to_connect,
    think,
)
from twixt.engine.core import CORE, DESCRIPTION

__all__ = ["CORE", "DESCRIPTION", "LEVELS", "LevelLimit", "Limit", "PlayResult", "level_limit",
           "pegs_to_connect", "think"]
