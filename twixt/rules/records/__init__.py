"""Game records: this project's transcript, Little Golem `.tsgf` and T1 `.T1` files.

`load(path)` and `read(text, fmt)` give a `Game`; `write(game, fmt)` gives the text.
`decode(data, fmt)` and `encode(text, fmt)` turn a file's bytes into that text and back:
UTF-8 for transcripts and T1, one character a byte for Little Golem (whose coordinates past
`z` are bytes, not text).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from twixt.language import message
from twixt.rules.errors import RecordError, quote
from twixt.rules.formats import FORMATS
from twixt.rules.game import Game
from twixt.rules.records import littlegolem, t1, transcript

_READERS = {"transcript": transcript.read, "lg": littlegolem.read, "t1": t1.read}
_WRITERS = {"transcript": transcript.write, "lg": littlegolem.write, "t1": t1.write}
_ENDINGS = {".tsgf": "lg", ".sgf": "lg", ".t1": "t1", ".t1j": "t1"}
FILE_ENDINGS = {"transcript": ".twixt", "lg": ".tsgf", "t1": ".T1"}
#: the most bytes a record is read to: far more than any real game's record (a 2,300-peg
#: transcript is some 30 kB), so that an endless file (`/dev/zero`) is refused, not read whole
MAX_RECORD_BYTES = 256 * 1024


def guess_format(filename: str) -> str:
    """The format a file's ending suggests; anything unknown is read as a transcript."""
    return _ENDINGS.get(Path(filename).suffix.lower(), "transcript")


def decode(data: bytes, fmt: str) -> str:
    """A record file's bytes as the text `read` takes (a byte-order mark dropped)."""
    if fmt == "lg":
        return data.decode(littlegolem.ENCODING)
    return data.decode("utf-8-sig", errors="replace")


def encode(text: str, fmt: str) -> bytes:
    """The bytes of a record file whose text `write` gave."""
    return text.encode(littlegolem.ENCODING if fmt == "lg" else "utf-8")


def read(text: str, fmt: str = "transcript") -> Game:
    """Replay a record; RecordError names the first line that cannot be played."""
    if fmt not in _READERS:
        raise _unknown(fmt)
    return _READERS[fmt](text)


def entries(text: str, fmt: str = "transcript") -> int:
    """How many entries `read` would go through at most: Little Golem's `;`-separated nodes,
    or the lines of the other formats, split where `read` splits them (`str.splitlines`:
    at carriage returns and Unicode line separators too). A cap on a record counts these."""
    return text.count(";") + 1 if fmt == "lg" else len(text.splitlines())


def load(path: str | Path, fmt: str | None = None) -> Game:
    """Read a record file (`read_file`); the format is guessed from its ending when not
    given."""
    path = Path(path)
    return read(decode(read_file(path), fmt or guess_format(path.name)),
                fmt or guess_format(path.name))


def read_file(path: str | Path, regular_only: bool = False) -> bytes:
    """A record file's bytes, `MAX_RECORD_BYTES` at most (`take`); RecordError says in one
    line why a file cannot be opened, a name with a NUL character (which no system opens)
    included. `regular_only` refuses at once what is not a regular file (a named pipe,
    whose reading waits for a writer; a device): it is opened without waiting, then
    looked at."""
    shown = str(path).replace("\0", "\\0")  # a NUL shown as \0, not sent to a terminal
    try:
        flags = os.O_RDONLY | (os.O_NONBLOCK if regular_only else 0)
        with os.fdopen(os.open(path, flags), "rb") as file:
            if regular_only and not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise RecordError(0, "cannot read {path}: {error}", path=shown,
                                  error=message("not a regular file"))
            return take(file, shown)
    except RecordError:
        raise
    except ValueError:  # the name holds a NUL: refused before the system is asked
        raise RecordError(0, "cannot read {path}: {error}", path=shown,
                          error=message("a file name cannot hold a NUL character")) from None
    except OSError as error:
        raise RecordError(0, "cannot read {path}: {error}", path=shown,
                          error=error.strerror or str(error)) from None


def take(source: BinaryIO, name: str) -> bytes:
    """A record's bytes from an open file (standard input, say): `MAX_RECORD_BYTES` at most,
    and one more read only to refuse a larger one."""
    try:
        data = source.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(0, "cannot read {path}: {error}", path=name,
                          error=error.strerror or str(error)) from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(0, "{path} is larger than {most} bytes: too big for a game record",
                          path=name, most=MAX_RECORD_BYTES)
    return data


def write(game: Game, fmt: str = "transcript") -> str:
    """The record of a game in a format; RecordError when the format cannot hold the game."""
    if fmt not in _WRITERS:
        raise _unknown(fmt)
    return _WRITERS[fmt](game)


def _unknown(fmt: str) -> RecordError:
    return RecordError(0, "unknown format {format}: choose one of {formats}", format=quote(fmt),
                       formats=", ".join(FORMATS))


__all__ = ["FILE_ENDINGS", "FORMATS", "MAX_RECORD_BYTES", "decode", "encode", "entries",
           "guess_format", "load", "read", "read_file", "take", "write"]
