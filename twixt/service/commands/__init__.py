"""The service's commands as values: what a front end asks the service to do.

A front end either builds one directly from its own input (a slash command's options, a
button: `of_button`) or has the router read it from text (`router.read`); either way the
service runs it through one dispatch (`TwixtService.execute`). A command carries parsed
values — a move is a `rules.Command`, never text to be parsed again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, get_args

from twixt import rules
from twixt.rules import Action
from twixt.rules.conditionals import Plan
from twixt.service.commands.options import ChallengeOptions
from twixt.service.commands.tournament_options import TournamentOptions
from twixt.service.model import ButtonKind, PickStep, Reply, User

Answer = Literal["accept", "decline"]
DrawAction = Literal["offer", "accept", "decline"]
TakebackAction = Literal["request", "accept", "decline"]
#: the words `takeback` takes
TAKEBACK_ACTIONS: tuple[TakebackAction, ...] = get_args(TakebackAction)
ConditionalAction = Literal["store", "show", "clear"]


@dataclass(frozen=True)
class Challenge:
    """Challenge one user, or anyone in the channel when `opponent` is None."""

    opponent: User | None
    options: ChallengeOptions = field(default_factory=ChallengeOptions)


@dataclass(frozen=True)
class Team:
    """Double TwixT: the asker and `partner` against `opponents`."""

    partner: User
    opponents: tuple[User, User]
    options: ChallengeOptions = field(default_factory=ChallengeOptions)


@dataclass(frozen=True)
class AnswerChallenge:
    """Accept or decline a challenge (the newest one open to the asker when no id)."""

    answer: Answer
    challenge_id: int | None = None


@dataclass(frozen=True)
class Move:
    """A command of the move language, already parsed."""

    command: rules.Command


@dataclass(frozen=True)
class Resign:
    """Resign; unless `confirmed`, the service first asks to confirm with a button."""

    confirmed: bool = False


@dataclass(frozen=True)
class Takeback:
    """Ask to take back one's last turn, or answer such a request."""

    action: TakebackAction = "request"


@dataclass(frozen=True)
class Conditional:
    """Store conditional moves (`plan`: replies to the opponent's next moves), show the ones
    stored, or clear them; only the asker ever sees them."""

    action: ConditionalAction = "show"
    plan: Plan = ()


@dataclass(frozen=True)
class Claim:
    """Claim the win once the player to move has run out of time."""


@dataclass(frozen=True)
class Pick:
    """A step of the move picker used (`model.Picker`): in game `game_id` as its log stood at
    `version`, the control of `step` gave `chosen` (a column, a peg, a command with its links,
    or — Place — the command to play)."""

    game_id: int
    version: int
    step: PickStep
    chosen: str


@dataclass(frozen=True)
class NextGame:
    """The asker's most urgent game waiting for their move, in any server or direct message;
    other than game `skip` (the one a Next game button was under), when given."""

    skip: int = 0


@dataclass(frozen=True)
class Digest:
    """Show or change the asker's daily digest of the games waiting for them: at `hour`
    (0-23) in time zone `zone` (an IANA name like Europe/Berlin), or `off`."""

    hour: int | None = None
    zone: str | None = None
    off: bool = False


@dataclass(frozen=True)
class ShowBoard:
    """Post the board of the channel's game again."""


@dataclass(frozen=True)
class Status:
    """The facts of the channel's game."""


@dataclass(frozen=True)
class Help:
    """How to play, in brief, and every command's name; or, given `topic` (a command's
    word), how to write that command."""

    topic: str | None = None


@dataclass(frozen=True)
class Abort:
    """Call the channel's game off."""


@dataclass(frozen=True)
class Export:
    """The channel's current or last game as record files (`fmt` None: every format)."""

    fmt: str | None = None


@dataclass(frozen=True)
class History:
    """Past games of `user` in this server, or of this channel when None."""

    user: User | None = None
    page: int = 1


@dataclass(frozen=True)
class Replay:
    """An animated replay of a game (the channel's last when `game_id` is None)."""

    game_id: int | None = None


@dataclass(frozen=True)
class ImportRecord:
    """Show a record and challenge to continue it. `data` is the file's bytes, which only a
    front end can fetch (an attachment, a local file); None means it brought none."""

    filename: str
    data: bytes | None
    opponent: User | None = None
    options: ChallengeOptions = field(default_factory=ChallengeOptions)


@dataclass(frozen=True)
class Stats:
    """Wins, losses and rating of `user` (the asker when None)."""

    user: User | None = None


@dataclass(frozen=True)
class Leaderboard:
    page: int = 1


@dataclass(frozen=True)
class Rematch:
    """The players of a finished game again (the channel's last game when `game_id` is None)."""

    game_id: int | None = None


@dataclass(frozen=True)
class UserSettings:
    """Show or change the asker's preferences (`name → value` as typed)."""

    changes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ServerSettings:
    """Show or change the server's settings (those who manage the server change them)."""

    changes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Vacation:
    """Show one's vacation days in this server, start a vacation of `days` days now, or
    `end` the running one."""

    days: int | None = None
    end: bool = False


@dataclass(frozen=True)
class MyGames:
    """The asker's games in progress in this server, those waiting for them first."""

    page: int = 1


@dataclass(frozen=True)
class Note:
    """Keep a private note on a game (the channel's current or last when `game_id` is None)."""

    text: str
    game_id: int | None = None


@dataclass(frozen=True)
class Notes:
    """Show the asker's notes on a game, a page of them, or `clear` them all."""

    game_id: int | None = None
    page: int = 1
    clear: bool = False


@dataclass(frozen=True)
class ConfirmMove:
    """Play the asker's move waiting for confirmation in the channel's game; `pending_id`
    names the one a Confirm button was shown with (None: whichever is waiting)."""

    pending_id: int | None = None


@dataclass(frozen=True)
class TournamentAction:
    """A tournament command (`action`: create, join, leave, start, withdraw, standings,
    list, info, next-season) on the tournament numbered `tournament_id` (None: this channel's
    newest);
    `name` and `options` make one, `partner` joins a Double TwixT tournament with a team."""

    action: str
    tournament_id: int | None = None
    name: str = ""
    options: TournamentOptions | None = None
    partner: User | None = None


@dataclass(frozen=True)
class Analyze:
    """A finished game's win-probability curve (the channel's last game when `game_id` is
    None)."""

    game_id: int | None = None


@dataclass(frozen=True)
class ForGame:
    """`asked` for the game numbered `game_id` only (a button under its messages): refused
    once the channel's game is another one, or none."""

    game_id: int
    asked: ServiceCommand


ServiceCommand = (Challenge | Team | AnswerChallenge | Move | Resign | Takeback | Claim
                  | Conditional
                  | ShowBoard | Status | Help | Abort | Export | History | Replay
                  | ImportRecord | Stats | Leaderboard | Rematch | UserSettings
                  | ServerSettings | MyGames | Note | Notes | ConfirmMove | Vacation
                  | TournamentAction | Analyze | ForGame | Pick | NextGame | Digest)

#: the buttons that name what they answer (a challenge, a game, a move, a tournament)
_ANSWERING: dict[ButtonKind, Callable[[int], ServiceCommand]] = {
    ButtonKind.ACCEPT_CHALLENGE: lambda target: AnswerChallenge("accept", target),
    ButtonKind.DECLINE_CHALLENGE: lambda target: AnswerChallenge("decline", target),
    ButtonKind.REMATCH: Rematch, ButtonKind.CONFIRM_MOVE: ConfirmMove,
    ButtonKind.JOIN_TOURNAMENT: lambda target: TournamentAction("join", target),
    ButtonKind.NEXT_GAME: NextGame,
}
#: the buttons under a game's messages, as the commands they stand for in that game
_IN_GAME: dict[ButtonKind, ServiceCommand] = {
    ButtonKind.SWAP: Move(rules.Command(actions=(Action.SWAP,))),
    ButtonKind.PRIVILEGE: Move(rules.Command(actions=(Action.PRIVILEGE,))),
    ButtonKind.CONFIRM_RESIGN: Resign(confirmed=True),
    ButtonKind.ACCEPT_DRAW: Move(rules.Command(actions=(Action.ACCEPT_DRAW,))),
    ButtonKind.DECLINE_DRAW: Move(rules.Command(actions=(Action.DECLINE_DRAW,))),
    ButtonKind.CLAIM: Claim(),
    ButtonKind.ACCEPT_TAKEBACK: Takeback("accept"),
    ButtonKind.DECLINE_TAKEBACK: Takeback("decline"),
    ButtonKind.OFFER_DRAW: Move(rules.Command(actions=(Action.OFFER_DRAW,))),
    ButtonKind.RESIGN: Resign(),
}


def of_button(kind: ButtonKind, target: int) -> ServiceCommand:
    """The command a pressed button stands for; `target` is the challenge, game, move or
    tournament it belongs to. A press is a command like any other: through `execute`, with
    all that follows a command (the bot's attendance, tournament notices)."""
    answering = _ANSWERING.get(kind)
    return answering(target) if answering else ForGame(target, _IN_GAME[kind])


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
