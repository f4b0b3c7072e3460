"""The commands of a game in progress (`cases/turns.py`, `conditionals.py`, `clocks.py`,
`confirmation.py` and `picker.py` do them): moves, resignation, draws, takebacks, conditional
moves, a claim on time, the board, status, abort, confirm, the picker's steps, and help —
their values, how a typed line is read into them, and their help."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal, get_args

from twixt import rules
from twixt.language import message
from twixt.rules import Action, Command, InvalidMoveError, RuleSet, parse_command, quote
from twixt.rules.conditionals import Plan, parse_conditionals
from twixt.service.commands.controls import Offered, Situation, playing
from twixt.service.commands.listing import PLAY, Kind, Listing, Option
from twixt.service.commands.spelling import did_you_mean
from twixt.service.commands.words import ForGame, People, ServiceCommand, Topic, Words
from twixt.service.errors import MalformedError, refused_by_rules
from twixt.service.model import PickStep

__all__ = ["PRIVATE", "TAKEBACK_ACTIONS", "Abort", "Claim", "Conditional", "ConditionalAction",
           "ConfirmMove", "DrawAction", "Help", "Move", "Pick", "Resign", "ShowBoard", "Status",
           "Takeback", "TakebackAction", "conditional", "read_move"]

WORDS = Words(PLAY)

DrawAction = Literal["offer", "accept", "decline"]
TakebackAction = Literal["request", "accept", "decline"]
#: the words `takeback` takes
TAKEBACK_ACTIONS: tuple[TakebackAction, ...] = get_args(TakebackAction)
ConditionalAction = Literal["store", "show", "clear"]
_RESIGN = Command(actions=(Action.RESIGN,))
_DRAW_WORDS: tuple[DrawAction, ...] = get_args(DrawAction)
#: the refusal of conditional moves where every reply is public (a chat message)
PRIVATE = message("conditional moves are private: store them with /twixt if, where only you "
                  "see them (and delete your message)")


@dataclass(frozen=True)
class Move(ServiceCommand):
    """A command of the move language, already parsed."""

    command: rules.Command


@dataclass(frozen=True)
class Resign(ServiceCommand):
    """Resign; unless `confirmed`, the service first asks to confirm with a button."""

    confirmed: bool = False


#: the move texts whose reading `read_move` keeps (a move's text is short; its reading is
#: the same every time, and a page's or a chat's moves repeat across games)
READ_MOVES = 4096
#: the longest text whose reading is kept
READ_MOVE_CHARS = 64


def read_move(text: str) -> Move | Resign:
    """A command of the move language; a resignation alone is asked to be confirmed. A short
    text's reading is kept (a refusal is not: it is raised each time)."""
    if len(text) <= READ_MOVE_CHARS:
        return _kept_move(text)
    return _read_move(text)


@lru_cache(maxsize=READ_MOVES)
def _kept_move(text: str) -> Move | Resign:
    return _read_move(text)


def _read_move(text: str) -> Move | Resign:
    try:
        command = parse_command(text)
    except InvalidMoveError as error:
        raise refused_by_rules(error) from None
    if command == _RESIGN:
        return Resign(confirmed=False)
    return Move(command)


def _typed(command: str) -> ServiceCommand:
    """`/twixt move`'s line, read as a typed one: any command may be written there."""
    from twixt.service.commands import router  # the router reads every subject's words

    return router.read_command(command)


def _acting(action: Action) -> Callable[[], Move]:
    """The build of a command that is one action of the move language."""
    return lambda: Move(Command(actions=(action,)))


def _in_game(asked: Callable[[], ServiceCommand]) -> Callable[[str, int], ServiceCommand]:
    """The build of a page's control that takes no text: `asked`, in the page's game."""
    return lambda text, game_id: ForGame(game_id, asked())


def _turn(text: str, game_id: int) -> ServiceCommand:
    """A page's turn: the move language, in the page's game."""
    return ForGame(game_id, read_move(text))


def _turn_offering_draw(text: str, game_id: int) -> ServiceCommand:
    """A page's turn with a draw offered along with it (`G6 link E5; offer draw`)."""
    move = read_move(text)
    if not isinstance(move, Move) or not move.command.is_move:
        raise MalformedError("a draw is offered with a peg or a swap")
    offered = move.command.actions
    if Action.OFFER_DRAW not in offered:
        offered = (*offered, Action.OFFER_DRAW)
    return ForGame(game_id, Move(replace(move.command, actions=offered)))


def _may_remove(situation: Situation) -> bool:
    """Classic rules, on one's turn, with a peg of one's own on the board (a bit of the
    board's own: every view of a seat asks, after every change)."""
    game = situation.game
    return (situation.my_turn and game.rules is RuleSet.CLASSIC
            and game.position.peg_bits[situation.colour] != 0)


WORDS.word("move", Topic(message("Play your turn, like G6 link E5"), "[move] MOVE",
                         "G6 link E5"),
           reader=lambda words, people: read_move(" ".join(words)),
           listing=Listing(_typed, (Option("command", message(
               "G6 · G6 link E5 · remove J9-K11; I11 link K10 · swap"), required=True),), controls=(
               # the page chooses the peg on its board, and places it with one of these
               Offered("move", message("Place"), lambda s: s.my_turn, _turn, takes_text=True),
               Offered("move-offer-draw", message("Place and offer draw"),
                       lambda s: s.my_turn and s.game.draw_offered_by is None,
                       _turn_offering_draw, takes_text=True),
               Offered("remove", message("Remove"), _may_remove, _turn, takes_text=True,
                       example="remove G6; H8"))))
# the move language's own words, which the rules read
WORDS.word("swap", Topic(message("Take over Red's first peg (when swap is on)"), "swap",
                         "swap"), listing=Listing(_acting(Action.SWAP), controls=(
    Offered("swap", message("Swap"), lambda s: s.my_turn and s.game.can_swap(),
            _in_game(_acting(Action.SWAP))),)))
WORDS.word("privilege", Topic(message("Double TwixT: call Privilege after your move"),
                              "privilege | MOVE; privilege", "G6 link E5; privilege"),
           listing=Listing(_acting(Action.PRIVILEGE), controls=(
               Offered("privilege", message("Privilege"),
                       lambda s: s.playing and s.game.is_double
                       and s.game.can_call_privilege(s.game.players[s.seat]),
                       _in_game(_acting(Action.PRIVILEGE))),)))
WORDS.word("resign", Topic(message("Resign this game (asks to confirm)"), "resign | resign yes",
                           "resign"),
           # confirmed as it is typed, where there is no button to press (the terminal)
           lines=[(line, Resign(confirmed=True)) for line in ("resign yes", "move resign yes")],
           listing=Listing(Resign, controls=(
               # a page that offers it asks to confirm first itself
               Offered("resign", message("Resign"), playing,
                       _in_game(lambda: Resign(confirmed=True))),)))
_DRAWING = {"offer": Action.OFFER_DRAW, "accept": Action.ACCEPT_DRAW,
            "decline": Action.DECLINE_DRAW}


def _draw_offered_to(situation: Situation) -> bool:
    """An opponent offers a draw."""
    offered_by = situation.game.draw_offered_by
    return situation.playing and offered_by not in (None, situation.colour)


@WORDS.reads("draw", topic=Topic(message("Offer a draw, or accept or decline one"),
                                 "draw offer|accept|decline | offer draw", "offer draw"),
             listing=Listing(lambda action: Move(Command(actions=(_DRAWING[action],))), (Option(
                 "action", message("offer a draw, or answer your opponent's offer"),
                 Kind.CHOICE, required=True, choices=_DRAW_WORDS),), controls=(
                 Offered("draw-offer", message("Offer draw"),
                         lambda s: s.playing and s.game.draw_offered_by is None,
                         _in_game(_acting(Action.OFFER_DRAW))),
                 Offered("draw-accept", message("Accept draw"), _draw_offered_to,
                         _in_game(_acting(Action.ACCEPT_DRAW))),
                 Offered("draw-decline", message("Decline draw"), _draw_offered_to,
                         _in_game(_acting(Action.DECLINE_DRAW))))))
def _draw(words: list[str], people: People) -> Move | None:
    """`draw offer` (the move language says `offer draw`, read by the rules)."""
    if len(words) != 1:
        return None
    if words[0].lower() not in _DRAW_WORDS:
        raise (did_you_mean(words[0], _DRAW_WORDS, before="draw ")
               or MalformedError("draw takes offer, accept or decline, not {word}",
                                 word=quote(words[0])))
    return Move(parse_command(f"{words[0].lower()} draw"))


@dataclass(frozen=True)
class Takeback(ServiceCommand):
    """Ask to take back one's last turn, or answer such a request."""

    action: TakebackAction = "request"


def _takeback(words: list[str], people: People) -> None:
    """A word after `takeback` that is none of its own (those are whole lines)."""
    if len(words) == 1:
        raise (did_you_mean(words[0], TAKEBACK_ACTIONS, before="takeback ")
               or MalformedError("takeback takes request, accept or decline, not {word}",
                                 word=quote(words[0])))


WORDS.word("takeback", Topic(message("Ask to take back your last turn, or answer such a "
                                     "request"),
                             "takeback [request|accept|decline]", "takeback"),
           lines={"takeback": Takeback("request"), "accept takeback": Takeback("accept"),
                  "decline takeback": Takeback("decline"),
                  **{f"takeback {action}": Takeback(action)
                     for action in TAKEBACK_ACTIONS}}.items(),
           reader=_takeback,
           listing=Listing(Takeback, (Option(
               "action", message("request (your last turn), or accept or decline a request"),
               Kind.CHOICE, choices=TAKEBACK_ACTIONS),), controls=(
               Offered("takeback", message("Ask to take back"),
                       lambda s: s.playing and s.takeback_by is None and s.may_take_back,
                       _in_game(lambda: Takeback("request"))),
               Offered("takeback-accept", message("Accept takeback"),
                       lambda s: s.playing and s.asked_by_opponent,
                       _in_game(lambda: Takeback("accept"))),
               Offered("takeback-decline", message("Decline takeback"),
                       lambda s: s.playing and s.asked_by_opponent,
                       _in_game(lambda: Takeback("decline"))))))


@dataclass(frozen=True)
class Claim(ServiceCommand):
    """Claim the win once the player to move has run out of time."""


WORDS.word("claim", Topic(message("Claim the win when your opponent's time is up"), "claim",
                          "claim"),
           lines=[("claim", Claim())], listing=Listing(Claim, controls=(
               Offered("claim", message("Claim the win"),
                       lambda s: s.opponent_to_move and s.time_up, _in_game(Claim)),)))


@dataclass(frozen=True)
class ShowBoard(ServiceCommand):
    """Post the board of the channel's game again."""


WORDS.word("board", Topic(message("Show the board of this channel's game"), "board", "board"),
           lines=[("board", ShowBoard())], listing=Listing(ShowBoard))


@dataclass(frozen=True)
class Status(ServiceCommand):
    """The facts of the channel's game."""


WORDS.word("status", Topic(message("Players, options and whose turn it is"), "status", "status"),
           lines=[("status", Status())], listing=Listing(Status))


@dataclass(frozen=True)
class Abort(ServiceCommand):
    """Call the channel's game off."""


WORDS.word("abort", Topic(message("Call the game off (a channel manager, or all players)"),
                          "abort", "abort"),
           lines=[("abort", Abort())], listing=Listing(Abort))


@dataclass(frozen=True)
class ConfirmMove(ServiceCommand):
    """Play the asker's move waiting for confirmation in the channel's game; `pending_id`
    names the one a Confirm button was shown with (None: whichever is waiting)."""

    pending_id: int | None = None


WORDS.word("confirm", Topic(message("Play the move you were shown privately (with confirm "
                                    "on)"), "confirm", "confirm"),
           lines=[("confirm", ConfirmMove())])


@dataclass(frozen=True)
class Conditional(ServiceCommand):
    """Store conditional moves (`plan`: replies to the opponent's next moves), show the ones
    stored, or clear them; only the asker ever sees them."""

    action: ConditionalAction = "show"
    plan: Plan = ()


def conditional(text: str) -> Conditional:
    """What follows `if`: conditional moves to store (the leading `if` may be written or
    not), `clear`, or nothing, which shows the stored ones."""
    words = text.lower().split()
    if not words:
        return Conditional("show")
    if words == ["clear"]:
        return Conditional("clear")
    try:
        return Conditional("store", parse_conditionals(text))
    except InvalidMoveError as error:
        raise refused_by_rules(error) from None


@WORDS.reads("if", "conditions", topic=Topic(
    message("Store private replies to your opponent's next moves"),
    "if MOVE then REPLY; … | if clear | if", "if H9 then G6; if J10 then K8"),
             listing=Listing(lambda moves="": conditional(moves), (Option("moves", message(
                 "if H9 then G6; if J10 then K8 · clear · leave out: show them")),), controls=(
                 # stored while an opponent is to move: not in Double TwixT, where a partner
                 # moves between
                 Offered("conditional", message("Conditional moves"),
                         lambda s: s.opponent_to_move and not s.game.is_double,
                         lambda text, game_id: ForGame(game_id, conditional(text)),
                         takes_text=True, example="if H9 then G6"),)))
def _conditional(words: list[str], people: People) -> Conditional:
    return conditional(" ".join(words))


@dataclass(frozen=True)
class Pick(ServiceCommand):
    """A step of the move picker used (`model.Picker`): in game `game_id` as its log stood at
    `version`, the control of `step` gave `chosen` (a column, a peg, a command with its links,
    or — Place — the command to play)."""

    game_id: int
    version: int
    step: PickStep
    chosen: str


@dataclass(frozen=True)
class Help(ServiceCommand):
    """How to play, in brief, and every command's name; or, given `topic` (a command's
    word), how to write that command."""

    topic: str | None = None


def _command_words() -> tuple[str, ...]:
    """Every command's word, as help names them (`help`'s suggestions)."""
    from twixt.service.commands import router  # the router puts every subject's words together

    return router.VOCABULARY.words


@WORDS.reads("help", topic=Topic(message("How to play, and the move language"),
                                 "help [COMMAND]", "help challenge"),
             listing=Listing(lambda command=None: Help(command), (Option("command", message(
                 "a command to explain, like challenge (leave out: all of them)"),
                                           suggestions=_command_words),)))
def _help(words: list[str], people: People) -> Help:
    """`help`, or `help COMMAND` (the service knows the commands' help, and says which
    command a word that is none most likely meant)."""
    if len(words) > 1:
        raise MalformedError("write help, or help and one command, like help challenge")
    return Help(words[0].lower() if words else None)
