"""Seat names: a game's players need distinct names that a record can hold (no : , #)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from language import Translation

_FORBIDDEN = str.maketrans({":": " ", ",": " ", "#": " ", "\n": " ", "`": "'", "*": " ",
                            "_": " ", "~": " ", "|": " ", "@": " ", ">": " ", "<": " ",
                            "[": "(", "]": ")", "\\": " "})
MAX_NAME = 32
#: a number that would start a numbered list (`1. Cup`, `2) Cup`) at the start of a line
_NUMBERED = re.compile(r"^(\d+[.)]) +")


#: the name of someone whose display name cleans to nothing (`***`), until a seat names them
FALLBACK = "player"


def clean_name(name: str, fallback: str = FALLBACK) -> str:
    """A display name without what records forbid (: , #) or chat would format or link
    (* _ ~ | ` @ > < [ ] \\, a leading - or + that would start a list, and the space after
    a leading `1.` that would start a numbered one: `1.Cup`)."""
    cleaned = _NUMBERED.sub(r"\1", " ".join(name.translate(_FORBIDDEN).split()).lstrip("-+ "))
    return cleaned[:MAX_NAME] or fallback


def seat_names(names: Sequence[str], tr: Translation) -> list[str]:
    """Display names made safe for records and chat, and distinct (`bob`, `bob 2`); a seat
    without a name of its own is named by its number in `tr`'s language (`Spieler 2`), the
    language the game is announced in."""
    result: list[str] = []
    for index, name in enumerate(names):
        clean = clean_name(name, "")
        if clean in ("", FALLBACK):
            clean = tr("player {n}", n=index + 1)
        candidate, n = clean, 2
        while candidate.casefold() in {r.casefold() for r in result}:
            candidate, n = f"{clean} {n}", n + 1
        result.append(candidate)
    return result
