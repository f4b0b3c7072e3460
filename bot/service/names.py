"""Seat names: a game's players need distinct names that a record can hold (no : , #).

A name keeps its letters, of any script, and `" ' [ ]` exactly as typed, so that records
give it back as it is; a masked link that brackets could make is defused where a message is
shown (`bot.discord.replies`). What would format or ping in chat wherever a name is put
(* _ ~ | ` @ < > \\) becomes a space, as do control characters, and invisible ones
(zero-width, direction-changing: Unicode's format characters) are dropped, so that no name
hides, reverses or fakes another.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from language import Translation
from rules import visible

_FORBIDDEN = str.maketrans({":": " ", ",": " ", "#": " ", "\n": " ", "`": "'", "*": " ",
                            "_": " ", "~": " ", "|": " ", "@": " ", ">": " ", "<": " ",
                            "\\": " "})
MAX_NAME = 32
#: a number that would start a numbered list (`1. Cup`, `2) Cup`) at the start of a line
_NUMBERED = re.compile(r"^(\d+[.)]) +")
#: what the bot's seats are named (`bot`, `bot (level 3)`, `bot (level 3) 2`), letters and
#: digits only, in any case or width
_BOT_LIKE = re.compile(r"bot(level\d+)?\d*")
#: added to a person's name that would read as one of the bot's seats
PERSON_MARK = "(person)"


#: the name of someone whose display name cleans to nothing (`***`), until a seat names them
FALLBACK = "player"


def clean_name(name: str, fallback: str = FALLBACK) -> str:
    """A display name without what records forbid (: , #), chat would format or link
    (* _ ~ | ` @ > < \\, a leading - or + that would start a list, and the space after a
    leading `1.` that would start a numbered one: `1.Cup`), or nobody would see."""
    shown = " ".join(visible(name).translate(_FORBIDDEN).split())
    cleaned = _NUMBERED.sub(r"\1", shown.lstrip("-+ "))
    return cleaned[:MAX_NAME].rstrip() or fallback


def person_name(name: str, fallback: str = FALLBACK) -> str:
    """A person's name, cleaned; one that reads as a seat of the bot (`Bot`, `bot (level
    3)`, `ＢＯＴ`) is marked as a person's (`bot (level 3) (person)`), so nobody plays at a
    table, or stands in a record, as the bot."""
    cleaned = clean_name(name, fallback)
    letters = "".join(ch for ch in unicodedata.normalize("NFKC", cleaned).casefold()
                      if ch.isalnum())
    if not _BOT_LIKE.fullmatch(letters):
        return cleaned
    return f"{cleaned[:MAX_NAME - len(PERSON_MARK) - 1]} {PERSON_MARK}"


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
