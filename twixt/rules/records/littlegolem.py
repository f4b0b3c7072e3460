"""Little Golem `.tsgf` records: `(;FF[4]...PB[..]PW[..]SZ[24];b[dd];r[th];...)`.

`b` moves first and joins top to bottom (our Red); two letters give column then row;
the rules are TwixT PP. Specials: `swap`, `resign`, and a draw offer as a suffix (`r[qi|draw]`).

Past `z` Little Golem writes the next byte values (`{ | } ~`, then 0x7f and up) for
columns and rows 27 to 48, so its files are bytes, not UTF-8 text: they are read and written
as Latin-1 (one character a byte, see `ENCODING`), and only the player names inside are
UTF-8. A `|` inside a coordinate is not the start of `|draw`; `]` and `\\` in a name are
escaped with a backslash, as in SGF.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from twixt.rules.errors import RecordError, TwixtError, quote
from twixt.rules.game import Game
from twixt.rules.model import Hole, RuleSet
from twixt.rules.numbers import whole_number
from twixt.rules.records._peg_records import (
    PegMove,
    distinct_names,
    name_from_record,
    peg_moves,
    play_moves,
)

#: how Little Golem's bytes become text and back: one character a byte
ENCODING = "latin-1"
_PROPERTY = re.compile(r"([A-Za-z]+)\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)
_SEATS = {"b": 0, "r": 1}
#: the coordinate of column or row i is the character a + i, for boards of up to 48
_FIRST, _SIZES = ord("a"), 48
_WORDS = ("swap", "resign", "draw")


def read(text: str) -> Game:
    """Replay a Little Golem game; RecordError names the line and the move that fails."""
    start = text.find("(")
    if start < 0 or ";" not in text:
        raise RecordError(1, "this is not a Little Golem record: it should start with (;FF[4]")
    header: dict[str, str] = {}
    moves: list[PegMove] = []
    for number, node, node_line in _nodes(text[start + 1:], text[:start].count("\n") + 1):
        for key, value in _PROPERTY.findall(node):
            if key in _SEATS:
                # ASCII space only: some coordinates past z are bytes Python counts as space
                moves.append(_move(number, node_line, key, value.strip(" \t\r\n")))
            elif not moves:
                header[key.upper()] = _UNESCAPE.sub(r"\1", value)
    try:
        size = whole_number(header.get("SZ", "24"))
        if size is None:
            raise TwixtError("SZ is a board size, not {text}", text=quote(header["SZ"]))
        black = name_from_record(_utf8(header.get("PB", "")), "Player 1")
        white = name_from_record(_utf8(header.get("PW", "")), "Player 2")
        game = Game(distinct_names(black, white), size=size, rules=RuleSet.PP)
    except TwixtError as error:
        raise RecordError(1, "cannot set up the game: {error}", error=error.message) from None
    return play_moves(game, moves, link_all=False)


def _nodes(body: str, first_line: int) -> Iterator[tuple[int, str, int]]:
    """(move number, node text, line) for each `;`-separated node of the record; a `;`
    inside a property's brackets (a name's) separates nothing."""
    line = first_line
    number = 0
    for node in _split_nodes(body):
        if _PROPERTY.search(node) and re.match(r"\s*[br]\[", node):
            number += 1
        yield number, node, line
        line += node.count("\n")


def _split_nodes(body: str) -> Iterator[str]:
    start, inside, escaped = 0, False, False
    for at, char in enumerate(body):
        if escaped:
            escaped = False
        elif char == "\\" and inside:
            escaped = True
        elif char == "[":
            inside = True
        elif char == "]":
            inside = False
        elif char == ";" and not inside:
            yield body[start:at]
            start = at + 1
    yield body[start:]


def _move(number: int, line: int, colour: str, value: str) -> PegMove:
    seat = _SEATS[colour]
    if value.lower() in _WORDS:
        return PegMove(line, seat, word=value.lower())
    # the coordinates first, two characters that may be `|`; then an optional `|draw`
    point, suffix = value[:2], value[2:]
    if len(point) != 2 or not all(0 <= _index(ch) < _SIZES for ch in point) \
            or suffix.lower() not in ("", "|draw"):
        raise RecordError(line, "move {number}: {text} is not a Little Golem move", number=number,
                          text=quote(value))
    hole = Hole(_index(point[0]), _index(point[1]))
    return PegMove(line, seat, hole=hole, offer_draw=bool(suffix))


def _index(coordinate: str) -> int:
    return ord(coordinate.lower() if coordinate.isascii() else coordinate) - _FIRST


def _coordinate(index: int) -> str:
    return chr(_FIRST + index)


def _utf8(latin: str) -> str:
    """A name as Little Golem stores it (UTF-8 bytes, read one character a byte)."""
    try:
        return latin.encode(ENCODING).decode("utf-8")
    except UnicodeError:
        return latin


def _name(name: str) -> str:
    """A name as Little Golem stores it: UTF-8 bytes, with `\\` and `]` escaped."""
    escaped = name.replace("\\", "\\\\").replace("]", "\\]")
    return escaped.encode("utf-8").decode(ENCODING)


def write(game: Game) -> str:
    """The game as Little Golem writes it; RecordError when the game does not fit the format."""
    opts = game.options
    if opts.rules is not RuleSet.PP:  # read back, it would be a pp game
        raise RecordError(0, "Little Golem records hold TwixT PP games only")
    if opts.cols != opts.rows or opts.cols > _SIZES:
        raise RecordError(0, "Little Golem records hold square boards up to {size}×{size}",
                          size=_SIZES)
    nodes = [f"FF[4]PB[{_name(opts.players[0])}]PW[{_name(opts.players[1])}]SZ[{opts.cols}]"]
    for seat, entry in peg_moves(game, "Little Golem"):
        colour = "b" if seat == 0 else "r"
        # an offer rides on the same side's peg just before it (`r[qi|draw]`); after a swap,
        # a resignation or another draw word it is a `draw` node of its own
        if entry == "offer draw" and nodes[-1].startswith(colour + "[") \
                and nodes[-1][2:-1] not in _WORDS and not nodes[-1].endswith("|draw]"):
            nodes[-1] = nodes[-1][:-1] + "|draw]"
            continue
        if entry in ("offer draw", "accept draw"):
            entry = "draw"
        elif entry not in ("swap", "resign"):
            hole = Hole.parse(entry)
            entry = _coordinate(hole.col) + _coordinate(hole.row)
        nodes.append(f"{colour}[{entry}]")
    return "(;" + ";".join(nodes) + ")\n"
