"""Little Golem `.tsgf` records: `(;FF[4]...PB[..]PW[..]SZ[24];b[dd];r[th];...)`.

`b` moves first and joins top to bottom (our Red); two lower-case letters give column then row;
the rules are TwixT PP. Specials: `swap`, `resign`, and a draw offer as a suffix (`r[qi|draw]`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rules.errors import RecordError, TwixtError, quote
from rules.game import Game
from rules.model import Hole, RuleSet
from rules.records._peg_records import PegMove, clean_name, distinct_names, peg_moves, replay

_PROPERTY = re.compile(r"([A-Za-z]+)\[([^\]]*)\]")
_SEATS = {"b": 0, "r": 1}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


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
                moves.append(_move(number, node_line, key, value.strip().lower()))
            elif not moves:
                header[key.upper()] = value
    try:
        size = int(header.get("SZ", "24"))
        black = clean_name(header.get("PB", ""), "Player 1")
        white = clean_name(header.get("PW", ""), "Player 2")
        game = Game(distinct_names(black, white), size=size, rules=RuleSet.PP)
    except (TwixtError, ValueError) as error:
        raise RecordError(1, f"cannot set up the game: {error}") from None
    return replay(game, moves, link_all=False)


def _nodes(body: str, first_line: int) -> Iterator[tuple[int, str, int]]:
    """(move number, node text, line) for each `;`-separated node of the record."""
    line = first_line
    number = 0
    for node in body.split(";"):
        if _PROPERTY.search(node) and re.match(r"\s*[br]\[", node):
            number += 1
        yield number, node, line
        line += node.count("\n")


def _move(number: int, line: int, colour: str, value: str) -> PegMove:
    point, _bar, suffix = value.partition("|")
    seat = _SEATS[colour]
    if point in ("swap", "resign", "draw"):
        return PegMove(line, seat, word=point)
    if len(point) != 2 or any(ch not in _LETTERS for ch in point):
        raise RecordError(line, f"move {number}: {quote(value)} is not a Little Golem move")
    hole = Hole(_LETTERS.index(point[0]), _LETTERS.index(point[1]))
    return PegMove(line, seat, hole=hole, offer_draw=suffix == "draw")


def write(game: Game) -> str:
    """The game as Little Golem writes it; RecordError when the game does not fit the format."""
    opts = game.options
    if opts.cols != opts.rows or opts.cols > len(_LETTERS):
        raise RecordError(0, "Little Golem records hold square boards up to 26×26")
    nodes = [f"FF[4]PB[{opts.players[0]}]PW[{opts.players[1]}]SZ[{opts.cols}]"]
    for seat, entry in peg_moves(game, "Little Golem"):
        colour = "b" if seat == 0 else "r"
        if entry == "offer draw" and nodes[-1].startswith(colour + "["):
            nodes[-1] = nodes[-1][:-1] + "|draw]"
            continue
        if entry in ("offer draw", "accept draw"):
            entry = "draw"
        elif entry not in ("swap", "resign"):
            hole = Hole.parse(entry)
            entry = _LETTERS[hole.col] + _LETTERS[hole.row]
        nodes.append(f"{colour}[{entry}]")
    return "(;" + ";".join(nodes) + ")\n"
