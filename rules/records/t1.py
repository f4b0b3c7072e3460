"""T1 / T1j text files: `#`-commented header lines, then one hole (or swap, resign) a line.

Links are implied: every legal link of each new peg is added, own links blocking as in
`classic`.
"""

from __future__ import annotations

from rules.errors import RecordError, TwixtError, quote
from rules.game import Game
from rules.model import Hole, RuleSet
from rules.numbers import whole_number
from rules.records._peg_records import PegMove, clean_name, distinct_names, peg_moves, replay

# positions of the header values, as T1j and twixtbot-ui write them
_NAME_1, _NAME_2, _ROWS, _COLS, _STARTER, _PIE = 3, 4, 5, 6, 9, 11
_HEADER_LINES = 13


def read(text: str) -> Game:
    """Replay a T1 file; RecordError names the first line that cannot be played."""
    header: list[str] = []
    moves: list[PegMove] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not moves and ("#" in line or not line) and len(header) < _HEADER_LINES:
            header.append(line.split("#", 1)[0].strip())
            continue
        if not line:
            continue
        word = line.lower()
        if word in ("swap", "resign"):
            moves.append(PegMove(number, None, word=word))
        else:
            try:
                moves.append(PegMove(number, None, hole=Hole.parse(line)))
            except TwixtError as error:
                raise RecordError(number, error.message) from None
    header += [""] * (_HEADER_LINES - len(header))
    try:
        names = [clean_name(header[_NAME_1], "Player 1"), clean_name(header[_NAME_2], "Player 2")]
        if header[_STARTER] == "2":
            names.reverse()
        rows = _size(header[_ROWS], "rows")
        cols = _size(header[_COLS], "columns")
        swap = header[_PIE].upper() != "N"
        game = Game(distinct_names(*names), size=(cols, rows), rules=RuleSet.CLASSIC, swap=swap)
    except TwixtError as error:
        raise RecordError(1, "cannot set up the game from the header: {error}",
                          error=error.message) from None
    return replay(game, moves, link_all=True)


def _size(text: str, what: str) -> int:
    """A header's number of rows or columns; blank means 24."""
    number = whole_number(text) if text else 24
    if number is None:
        if what == "rows":
            raise TwixtError("the y-size of the board is a number, not {text}", text=quote(text))
        raise TwixtError("the x-size of the board is a number, not {text}", text=quote(text))
    return number


def write(game: Game) -> str:
    """The game as a T1 file (pegs only); RecordError when the game does not fit the format."""
    opts = game.options
    lines = [
        "# File created by twixt-bot",
        "# TwixT by correspondence",
        "1 # version of file-format",
        f"{opts.players[0]} # Name of player 1",
        f"{opts.players[1]} # Name of player 2",
        f"{opts.rows} # y-size of board",
        f"{opts.cols} # x-size of board",
        "H # player 1 human or computer",
        "H # player 2 human or computer",
        "1 # starting player (1 plays top-down)",
        "V # direction of letters",
        f"{'Y' if opts.swap else 'N'} # pierule?",
        f"{'Y' if game.is_over else 'N'} # game already over?",
    ]
    lines.extend(entry.upper() if entry not in ("swap", "resign") else entry
                 for _seat, entry in peg_moves(game, "T1")
                 if entry not in ("offer draw", "accept draw"))
    return "\n".join(lines) + "\n"
