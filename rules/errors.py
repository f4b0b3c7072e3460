"""The exceptions of the rules: one for an illegal command, one for a broken record."""


class TwixtError(ValueError):
    """Anything a player or a record got wrong; the message is one line a player can read."""


class IllegalMove(TwixtError):
    """A command that the rules do not allow; the message names the cause for a player."""


class RecordError(TwixtError):
    """A game record that cannot be read or replayed; `line` is 1-based, 0 when unknown."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason
