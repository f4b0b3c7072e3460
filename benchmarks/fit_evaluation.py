"""Fit the search's leaf evaluation to the results of real games, and judge it on games held out.

    python benchmarks/fit_evaluation.py                 # collect (cached), fit, print the table
    python benchmarks/fit_evaluation.py --phase         # also the fits with the game's phase

The leaf evaluation (`engine.evaluate.win_chance`) turns both sides' distances into the chance
that the side to move wins: `logit = SHARPNESS * (b - a + TEMPO)`, with a side's effective
distance `distance + NARROW / width + WEAK * sum(1 / layer width)`. That is a logistic model
in four numbers: the difference of the distances, of the narrow terms (1 / width), of the
layer sums, and a constant. Its constants were set by matches, not fitted to results; this
fits them (and, with `--phase`, the same terms times the share of the board filled) by
maximum likelihood to who won, on every position of the 728 training games
(`benchmarks/games/corpus/`), and measures the log-loss and accuracy on every position of the
100 games of the real-game benchmark (`benchmarks/games/`), which no fit sees.

Each position is measured once (the compiled core's flood fills, as the search's) and cached
in the system's temp folder (`twixt-evaluation-features.npz`); the fit is Newton's method.
A position where either side can no longer connect is left out (the evaluation decides it
without the formula). The printed constants are those `engine.evaluate` would take for the
same model (`SHARPNESS`, `TEMPO`, `NARROW`, `WEAK`).
"""

from __future__ import annotations

import argparse
import math
import tempfile
from pathlib import Path

import numpy as np

from twixt.engine.board import Board
from twixt.engine.core import compiled_side
from twixt.engine.evaluate import BY_MATCHES, LEAF, UNREACHABLE, Leaf, Side
from twixt.rules import Colour, Game
from twixt.rules.records import load

GAMES = Path(__file__).with_name("games")
CACHE = Path(tempfile.gettempdir()) / "twixt-evaluation-features.npz"
#: as the calibration's: a game counts when it has a winner after at least this many pegs
LEAST_PEGS = 20
#: per position: the set (0 training, 1 held out), the game, the mover's distance, width and
#: layer sum, the same for the other side, the share of the holes filled, Red to move, won
COLUMNS = ("held_out", "game", "d_mine", "w_mine", "s_mine", "d_theirs", "w_theirs",
           "s_theirs", "filled", "red", "won")


def terms(found: Side) -> tuple[float, float, float]:
    """A side's distance, its narrow term (1 / the narrowest layer's width, 0 when none) and
    its layer sum (sum of 1 / width), as `Side.effective` adds them."""
    counts = [layer.bit_count() for layer in found.path_layers]
    width = min(counts, default=0)
    return (float(found.distance), 1.0 / width if width else 0.0,
            sum(1.0 / count for count in counts if count))


def game_rows(game: Game, held_out: int, number: int) -> list[list[float]]:
    """One row a position of `game` before each of its moves (see `COLUMNS`)."""
    assert game.outcome is not None and game.outcome.winner is not None
    winner = game.outcome.winner
    board = game.copy()
    moves = [index for index, turn in enumerate(game.history) if turn.command.is_move]
    found = []
    for mark in range(len(moves) - 1, -1, -1):
        while len(board.history) > moves[mark]:
            board.undo()
        if board.is_over:
            continue
        pos = Board(board).pos
        mover = board.colour_to_move
        mine = compiled_side(pos, mover, board.rules)
        theirs = compiled_side(pos, mover.opponent, board.rules)
        if mine.distance >= UNREACHABLE or theirs.distance >= UNREACHABLE:
            continue
        geo = pos.geo
        filled = pos.occupied.bit_count() / geo.all_mask.bit_count()
        found.append([held_out, number, *terms(mine), *terms(theirs), filled,
                      float(mover is Colour.RED), float(winner is mover)])
    return found


def collect() -> np.ndarray:
    """Every position of both sets (cached)."""
    if CACHE.exists():
        cached: np.ndarray = np.load(CACHE)["rows"]
        return cached
    rows: list[list[float]] = []
    number = 0
    for held_out, folder in ((0, GAMES / "corpus"), (1, GAMES)):
        for path in sorted(folder.glob("*.twixt")):
            game = load(path)
            pegs = sum(1 for turn in game.history if turn.placed is not None)
            if game.outcome is None or game.outcome.winner is None or pegs < LEAST_PEGS:
                continue
            rows += game_rows(game, held_out, number)
            number += 1
    table = np.array(rows)
    np.savez_compressed(CACHE, rows=table)
    return table


def design(table: np.ndarray, phase: bool) -> np.ndarray:
    """The model's inputs: the differences (theirs − mine) of the distances, narrow terms and
    layer sums, a constant, and with `phase` the three differences times the share filled."""
    col = {name: table[:, i] for i, name in enumerate(COLUMNS)}
    diffs = [col["d_theirs"] - col["d_mine"], col["w_theirs"] - col["w_mine"],
             col["s_theirs"] - col["s_mine"]]
    inputs = [*diffs, np.ones(len(table))]
    if phase:
        inputs += [d * col["filled"] for d in diffs]
    return np.stack(inputs, axis=1)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Maximum-likelihood logistic weights by Newton's method (a touch of ridge for safety)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def judged(p: np.ndarray, y: np.ndarray) -> str:
    """Log-loss, Brier and accuracy of the chances `p` of the results `y`."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    return (f"log-loss {loss:.4f}, Brier {np.mean((p - y) ** 2):.4f},"
            f" accuracy {np.mean((p > 0.5) == (y > 0.5)):.1%}")


def constants(w: np.ndarray) -> str:
    """The fitted weights as `engine.evaluate`'s constants (the plain model only)."""
    sharpness = w[0]
    return (f"SHARPNESS {sharpness:.3f}, TEMPO {w[3] / sharpness:.3f},"
            f" NARROW {w[1] / sharpness:.3f}, WEAK {w[2] / sharpness:.3f}")


def chances(table: np.ndarray, leaf: Leaf) -> np.ndarray:
    """`win_chance`'s chance for each position with the constants `leaf`."""
    col = {name: table[:, i] for i, name in enumerate(COLUMNS)}
    a = col["d_mine"] + leaf.narrow * col["w_mine"] + leaf.weak * col["s_mine"]
    b = col["d_theirs"] + leaf.narrow * col["w_theirs"] + leaf.weak * col["s_theirs"]
    return 1.0 / (1.0 + np.exp(-leaf.sharpness * (b - a + leaf.tempo)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--phase", action="store_true", help="also fit the terms × phase")
    args = parser.parse_args(argv)
    table = collect()
    train, held = table[table[:, 0] == 0], table[table[:, 0] == 1]
    y_train, y_held = train[:, -1], held[:, -1]
    print(f"positions: {len(train)} of {len(np.unique(train[:, 1]))} training games,"
          f" {len(held)} of {len(np.unique(held[:, 1]))} held-out games")
    for name, leaf in (("set by matches", BY_MATCHES), ("the engine's", LEAF)):
        print(f"{name} {leaf}:")
        print(f"  training {judged(chances(train, leaf), y_train)}")
        print(f"  held out {judged(chances(held, leaf), y_held)}")
    print(f"  the side to move won {y_held.mean():.1%} held out, {y_train.mean():.1%} training")
    for phase in (False, True) if args.phase else (False,):
        w = fit(design(train, phase), y_train)
        name = "fitted, with the phase" if phase else "fitted"
        print(f"{name}: weights {np.round(w, 4).tolist()}")
        if not phase:
            print(f"  as constants: {constants(w)}")
        print(f"  training {judged(1 / (1 + np.exp(-design(train, phase) @ w)), y_train)}")
        print(f"  held out {judged(1 / (1 + np.exp(-design(held, phase) @ w)), y_held)}")
    print(f"(a coin: log-loss {math.log(2):.4f}, Brier 0.2500)")


if __name__ == "__main__":
    main()
