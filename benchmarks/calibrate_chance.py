"""Calibrate the engine's chance of winning on real games, and measure how well it is calibrated.

    python benchmarks/calibrate_chance.py collect --games training --first 300 --per-game 8 \
        --out train.jsonl
    python benchmarks/calibrate_chance.py collect --games benchmark --out held-out.jsonl
    python benchmarks/calibrate_chance.py fit train.jsonl          # writes the data file
    python benchmarks/calibrate_chance.py measure held-out.jsonl   # reliability, ECE, zigzag
    python benchmarks/calibrate_chance.py measure held-out.jsonl --grid   # other maps' ECE, zigzag
    python benchmarks/calibrate_chance.py collect --games training --first 60 --nodes 1250 \
        --out train-games.jsonl
    python benchmarks/calibrate_chance.py collect --games training --last 40 --nodes 1250 \
        --out train-games.jsonl
    python benchmarks/calibrate_chance.py fit --looks train-games.jsonl   # the analysis's map

`collect` replays real games with a winner (the 728 training games of
`benchmarks/games/corpus/`, or the 100 of the real-game benchmark, `benchmarks/games/`) and
asks `think` about positions of them at the analysis's default budget (or `--nodes`): every
position of each game (`--per-game 0`, what the curve's zigzag needs), or that many drawn by
the seed. Each line of its output is one position: the game, how many moves were made, whether
Red was to move, the search's own value for the side to move (`PlayResult.searched`), the
chance `think` reports (`win`), each root move's visits and searched value (`tried`), the peg
played next (`played`) and who won the game; `--parents` collects with each position drawn the
one before it, whose search looked at it first.

`fit` learns the map from the search's value to a chance, `logit(chance) = a * logit(value)
+ b`, by maximum likelihood (Newton's method), and writes it with its provenance to
`twixt/engine/data/calibration.json`, which the engine ships (`engine.chance`). `b` is what
the side to move's value is worth too much (or too little) at an even search; `a` how sure the
search is of itself. `fit --looks` learns the analysis's map instead (`CurveLooks`: the position's
own value weighed with the search before's look at it and the search after the next move's,
which need whole games collected) and adds it to the data file as `analysis`.

`measure` prints, for the chance as collected (`win`) and for the search's own value, the
reliability curve (bands of 10%: mean chance, share won), the expected calibration error
(the positions' share-weighted gap between a band's mean chance and its share won) for the
side to move and by colour to move, the mean bias, the log-loss and the lag-one
autocorrelation of the changes of Red's chance along each whole game (the curve's zigzag:
about -0.5 when each point is an independent noisy guess, -1 when the points alternate);
the same for the analysis's chance (the earlier look weighed in where the position before was
collected and its search tried the move played, the later one where the position after the
next move was collected);
`--grid` the ECE and zigzag of a few other maps instead, `--evaluation` where the side to
move's bias comes from (the evaluation alone, no search, against the search and the results),
`--values` whether another value than the best move's would draw a calmer curve (the root's
mean, the other side's view: `other_values`), each map measured on games it was not fitted on.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from twixt.engine import Limit, core, think
from twixt.engine.analysis import default_limit
from twixt.engine.api import _PLAIN as BY_THE_BOOK  # think's noise, temperature: a Limit's
from twixt.engine.board import Board
from twixt.engine.chance import DATA, Calibration, CurveLooks, looks
from twixt.engine.core import search
from twixt.engine.evaluate import NARROW, SHARPNESS, TEMPO, UNREACHABLE, side, win_chance
from twixt.engine.policy import root_scores
from twixt.engine.search import ROOT_WIDTH
from twixt.rules import Colour, Game
from twixt.rules.records import load
from twixt.service.cases.engine_player import ACCEPT_DRAW_BELOW, RESIGN_BELOW

GAMES = Path(__file__).with_name("games")
OUTPUT = Path(__file__).parents[1] / "twixt" / "engine" / "data" / DATA
#: the calibration table's bands: [0, 0.1), [0.1, 0.2), ..., [0.9, 1.0]
BANDS = 10
#: a game counts when it has a winner after at least this many pegs (as the benchmark's)
LEAST_PEGS = 20


def games(which: str) -> list[tuple[str, Game]]:
    """The games of a set with a winner after at least `LEAST_PEGS` pegs, by file name."""
    folder = GAMES / "corpus" if which == "training" else GAMES
    found = []
    for path in sorted(folder.glob("*.twixt")):
        game = load(path)
        pegs = sum(1 for turn in game.history if turn.placed is not None)
        if game.outcome is not None and game.outcome.winner is not None and pegs >= LEAST_PEGS:
            found.append((path.name, game))
    return found


def position(game: Game, mark: int) -> Game:
    """The position of `game` after its first `mark` moves."""
    moves = [index for index, turn in enumerate(game.history) if turn.command.is_move]
    board = game.copy()
    for _ in range(len(game.history) - (moves[mark - 1] + 1 if mark else 0)):
        board.undo()
    return board


def collect(which: str, per_game: int, nodes: int | None, seed: int, out: Path,
            first: int | None = None, views: bool = False, parents: bool = False,
            last: int | None = None) -> None:
    """Write one JSON line a position (see the module); a line already in `out` is kept, so
    a stopped run goes on where it stopped. `parents`: with each position drawn, the one
    before it too (its search's look at the move played, `tried` and `played`); `first`,
    `last`: only the set's first or last games."""
    done = set()
    if out.exists():
        done = {(row["game"], row["moves"]) for row in map(json.loads, out.open())}
    rng = random.Random(seed)
    started = time.monotonic()
    count = 0
    with out.open("a") as sink:
        chosen = games(which)
        for name, game in chosen[:first] if last is None else chosen[-last:]:
            marks = list(range(sum(1 for turn in game.history if turn.command.is_move)))
            if per_game:
                marks = sorted(rng.sample(marks, min(per_game, len(marks))))
                if parents:
                    marks = sorted({*marks, *(mark - 1 for mark in marks if mark)})
            turns = [turn for turn in game.history if turn.command.is_move]
            red_won = game.outcome is not None and game.outcome.winner is Colour.RED
            for mark in marks:
                if (name, mark) in done:
                    continue
                board = position(game, mark)
                if board.is_over:
                    continue
                limit = default_limit(board) if nodes is None else Limit(nodes=nodes)
                result = think(board, limit, seed=0)
                sink.write(json.dumps({
                    "game": name, "moves": mark, "red_to_move": board.colour_to_move is Colour.RED,
                    "searched": result.searched, "win": result.win, "nodes": result.nodes,
                    "tried": {move.hole: [move.visits, move.searched]
                              for move in result.root_moves},
                    "played": None if turns[mark].placed is None else str(turns[mark].placed),
                    **(other_values(board, limit) if views else {}),
                    "red_won": red_won}) + "\n")
                sink.flush()
                count += 1
            print(f"{name}: {count} positions, {time.monotonic() - started:.0f} s",
                  file=sys.stderr)


def other_values(game: Game, limit: Limit) -> dict[str, float | None]:
    """Values the analysis could report instead of the search's value of its best move
    (`PlayResult.searched`), for `measure --values`: `root_mean`, the mean over every visit
    of every root move of the same search (`think`'s, seed 0), which the maximum draws less
    to the side to move; and `other`, the best move's value of a search of the same pegs for
    the side not to move as if it were to move, a view of the position from the other side.
    None where `think` runs no search (a swap, an opening peg)."""
    if game.can_swap() or (game.options.swap and game.moves_made == 0):
        return {"root_mean": None, "other": None}
    board = Board(game)
    found: dict[str, float | None] = {}
    for colour, key in ((game.colour_to_move, "root_mean"),
                        (game.colour_to_move.opponent, "other")):
        rng = random.Random(0)
        outcome = search(board, colour, limit.nodes, None, noise=BY_THE_BOOK[0],
                         rng_values=[rng.random() for _ in range(ROOT_WIDTH)],
                         root_scores=root_scores(board, colour))
        visits = sum(outcome.visits)
        best = outcome.best()
        if key == "root_mean":
            found[key] = sum(outcome.values) / visits if visits else outcome.root_eval
        else:
            found[key] = (outcome.root_eval if best is None
                          else outcome.values[best] / max(1, outcome.visits[best]))
    return found


def rows(path: Path) -> list[dict[str, Any]]:
    """The positions of a `collect` output, each with the search of the position before's
    look at it when that position was collected too (`earlier`, for the side to move, and
    its `visits`; None and 0 when that search did not try the move played; `has_earlier`
    False when the position before was not collected), and the search of the position after
    the next move's value for this position's side to move (`later`, of `later_nodes` nodes;
    None and 0 when that position was not collected or had no search)."""
    found = [json.loads(line) for line in path.open()]
    by_place = {(row["game"], row["moves"]): row for row in found}
    for row in found:
        before = by_place.get((row["game"], row["moves"] - 1))
        row["has_earlier"] = before is not None and "tried" in before
        tried = (before["tried"].get(before["played"])
                 if before is not None and row["has_earlier"] else None)
        row["earlier"], row["visits"] = (None, 0) if tried is None else (1 - tried[1], tried[0])
        after = by_place.get((row["game"], row["moves"] + 1))
        if (after is None or after["searched"] is None
                or after["red_to_move"] is row["red_to_move"]):
            row["later"], row["later_nodes"] = None, 0
        else:
            row["later"], row["later_nodes"] = 1 - after["searched"], after["nodes"]
    return found


def looked(row: dict[str, Any], look: CurveLooks) -> float:
    """A collected position's value weighed with the other looks at it (`CurveLooks.value`)."""
    return look.value(float(row["searched"]), int(row["nodes"]), row["earlier"],
                      int(row["visits"]), row["later"], int(row["later_nodes"]))


#: the weights of the earlier look `fit --looks` tries (`CurveLooks.share`), and of the later one
#: (`CurveLooks.weight`)
SHARES = (0.01, 0.02, 0.05, 0.1, 0.2)
WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)


#: the analysis's goals (issue 45): the curve's zigzag at least this, the ECE for the side to
#: move (and so for the side not to move) at most that; `fit --looks` holds its choice to the
#: ECE's on the training games
ZIGZAG_GOAL = -0.35
ECE_GOAL = 0.05


def fit_looks(path: Path, command: str) -> dict[str, Any]:
    """The analysis's map (`CurveLooks`): for each share of `SHARES` and weight of `WEIGHTS`, the
    logistic map of the weighed value fitted on the collected positions with another look
    (whole games, so that each has the positions before and after it; one with neither keeps
    the one search's chance) and that map's ECE and zigzag on them;
    the pair whose zigzag is nearest 0 among those with an ECE within `ECE_GOAL` on these
    training positions (a calibrated chance moves as a martingale, whose changes are
    uncorrelated: 0, not the goal's edge, is what a curve should show)."""
    data = [row for row in rows(path) if row["searched"] is not None
            and (row["earlier"] is not None or row["later"] is not None)]
    won = np.array([row["red_won"] == row["red_to_move"] for row in data], dtype=float)
    fits = []
    for share in SHARES:
        for weight in WEIGHTS:
            x = _logit([looked(row, CurveLooks(Calibration(1.0, 0.0), share, weight))
                        for row in data])
            slope, bias, loss = logistic(x, won)
            mapped = CurveLooks(Calibration(slope, bias), share, weight)
            for row in data:
                row["fitted"] = mapped.calibration.chance(looked(row, mapped))
            error, _ = reliability((row["fitted"], row["red_won"] == row["red_to_move"])
                                   for row in data)
            mean, _, _ = zigzag(data, "fitted")
            meets = mean >= ZIGZAG_GOAL and error <= ECE_GOAL
            print(f"share {share}, weight {weight}: slope {slope:.4f}, bias {bias:+.4f},"
                  f" log-loss {loss:.4f}, ECE {error:.1%}, zigzag {mean:+.2f}"
                  f"{' (meets the goals)' if meets else ''}")
            fits.append((error > ECE_GOAL, abs(mean), loss, share, weight, slope, bias))
    _, _, loss, share, weight, slope, bias = min(fits)
    return {"slope": round(slope, 4), "bias": round(bias, 4), "share": share, "later": weight,
            "provenance": {
                "positions": len(data), "games": len({row["game"] for row in data}),
                "with_an_earlier_look": sum(row["earlier"] is not None for row in data),
                "with_a_later_look": sum(row["later"] is not None for row in data),
                "log_loss": round(loss, 4), "command": command,
                "date": date.today().isoformat(),
                "model": "logit(chance) = slope * logit(v) + bias, v weighing in logits the "
                         "position's own search (share times its nodes), the search before's "
                         "look at it (that look's visits) and the search after the next move "
                         "(later times share times its nodes)"}}


def _logit(values: list[float]) -> Any:
    p = np.clip(np.array(values, dtype=float), 1e-4, 1 - 1e-4)
    return np.log(p / (1 - p))


def logistic(x: Any, won: Any) -> tuple[float, float, float]:
    """The maximum-likelihood `won ~ sigmoid(slope * x + bias)` (Newton's method): slope, bias
    and the log-loss."""
    features = np.stack([x, np.ones_like(x)], axis=1)
    weights = _fitted(features, won)
    p = 1 / (1 + np.exp(-features @ weights))
    loss = -np.mean(won * np.log(p) + (1 - won) * np.log(1 - p))
    return float(weights[0]), float(weights[1]), float(loss)


def fit(path: Path, command: str) -> Calibration:
    """The logistic map from the search's value to the chance the side to move wins."""
    data = [row for row in rows(path) if row["searched"] is not None]
    x = _logit([row["searched"] for row in data])
    won = np.array([row["red_won"] == row["red_to_move"] for row in data], dtype=float)
    slope, bias, loss = logistic(x, won)
    return Calibration(
        slope=round(slope, 4), bias=round(bias, 4),
        provenance={
            "positions": len(data), "games": len({row["game"] for row in data}),
            "corpus": "benchmarks/games/corpus (see its README): real classic 24x24 games, "
                      "1984-2001, without the 100 games of benchmarks/games",
            "budget": "the analysis's default budget a position (engine.analysis.default_limit)",
            "nodes_a_position": round(float(np.mean([row["nodes"] for row in data]))),
            "log_loss": round(float(loss), 4), "command": command,
            "date": date.today().isoformat(),
            "model": "logit(chance) = slope * logit(searched value) + bias, maximum likelihood"})


def reliability(pairs: Iterable[tuple[float, bool]]) -> tuple[float, list[str]]:
    """The expected calibration error of (chance, won) pairs and the reliability table."""
    bands: list[list[tuple[float, bool]]] = [[] for _ in range(BANDS)]
    for chance, won in pairs:
        bands[min(int(chance * BANDS), BANDS - 1)].append((chance, won))
    total = sum(map(len, bands))
    error = 0.0
    lines = ["  band      positions  mean chance  won"]
    for number, members in enumerate(bands):
        if members:
            mean = sum(chance for chance, _ in members) / len(members)
            share = sum(won for _, won in members) / len(members)
            error += len(members) / total * abs(mean - share)
            lines.append(f"  {number * 10:3}-{number * 10 + 10:3}%  {len(members):9}"
                         f"  {mean:11.1%}  {share:5.1%}")
    return error, lines


def zigzag(data: list[dict[str, Any]], key: str) -> tuple[float, float, int]:
    """The lag-one autocorrelation of the changes of Red's chance along each game's whole
    curve: the mean of the games', and pooled over all games' (change, next change) pairs."""
    by_game: dict[str, list[tuple[int, float]]] = {}
    for row in data:
        red = row[key] if row["red_to_move"] else 1 - row[key]
        by_game.setdefault(str(row["game"]), []).append((int(row["moves"]), float(red)))
    each: list[float] = []
    pairs: list[tuple[float, float]] = []
    for curve in by_game.values():
        values = np.array([red for _, red in sorted(curve)])
        changes = np.diff(values)
        if len(changes) < 4 or not changes.std():
            continue
        each.append(float(np.corrcoef(changes[:-1], changes[1:])[0, 1]))
        centred = changes - changes.mean()
        pairs.extend(pairwise(centred))
    if not pairs:
        return math.nan, math.nan, 0
    first, second = np.array(pairs).T
    pooled = float((first * second).sum() / math.sqrt((first ** 2).sum() * (second ** 2).sum()))
    return float(np.mean(each)), pooled, len(each)


def measure(path: Path, calibration: Calibration | None) -> None:
    """Print the reliability, ECE, bias, log-loss and zigzag of the collected chances."""
    data = rows(path)
    keys = {"win": "the chance reported (win)", "searched": "the search's own value"}
    for row in data:
        if calibration is not None and row["searched"] is not None:
            row["refit"] = calibration.chance(float(row["searched"]))
            keys["refit"] = "the search's value through the given calibration"
        if "tried" in row and row["searched"] is not None:  # as the analysis draws its curve
            row["looks"] = (row["win"] if row["earlier"] is None and row["later"] is None
                            else looks().calibration.chance(looked(row, looks())))
            keys["looks"] = ("the analysis's chance: the earlier and later looks weighed in"
                             " (CurveLooks)")
    for key, title in keys.items():
        known = [row for row in data if row.get(key) is not None]
        pairs = [(float(row[key]), row["red_won"] == row["red_to_move"]) for row in known]
        error, table = reliability(pairs)
        loss = -np.mean([math.log(min(max(c if w else 1 - c, 1e-6), 1)) for c, w in pairs])
        bias = np.mean([c - w for c, w in pairs])
        print(f"\n{title}: {len(pairs)} positions of {len({r['game'] for r in known})} games")
        print(f"ECE, side to move: {error:.1%} (goal: at most {ECE_GOAL:.0%}; the side not to"
              f" move's chance, one minus it, has the same); bias (mean chance - share won):"
              f" {bias:+.1%}; log-loss {loss:.3f}")
        for threshold, what in ((RESIGN_BELOW, "a hopeless turn for the bot"),
                                (ACCEPT_DRAW_BELOW, "the bot accepts a draw")):
            below = [won for chance, won in pairs if chance < threshold]
            print(f"  below {threshold:.0%} ({what}): {len(below)} positions, the side to move"
                  f" won {sum(below)}")
        for colour, red in (("Red", True), ("Black", False)):
            part = [(c, w) for (c, w), row in zip(pairs, known, strict=True)
                    if row["red_to_move"] is red]
            side_error, _ = reliability(part)
            print(f"  {colour} to move ({len(part)} positions): ECE {side_error:.1%}")
        print("\n".join(table))
        mean, pooled, count = zigzag(known, key)
        print(f"zigzag (lag-one autocorrelation of the curve's changes, {count} games):"
              f" mean {mean:+.2f} (goal: at least {ZIGZAG_GOAL:+.2f}), pooled {pooled:+.2f}")


def evaluation(path: Path) -> None:
    """Where the side to move's bias comes from: the evaluation alone (`evaluate.win_chance`
    at each collected position, no search) against the search's value and the results, and
    a logistic fit of the results to the difference of the two sides' effective distances:
    its slope is the sharpness the results support, its bias over its slope what having the
    move is worth in pegs (the evaluation uses `SHARPNESS` and `TEMPO`)."""
    loaded = {name: game for which in ("training", "benchmark") for name, game in games(which)}
    data = [row for row in rows(path) if row["searched"] is not None]
    static, difference = [], []
    for row in data:
        game = position(loaded[row["game"]], row["moves"])
        board, colour = Board(game), game.colour_to_move
        mine, theirs = side(board.pos, colour), side(board.pos, colour.opponent)
        static.append(win_chance(mine, theirs))
        difference.append(theirs.effective(NARROW) - mine.effective(NARROW))
    won = np.array([row["red_won"] == row["red_to_move"] for row in data], dtype=float)
    finite = np.abs(np.array(difference)) < UNREACHABLE / 2
    slope, bias, _ = logistic(np.array(difference)[finite], won[finite])
    print(f"{len(data)} positions: the side to move won {won.mean():.1%}; the search gave it"
          f" {np.mean([row['searched'] for row in data]):.1%} on average, the evaluation alone"
          f" {np.mean(static):.1%}")
    print(f"the results against the difference of the effective distances: sharpness"
          f" {slope:.3f} a peg (the evaluation: {SHARPNESS}), the move worth {bias / slope:.2f}"
          f" pegs (the evaluation: {TEMPO})")


#: what `measure --values` compares: a name, and the collected values whose logits a map
#: weighs (the mover's and the other side's view: `other_values`)
VALUES = (("the best move's value (searched)", ("searched",)),
          ("the root's mean value (root_mean)", ("root_mean",)),
          ("both sides' views (searched, other)", ("searched", "other")),
          ("the root's mean and the other side's view (root_mean, other)",
           ("root_mean", "other")))


def values(path: Path) -> None:
    """Which value the analysis's curve is best drawn from: for each of `VALUES` collected, a
    logistic map fitted on half the games (those of even place in file order) measured on the
    other half and the other way round, so that every position is judged by a map that never
    saw its game: ECE, log-loss and the curve's zigzag over all positions."""
    collected = rows(path)
    present = [(title, keys) for title, keys in VALUES
               if all(key in row for row in collected for key in keys)]
    data = [row for row in collected if all(row.get(key) is not None
                                            for _, keys in present for key in keys)]
    names = sorted({row["game"] for row in data})
    half = {name: place % 2 for place, name in enumerate(names)}
    won = np.array([row["red_won"] == row["red_to_move"] for row in data], dtype=float)
    for title, keys in present:
        features = np.stack([_logit([row[key] for row in data]) for key in keys]
                            + [np.ones(len(data))], axis=1)
        chance = np.zeros(len(data))
        for fold in (0, 1):
            learn = np.array([half[row["game"]] != fold for row in data])
            weights = _fitted(features[learn], won[learn])
            chance[~learn] = 1 / (1 + np.exp(-features[~learn] @ weights))
        for row, value in zip(data, chance, strict=True):
            row["cross"] = float(value)
        error, _ = reliability(zip(chance, won.astype(bool), strict=True))
        loss = -np.mean(won * np.log(chance) + (1 - won) * np.log(1 - chance))
        mean, pooled, count = zigzag(data, "cross")
        print(f"{title}: {len(data)} positions of {len(names)} games, ECE {error:.1%}, log-loss"
              f" {loss:.3f}, zigzag mean {mean:+.2f} (pooled {pooled:+.2f}, {count} games)")


def _fitted(features: Any, won: Any) -> Any:
    """The maximum-likelihood weights of `won ~ sigmoid(features @ weights)`."""
    weights = np.zeros(features.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-features @ weights))
        hessian = (features * (p * (1 - p))[:, None]).T @ features
        weights = weights + np.linalg.solve(hessian, features.T @ (won - p))
    return weights


#: the maps `measure --grid` tries: slopes and biases
GRID = ((0.3, 0.45, 0.6), (0.0, -0.23, -0.4))


def grid(path: Path) -> None:
    """The ECE and zigzag of other maps of the search's value (is the zigzag bias or noise?)."""
    data = [row for row in rows(path) if row["searched"] is not None]
    for slope in GRID[0]:
        for bias in GRID[1]:
            mapped = Calibration(slope, bias)
            for row in data:
                row["mapped"] = mapped.chance(float(row["searched"]))
            error, _ = reliability((row["mapped"], row["red_won"] == row["red_to_move"])
                                   for row in data)
            mean, pooled, _ = zigzag(data, "mapped")
            print(f"slope {slope}, bias {bias:+}: ECE {error:.1%}, zigzag mean {mean:+.2f},"
                  f" pooled {pooled:+.2f}")


#: how the analysis's map is made (its provenance)
LOOKS_COMMAND = ("python benchmarks/calibrate_chance.py collect --games training --first 60"
                 " --nodes 1250 --out train-games.jsonl; python benchmarks/calibrate_chance.py"
                 " collect --games training --last 40 --nodes 1250 --out train-games.jsonl;"
                 " python benchmarks/calibrate_chance.py fit --looks train-games.jsonl")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="search positions of real games")
    gather.add_argument("--games", choices=("training", "benchmark"), default="benchmark")
    gather.add_argument("--per-game", type=int, default=0, help="0: every position")
    gather.add_argument("--nodes", type=int, help="default: the analysis's budget")
    gather.add_argument("--seed", type=int, default=0)
    gather.add_argument("--first", type=int, help="only the set's first N games")
    gather.add_argument("--last", type=int, help="only the set's last N games")
    gather.add_argument("--out", type=Path, required=True)
    gather.add_argument("--views", action="store_true",
                        help="also the root's mean and the other side's view (measure --values)")
    gather.add_argument("--parents", action="store_true",
                        help="with each position drawn (--per-game), the one before it")
    gather.add_argument("--sharpness", type=float,
                        help="search with this evaluation sharpness instead of the engine's")
    learn = commands.add_parser("fit", help="fit the map and write the data file")
    learn.add_argument("data", type=Path)
    learn.add_argument("--check", action="store_true", help="print, write nothing")
    learn.add_argument("--looks", action="store_true",
                       help="fit the analysis's map (on whole games collected) instead")
    check = commands.add_parser("measure", help="reliability, ECE and zigzag")
    check.add_argument("data", type=Path)
    check.add_argument("--calibration", type=Path, help="a data file to apply to `searched`")
    check.add_argument("--grid", action="store_true", help="the ECE and zigzag of other maps")
    check.add_argument("--values", action="store_true",
                       help="maps of other values, each measured on games it was not fitted on")
    check.add_argument("--evaluation", action="store_true",
                       help="the evaluation alone against the search's value and the results")
    args = parser.parse_args(argv)
    if args.command == "collect":
        if args.sharpness is not None:  # the constant both cores' searches are given
            vars(core)["SHARPNESS"] = args.sharpness
        collect(args.games, args.per_game, args.nodes, args.seed, args.out, args.first,
                args.views, args.parents, args.last)
    elif args.command == "fit" and args.looks:
        shipped = json.loads(OUTPUT.read_text())
        shipped["analysis"] = fit_looks(args.data, LOOKS_COMMAND)
        print(json.dumps(shipped["analysis"], indent=1))
        if not args.check:
            OUTPUT.write_text(json.dumps(shipped, indent=1) + "\n")
    elif args.command == "fit":
        found = fit(args.data, "python benchmarks/calibrate_chance.py collect --games training "
                               "--first 300 --per-game 8 --out train.jsonl; python "
                               "benchmarks/calibrate_chance.py fit train.jsonl")
        print(json.dumps(found.as_json(), indent=1))
        if not args.check:
            OUTPUT.write_text(json.dumps(found.as_json(), indent=1) + "\n")
    elif args.grid:
        grid(args.data)
    elif args.values:
        values(args.data)
    elif args.evaluation:
        evaluation(args.data)
    else:
        measure(args.data, None if args.calibration is None
                else Calibration.from_json(json.loads(args.calibration.read_text())))


if __name__ == "__main__":
    main()
