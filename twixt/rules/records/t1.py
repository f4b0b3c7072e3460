"""T1 / T1j text files: `#`-commented header lines, then one hole (or swap, resign) a line.

Links are implied: every legal link of each new peg is added, own links blocking as in
`classic`. T1 has no line for a draw or a loss on time, only the header's "game already
over?": this writer says which in that line's comment (`on time`, `draw`; T1j reads only
the `Y`). A game a file calls over, that its moves leave unfinished and whose comment does not
say how it ended, is read as its moves leave it: the result is not in the file, and is not
made up.
"""

from __future__ import annotations

from twixt.rules.errors import RecordError, TwixtError, quote
from twixt.rules.game import Game
from twixt.rules.model import Hole, Reason, RuleSet
from twixt.rules.numbers import whole_number
from twixt.rules.records._peg_records import (
    PegMove,
    distinct_names,
    name_from_record,
    peg_moves,
    play_moves,
)

# positions of the header values, as T1j and twixtbot-ui write them
_NAME_1, _NAME_2, _ROWS, _COLS, _STARTER, _PIE, _OVER = 3, 4, 5, 6, 9, 11, 12
_HEADER_LINES = 13
#: the comment of the "game already over?" line of a game lost on time
_OVER_COMMENT, _ON_TIME, _DRAW = "game already over?", "on time", "draw"


def read(text: str) -> Game:
    """Replay a T1 file; RecordError names the first line that cannot be played."""
    header: list[str] = []
    comments: list[str] = []
    moves: list[PegMove] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not moves and ("#" in line or not line) and len(header) < _HEADER_LINES:
            value, _sep, comment = line.partition("#")
            header.append(value.strip())
            comments.append(comment.strip())
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
    comments += [""] * (_HEADER_LINES - len(comments))
    try:
        names = [name_from_record(header[_NAME_1], "Player 1"),
                 name_from_record(header[_NAME_2], "Player 2")]
        if header[_STARTER] == "2":
            names.reverse()
        rows = _size(header[_ROWS], "rows")
        cols = _size(header[_COLS], "columns")
        swap = header[_PIE].upper() != "N"
        game = Game(distinct_names(*names), size=(cols, rows), rules=RuleSet.CLASSIC, swap=swap)
    except TwixtError as error:
        raise RecordError(1, "cannot set up the game from the header: {error}",
                          error=error.message) from None
    play_moves(game, moves, link_all=True)
    ending = comments[_OVER].lower()
    if header[_OVER].upper() == "Y" and not game.is_over \
            and ending.endswith((_ON_TIME, _DRAW)):
        _end(game, on_time=ending.endswith(_ON_TIME))
    return game


def _size(text: str, what: str) -> int:
    """A header's number of rows or columns; blank means 24."""
    number = whole_number(text) if text else 24
    if number is None:
        if what == "rows":
            raise TwixtError("the y-size of the board is a number, not {text}", text=quote(text))
        raise TwixtError("the x-size of the board is a number, not {text}", text=quote(text))
    return number


def _end(game: Game, on_time: bool) -> None:
    """End a game the header says ended on time or by a draw, the only endings T1 has no
    line for: the player to move runs out of time, or the two sides agree a draw."""
    try:
        if on_time:
            game.play("timeout")
        else:
            offerer = game.player_to_move
            game.play("offer draw", by=offerer)
            game.play("accept draw", by=next(p for p in game.players if p != offerer))
    except TwixtError as error:
        raise RecordError(_OVER + 1, error.message) from None


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
        _over_line(game),
    ]
    lines.extend(entry.upper() if entry not in ("swap", "resign") else entry
                 for _seat, entry in peg_moves(game, "T1")
                 if entry not in ("offer draw", "accept draw"))
    return "\n".join(lines) + "\n"


def _over_line(game: Game) -> str:
    """The header's last line: `Y` or `N`, and for a loss on time or an agreed draw, which no
    move line can say, a comment that says so."""
    outcome = game.outcome
    if outcome is None:
        return f"N # {_OVER_COMMENT}"
    ending = {Reason.TIME: f" {_ON_TIME}", Reason.AGREEMENT: f" {_DRAW}"}.get(outcome.reason, "")
    return f"Y # {_OVER_COMMENT}{ending}"
