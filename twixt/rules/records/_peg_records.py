"""What Little Golem and T1 files share: they record pegs only, and swap by mirroring.

Both formats write a swap as the first peg mirrored across the diagonal; docs/records.md maps it to
our swap by mirroring every later move, so the game is the same game under our swap.
"""

from __future__ import annotations

from dataclasses import dataclass

from twixt.rules.errors import RecordError, TwixtError, visible
from twixt.rules.game import Game
from twixt.rules.model import Hole
from twixt.rules.notation import Action


@dataclass(frozen=True)
class PegMove:
    """One entry of a peg record: a hole, `swap`, `resign`, or a draw word, and where it stood."""

    line: int
    player: int | None     # seat, or None for "whoever is to move"
    hole: Hole | None = None
    word: str = ""         # swap | resign | draw | offer
    offer_draw: bool = False


_WORDS = {"swap": "swap", "resign": "resign", "draw": "offer draw"}


def name_from_record(name: str, fallback: str) -> str:
    """A record's player name made fit for a game (no : , #, nothing invisible)."""
    cleaned = " ".join(visible(name).translate(str.maketrans(":,#", "   ")).split())
    return cleaned or fallback


def distinct_names(first: str, second: str) -> tuple[str, str]:
    return (first, second) if first.casefold() != second.casefold() else (first, f"{second} (2)")


def play_moves(game: Game, moves: list[PegMove], link_all: bool) -> Game:
    """Play peg-record moves into `game`, mirroring every move after a swap."""
    mirror = False
    for move in moves:
        by = game.players[move.player] if move.player is not None else game.player_to_move
        try:
            if move.hole is not None:
                hole = move.hole.mirrored() if mirror else move.hole
                text = f"{hole} link all" if link_all else str(hole)
                if move.offer_draw:
                    text += "; offer draw"
                game.play(text, by=by)
            else:
                # a draw word offers, or accepts when the other side has offered
                word = _WORDS[move.word]
                offered = game.draw_offered_by
                if move.word == "draw" and offered is not None and by is not None \
                        and offered is not game.colour_of_seat(game.seat_of(by)):
                    word = "accept draw"
                game.play(word, by=by)
                mirror = mirror or move.word == "swap"
        except TwixtError as error:
            raise RecordError(move.line, error.message) from None
    return game


def peg_moves(game: Game, fmt_name: str) -> list[tuple[int, str]]:
    """The game as (seat, entry) pairs in a peg record: holes mirrored after a swap.

    Raises RecordError when the game holds what such a record cannot (four players, removals,
    a swap on a board that is not square).
    """
    if game.is_double:
        raise RecordError(0, "{format} files hold two-player games only", format=fmt_name)
    entries: list[tuple[int, str]] = []
    mirror = False
    for turn in game.history:
        if turn.links_removed or turn.pegs_removed:
            raise RecordError(0, "{format} files cannot hold removed pegs or links",
                              format=fmt_name)
        if turn.placed is not None:
            hole = turn.placed.mirrored() if mirror else turn.placed
            entries.append((turn.seat, str(hole)))
        if Action.SWAP in turn.actions:
            if game.options.cols != game.options.rows:
                raise RecordError(0, "{format} files cannot hold a swap on a board that is "
                                     "not square", format=fmt_name)
            mirror = True
            entries.append((turn.seat, "swap"))
        for action in turn.actions:
            if action in (Action.RESIGN, Action.OFFER_DRAW, Action.ACCEPT_DRAW):
                entries.append((turn.seat, action.value))
    return entries
