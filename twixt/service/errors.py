"""Why the service refuses a request: one class for each cause, under `ServiceError`.

A front end decides what happened from the class alone (the refused `Reply` carries it as
`Reply.refused`), never from the words: the web turns a kind into its status code, a test
asserts the kind. The message is for the person asking: one line, said in their language.
Every refusal raises one of these kinds, never the base (`tests/service/test_refusal_kinds.py`
holds the code to that), and each kind names a cause, not a subject: a game not found and a
tournament not found are both `MissingError`.
"""

from __future__ import annotations

from twixt.language import Message, message
from twixt.rules import IllegalMoveError, OutOfTurnError, TwixtError


class ServiceError(Exception):
    """A request the service refuses; the message is one line for the user, nothing changed.
    Raised as one of its kinds with an English template and its values, or a `Message` made
    earlier (a rules error's); the front end says it in the asker's language."""

    def __init__(self, template: str | Message, **values: object) -> None:
        self.message = (template if isinstance(template, Message)
                        else message(template, **values))
        super().__init__(str(self.message))


class MalformedError(ServiceError):
    """What was typed or sent cannot be read: an unknown command, option, setting or word, a
    value outside those its option takes, a move the move language does not know, a record
    that does not read. Asking again in other words may do."""


class MissingError(ServiceError):
    """What the request names is not there, or not for the asker to see: no game in this
    channel, no such game, challenge, tournament or person, no request to answer."""


class NotAllowedError(ServiceError):
    """The asker may not do this, or not here: a manager's or a player's right, a server's
    setting, an answer for the asker alone where every reply is public."""


class NotYourTurnError(ServiceError):
    """The game waits for another player: it is their move, or their answer."""


class ConflictError(ServiceError):
    """The request is well-formed and the asker's to make, but the state of the game (or the
    challenge, the tournament, the vacation) does not take it now: the game is over, the
    position moved on since it was shown, the hole is taken, it is done already."""


class LimitError(ServiceError):
    """Past a bound that keeps any one person from taking more than their share: a text or a
    file too long, too many notes, games or analyses of one's own, a game's log full, the
    vacation days of a year, an event's places."""


class BusyError(ServiceError):
    """A resource shared by everyone is taken just now (the engine, the replays being drawn,
    Discord out of reach): the same request later may do."""


class FaultError(ServiceError):
    """Not the asker's doing: the service could not do what was asked, its database out of
    use or a bug of its own (logged for whoever runs it). The funnel (`service.refusal`)
    answers with this kind for any exception that is not a refusal."""


#: every kind of refusal, for a front end to map them all (a test holds its map to this)
REFUSAL_KINDS: tuple[type[ServiceError], ...] = (
    MalformedError, MissingError, NotAllowedError, NotYourTurnError, ConflictError,
    LimitError, BusyError, FaultError)


def refused_by_rules(error: TwixtError) -> ServiceError:
    """A rules error as the service refuses it, its words kept: a move out of turn, a move
    the position forbids (a conflict with the game's state), or text and records the rules
    cannot read."""
    kind = (NotYourTurnError if isinstance(error, OutOfTurnError)
            else ConflictError if isinstance(error, IllegalMoveError)
            else MalformedError)
    return kind(error.message)
