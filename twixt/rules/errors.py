"""The exceptions of the rules, as python-chess splits them: text that does not parse, a
command the position forbids, and a record that cannot be read. Every message is one line a
player can read, kept as a `Message` so that it can be said in the player's language
(`str()` of an error is its English)."""

from twixt.language import Message, message

#: how much of a user's text a message echoes back
MAX_QUOTE = 40


def quote(text: str) -> str:
    """User text echoed in a message: in quotes, on one line, and cut short, so that no
    input can make a reply longer than a chat message may be.

    >>> quote("G6  lnk\\nE5"), quote("x" * 50)[-3:]
    ('“G6 lnk E5”', 'x…”')
    """
    flat = " ".join(text.split())
    if len(flat) > MAX_QUOTE:
        flat = flat[:MAX_QUOTE - 1] + "…"
    return f"“{flat}”"


class TwixtError(ValueError):
    """Anything a player or a record got wrong, including impossible game options: raise it
    with an English template and its values, `IllegalMoveError("{hole} is taken", hole=h)`,
    or with a `Message` made earlier."""

    def __init__(self, template: str | Message, **values: object) -> None:
        self.message = (template if isinstance(template, Message)
                        else message(template, **values))
        super().__init__(str(self.message))


class InvalidMoveError(TwixtError):
    """Text that is not a command of the move language (`G6 lnk E5`, `swap; G6`)."""


class IllegalMoveError(TwixtError):
    """A well-formed command that the rules forbid here (`G6 is already taken`)."""


class RecordError(TwixtError):
    """A game record that cannot be read or replayed; `line` is 1-based, 0 when unknown."""

    def __init__(self, line: int, reason: str | Message, **values: object) -> None:
        self.reason = reason if isinstance(reason, Message) else message(reason, **values)
        super().__init__(message("line {line}: {reason}", line=line, reason=self.reason)
                         if line else self.reason)
        self.line = line
