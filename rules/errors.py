"""The exceptions of the rules, as python-chess splits them: text that does not parse, a
command the position forbids, and a record that cannot be read. Every message is one line a
player can read."""


class TwixtError(ValueError):
    """Anything a player or a record got wrong, including impossible game options."""


class InvalidMoveError(TwixtError):
    """Text that is not a command of the move language (`G6 lnk E5`, `swap; G6`)."""


class IllegalMoveError(TwixtError):
    """A well-formed command that the rules forbid here (`G6 is already taken`)."""


class RecordError(TwixtError):
    """A game record that cannot be read or replayed; `line` is 1-based, 0 when unknown."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason
