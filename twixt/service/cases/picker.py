"""The move picker: a peg played without typing — choose a column, then a row, then Place
(in classic rules with every link it can make, unless the player chooses which) — and the
buttons that play the other turns a board offers (Offer draw, Resign).

Stateless like every button: each control carries its game, the version of the game's log it
was drawn for and what is chosen so far (`model.Picker`), so a picker works after a restart
and is refused in one line once the position has moved on. Every step is checked here, for
the player to move alone; the place itself is played as a typed move is (`Turns.play`, at the
version the picker showed).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import lru_cache

from twixt.language import Translation
from twixt.rules import (
    MAX_SIZE,
    Command,
    Game,
    Hole,
    Placement,
    RuleSet,
    TwixtError,
    column_letters,
)
from twixt.rules import parse_command as parse
from twixt.service import commands as cmd
from twixt.service.desk.desk import Desk, player_seat, seat_to_move
from twixt.service.desk.engine_seats import is_engine_seat
from twixt.service.errors import ConflictError, MalformedError, NotYourTurnError, refused_by_rules
from twixt.service.model import Button, ButtonKind, Picker, PickStep, Reply, Request
from twixt.storage import StoredGame

#: how a picker plays the peg it placed: `Turns.play` (the request, the command, the version)
PlaceMove = Callable[[Request, Command, int], Awaitable[Reply]]


def board_controls(stored: StoredGame, game: Game, tr: Translation
                   ) -> tuple[tuple[Picker, ...], tuple[Button, ...]]:
    """The picker and the buttons under a board whose game waits for a person's move: the
    columns with a free hole for the player to move, and Offer draw and Resign for the
    players (the engine's seats decide by themselves). Nothing under a finished game."""
    number = game.seat_to_move
    if number is None:
        return (), ()
    people = tuple(s.user_id for s in stored.seats if not is_engine_seat(s.user_id))
    offer = (() if game.draw_offered_by is not None
             else (Button(ButtonKind.OFFER_DRAW, stored.id, tr("Offer draw"), people),))
    buttons = (*offer, Button(ButtonKind.RESIGN, stored.id, tr("Resign"), people))
    if is_engine_seat(stored.seats[number].user_id):
        return (), buttons
    columns = open_columns(game)
    picker = Picker(stored.id, stored.version, PickStep.COLUMN, "", columns, tr("Column…"))
    return ((picker,) if columns else ()), buttons


def open_columns(game: Game) -> tuple[str, ...]:
    """The columns, left to right, with a hole the player to move may place a peg in: the
    rows of the legal placements' bitboard folded onto one, half onto half (a few shifts each
    time a board is shown, not a look at every hole).

    >>> game = Game(("alice", "bob"), size=6)
    >>> open_columns(game)  # red, to move, may not place in the side columns
    ('B', 'C', 'D', 'E')
    """
    cols, rows = game.geometry.cols, game.geometry.rows
    bits = game.legal_placement_bits()
    while rows > 1:  # the upper rows laid over the lower ones
        half = (rows + 1) // 2
        bits = (bits & ((1 << half * cols) - 1)) | bits >> half * cols
        rows = half
    names = _column_names(cols)
    return tuple(names[col] for col in range(cols) if bits >> col & 1)


@lru_cache(maxsize=MAX_SIZE)
def _column_names(cols: int) -> tuple[str, ...]:
    return tuple(column_letters(col) for col in range(cols))


class MovePicker:
    """The steps of the picker, each answered for its user alone."""

    def __init__(self, desk: Desk, place: PlaceMove) -> None:
        self._desk = desk
        self._place = place

    @cmd.handles(cmd.Pick)
    async def pick(self, request: Request, game_id: int, version: int, step: PickStep,
                   chosen: str) -> Reply:
        """The next step after `step` gave `chosen`, or — Place — the move played."""
        stored, game = await self._desk.active(request.channel_id)
        if stored.id != game_id:
            raise ConflictError("this button belongs to a game that is over")
        if stored.version != version:
            raise ConflictError("the position has changed since this picker was shown: use "
                                "the newest board")
        seat = player_seat(stored, request)
        if seat_to_move(stored, game) != seat:
            raise NotYourTurnError("it is not your turn")
        tr = request.tr
        match step:
            case PickStep.COLUMN:
                rows = tuple(str(hole.row + 1) for hole in game.legal_placements()
                             if column_letters(hole.col) == chosen)
                if not rows:
                    raise ConflictError("column {column} has no free hole for you",
                                        column=chosen)
                return Reply(tr("Column {column}: choose the row.", column=chosen),
                             ephemeral=True, pickers=(Picker(game_id, version, PickStep.ROW,
                                                            chosen, rows, tr("Row…")),))
            case PickStep.ROW:
                return self._peg(game_id, version, game, _hole(game, chosen), tr)
            case PickStep.LINKS:
                command = _placement(game, chosen)
                return Reply(tr("Place `{command}`?", command=str(command)), ephemeral=True,
                             pickers=(_place(game_id, version, str(command), tr),))
            case PickStep.PLACE:
                return await self._place(request, _placement(game, chosen), version)

    def _peg(self, game_id: int, version: int, game: Game, hole: Hole,
             tr: Translation) -> Reply:
        """Place `hole`: with every link in classic rules unless some are chosen (pp links
        them all by itself)."""
        if game.rules is RuleSet.PP:
            return Reply(tr("Place `{peg}`?", peg=str(hole)), ephemeral=True,
                         pickers=(_place(game_id, version, str(hole), tr),))
        after = game.copy()
        after.push(Command(placement=Placement(hole)))
        targets = tuple(str(next(end for end in link.ends if end != hole))
                        for link in after.legal_links(hole))
        everything = f"{hole} link all" if targets else str(hole)
        place = _place(game_id, version, everything, tr)
        if not targets:
            return Reply(tr("Place `{peg}`? It can make no link now.", peg=str(hole)),
                         ephemeral=True, pickers=(place,))
        return Reply(tr("Place `{peg}` with every link it can make ({links}), or choose only "
                        "some.", peg=str(hole), links=", ".join(targets)), ephemeral=True,
                     pickers=(place, Picker(game_id, version, PickStep.LINKS, str(hole),
                                            targets, tr("Only these links…"))))


def _place(game_id: int, version: int, command: str, tr: Translation) -> Picker:
    return Picker(game_id, version, PickStep.PLACE, command,
                  label=tr("Place {command}", command=command))


def _hole(game: Game, text: str) -> Hole:
    """A hole the player to move may place in now, or a refusal of its kind in one line."""
    try:
        hole = Hole.parse(text)
    except TwixtError as error:
        raise refused_by_rules(error) from None
    if not game.can_place(hole):
        raise ConflictError("you cannot place a peg at {hole} now", hole=text)
    return hole


def _placement(game: Game, text: str) -> Command:
    """A picked command: one peg, with links, and nothing else (a picker never removes)."""
    try:
        command = parse(text)
    except TwixtError as error:
        raise refused_by_rules(error) from None
    if command.placement is None or command.removals or command.actions:
        raise MalformedError("the picker places one peg and its links")
    _hole(game, str(command.placement.hole))
    return command
