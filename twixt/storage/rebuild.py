"""A stored game back as a `rules.Game`: the log is the truth, and this is how it is read.

A game is its imported turns (those of an imported record it continues, if any) and then
its log. A `takeback` entry takes back the turn before it: the log keeps that it happened, the
position no longer shows the turn. Seats are named by their user ids (as text) unless the
caller names them otherwise, e.g. by the names the players had when the game began.
"""

from __future__ import annotations

from collections.abc import Callable

from twixt.rules import Game, TwixtError
from twixt.storage.errors import DatabaseError
from twixt.storage.model import LoadedGame, Seat, StoredGame, StoredTurn

#: the log entry of an accepted takeback
TAKEBACK = "takeback"


def _by_id(seat: Seat) -> str:
    return str(seat.user_id)


def new_game(game: StoredGame, name: Callable[[Seat], str] = _by_id) -> Game:
    """The empty board of a stored game: its setup, its seats in order."""
    setup = game.setup
    return Game(players=tuple(name(seat) for seat in game.seats), size=setup.size,
                rules=setup.rules, swap=setup.swap, handicap=setup.handicap)


def rebuild(loaded: LoadedGame, name: Callable[[Seat], str] = _by_id,
            before: Callable[[StoredTurn, Game], None] | None = None) -> Game:
    """Play the imported turns and the log again; a turn that does not play means damage. `before`,
    if given, is shown each log entry and the game as it stood before it (the clocks learn
    from it who was to move when)."""
    game = new_game(loaded.game, name)
    for line in (loaded.game.setup.imported_turns or "").splitlines():
        seat, _sep, command = line.partition(":")
        _play(game, loaded, command, game.players[int(seat)], "the imported turns")
    players = {seat.user_id: game.players[seat.number] for seat in loaded.game.seats}
    for turn in loaded.turns:
        if before is not None:
            before(turn, game)
        if turn.command == TAKEBACK:
            if game.last_turn is None:  # not `history`: a fresh tuple of the whole log
                raise DatabaseError(f"game {loaded.game.id} takes back a turn it never had")
            game.undo()
        else:
            _play(game, loaded, turn.command, players[turn.actor_id], f"turn {turn.number}")
    return game


def _play(game: Game, loaded: LoadedGame, command: str, by: str, where: str) -> None:
    try:
        game.play(command, by=by)
    except TwixtError as error:
        raise DatabaseError(f"game {loaded.game.id} does not replay at {where} "
                            f"({command!r}): {error}") from error
