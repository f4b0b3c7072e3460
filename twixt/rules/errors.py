"""The exceptions of the rules, as python-chess splits them: text that does not parse, a
command the position forbids, and a record that cannot be read. Every message is one line a
player can read, kept as a `Message` so that it can be said in the player's language
(`str()` of an error is its English)."""

import unicodedata

from twixt.language import Message, message

#: how much of a user's text a message echoes back
MAX_QUOTE = 40


def quote(text: str) -> str:
    """User text echoed in a message: in quotes, on one line, without what a name may not
    hold either (`visible`: a right-to-left override U+202E would turn the rest of the line
    around), and cut short, so that no input can make a reply longer than a chat message
    may be.

    >>> quote("G6  lnk\\nE5"), quote("x" * 50)[-3:], quote("\u202eG6")
    ('“G6 lnk E5”', 'x…”', '“G6”')
    """
    flat = " ".join(visible(text).split())
    if len(flat) > MAX_QUOTE:
        flat = flat[:MAX_QUOTE - 1] + "…"
    return f"“{flat}”"


#: the Unicode categories no player name holds: controls, the invisible format characters
#: (zero-width, direction-changing: U+200B, U+202E, U+2066, U+FEFF, …) and lone surrogates
INVISIBLE = frozenset({"Cc", "Cf", "Cs"})
#: the zero-width (non-)joiners, kept between two characters that show: they shape what is
#: seen there (an emoji family 👨‍👩‍👧, a Persian half-space), and hide nothing
_JOINERS = "\u200c\u200d"


def visible(text: str) -> str:
    r"""`text` with what a name may not hold (`INVISIBLE`) gone: controls (line breaks, tabs)
    become spaces, the invisible characters are dropped, but for a joiner between two
    characters that show.

    >>> visible("al\u200bice\u202e\tB"), visible("👨\u200d👩")
    ('alice B', '👨\u200d👩')
    """
    def shows(at: int) -> bool:
        return 0 <= at < len(text) and not text[at].isspace() \
            and unicodedata.category(text[at]) not in INVISIBLE

    kept = []
    for at, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category == "Cc":
            kept.append(" ")
        elif category not in INVISIBLE or (ch in _JOINERS and shows(at - 1) and shows(at + 1)):
            kept.append(ch)
    return "".join(kept)


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


class OutOfTurnError(IllegalMoveError):
    """A move by a player whose turn it is not (`it is bob's turn`)."""


class RecordError(TwixtError):
    """A game record that cannot be read or replayed; `line` is 1-based, 0 when unknown."""

    def __init__(self, line: int, reason: str | Message, **values: object) -> None:
        self.reason = reason if isinstance(reason, Message) else message(reason, **values)
        super().__init__(message("line {line}: {reason}", line=line, reason=self.reason)
                         if line else self.reason)
        self.line = line
