"""Engine functions for the bot's tests: a quiet move with a fixed evaluation.

They run in the engine pool's worker processes, which import them by name: module-level
functions of `think`'s shape (game, limit, *, seed)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from twixt.engine import Limit, PlayResult, think
from twixt.rules import Game

#: the file whose existence lets `latched` answer (set in the environment before the pool's
#: workers start, which copy it)
LATCH = "TWIXT_TEST_LATCH"


def quiet(game: Game, win: float) -> PlayResult:
    """The last empty hole the side to move may take (far from the left columns the tests'
    players fill), said with the chance `win`: the tests decide the evaluation, and their
    own moves never find the hole taken."""
    move = str(game.legal_placements()[-1])
    return PlayResult(move, win, (move,), 1, 0.0)


def lost(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """The engine sees no chance for the side to move (1%)."""
    return quiet(game, 0.01)


def drawish(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """A poor position for the side to move (10%)."""
    return quiet(game, 0.1)


def winning(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """A good position for the side to move (90%)."""
    return quiet(game, 0.9)


def taken(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """A move the rules refuse whatever happens: the hole of the last peg, taken already."""
    last = game.last_peg_turn
    assert last is not None and last.command.placement is not None
    move = str(last.command.placement.hole)
    return PlayResult(move, 0.5, (move,), 1, 0.0)


def broken(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """A search that fails (the process stopped before it could answer, as far as the bot
    knows)."""
    raise RuntimeError("the search broke")


def privileged(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """The engine's move, with privilege called whenever the rules allow it."""
    result = think(game, limit, seed=seed)
    called = f"{result.move}; privilege"
    try:
        game.copy().play(called)
    except Exception:
        return result
    return replace(result, move=called, pv=(called,))


def latched(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """The engine's move, once the latch file exists (the test says when)."""
    wait_for_latch()
    return think(game, limit, seed=seed)


def wait_for_latch(latch: str | None = None) -> None:
    """Take a worker until the latch file exists (`latch`, or the one the environment
    names)."""
    path = Path(latch or os.environ[LATCH])
    while not path.exists():
        time.sleep(0.01)


def worker_pid() -> int:
    return os.getpid()


def counting(total: int, *, progress: Callable[[int, int], None]) -> int:
    """Tells (1, total), (2, total), …, (total, total), then answers the process's id."""
    for done in range(1, total + 1):
        progress(done, total)
    return os.getpid()
