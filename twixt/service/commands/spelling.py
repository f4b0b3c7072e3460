"""Which known word a typo most likely meant: `chalenge` → `challenge`, `resgin` → `resign`.

A typed command that is no command used to fall through to the move language, whose answer
("a move looks like G6 …") helps nobody who typed a command. The distance is the optimal
string alignment one (Levenshtein with swapped neighbours as one edit, the commonest typo on
a phone), and a suggestion is made only within one edit for a short word and two for a
longer one, so that chat words (`hello`, `bored`) and moves (`G6`) get no false friend.
"""

from __future__ import annotations

from collections.abc import Sequence

from twixt.language import code
from twixt.rules import quote
from twixt.service.errors import MalformedError

#: words of up to this many letters may be one edit off; longer ones two
_SHORT = 5


def closest(word: str, words: Sequence[str]) -> str | None:
    """The word of `words` (in their order, on a tie) that `word` most likely meant, case
    aside; None when `word` is one of them, is no word (a hole like `G6`), or is too far
    from all.

    >>> closest("Chalenge", ["challenge", "team"]), closest("resgin", ["resign"])
    ('challenge', 'resign')
    >>> closest("hello", ["help"]), closest("g6", ["if"]), closest("team", ["team"])
    (None, None, None)
    >>> closest("of", ["if"]) is None  # too short to tell a typo from another word
    True
    """
    typed = word.lower()
    if typed in words or not typed.replace("-", "").isalpha() or len(typed) < 3:
        return None
    most = 1 if len(typed) <= _SHORT else 2
    # a word whose length is more than `most` off is more than `most` edits off: compared
    # with nothing, an unknown word of 6,000 letters costs nothing (the comparison takes
    # time a letter, on the event loop)
    near = [known for known in words if abs(len(known) - len(typed)) <= most]
    distance, meant = min(((_distance(typed, known), known) for known in near),
                          key=lambda pair: pair[0], default=(most + 1, ""))
    return meant if distance <= most else None


def did_you_mean(word: str, words: Sequence[str], *, before: str = "") -> MalformedError | None:
    """The refusal of an unknown command word that names the command meant (`before` is the
    command the word belongs to, as in `tournament list`), or None when nothing is close."""
    meant = closest(word, words)
    if meant is None:
        return None
    return MalformedError("I don't know the command {word}: did you mean {command}?",
                          word=quote(word), command=code(f"{before}{meant}"))


def _distance(a: str, b: str) -> int:
    """Edits from `a` to `b`: insert, delete, replace a letter, or swap two neighbours."""
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, letter in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, other in enumerate(b, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (letter != other))
            if i > 1 and j > 1 and letter == b[j - 2] and a[i - 2] == other:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return row[-1]
