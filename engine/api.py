"""The engine's whole interface: what the caller asks (`Limit`) and what it gets (`PlayResult`)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from rules import Game, TwixtError

#: the levels a player may challenge, weakest first
LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Limit:
    """How much the engine may think: at most `seconds` of wall time and at most `nodes`
    search nodes, whichever comes first (None: no bound of that kind; at least one is set)."""

    seconds: float | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class PlayResult:
    """The engine's answer: `move` as a player would type it (`G6 link E5`, `swap`,
    `G6; privilege`), `win` the chance (0–1) that the side to move wins, `pv` the expected
    line starting with `move`, and the work done."""

    move: str
    win: float
    pv: tuple[str, ...]
    nodes: int
    seconds: float


def level_limit(level: int) -> Limit:
    """The budget of a level (1 answers at once, 5 thinks up to ten seconds)."""
    if level not in LEVELS:
        raise TwixtError("{level} is not a level: choose 1 to 5", level=level)
    return Limit(seconds=10.0 * level / 5, nodes=10 ** level)


def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """Choose the action for the side to move; `game` is left as it was. The same position,
    limit (without a time bound) and seed always give the same move.

    A placeholder until the search lands: a random legal peg with every legal link."""
    if game.is_over:
        raise TwixtError("the game is over")
    started = time.perf_counter()
    if game.can_swap() and not game.is_double:
        move = "swap"
    else:
        hole = random.Random(seed).choice(game.legal_placements())
        move = str(hole)
    return PlayResult(move, 0.5, (move,), 1, time.perf_counter() - started)
