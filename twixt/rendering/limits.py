"""The counts a picture is drawn from, checked against its bounds before any drawing, so that
every picture has a ceiling on its size and its cost (the crosstable's rows and columns, the
win curve's points and swings)."""

from __future__ import annotations

from collections.abc import Sized


def check_count(owner: str, items: Sized, one: str, most: int, *, needed: bool = False) -> None:
    """ValueError unless `items` (each `one` of `owner`) are at most `most`, and, when
    `needed`, at least one.

    >>> check_count("a win curve", [], "point", 3, needed=True)
    Traceback (most recent call last):
    ValueError: a win curve needs at least one point
    >>> check_count("a crosstable", range(5), "row", 4)
    Traceback (most recent call last):
    ValueError: a crosstable has at most 4 rows, not 5
    """
    if needed and not len(items):
        raise ValueError(f"{owner} needs at least one {one}")
    if len(items) > most:
        raise ValueError(f"{owner} has at most {most} {one}s, not {len(items)}")
