"""How a game's page offers a command: as a control, declared beside the command.

A command that a person may use from a game's view (the web page) says so in its `Listing`
(`controls=(Offered(…),)`): the control's name (what the page hands back), its label, whether
the person writes text for it, when it is open to a person (`open`, judged on a
`Situation`), and the command a use of it is (`build`). The game's view lists the declared
controls open to its person now (`cases/game_view.py`), and `commands.of_control` turns the
one chosen back into its command, so a command declared in its subject's module reaches the
page as it reaches the slash commands and the help, with nothing written anywhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from twixt.language import Message
from twixt.rules import Colour, Game

if TYPE_CHECKING:  # the commands declare their controls
    from twixt.service.commands.words import ServiceCommand

__all__ = ["Offered", "Situation", "always", "playing"]


@dataclass(frozen=True)
class Situation:
    """What decides whether a control is open: the game as it stands, and the seat of the
    person who looks (an onlooker is offered nothing). What follows from them (whose turn it
    is, the person's colour, …) is worked out once, as the situation is made: every control
    of every view of a seat asks, after every change."""

    game: Game
    seat: int
    #: the game is in progress (neither over nor called off)
    playing: bool
    #: each seat's team (Double TwixT: two seats a team)
    teams: tuple[int, ...]
    #: the seat whose request to take its last turn back is open
    takeback_by: int | None
    #: whether the person has a turn of their own they may ask to take back
    may_take_back: bool
    #: the player to move has run out of time (a clocked game)
    time_up: bool = False
    #: the colour the person plays
    colour: Colour = field(init=False, repr=False, compare=False)
    #: the seat to move (None: the game is not in progress)
    to_move: int | None = field(init=False, repr=False, compare=False)
    #: the person is to move
    my_turn: bool = field(init=False, repr=False, compare=False)
    #: an opponent (not a partner) is to move
    opponent_to_move: bool = field(init=False, repr=False, compare=False)
    #: an opponent asks to take back their last turn
    asked_by_opponent: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        seat, teams, takeback_by = self.seat, self.teams, self.takeback_by
        to_move = self.game.seat_to_move if self.playing else None
        # set as a frozen dataclass's fields are: straight into its dict
        self.__dict__.update(
            colour=self.game.colour_of_seat(seat), to_move=to_move, my_turn=to_move == seat,
            opponent_to_move=to_move is not None and teams[to_move] != teams[seat],
            asked_by_opponent=takeback_by is not None and teams[takeback_by] != teams[seat])


@dataclass(frozen=True)
class Offered:
    """A command as a game's page offers it: `name` (unique among the controls; what the
    page hands back), `label`, whether the person writes text for it (`takes_text`: a turn,
    a note; `example`: what it looks like), when it is open (`open`), and the command a use
    of it is: `build(text, game_id)`, which may raise `ServiceError` for text that is no
    command of its kind. A command that acts on the channel's game is built as a `ForGame`,
    so that it acts only in the page's game."""

    name: str
    label: Message
    open: Callable[[Situation], bool]
    build: Callable[[str, int], ServiceCommand]
    takes_text: bool = False
    #: for a control with text written in the move language, a line of it, shown in the
    #: empty field so that the person sees what to write
    example: str = ""


def playing(situation: Situation) -> bool:
    """Open while the game is in progress."""
    return situation.playing


def always(situation: Situation) -> bool:
    """Open to every player of the game, over or not (their notes)."""
    return True
