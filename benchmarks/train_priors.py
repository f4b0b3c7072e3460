"""Learn the engine's move priors from real games, and write twixt/engine/data/priors.json.

    python benchmarks/train_priors.py                 # fit and write the data file
    python benchmarks/train_priors.py --check         # fit, print, write nothing
    python benchmarks/train_priors.py --measure --half  # fit on half, rank the held-out pegs

Every peg of the 728 training games in `benchmarks/games/corpus/` (the corpus without the
100 games of the real-game benchmark, and without any game whose opening repeats one of
those: the two archives share games) is one *event*: among all the holes the mover could
have played, the one it chose won. Each hole is described by the levels of the features of
`twixt/engine/patterns.py`; its strength is the product of one weight (gamma) per feature
level, and a hole's chance of being chosen is its strength over the sum of all the event's
holes' strengths (the generalised Bradley–Terry model of R. Coulom, "Computing Elo Ratings of
Move Patterns in the Game of Go", 2007). The weights are fitted by Coulom's minorization–
maximization: each feature in turn, every level's gamma becomes its wins over the sum, across
the events, of its holes' strength without it divided by the event's total. Every level gets
one virtual win and one virtual loss against a hole of strength 1, so a shape seen twice
does not get an extreme weight.

`--measure` ranks, with the weights just fitted (as the engine loads them), the peg played at
every move 5 to 40 of the benchmark's won games (2,523 positions, steadier than the 200 of
`engine_games.py --ranking`) and prints top-1, top-5 and the played peg's mean rank;
`--half` fits on every other training game (364), for trying features quickly.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from collections.abc import Iterable, Iterator
from datetime import date
from pathlib import Path

import numpy as np
from engine_games import positions, replayed
from numpy.typing import NDArray

from twixt.engine import patterns
from twixt.engine.board import Board
from twixt.engine.evaluate import side
from twixt.rules import Colour, Game
from twixt.rules.records import load

GAMES = Path(__file__).with_name("games")
CORPUS = GAMES / "corpus"
OUTPUT = Path(__file__).parents[1] / "twixt" / "engine" / "data" / patterns.DATA
#: the benchmark's games, and the training games that open as one of them does, are left out
SAME_OPENING = 12


def training_games() -> tuple[list[tuple[str, Game]], int]:
    """The corpus games to learn from (file name, game), and how many were left out for
    repeating the opening of one of the benchmark's games."""
    held_out = {tuple(turn.text for turn in load(path).history[:SAME_OPENING])
                for path in sorted(GAMES.glob("*.twixt"))}
    kept, dropped = [], 0
    for path in sorted(CORPUS.glob("*.twixt")):
        game = load(path)
        if tuple(turn.text for turn in game.history[:SAME_OPENING]) in held_out:
            dropped += 1
            continue
        kept.append((path.name, game))
    return kept, dropped


def events(game: Game) -> Iterator[tuple[NDArray[np.int32], int]]:
    """Per peg placed after the first: the feature levels of every hole the mover could have
    played (one row a hole) and the row of the hole played."""
    replay = Game(("red", "black"), size=game.options.size_text, rules=game.options.rules,
                  swap=game.options.swap)
    for turn in game.history:
        if turn.placed is not None and replay.pegs_placed > 0:
            board = Board(replay)
            colour = replay.colour_to_move
            played = replay.geometry.index(turn.placed)
            yield features(board, colour), played
        if turn.placed is None and turn.text.split()[0] in ("resign", "timeout"):
            return
        replay.play(turn.text)


def features(board: Board, colour: Colour) -> NDArray[np.int32]:
    """The levels of every hole `colour` may play (row = hole index; -1 rows: not free), the
    area's level 0 (`Data` harvests the area shapes)."""
    pos = board.pos
    free = board.free(colour)
    scene = patterns.scene(pos, board.rules, colour, board.recent(colour), side(pos, colour),
                           side(pos, colour.opponent), free, areas={})
    rows = np.full((len(pos.peg_colour), len(patterns.FEATURES)), -1, dtype=np.int32)
    holes = patterns.bit_indices(free)
    for hole, found in zip(holes, patterns.levels_of(scene, holes), strict=True):
        rows[hole] = found
    return rows


def canonical_shapes(shape: str, codes: NDArray[np.int32]) -> NDArray[np.int32]:
    """The canonical shape of each code (`patterns.canonical`, for the codes present)."""
    unique, inverse = np.unique(codes, return_inverse=True)
    mapped = np.array([patterns.canonical(shape, int(code)) for code in unique],
                      dtype=np.int32)
    return mapped[inverse]


#: an area shape gets a weight of its own when people played it at least this often
AREA_WINS = 3
RING, SQUARE, OUTER, AREA = (patterns.FEATURES.index((name, size)) for name, size in
                             patterns.FEATURES if name in ("ring", "square", "outer", "area"))


def area_keys(levels: NDArray[np.int32]) -> NDArray[np.int64]:
    """Each candidate's area code (`patterns.area_key`) from its raw ring, square and outer
    codes."""
    return ((levels[:, RING].astype(np.int64) * patterns.SQUARE_CODES + levels[:, SQUARE])
            * patterns.SQUARE_CODES + levels[:, OUTER])


def harvest_areas(levels: NDArray[np.int32], winners: NDArray[np.int64]) -> list[int]:
    """Gives each candidate its `area` level (in place, from its raw ring, square and outer
    codes) and returns the area shapes kept, by their canonical code (the level of the k-th
    is k + 1): those played at least `AREA_WINS` times, the most played first when there are
    more than `patterns.AREAS`."""
    unique, inverse = np.unique(area_keys(levels), return_inverse=True)
    canonical = np.array([min(patterns.area_images(int(key))) for key in unique], dtype=np.int64)
    shapes, shape_of = np.unique(canonical[inverse], return_inverse=True)
    played = np.bincount(shape_of[winners], minlength=len(shapes))
    often = np.flatnonzero(played >= AREA_WINS)
    often = np.sort(often[np.argsort(-played[often], kind="stable")][:patterns.AREAS])
    level_of = np.zeros(len(shapes), dtype=np.int32)
    level_of[often] = np.arange(1, len(often) + 1, dtype=np.int32)
    levels[:, AREA] = level_of[shape_of]
    return [int(shape) for shape in shapes[often]]


def game_events(games: list[tuple[str, Game]]) -> Iterator[tuple[NDArray[np.int32], int]]:
    """The events of all `games` (`events`), with a line of progress every 100 games."""
    for number, (_name, game) in enumerate(games, start=1):
        yield from events(game)
        if number % 100 == 0:
            print(f"{number}/{len(games)} games", file=sys.stderr, flush=True)


class Data:
    """All events as flat arrays: per candidate hole its event and its feature levels (shapes
    as their canonical code, areas as their level among the shapes kept: those harvested from
    these events, or the `areas` given), per event the row of the hole played (the rows of an
    event are its holes in order)."""

    def __init__(self, found: Iterable[tuple[NDArray[np.int32], int]],
                 areas: list[int] | None = None) -> None:
        levels: list[NDArray[np.int32]] = []
        event_of: list[NDArray[np.int32]] = []
        winners: list[int] = []
        start = 0
        for rows, played in found:
            free = np.flatnonzero(rows[:, 0] >= 0)
            levels.append(rows[free])
            event_of.append(np.full(len(free), len(winners), dtype=np.int32))
            winners.append(start + int(np.searchsorted(free, played)))
            start += len(free)
        self.levels = np.concatenate(levels)
        self.winners = np.array(winners, dtype=np.int64)
        if areas is None:
            self.areas = harvest_areas(self.levels, self.winners)
        else:
            self.areas = areas
            level_of = {shape: level for level, shape in enumerate(areas, start=1)}
            keys = area_keys(self.levels)
            unique, inverse = np.unique(keys, return_inverse=True)
            self.levels[:, AREA] = np.array(
                [level_of.get(min(patterns.area_images(int(key))), 0) for key in unique],
                dtype=np.int32)[inverse]
        for f, (name, _size) in enumerate(patterns.FEATURES):
            if name in patterns.SHAPES:
                self.levels[:, f] = canonical_shapes(name, self.levels[:, f])
        self.event = np.concatenate(event_of)
        self.events = len(winners)


def fit(data: Data, iterations: int) -> tuple[list[dict[int, float]], float]:
    """Coulom's MM: per feature, level -> gamma (levels never seen are left out: gamma 1);
    and the mean log-probability of the played holes under the fitted model."""
    feature_count = len(patterns.FEATURES)
    # per feature: the levels present, renumbered 0..k-1, and each candidate's number
    present, index = [], []
    for f in range(feature_count):
        values, inverse = np.unique(data.levels[:, f], return_inverse=True)
        present.append(values)
        index.append(inverse.astype(np.int64))
    gammas = [np.ones(len(values)) for values in present]
    wins = [np.bincount(index[f][data.winners], minlength=len(present[f])).astype(float)
            for f in range(feature_count)]
    likelihood = log_likelihood(data, gammas, index)
    for iteration in range(1, iterations + 1):
        for f in range(feature_count):
            strength = np.ones(len(data.event))
            for g in range(feature_count):
                strength *= gammas[g][index[g]]
            totals = np.bincount(data.event, weights=strength, minlength=data.events)
            others = strength / gammas[f][index[f]] / totals[data.event]
            denominator = np.bincount(index[f], weights=others, minlength=len(present[f]))
            # the prior: one win and one loss against a virtual hole of strength 1
            gammas[f] = (wins[f] + 1.0) / (denominator + 2.0 / (gammas[f] + 1.0))
            gammas[f] /= math.exp(np.mean(np.log(gammas[f])))
        likelihood = log_likelihood(data, gammas, index)
        print(f"iteration {iteration}: log-likelihood a move {likelihood:.4f}",
              file=sys.stderr, flush=True)
    return [{int(level): float(gamma) for level, gamma in zip(values, found, strict=True)}
            for values, found in zip(present, gammas, strict=True)], likelihood


def log_likelihood(data: Data, gammas: list[NDArray[np.float64]],
                   index: list[NDArray[np.int64]]) -> float:
    """The mean log-probability of the played holes under the model."""
    strength = np.ones(len(data.event))
    for gamma, where in zip(gammas, index, strict=True):
        strength *= gamma[where]
    totals = np.bincount(data.event, weights=strength, minlength=data.events)
    return float(np.mean(np.log(strength[data.winners] / totals)))


def written(learned: list[dict[int, float]], areas: list[int],
            provenance: dict[str, object]) -> dict[str, object]:
    """The data file's contents: natural logarithms of the gammas, 4 decimals (an area
    shape's over the gamma of the areas not kept, which the engine takes as 1)."""
    out: dict[str, object] = {}
    for (name, size), found in zip(patterns.FEATURES, learned, strict=True):
        if name == "area":
            other = math.log(found.get(0, 1.0))
            out[name] = {str(key): round(math.log(found.get(level, 1.0)) - other, 4)
                         for level, key in enumerate(areas, start=1)}
        elif name in patterns.SHAPES:
            out[name] = {str(code): round(math.log(gamma), 4)
                         for code, gamma in sorted(found.items())}
        else:
            out[name] = [round(math.log(found.get(level, 1.0)), 4) for level in range(size)]
    return {"provenance": provenance, "features": out}


#: more positions than the benchmark's games hold: `engine_games.positions` gives them all
EVERY_PEG = 10**6


def held_out_events() -> Iterator[tuple[NDArray[np.int32], int]]:
    """The events of every peg 5 to 40 of the benchmark's won games, replayed as
    `engine_games.py --ranking` replays its 200 of them."""
    for position in positions(EVERY_PEG):
        game, played = replayed(position)
        yield features(Board(game), game.colour_to_move), played


def ranks(data: Data, table: NDArray[np.float64]) -> NDArray[np.int64]:
    """Per event of `data`, the played hole's rank among its holes under the flat table of
    logarithms `table` (`patterns.table_from`), holes of equal strength in index order as
    `engine.candidates.ranked` orders them; the logarithms are added in the engine's order."""
    score = np.zeros(len(data.event))
    for f, offset in enumerate(patterns.OFFSETS):
        score += table[offset + data.levels[:, f]]
    played_row = data.winners[data.event]
    played = score[played_row]
    rows = np.arange(len(data.event))
    better = (score > played) | ((score == played) & (rows < played_row))
    return 1 + np.bincount(data.event[better], minlength=data.events).astype(np.int64)


def measure(learned: list[dict[int, float]], areas: list[int], held_out: Data) -> str:
    """How the weights `learned` (with the area shapes `areas`), as the engine loads them,
    rank the played pegs of `held_out`: top-1, top-5, mean and median rank."""
    table = np.array(patterns.table_from(written(learned, areas, {})))
    found = ranks(held_out, table)
    return (f"{held_out.events} positions: top-1 {np.mean(found == 1):.1%}, "
            f"top-5 {np.mean(found <= 5):.1%}, mean rank of the played peg "
            f"{found.mean():.1f} (median {np.median(found):g})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--iterations", type=int, default=12,
                        help="MM sweeps over all features (default 12)")
    parser.add_argument("--check", action="store_true", help="fit and print, write nothing")
    parser.add_argument("--measure", action="store_true",
                        help="fit, rank the benchmark games' pegs 5 to 40, write nothing")
    parser.add_argument("--half", action="store_true",
                        help="fit on every other training game (with --check or --measure)")
    args = parser.parse_args(argv)
    if args.half and not (args.check or args.measure):
        parser.error("--half writes nothing: give --check or --measure")
    started = time.perf_counter()
    games, dropped = training_games()
    if args.half:
        games = games[::2]
    data = Data(game_events(games))
    print(f"{len(games)} games ({dropped} left out: they open as a benchmark game does), "
          f"{data.events} events, {len(data.event)} candidate holes "
          f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    learned, likelihood = fit(data, args.iterations)
    with (CORPUS / "index.csv").open(encoding="utf-8") as index:
        listed = sum(1 for _row in csv.DictReader(index))
    provenance = {
        "corpus": "benchmarks/games/corpus (see its README): real classic 24x24 games, "
                  "1984-2001, without the 100 games of benchmarks/games",
        "games": len(games), "games_in_corpus": listed, "left_out_same_opening": dropped,
        "events": data.events, "candidate_holes": len(data.event),
        "shapes": {name: len(found) for (name, _size), found in zip(patterns.FEATURES, learned,
                                                                   strict=True)
                   if name in patterns.SHAPES} | {"area": len(data.areas)},
        "area_wins": AREA_WINS,
        "iterations": args.iterations, "log_likelihood_a_move": round(likelihood, 4),
        "command": "python benchmarks/train_priors.py", "date": date.today().isoformat(),
        "model": "generalised Bradley-Terry (Coulom 2007), MM, prior 1 win + 1 loss "
                 "against strength 1; values are natural logarithms of the gammas",
    }
    if args.check:
        print(json.dumps(provenance, indent=1))
    if args.measure:
        held_out = Data(held_out_events(), data.areas)
        print(f"fitted on {len(games)} games; {measure(learned, data.areas, held_out)}")
    if args.check or args.measure:
        return
    OUTPUT.parent.mkdir(exist_ok=True)
    contents = written(learned, data.areas, provenance)
    OUTPUT.write_text(json.dumps(contents, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT} ({OUTPUT.stat().st_size} bytes) in "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
