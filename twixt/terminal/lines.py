"""The lines the table reads, from a script file or standard input: one at a time, each of
bounded length, so that an endless input (`/dev/zero`, a file with no line breaks) is
refused at its first line rather than read whole, and bytes that are not UTF-8 become
replacement characters in a line the table refuses, rather than a crash."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

#: the most characters of one line: as many as a Discord message holds (with Nitro), more
#: than any command needs
MAX_LINE = 4000
#: the bytes that many characters take at most in UTF-8
_MAX_LINE_BYTES = 4 * MAX_LINE


class LineTooLongError(Exception):
    """Line `number` is longer than `MAX_LINE`: the input is not read further (it may have
    no end)."""

    def __init__(self, number: int) -> None:
        super().__init__(f"line {number} is longer than {MAX_LINE} characters")
        self.number = number


def lines_of(stream: BinaryIO) -> Iterator[str]:
    """The input's lines as text, read a line at a time; LineTooLongError at a line longer
    than `MAX_LINE`, having read no more than a line's most bytes of it."""
    number = 0
    while raw := stream.readline(_MAX_LINE_BYTES + 1):
        number += 1
        text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        if len(text) > MAX_LINE:
            raise LineTooLongError(number)
        yield text
