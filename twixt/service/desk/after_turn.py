"""What follows a turn: the event "a turn was played" and what its subscribers make of it.

A player's turn goes one way through the service: read at the edge into a command, prepared
(automatic links, shown first for confirmation: `cases.turns`), committed by the desk under
the channel's lock, then handed to whatever follows a turn (`Desk.turn_played`, in the order
the subjects subscribed: the conditional moves, which may answer it at once with a stored
reply; the clocks, whose dispatcher is woken when the turn set an earlier wake-up; the engine
player, which looks at the game when it has bot seats), and at last announced. A takeback is
handed to them too (`Played.took_back`), and a turn the clocks record (a loss on time). The
game's end has its own event (`Desk.game_ended`: the tournaments score their games there,
which also end by an abort or a withdrawal, with no turn).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime

from twixt.language import Translation
from twixt.rules import Game, Turn
from twixt.service.model import Reply, Request
from twixt.service.pure.clock.banks import TurnClock
from twixt.service.texts import turn_line
from twixt.storage import StoredGame


@dataclass(frozen=True)
class Played:
    """A turn as it was stored: who asked, the stored game after it, the game as the rules
    see it, the turn, the turn clock that follows (None without a clock or at the end) and
    the game's next wake-up for the clocks, stored with it (None: none). With `took_back`
    the entry took `turn` back (the last of the turns a takeback took back)."""

    request: Request
    stored: StoredGame
    game: Game
    turn: Turn
    turn_clock: TurnClock | None
    wake_at: datetime | None = None
    took_back: bool = False


@dataclass(frozen=True)
class Followed:
    """What became of a turn once what follows it had its say: the `last` turn played (a
    stored reply, when one `answered` the turn) and private `notices` to send with the
    announcement."""

    last: Played
    answered: Turn | None = None
    notices: tuple[Reply, ...] = ()

    def announce(self, reply: Reply, tr: Translation) -> Reply:
        """The announcement of the last turn (`reply`), led by the move a stored reply
        answered, so that both are said in one message under one board."""
        if self.answered is not None:
            lead = (turn_line(self.answered, tr),
                    tr("{name} answers at once with a stored move:", name=self.last.turn.player))
            reply = replace(reply, text="\n".join((*lead, reply.text)))
        if self.notices:
            reply = replace(reply, followups=(*reply.followups, *self.notices))
        return reply


#: a subscriber to "a turn was played" (the channel's lock is held): None when it has nothing
#: to add, or what followed (a turn played in answer, a notice)
TurnPlayed = Callable[[Played], Awaitable[Followed | None]]
