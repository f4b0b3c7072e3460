"""Whole numbers as players and records write them: ASCII digits, and not too many of them.

`str.isdigit()` is true for `²` and other digits that `int()` refuses, and `int()` refuses a
number of more than 4,300 digits: both once escaped as crashes. Everything that reads a number
from a person or a file asks here first.
"""

from __future__ import annotations

import re

#: digits enough for any id, page or size we keep; a longer number is no number of ours
MAX_DIGITS = 18
_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(text: str) -> int | None:
    """The number `text` writes in ASCII digits (surrounding spaces allowed), or None.

    >>> whole_number(" 12 "), whole_number("²"), whole_number("-3"), whole_number("9" * 40)
    (12, None, None, None)
    """
    text = text.strip()
    return int(text) if _DIGITS.fullmatch(text) else None
