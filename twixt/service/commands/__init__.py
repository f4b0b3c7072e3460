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
(`handlers_of`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from twixt import rules
from twixt.rules import Action
from twixt.service.commands import challenges, records, settings, tournaments, turns, your_games
from twixt.service.commands.challenges import *  # noqa: F403
from twixt.service.commands.controls import Offered, Situation
from twixt.service.commands.listing import PLAY, Group, Kind, Listed, Listing, Option, names_of
from twixt.service.commands.records import *  # noqa: F403
from twixt.service.commands.settings import *  # noqa: F403
from twixt.service.commands.tournaments import *  # noqa: F403
from twixt.service.commands.turns import *  # noqa: F403
from twixt.service.commands.words import ForGame, ServiceCommand
from twixt.service.commands.your_games import *  # noqa: F403
from twixt.service.errors import LimitError, MalformedError
from twixt.service.model import ButtonKind, Reply

__all__ = ["PLAY", "ForGame", "Group", "Handler", "Handlers", "Kind", "Listed", "Listing",
           "Offered", "Option", "ServiceCommand", "Situation", "command_kinds", "handlers_of",
           "handles", "names_of", "of_button", "of_control", *challenges.__all__,
           *records.__all__, *settings.__all__, *tournaments.__all__, *turns.__all__,
           *your_games.__all__]


def command_kinds() -> list[type[ServiceCommand]]:
    """Every kind of command there is: the `ServiceCommand`s this package offers (each
    subject's, as its module's `__all__` names them)."""
    offered = (globals()[name] for name in __all__)
    return [kind for kind in offered if isinstance(kind, type)
            and issubclass(kind, ServiceCommand) and kind is not ServiceCommand]


#: the buttons that name what they answer (a challenge, a game, a move, a tournament)
_ANSWERING: dict[ButtonKind, Callable[[int], ServiceCommand]] = {
    ButtonKind.ACCEPT_CHALLENGE: lambda target: challenges.AnswerChallenge("accept", target),
    ButtonKind.DECLINE_CHALLENGE: lambda target: challenges.AnswerChallenge("decline", target),
    ButtonKind.REMATCH: challenges.Rematch, ButtonKind.CONFIRM_MOVE: turns.ConfirmMove,
    ButtonKind.JOIN_TOURNAMENT: lambda target: tournaments.TournamentAction("join", target),
    ButtonKind.NEXT_GAME: your_games.NextGame,
}
#: the buttons under a game's messages, as the commands they stand for in that game
_IN_GAME: dict[ButtonKind, ServiceCommand] = {
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


def of_button(kind: ButtonKind, target: int) -> ServiceCommand:
    """The command a pressed button stands for; `target` is the challenge, game, move or
    tournament it belongs to. A press is a command like any other: through `execute`, with
    all that follows a command (the bot's attendance, tournament notices)."""
    answering = _ANSWERING.get(kind)
    return answering(target) if answering else ForGame(target, _IN_GAME[kind])


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
# Each subject marks its own method (`handles`) and the service finds them (`handlers_of`),
# so no table beside the subjects has to be kept in step. A handler is called with the
# asker's request and the command's fields by name (`tests/service/test_dispatch.py` holds
# each handler's parameters to its command's fields).

Handler = Callable[..., Awaitable[Reply]]
H = TypeVar("H", bound=Callable[..., Any])

_HANDLES = "_handles"


def handles(*kinds: type) -> Callable[[H], H]:
    """Mark a subject's method as the one that does commands of `kinds`."""
    def mark(method: H) -> H:
        setattr(method, _HANDLES, kinds)
        return method

    return mark


@dataclass(frozen=True)
class Handlers:
    """Each command kind → the subject and the name of its method that does it, looked up
    when a command comes (so the method is the subject's as it is then)."""

    marked: dict[type, tuple[object, str]]

    def __call__(self, kind: type) -> Handler:
        """The method that does commands of `kind` (KeyError: none does)."""
        subject, name = self.marked[kind]
        method: Handler = getattr(subject, name)
        return method


def handlers_of(*subjects: object) -> Handlers:
    """The methods of `subjects` marked with `handles`; a kind that two methods claim is a
    mistake, refused at once."""
    found: dict[type, tuple[object, str]] = {}
    for subject in subjects:
        for name in dir(type(subject)):
            for kind in getattr(getattr(type(subject), name), _HANDLES, ()):
                if kind in found:
                    raise TypeError(f"{kind.__name__} is handled twice")
                found[kind] = (subject, name)
    return Handlers(found)
