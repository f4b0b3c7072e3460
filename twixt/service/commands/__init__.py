"""The service's commands as values: what a front end asks the service to do.

A front end either builds one directly from its own input (a slash command's options, a
button: `of_button`) or has the router read it from text (`router.read_command`); either way the
service runs it through one dispatch (`TwixtService.execute`). A command carries parsed
values — a move is a `rules.Command`, never text to be parsed again.

Each subject keeps its commands in a module of its own — their values, how a typed line is
read into them, their help and how they are listed (`challenges`, `turns`, `your_games`,
`records`, `settings`, `tournaments`; see `words` and `listing`) — and this package offers
them all under one name, as asyncio's package does its modules' (`commands.Move`); the
router puts their words together (`router.VOCABULARY`), the service their handlers
(`handles`, `service.HANDLED_BY`). Each subject's module is imported when one of its names
is first used (`OFFERED`).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from twixt.rules import later
from twixt.service.errors import LimitError, MalformedError
from twixt.service.model import ButtonKind, Reply

if TYPE_CHECKING:  # imported when first used (`__getattr__`)
    from twixt.service.commands.challenges import *  # noqa: F403
    from twixt.service.commands.controls import Offered, Situation
    from twixt.service.commands.listing import (
        PLAY,
        Group,
        Kind,
        Listed,
        Listing,
        Option,
        names_of,
    )
    from twixt.service.commands.records import *  # noqa: F403
    from twixt.service.commands.settings import *  # noqa: F403
    from twixt.service.commands.tournaments import *  # noqa: F403
    from twixt.service.commands.turns import *  # noqa: F403
    from twixt.service.commands.words import ForGame, ServiceCommand
    from twixt.service.commands.your_games import *  # noqa: F403

#: each subject's command module → the names it offers here (its `__all__`, which
#: tests/service/test_dispatch.py holds this to), in the order `help` names the subjects
#: (`router.SUBJECTS`): a module is imported when one of its names is first used
#: (`commands.Move`), so that a process that answers no command (`twixt web`'s first page)
#: does not wait for every subject's commands to be made
OFFERED: dict[str, tuple[str, ...]] = {
    "challenges": ("CHALLENGE_OPTION_FORMS", "Answer", "AnswerChallenge", "Challenge",
                   "Rematch", "TeamChallenge"),
    "turns": ("PRIVATE", "TAKEBACK_ACTIONS", "Abort", "Claim", "Conditional",
              "ConditionalAction", "ConfirmMove", "DrawAction", "Help", "Move", "Pick",
              "Resign", "ShowBoard", "Status", "Takeback", "TakebackAction", "conditional",
              "read_move"),
    "your_games": ("MAX_NOTE", "MyGames", "NextGame", "Note", "Notes"),
    "records": ("Analyze", "Export", "History", "ImportRecord", "Leaderboard", "Replay",
                "Stats"),
    "settings": ("Digest", "ServerSettings", "UserSettings", "Vacation"),
    "tournaments": ("TournamentAction",),
}
_MODULE_OF = {name: module for module, names in OFFERED.items() for name in names} | {
    # what every subject's commands are made of
    "Offered": "controls", "Situation": "controls", "ForGame": "words",
    "ServiceCommand": "words", **dict.fromkeys(
        ("PLAY", "Group", "Kind", "Listed", "Listing", "Option", "names_of"), "listing")}

__all__ = ["OFFERED", "PLAY", "ForGame", "Group", "Handler", "Kind", "Listed",
           "Listing", "Offered", "Option", "ServiceCommand", "Situation", "command_kinds",
           "handled_by", "handler_name", "handles", "names_of", "of_button", "of_control",
           *_MODULE_OF]


if not TYPE_CHECKING:  # to the type checker, the names are imported above
    __getattr__ = later.importer(__name__, _MODULE_OF)


def command_kinds() -> list[type[ServiceCommand]]:
    """Every kind of command there is: the `ServiceCommand`s this package offers (each
    subject's, as its module's `__all__` names them)."""
    from twixt.service.commands.words import ServiceCommand

    offered = (getattr(sys.modules[__name__], name) for name in __all__)
    return [kind for kind in offered if isinstance(kind, type)
            and issubclass(kind, ServiceCommand) and kind is not ServiceCommand]


@functools.cache
def _buttons() -> tuple[dict[ButtonKind, Callable[[int], ServiceCommand]],
                        dict[ButtonKind, ServiceCommand]]:
    """The buttons that name what they answer (a challenge, a game, a move, a tournament), and
    those under a game's messages, as the commands they stand for in that game."""
    from twixt import rules
    from twixt.rules import Action
    from twixt.service.commands import challenges, tournaments, turns, your_games

    answering: dict[ButtonKind, Callable[[int], ServiceCommand]] = {
        ButtonKind.ACCEPT_CHALLENGE: lambda target: challenges.AnswerChallenge("accept",
                                                                               target),
        ButtonKind.DECLINE_CHALLENGE: lambda target: challenges.AnswerChallenge("decline",
                                                                                target),
        ButtonKind.REMATCH: challenges.Rematch, ButtonKind.CONFIRM_MOVE: turns.ConfirmMove,
        ButtonKind.JOIN_TOURNAMENT: lambda target: tournaments.TournamentAction("join",
                                                                                target),
        ButtonKind.NEXT_GAME: your_games.NextGame,
    }
    in_game: dict[ButtonKind, ServiceCommand] = {
        ButtonKind.SWAP: turns.Move(rules.Command(actions=(Action.SWAP,))),
        ButtonKind.PRIVILEGE: turns.Move(rules.Command(actions=(Action.PRIVILEGE,))),
        ButtonKind.CONFIRM_RESIGN: turns.Resign(confirmed=True),
        ButtonKind.ACCEPT_DRAW: turns.Move(rules.Command(actions=(Action.ACCEPT_DRAW,))),
        ButtonKind.DECLINE_DRAW: turns.Move(rules.Command(actions=(Action.DECLINE_DRAW,))),
        ButtonKind.CLAIM: turns.Claim(),
        ButtonKind.ACCEPT_TAKEBACK: turns.Takeback("accept"),
        ButtonKind.DECLINE_TAKEBACK: turns.Takeback("decline"),
        ButtonKind.OFFER_DRAW: turns.Move(rules.Command(actions=(Action.OFFER_DRAW,))),
        ButtonKind.RESIGN: turns.Resign(),
    }
    return answering, in_game


def of_button(kind: ButtonKind, target: int) -> ServiceCommand:
    """The command a pressed button stands for; `target` is the challenge, game, move or
    tournament it belongs to. A press is a command like any other: through `execute`, with
    all that follows a command (the bot's attendance, tournament notices)."""
    from twixt.service.commands.words import ForGame

    answering, in_game = _buttons()
    answer = answering.get(kind)
    return answer(target) if answer else ForGame(target, in_game[kind])


#: the most a control's text may hold (a note is at most 1,000 characters; a turn or a line
#: of conditional moves far less)
MAX_CONTROL_TEXT = 2000


def of_control(name: str, game_id: int, text: str = "") -> ServiceCommand:
    """The command a control of game `game_id`'s view stands for (`GameView.controls`: the
    controls its commands declare, `Listing.controls`), with the person's `text` for one
    that takes text; ServiceError for a control there is not, or text that is no command of
    its kind. One that acts on the channel's game acts only in that game (`ForGame`)."""
    from twixt.service.commands import router  # the router puts every subject's words together

    if len(text) > MAX_CONTROL_TEXT:
        raise LimitError("that is too long: at most {most} characters", most=MAX_CONTROL_TEXT)
    offered = router.VOCABULARY.controls.get(name)
    if offered is None or (text and not offered.takes_text):
        raise MalformedError("the page asked for something it cannot do")
    return offered.build(text, game_id)


# --- which use case does which command ----------------------------------------------------
# Each subject marks its own method (`handles`); the service names the subject of each
# command in a table (`service.HANDLED_BY`) and finds the marked method in it when the
# command first comes (`handler_name`). A handler is called with the asker's request and the
# command's fields by name (`tests/service/test_dispatch.py` holds each command to one
# handler, in the subject the table names, and its parameters to the command's fields).

Handler = Callable[..., Awaitable[Reply]]
H = TypeVar("H", bound=Callable[..., Any])

_HANDLES = "_handles"


def handles(*kinds: type) -> Callable[[H], H]:
    """Mark a subject's method as the one that does commands of `kinds`."""
    def mark(method: H) -> H:
        setattr(method, _HANDLES, kinds)
        return method

    return mark


def handled_by(method: object) -> tuple[type, ...]:
    """The kinds of command `method` is marked as doing (`handles`; none: not a handler)."""
    kinds: tuple[type, ...] = getattr(method, _HANDLES, ())
    return kinds


#: (a subject's class, a kind of command) → the name of its method that does it, as found
_HANDLER_NAMES: dict[tuple[type, type], str] = {}


def handler_name(subject: type, kind: type) -> str:
    """The name of `subject`'s method marked as doing commands of `kind`, found once
    (KeyError: none is)."""
    name = _HANDLER_NAMES.get((subject, kind))
    if name is None:
        name = next((name for name in dir(subject)
                     if kind in handled_by(getattr(subject, name))), None)
        if name is None:
            raise KeyError(kind.__name__)
        _HANDLER_NAMES[subject, kind] = name
    return name
