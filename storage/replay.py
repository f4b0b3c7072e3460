"""A stored game back as a `rules.Game`: the log is the truth, and this is how it is read.

Seats are named by their user ids (as text), so the log's actors map onto `rules` players.
"""

from __future__ import annotations

from rules import Game, TwixtError
from storage.errors import DatabaseError
from storage.records import GameRecord, LoadedGame


def new_game(game: GameRecord) -> Game:
    """The empty board of a stored game: its setup, its seats in order."""
    setup = game.setup
    return Game(players=tuple(str(seat.user_id) for seat in game.seats), size=setup.size,
                rules=setup.rules, swap=setup.swap, handicap=setup.handicap)


def replay(loaded: LoadedGame) -> Game:
    """Replay the whole log; a turn that does not replay means the record is damaged."""
    game = new_game(loaded.game)
    for turn in loaded.turns:
        try:
            game.play(turn.command, by=str(turn.actor_id))
        except TwixtError as error:
            raise DatabaseError(f"game {loaded.game.id} does not replay at turn {turn.number} "
                                f"({turn.command!r}): {error}") from error
    return game
