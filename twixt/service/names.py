"""Seat names: a game's players need distinct names that a record can hold (no : , #).

A name keeps its letters, of any script, and every mark (`* _ ~ | ` @ < > \\ " ' [ ]`)
exactly as typed, so that records give it back as it is: a name reaches a message only as a
template's value, shown as typed (`language.verbatim`), and the front end escapes it there
(`twixt.discord.replies`), so that it cannot format, link or ping. Control characters become
spaces, and invisible ones (zero-width, direction-changing: Unicode's format characters) are
dropped, so that no name hides, reverses or fakes another.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from twixt.language import Translation
from twixt.rules import visible

#: what the records' formats cannot hold in a name
_FORBIDDEN = str.maketrans({":": " ", ",": " ", "#": " "})
MAX_NAME = 32
#: what the bot's seats are named (`bot`, `bot (level 3)`, `bot 2 (level 3)`, and in older
#: records `bot (level 3) 2`), letters and digits only, in any case or width
_ENGINE_PLAYER_LIKE = re.compile(r"bot\d*(level\d+)?\d*")
#: added to a person's name that would read as one of the bot's seats
PERSON_MARK = "(person)"
#: Cyrillic and Greek letters (casefolded) drawn like the Latin ones of the bot's seat names
#: (`bоt` with a Cyrillic о, `ΒΟΤ`); only these letters matter, so a table of them serves
#: where a whole confusables library would be a dependency for one check
_LOOKALIKES = str.maketrans("овьтеοβτενѵӏ", "obbteobtevvl")


#: the name of someone whose display name cleans to nothing (`***`), until a seat names them
FALLBACK = "player"


def clean_name(name: str, fallback: str = FALLBACK) -> str:
    """A display name without what records forbid (: , #) or nobody would see, its spaces
    run together; what chat would format is kept, and escaped where it is shown."""
    cleaned = " ".join(visible(name).translate(_FORBIDDEN).split())
    return cleaned[:MAX_NAME].rstrip() or fallback


def shown_length(name: str) -> int:
    """The most characters `name` may take where it is shown: a front end may escape each
    of its marks (`*` as `\\*`), so a listing of names budgets for that."""
    return len(name) + sum(not ch.isalnum() and not ch.isspace() for ch in name)


def person_name(name: str, fallback: str = FALLBACK) -> str:
    """A person's name, cleaned; one that reads as a seat of the bot (`Bot`, `bot (level
    3)`, `ＢＯＴ`, `bоt` with a Cyrillic о) is marked as a person's (`bot (level 3)
    (person)`), so nobody plays at a table, or stands in a record, as the bot."""
    cleaned = clean_name(name, fallback)
    letters = "".join(ch for ch in unicodedata.normalize("NFKC", cleaned).casefold()
                      if ch.isalnum()).translate(_LOOKALIKES)
    if not _ENGINE_PLAYER_LIKE.fullmatch(letters):
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
