"""Who the bot is at a table: the seats it fills, their levels, and their names.

A challenge names the bot as `THE_ENGINE_PLAYER` (the terminal's word `bot`, or the bot's own
user in Discord). When the challenge is made, each place the bot takes gets a user id of its own:
a negative number that no Discord user (nor the terminal's names) can have, carrying the
level — `-3` is the bot at level 3, and in Double TwixT a second and third bot seat in the
same game are `-13` and `-23` (a game's seats need distinct users). So a seat says by itself
that the bot plays it and how strongly: nothing else needs storing or looking up, and records,
exports, replays and the status line show the seat's name, `bot (level 3)`.

Bot seats are never pinged (nobody would read it) and their games are rated for nobody
(`unrated`): a human's rating moves only in games between humans.
"""

from __future__ import annotations

from collections.abc import Sequence

from twixt.engine import LEVELS
from twixt.rules import Turn
from twixt.service.model import User
from twixt.storage import StoredGame

#: a bot that is challenged before it has a seat: the level comes with the challenge
THE_ENGINE_PLAYER = User(0, "bot")
#: the level of a challenge to the bot that names none: strong enough to be a game for a
#: club player, quick (a few seconds a move at most)
DEFAULT_LEVEL = 3
#: the word that names the bot where people are named by typing (the terminal, `team bot vs
#: bob carol`)
ENGINE_PLAYER_WORD = "bot"
#: how far apart the ids of a game's several bot seats are
_SPREAD = 10


def engine_seat_id(level: int, instance: int = 0) -> int:
    """The user id of the bot at `level`, the `instance`-th bot seat of its game (0-based)."""
    return -(instance * _SPREAD + level)


def engine_level(user_id: int) -> int | None:
    """The level of the bot that `user_id` is, or None for a person."""
    if user_id >= 0 or -user_id >= 4 * _SPREAD:
        return None
    level = -user_id % _SPREAD
    return level if level in LEVELS else None


def is_engine_seat(user_id: int) -> bool:
    """Whether the bot plays the seat of `user_id` (its id says so: see the module)."""
    return engine_level(user_id) is not None


def engine_seat_user(level: int, instance: int = 0) -> User:
    """The bot as it takes a seat: its id and the name the game's records show — a second
    and third seat numbered at the front (`bot 2 (level 1)`), where a caption cut short
    still shows it."""
    number = f" {instance + 1}" if instance else ""
    return User(engine_seat_id(level, instance), f"bot{number} (level {level})")


def taken_back(stored: StoredGame, history: Sequence[Turn], seat: int) -> int:
    """How many turns a takeback asked by `seat` undoes: its last turn, and the bot's turns
    after it (the bot answers at once, so a player facing it could never ask in time); 0 when
    a person has played since, or `seat` never played. `history` is the game's turns."""
    for count, turn in enumerate(reversed(history), start=1):
        if turn.seat == seat:
            return count
        if not is_engine_seat(stored.seats[turn.seat].user_id):
            return 0
    return 0
