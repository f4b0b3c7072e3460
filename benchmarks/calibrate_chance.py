"""Calibrate the engine's chance of winning on real games, and measure how well it is calibrated.

    python benchmarks/calibrate_chance.py fit --jobs 2       # the refit: writes the data file
    python benchmarks/calibrate_chance.py measure --jobs 2   # held out: ECE by side, zigzag
    python benchmarks/calibrate_chance.py collect --games benchmark --out held-out.jsonl
    python benchmarks/calibrate_chance.py measure held-out.jsonl   # reliability tables
    python benchmarks/calibrate_chance.py measure held-out.jsonl --grid   # other maps' ECE, zigzag

`fit` is the whole refit, one command: it searches every position of 227 whole training
games (`TRAINING`: of the 454 training games of `benchmarks/games/corpus/` with a winner after
at least 20 pegs, by date, every other one from the oldest) with `think` at 1,250
nodes (the analysis's default on 24x24), keeping each game's positions in a cache folder named
by a hash of the engine's files that decide a search (`engine_key`: a changed evaluation
searches again; a stopped run goes on where it stopped), then fits both maps of
`engine.chance` and writes them with their provenance to `twixt/engine/data/calibration.json`:
`think`'s (`PlayResult.win`, of one search's value) and the analysis's (`CurveLooks`: the
position's own search weighed with the search before's look at it and the search after the
next move's). Each setting (a line or a cubic map; the looks' weights) is judged on the
training games alone, by maps fitted on four fifths of the games foretelling the fifth. About
6,600 positions at some 0.17 CPU s each: 20 CPU minutes, about 11 by the clock with `--jobs 2`
on a quiet two-core machine; the fit itself takes seconds once the positions are searched.

`measure` (no file) searches the held-out games the same way (`HELD_OUT`: the real-game
benchmark's 100 games, which no fit saw, and the training set's other 227 games, which the
maps' fit never saw; never used for a choice; about 9,800 positions, 28 CPU minutes the first
time, seconds after) and prints every figure issue 45's first item asks, for both chances
(`think`'s: the bot's resignations and draw answers; the analysis's curve), on all of them and
on each set: the ECE for the side to move and for the side not to move, for Red to move and
for Black to move, the side to move's bias and the curve's zigzag (lag-one autocorrelation of
the changes of Red's chance along each game), each with a 90% interval over the games
resampled and the share of resamples within the goal; the reliability table of both sides
(each band's share won with its interval); the goals; a floor, the ECE of a map fitted on
those very positions, and the line such a map would take; how many positions fall below the
bot's resignation and draw thresholds and how many of them the side to move won; and whether
the leaf evaluation's fit, which saw the training set's held-out games, flatters them
(`leaf_touch`).

`collect` writes positions to one file (every position of each game with `--per-game 0`, or
that many drawn by the seed, `--parents` with the one before each): one line a position, the
game, how many moves were made, whether Red was to move, the search's own value for the side
to move (`PlayResult.searched`), the chance `think` reported (`win`), each root move's visits
and searched value (`tried`), the peg played next (`played`) and who won the game.
`measure FILE` prints for such a file the reliability curve (bands of 10%: mean chance, share
won), the expected calibration error (the positions' share-weighted gap between a band's mean
chance and its share won), by colour to move, the mean bias, the log-loss and the zigzag, for
the chance as collected, the search's own value and the analysis's chance;
`--grid` the ECE and zigzag of a few other maps instead, `--evaluation` where the side to
move's bias comes from (the evaluation alone, no search, against the search and the results),
`--values` whether another value than the best move's would draw a calmer curve (the root's
mean, the other side's view: `other_values`), each map measured on games it was not fitted on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
import warnings
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from fit_evaluation import collect as leaf_positions
from fit_evaluation import design, fit

from twixt.engine import Limit, core, think
from twixt.engine.analysis import default_limit
from twixt.engine.api import _PLAIN as BY_THE_BOOK  # think's noise, temperature: a Limit's
from twixt.engine.board import Board
from twixt.engine.chance import CLIP, DATA, Calibration, CurveLooks, calibrated, looks
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
            last: int | None = None, start: int = 0) -> None:
    """Write one JSON line a position (see the module); a line already in `out` is kept, so
    a stopped run goes on where it stopped. `parents`: with each position drawn, the one
    before it too (its search's look at the move played, `tried` and `played`); `first`,
    `last`: only the set's first or last games; `start`: after skipping the set's first
    `start` games (so `--start 48 --first 48` is games 49-96)."""
    done = set()
    if out.exists():
        done = {(row["game"], row["moves"]) for row in map(json.loads, out.open())}
    rng = random.Random(seed)
    started = time.monotonic()
    count = 0
    with out.open("a") as sink:
        chosen = games(which)[start:]
        for name, game in chosen[:first] if last is None else chosen[-last:]:
            marks = list(range(sum(1 for turn in game.history if turn.command.is_move)))
            if per_game:
                marks = sorted(rng.sample(marks, min(per_game, len(marks))))
                if parents:
                    marks = sorted({*marks, *(mark - 1 for mark in marks if mark)})
            for mark in marks:
                if (name, mark) in done:
                    continue
                found = searched_row(name, game, mark, nodes, views)
                if found is not None:
                    sink.write(json.dumps(found) + "\n")
                    sink.flush()
                    count += 1
            print(f"{name}: {count} positions, {time.monotonic() - started:.0f} s",
                  file=sys.stderr)


def searched_row(name: str, game: Game, mark: int, nodes: int | None,
                 views: bool = False) -> dict[str, Any] | None:
    """One line of `collect`'s output: `think` (seed 0) at the position of `game` after `mark`
    moves, at `nodes` nodes (None: the analysis's default budget); None once the game is over
    there."""
    board = position(game, mark)
    if board.is_over:
        return None
    turns = [turn for turn in game.history if turn.command.is_move]
    limit = default_limit(board) if nodes is None else Limit(nodes=nodes)
    result = think(board, limit, seed=0)
    return {"game": name, "moves": mark, "red_to_move": board.colour_to_move is Colour.RED,
            "searched": result.searched, "win": result.win, "nodes": result.nodes,
            "tried": {move.hole: [move.visits, move.searched] for move in result.root_moves},
            "played": None if turns[mark].placed is None else str(turns[mark].placed),
            **(other_values(board, limit) if views else {}),
            "red_won": game.outcome is not None and game.outcome.winner is Colour.RED}


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


def rows(path: Path | list[Path]) -> list[dict[str, Any]]:
    """The positions of a `collect` output (or of several files), each with the search of the
    position before's look at it when that position was collected too (`earlier`, for the side
    to move, and
    its `visits`; None and 0 when that search did not try the move played; `has_earlier`
    False when the position before was not collected), and the search of the position after
    the next move's value for this position's side to move (`later`, of `later_nodes` nodes;
    None and 0 when that position was not collected or had no search)."""
    found = [json.loads(line) for each in ([path] if isinstance(path, Path) else path)
             for line in each.open()]
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


#: the weights of the earlier look `fit` tries (`CurveLooks.share`), and of the later one
#: (`CurveLooks.weight`)
SHARES = (0.02, 0.05, 0.1, 0.2, 0.5)
WEIGHTS = (0.0, 0.5, 1.0, 2.0, 4.0)
#: the maps' shapes `fit` chooses from: a line in logits, or with the cubic term too
#: (`Calibration.curve`)
SHAPES = ("line", "cubic")


#: the analysis's goals (issue 45): the curve's zigzag at least this, the ECE for the side to
#: move (and so for the side not to move) at most that, for Red to move and Black to move alike
ZIGZAG_GOAL = -0.35
ECE_GOAL = 0.05
#: `fit` keeps the looks whose cross-validated zigzag is within this of 0: a calibrated chance
#: moves as a martingale, whose changes are uncorrelated, so 0 is what a curve should show (the
#: goal's edge is no target: the held-out games' zigzag differs from the training games' by
#: about 0.1)
ZIGZAG_TOLERANCE = 0.15

#: the positions' nodes (the analysis's default on 24x24 is about this: `default_limit`)
NODES = 1250
#: the games the maps are fitted on (`fit`): of the training set's games with a winner, by date,
#: every other one from the oldest (227 games). Every other one, so that the fit's games are
#: of every period as the corpus is: its older games (the tournament games of 1984-1995, whose
#: links were reconstructed) are foretold less well by the search than the later ones, and the
#: maps once fitted on the oldest 160 games and the newest 40 were too timid for the rest
#: (docs/engine-measurements.md, "The chance on 327 held-out games")
TRAINING = (slice(0, None, 2),)
#: the held-out games `measure` reports (a name, the set, which of its decided games), never
#: used for a fit or a choice of the chance's maps: the real-game benchmark's 100 games, which
#: neither the maps' fit nor the leaf evaluation's (`benchmarks/fit_evaluation.py`) saw, and
#: the other half of the training set's decided games (227), which the maps' fit never saw.
#: The leaf's fit did (its four constants, on all 454 decided training games); fitted without
#: them it foretells them with a log-loss of 0.6450 against 0.6414 (`leaf_touch`, which
#: `measure` prints): a gain of 0.004, against the leaf's 0.05 over a coin's 0.693 there.
HELD_OUT = (("the benchmark's 100 games (no fit saw them)", "benchmark", slice(None)),
            ("the training set's other 227 games (the maps' fit never saw them)", "training",
             slice(1, None, 2)))
#: the folds of the games `fit` judges a setting by (a map fitted on the others foretells each)
FOLDS = 5
#: where `fit` and `measure` keep the positions they searched (one file a game)
CACHE = Path.home() / ".cache" / "twixt-calibration"
#: the engine's files that decide a search's values: the positions are searched again when one
#: of them changes (not the chance's own map, nor the analysis)
NOT_THE_SEARCH = ("chance.py", "analysis.py", "about.py", "worker.py", DATA)


def engine_key() -> str:
    """A short hash of the engine's files that decide a search's values (`NOT_THE_SEARCH` left
    out), naming the cache's folder: a changed evaluation searches the positions again."""
    folder = Path(core.__file__).parent
    digest = hashlib.sha256()
    for path in sorted([*folder.glob("*.py"), *folder.glob("*.c"), *folder.glob("data/*")]):
        if path.name not in NOT_THE_SEARCH:
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def _search_game(which: str, name: str, nodes: int, path: Path) -> int:
    """Every position of one game searched, written to `path` once whole (a stopped run
    leaves no half game); the positions' count."""
    game = load((GAMES / "corpus" if which == "training" else GAMES) / name)
    moves = sum(1 for turn in game.history if turn.command.is_move)
    found = [row for mark in range(moves)
             if (row := searched_row(name, game, mark, nodes)) is not None]
    part = path.with_suffix(".part")
    part.write_text("".join(json.dumps(row) + "\n" for row in found))
    part.replace(path)
    return len(found)


def searched(which: str, parts: Iterable[slice], cache: Path, jobs: int,
             nodes: int = NODES) -> list[Path]:
    """The files of the games of `parts` of a set, every position searched at `nodes` nodes,
    searching (in `jobs` processes) only the games the cache does not hold yet."""
    names = [name for name, _ in games(which)]
    chosen = list(dict.fromkeys(name for part in parts for name in names[part]))
    folder = cache / f"{engine_key()}-{nodes}" / which
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{name}.jsonl" for name in chosen]
    missing = [(name, path) for name, path in zip(chosen, paths, strict=True)
               if not path.exists()]
    if missing:
        print(f"searching {len(missing)} {which} games at {nodes} nodes into {folder}"
              f" ({jobs} processes; about 30 positions a game)", file=sys.stderr)
        started = time.monotonic()
        with ProcessPoolExecutor(jobs) as pool:
            jobs_done = [pool.submit(_search_game, which, name, nodes, path)
                         for name, path in missing]
            for count, job in enumerate(as_completed(jobs_done), 1):
                print(f"  {count}/{len(missing)} games ({job.result()} positions),"
                      f" {time.monotonic() - started:.0f} s", file=sys.stderr)
    return paths


def logits(values: Iterable[float]) -> Any:
    """The values' logits, taken as the engine takes them (`chance.CLIP`)."""
    p = np.clip(np.array(list(values), dtype=float), CLIP, 1 - CLIP)
    return np.log(p / (1 - p))


def _features(z: Any, shape: str) -> Any:
    """The columns a map of `shape` weighs: z, 1 and for a cubic map z**3."""
    return np.stack([z, np.ones_like(z), *([z ** 3] if shape == "cubic" else [])], axis=1)


def fitted_map(z: Any, won: Any, shape: str) -> Calibration:
    """The maximum-likelihood map of logits `z` to the results `won`; a cubic term that comes
    out negative (a map no longer increasing at the ends) is left out."""
    weights = _fitted(_features(z, shape), won)
    if shape == "cubic" and weights[2] < 0:
        weights = np.append(_fitted(_features(z, "line"), won), 0.0)
    return Calibration(float(weights[0]), float(weights[1]),
                       curve=float(weights[2]) if shape == "cubic" else 0.0)


def mapped(calibration: Calibration, z: Any) -> Any:
    """`Calibration.chance` of many logits at once."""
    return 1 / (1 + np.exp(-(calibration.slope * z + calibration.curve * z ** 3
                             + calibration.bias)))


def results(data: list[dict[str, Any]]) -> Any:
    """1 where the side to move went on to win, else 0."""
    return np.array([row["red_won"] == row["red_to_move"] for row in data], dtype=float)


def cross_chances(data: list[dict[str, Any]], z: Any, shape: str,
                  fallback: Any | None = None) -> Any:
    """Each position's chance by a map fitted on the other folds' games (`FOLDS`, by game);
    where `z` is nan (no other look), `fallback`'s chance instead."""
    won, fold = results(data), _folds(data)
    usable = ~np.isnan(z)
    chance = np.array(fallback if fallback is not None else np.full(len(data), np.nan))
    for number in range(FOLDS):
        learn, judged = usable & (fold != number), usable & (fold == number)
        chance[judged] = mapped(fitted_map(z[learn], won[learn], shape), z[judged])
    return chance


def _by_colour(data: list[dict[str, Any]], z: Any, shape: str) -> Any:
    """`cross_chances` of a map with one more term, +1 with Red to move and -1 with Black:
    whether the side to move's bias differs by colour on games the map did not see."""
    won, fold = results(data), _folds(data)
    features = np.column_stack([_features(z, shape),
                                [1.0 if row["red_to_move"] else -1.0 for row in data]])
    chance = np.zeros(len(data))
    for number in range(FOLDS):
        learn = fold != number
        chance[~learn] = 1 / (1 + np.exp(-features[~learn] @ _fitted(features[learn],
                                                                      won[learn])))
    return chance


def _folds(data: list[dict[str, Any]]) -> Any:
    names = sorted({row["game"] for row in data})
    place = {name: number % FOLDS for number, name in enumerate(names)}
    return np.array([place[row["game"]] for row in data])


def scores(data: list[dict[str, Any]], chance: Any) -> dict[str, float]:
    """Log-loss, ECE (all, Red to move, Black to move) and mean zigzag of the chances."""
    won = results(data)
    red = np.array([row["red_to_move"] for row in data])
    for row, value in zip(data, chance, strict=True):
        row["scored"] = float(value)
    return {"log_loss": log_loss(chance, won),
            "ece": calibration_error(chance, won), "red": calibration_error(chance[red], won[red]),
            "black": calibration_error(chance[~red], won[~red]),
            "zigzag": zigzag(data, "scored")[0]}


def log_loss(chance: Any, won: Any) -> float:
    """The mean log-loss of the chances (each kept a millionth from 0 and 1)."""
    clipped = np.clip(chance, 1e-6, 1 - 1e-6)
    return float(-np.mean(won * np.log(clipped) + (1 - won) * np.log(1 - clipped)))


def _line(name: str, score: dict[str, float]) -> str:
    return (f"{name}: log-loss {score['log_loss']:.4f}, ECE {score['ece']:.1%} (Red to move"
            f" {score['red']:.1%}, Black {score['black']:.1%}), zigzag {score['zigzag']:+.2f}")


def fit_maps(data: list[dict[str, Any]], command: str) -> dict[str, Any]:
    """Both maps, each setting judged on the training games alone by cross-validation (by
    game): `think`'s map of one search's value, the shape with the lower log-loss; the
    analysis's (`CurveLooks`), the share, later weight and shape with the lowest log-loss
    among those whose zigzag is within `ZIGZAG_TOLERANCE` of 0 and ECE at most `ECE_GOAL`
    (a position with no other look keeps `think`'s chance, as in the analysis)."""
    data = [row for row in data if row["searched"] is not None]
    won = results(data)
    own = logits(row["searched"] for row in data)
    print(f"{len(data)} positions of {len({row['game'] for row in data})} training games;"
          f" judged by maps fitted on the other {FOLDS - 1} fifths of the games")
    single = {}
    for shape in SHAPES:
        single[shape] = cross_chances(data, own, shape)
        print(_line(f"think's map, {shape}", scores(data, single[shape])))
    shape = min(SHAPES, key=lambda each: scores(data, single[each])["log_loss"])
    think_map = fitted_map(own, won, shape)
    print(_line(f"think's map, {shape}, with a term for Red to move (not shipped: separate"
                " maps by colour earn their place only with a lower log-loss)",
                scores(data, _by_colour(data, own, shape))))
    trials = []
    for share in SHARES:
        for weight in WEIGHTS:
            look = CurveLooks(Calibration(1.0, 0.0), share, weight)
            z = np.array([math.nan if row["earlier"] is None and row["later"] is None
                          else float(logits([looked(row, look)])[0]) for row in data])
            for form in SHAPES:
                score = scores(data, cross_chances(data, z, form, single[shape]))
                meets = (abs(score["zigzag"]) <= ZIGZAG_TOLERANCE
                         and score["ece"] <= ECE_GOAL)
                print(_line(f"looks: share {share}, later {weight}, {form}", score)
                      + (" (eligible)" if meets else ""))
                trials.append((not meets, score["log_loss"], share, weight, form, z))
    _, loss, share, weight, form, z = min(trials, key=lambda trial: trial[:2])
    usable = ~np.isnan(z)
    looks_map = fitted_map(z[usable], won[usable], form)
    provenance = {
        "positions": len(data), "games": len({row["game"] for row in data}),
        "corpus": "benchmarks/games/corpus (see its README): real classic 24x24 games, "
                  "1984-2001, without the 100 games of benchmarks/games; every other game "
                  "with a winner after at least 20 pegs, by date, from the oldest",
        "nodes_a_position": round(float(np.mean([row["nodes"] for row in data]))),
        "command": command, "date": date.today().isoformat()}
    return {
        **_rounded(think_map), "provenance": {
            **provenance, "shape": shape, "model": "logit(chance) = slope * z + curve * z**3"
            " + bias, z = logit(searched value); maximum likelihood"},
        "analysis": {**_rounded(looks_map), "share": share, "later": weight, "provenance": {
            **provenance, "shape": form, "positions_with_another_look": int(usable.sum()),
            "cross_validated_log_loss": round(loss, 4),
            "model": "logit(chance) = slope * z + curve * z**3 + bias, z = logit(v), v weighing"
                     " in logits the position's own search (share times its nodes), the search"
                     " before's look at it (that look's visits) and the search after the next"
                     " move (later times share times its nodes)"}}}


def _rounded(calibration: Calibration) -> dict[str, float]:
    return {"slope": round(calibration.slope, 4), "bias": round(calibration.bias, 4),
            "curve": round(calibration.curve, 5)}


def calibration_error(chance: Any, won: Any, weights: Any | None = None) -> float:
    """The expected calibration error: over the bands of `BANDS`, the positions' share of
    each band times the gap between its mean chance and its share won (positions weighed by
    `weights` when given)."""
    if not len(chance):
        return math.nan
    weights = np.ones(len(chance)) if weights is None else np.asarray(weights, dtype=float)
    band = np.minimum((np.asarray(chance) * BANDS).astype(int), BANDS - 1)
    gaps = np.bincount(band, weights=weights * (np.asarray(chance) - np.asarray(won)),
                       minlength=BANDS)
    return float(np.abs(gaps).sum() / weights.sum())


def reliability(pairs: Iterable[tuple[float, bool]]) -> tuple[float, list[str]]:
    """The expected calibration error of (chance, won) pairs and the reliability table."""
    bands: list[list[tuple[float, bool]]] = [[] for _ in range(BANDS)]
    for chance, won in pairs:
        bands[min(int(chance * BANDS), BANDS - 1)].append((chance, won))
    lines = ["  band      positions  mean chance  won"]
    for number, members in enumerate(bands):
        if members:
            mean = sum(chance for chance, _ in members) / len(members)
            share = sum(won for _, won in members) / len(members)
            lines.append(f"  {number * 10:3}-{number * 10 + 10:3}%  {len(members):9}"
                         f"  {mean:11.1%}  {share:5.1%}")
    every = [pair for members in bands for pair in members]
    return calibration_error([chance for chance, _ in every], [won for _, won in every]), lines


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


#: how many times `measure` resamples a part's games for its intervals (90%: the 5th to 95th
#: percentile of the figure over the resamples; an ECE is never below 0, so a resample's noise
#: raises it: the interval lies above the figure more than below it) and the share of the
#: resamples that meet the goal
RESAMPLES = 1000


def chances(data: list[dict[str, Any]]) -> dict[str, Any]:
    """The two chances the engine reports for collected positions, by the shipped maps (not
    as collected, so that a refit needs no new search): `think`'s (`PlayResult.win`: the bot's
    resignations and draw answers) and the analysis's curve (`CurveLooks`; `think`'s where
    no other look was collected)."""
    single = np.array([calibrated(float(row["searched"])) for row in data])
    curve = np.array([chance if row["earlier"] is None and row["later"] is None
                      else looks().chance(float(row["searched"]), int(row["nodes"]),
                                          row["earlier"], int(row["visits"]), row["later"],
                                          int(row["later_nodes"]))
                      for row, chance in zip(data, single, strict=True)])
    return {"think's chance (the bot's resignations and draw answers)": single, CURVE: curve}


#: the analysis's chance's name in `chances` (the zigzag's goal is its)
CURVE = "the analysis's chance (the curve: three looks)"


def leaf_touch() -> str:
    """Whether the leaf evaluation's fit, which saw `HELD_OUT`'s training games, flatters
    them: the log-loss there of the leaf's model (the evaluation alone, no search) fitted as
    shipped, on every decided training game, and fitted without them
    (`benchmarks/fit_evaluation.py`'s positions and fit)."""
    table = leaf_positions()
    train = table[table[:, 0] == 0]
    _, which, part = HELD_OUT[1]
    held = np.isin(train[:, 1], np.arange(len(games(which)))[part])
    found = []
    for learned in (np.ones(len(train), dtype=bool), ~held):
        weights = fit(design(train[learned], False), train[learned][:, -1])
        found.append(log_loss(1 / (1 + np.exp(-design(train[held], False) @ weights)),
                              train[held][:, -1]))
    return (f"the leaf's fit saw {HELD_OUT[1][0]}: the leaf's log-loss there fitted with them"
            f" {found[0]:.4f}, without them {found[1]:.4f} ({int(held.sum())} positions)")


def held_out(cache: Path, jobs: int, resamples: int) -> None:
    """Print every figure issue 45's first item asks of both chances on all the held-out
    games (`HELD_OUT`), and a line for each set: the ECE for the side to move and for the
    side not to move, for Red to move and for Black to move, the side to move's bias, the
    curve's zigzag, each with its 90% interval over the games resampled; the reliability
    table for both sides with each band's share won and its interval; a floor, the ECE of a
    map fitted on those very positions (no map learned on other games can be expected to do
    better there); and the positions below the bot's resignation and draw thresholds."""
    rng = np.random.default_rng(0)
    data, sets = [], {}
    for title, which, part in HELD_OUT:
        found = [row for row in rows(searched(which, [part], cache, jobs))
                 if row["searched"] is not None]
        data += found
        sets[title] = {row["game"] for row in found}
    print(f"goals (issue 45): ECE at most {ECE_GOAL:.0%} for the side to move and the side not"
          f" to move, Red to move and Black to move alike; the curve's zigzag at least"
          f" {ZIGZAG_GOAL:+.2f}; positions at {NODES} nodes; [90% intervals over {resamples}"
          f" resamples of the games; the share of resamples within the goal]")
    print(leaf_touch())
    for name, chance in chances(data).items():
        judged = HeldOut(data, chance, curve=name == CURVE)
        spread = judged.resampled(judged.games, resamples, rng)
        print(f"\n{name}, all held-out games ({judged.summary(judged.games)}):")
        print(judged.line(judged.games, spread))
        print(judged.floor())
        print("  reliability (band: positions, mean chance, share won [90% interval]):")
        print(judged.table(spread))
        for title, names in sets.items():
            chosen = [game for game in judged.games if game in names]
            print(f"  {title} ({judged.summary(chosen)}):")
            print(judged.line(chosen, judged.resampled(chosen, resamples, rng)))
        won = results(data)
        for threshold, what in ((RESIGN_BELOW, "a hopeless turn for the bot"),
                                (ACCEPT_DRAW_BELOW, "the bot accepts a draw")):
            under = chance < threshold
            print(f"  below {threshold:.0%} ({what}): {under.sum()} positions, mean chance"
                  f" {chance[under].mean() if under.any() else math.nan:.1%}, the side to move"
                  f" won {int(won[under].sum())} ({won[under].mean() if under.any() else 0:.1%})")


#: `HeldOut.figures`' order: the first four are ECEs, the fifth a bias, the sixth the zigzag,
#: then each band's share won for the side to move and for the side not to move
FIGURES = ("side to move", "side not to move", "Red to move", "Black to move")


class HeldOut:
    """Held-out positions with a chance each, and their figures on any choice of their
    games (a game chosen twice counts twice: the resamples' intervals)."""

    def __init__(self, data: list[dict[str, Any]], chance: Any, curve: bool) -> None:
        self.chance, self.won = np.asarray(chance, dtype=float), results(data)
        self.curve = curve  # the zigzag's goal is the curve's
        self.red = np.array([row["red_to_move"] for row in data])
        self.games = list(dict.fromkeys(row["game"] for row in data))
        place = {game: number for number, game in enumerate(self.games)}
        numbers = np.array([place[row["game"]] for row in data])
        self.of_game = [np.flatnonzero(numbers == number) for number in range(len(self.games))]
        self.place = place
        self.red_won = {row["game"]: row["red_won"] for row in data}
        self.zigzags = np.array([_game_zigzag([data[i] for i in each], self.chance[each])
                                 for each in self.of_game])

    def rows_of(self, games: list[str]) -> Any:
        """The positions of `games`, in their order (repeats repeated)."""
        return np.concatenate([self.of_game[self.place[game]] for game in games])

    def figures(self, games: list[str]) -> Any:
        """The ECE for the side to move, the side not to move, Red to move and Black to move,
        the side to move's bias (mean chance less share won), the mean zigzag of the games'
        curves, and each band's share won for the side to move and for the side not to move."""
        picked = self.rows_of(games)
        chance, won, red = self.chance[picked], self.won[picked], self.red[picked]
        zigzags = self.zigzags[[self.place[game] for game in games]]
        return np.array([
            calibration_error(chance, won), calibration_error(1 - chance, 1 - won),
            calibration_error(chance[red], won[red]), calibration_error(chance[~red], won[~red]),
            float(np.mean(chance - won)),
            float(np.nanmean(zigzags)) if not np.isnan(zigzags).all() else math.nan,
            *bands(chance, won)[2], *bands(1 - chance, 1 - won)[2]])

    def resampled(self, games: list[str], resamples: int, rng: Any) -> Any:
        """`figures` of `resamples` draws of as many games as `games`, with replacement."""
        return np.array([self.figures(list(rng.choice(games, len(games))))
                         for _ in range(resamples)])

    def summary(self, games: list[str]) -> str:
        """How many games and positions, and how many of the games Red won."""
        return (f"{len(games)} games, Red won {sum(self.red_won[game] for game in games)};"
                f" {len(self.rows_of(games))} positions")

    def line(self, games: list[str], spread: Any) -> str:
        """A set's ECEs, bias, zigzag and log-loss, each with its interval."""
        found = self.figures(games)
        low, high = interval(spread)
        meets = (spread[:, :4] <= ECE_GOAL).mean(axis=0)
        parts = [f"{label} {found[i]:.1%} [{low[i]:.1%}, {high[i]:.1%}; {meets[i]:.0%}]"
                 + ("" if found[i] <= ECE_GOAL else " NOT MET") for i, label in enumerate(FIGURES)]
        picked = self.rows_of(games)
        return (f"    ECE: {'; '.join(parts[:2])};\n         {'; '.join(parts[2:])};\n"
                f"    the side to move's bias {found[4]:+.1%} [{low[4]:+.1%}, {high[4]:+.1%}];"
                f" zigzag {found[5]:+.2f} [{low[5]:+.2f}, {high[5]:+.2f}]"
                f"{'' if found[5] >= ZIGZAG_GOAL or not self.curve else ' NOT MET'}; log-loss"
                f" {log_loss(self.chance[picked], self.won[picked]):.4f}")

    def floor(self) -> str:
        """The ECEs of the map fitted on these very positions (a line in logits, as the
        shipped maps are: a cubic term's fit diverges on the few chances a millionth from 0 or
        1), and that line (a slope above 1: the chance is too timid); a decided position (a
        chance of 0 or 1) keeps its chance, as the engine's maps keep it."""
        z = logits(self.chance)
        open_ = (self.chance > 0) & (self.chance < 1)
        line = fitted_map(z[open_], self.won[open_], "line")
        best = np.array(self.chance)
        best[open_] = mapped(line, z[open_])
        red, won = self.red, self.won
        return (f"    these positions would have the chance's logit times {line.slope:.3f}"
                f" {line.bias:+.3f} (a line fitted on them);\n"
                f"    floor (a map fitted on these very positions): side to move"
                f" {calibration_error(best, won):.1%}, side not to move"
                f" {calibration_error(1 - best, 1 - won):.1%}, Red to move"
                f" {calibration_error(best[red], won[red]):.1%}, Black to move"
                f" {calibration_error(best[~red], won[~red]):.1%}")

    def table(self, spread: Any) -> str:
        """The reliability table of both sides: each band's positions, mean chance and share
        won, with its interval."""
        low, high = interval(spread)
        lines = []
        for number, (count, mean, share) in enumerate((bands(self.chance, self.won),
                                                       bands(1 - self.chance, 1 - self.won))):
            lines.append("    the side not to move:" if number else "    the side to move:")
            for band in range(BANDS):
                if count[band]:
                    at = 6 + number * BANDS + band
                    lines.append(f"      {band * 10:3}-{band * 10 + 10}%: {count[band]:5},"
                                 f" {mean[band]:5.1%}, won {share[band]:5.1%}"
                                 f" [{low[at]:5.1%}, {high[at]:5.1%}]")
        return "\n".join(lines)


def interval(spread: Any) -> tuple[Any, Any]:
    """The 90% interval of each figure over the resamples (nan where a band was always
    empty)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanpercentile(spread, 5, axis=0), np.nanpercentile(spread, 95, axis=0)


def bands(chance: Any, won: Any) -> tuple[Any, Any, Any]:
    """Each band's (`BANDS`) count, mean chance and share won (nan where empty)."""
    band = np.minimum((np.asarray(chance) * BANDS).astype(int), BANDS - 1)
    count = np.bincount(band, minlength=BANDS)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (count, np.bincount(band, chance, BANDS) / count,
                np.bincount(band, won, BANDS) / count)


def _game_zigzag(data: list[dict[str, Any]], chance: Any) -> float:
    """The lag-one autocorrelation of the changes of Red's chance along one game (nan when
    too short or flat)."""
    for row, value in zip(data, chance, strict=True):
        row["scored"] = float(value)
    return zigzag(data, "scored")[0]


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
    found = fitted_map(np.array(difference)[finite], won[finite], "line")
    slope, bias = found.slope, found.bias
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
        features = np.stack([logits(row[key] for row in data) for key in keys]
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


#: the refit, one command (its provenance)
FIT_COMMAND = "python benchmarks/calibrate_chance.py fit --jobs 2"


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
    gather.add_argument("--start", type=int, default=0, help="skip the set's first N games")
    gather.add_argument("--out", type=Path, required=True)
    gather.add_argument("--views", action="store_true",
                        help="also the root's mean and the other side's view (measure --values)")
    gather.add_argument("--parents", action="store_true",
                        help="with each position drawn (--per-game), the one before it")
    gather.add_argument("--sharpness", type=float,
                        help="search with this evaluation sharpness instead of the engine's")
    learn = commands.add_parser("fit", help="search the training games (once) and fit both"
                                            " maps; writes the data file")
    learn.add_argument("--check", action="store_true", help="print, write nothing")
    check = commands.add_parser("measure", help="reliability, ECE and zigzag: of both maps on"
                                                " the held-out games, or of a collect output")
    check.add_argument("data", type=Path, nargs="?", help="a collect output (default: the"
                       " held-out games, searched once into the cache)")
    check.add_argument("--resamples", type=int, default=RESAMPLES,
                       help="the held-out intervals' resamples of the games")
    check.add_argument("--calibration", type=Path, help="a data file to apply to `searched`")
    check.add_argument("--grid", action="store_true", help="the ECE and zigzag of other maps")
    check.add_argument("--values", action="store_true",
                       help="maps of other values, each measured on games it was not fitted on")
    check.add_argument("--evaluation", action="store_true",
                       help="the evaluation alone against the search's value and the results")
    for command in (learn, check):
        command.add_argument("--cache", type=Path, default=CACHE,
                             help=f"where searched games are kept (default {CACHE})")
        command.add_argument("--jobs", type=int, default=1, help="processes that search")
    args = parser.parse_args(argv)
    if args.command == "collect":
        if args.sharpness is not None:  # the constant both cores' searches are given
            vars(core)["SHARPNESS"] = args.sharpness
        collect(args.games, args.per_game, args.nodes, args.seed, args.out, args.first,
                args.views, args.parents, args.last, args.start)
    elif args.command == "fit":
        found = fit_maps(rows(searched("training", TRAINING, args.cache, args.jobs)),
                         FIT_COMMAND)
        print(json.dumps(found, indent=1))
        if not args.check:
            OUTPUT.write_text(json.dumps(found, indent=1) + "\n")
    elif args.data is None:
        held_out(args.cache, args.jobs, args.resamples)
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
