"""The engine on real games: move prediction, calibration of its win chance, speed.

    python benchmarks/engine_games.py --engine 79d3449 --engine engine --level 5
    python benchmarks/engine_games.py --engine engine --seconds 1 --positions 200
    python benchmarks/engine_games.py --engine engine --nodes 15000
    python benchmarks/engine_games.py --speed --engine 79d3449 --engine engine
    python benchmarks/engine_games.py --ranking

`benchmarks/games/` holds a fixed sample of 100 real games between people (classic rules,
24×24, 1984–2001; its README says where they come from). From them a fixed set of positions
(two a game, the seed's, between moves 5 and 40) is asked of each engine version (a revision
or a source tree, installed and run as in engine_match.py), which prints:
- move prediction: how often the engine's peg is the peg that was played (top-1);
- calibration: the engine's chance that the side to move wins, in bands of 10%, against the
  share of those positions whose side to move won the game; and its log-loss and Brier score
  (lower is better; always saying 50% scores 0.693 and 0.25).
`--ranking` prints instead how well this tree's priors alone (`engine.candidates.ranked` over
every free hole, no search), and then its root policy (`engine.policy.root_scores`, which
chooses the root's moves), rank the peg that was played: top-1, top-5 and its mean rank.
`--speed` prints instead each version's nodes a second on the same 24×24 positions (the pegs
after 20 moves, in classic and in pp), and the ratio of each version to the first; a version
with a compiled core (a setup.py) runs twice, first made to use its Python fallback
(TWIXT_ENGINE_CORE=python), so one run gives both cores' figures and their ratio.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from engine_match import EngineProcess, Version, install

from twixt.rules import Game
from twixt.rules.records import load
from twixt.service.cases.engine_player import ACCEPT_DRAW_BELOW, RESIGN_BELOW

GAMES = Path(__file__).with_name("games")


@cache
def sample_games() -> tuple[Game, ...]:
    """The copied real games, replayed, in file order."""
    return tuple(load(path) for path in sorted(GAMES.glob("*.twixt")))


@dataclass(frozen=True)
class Position:
    """A position of a real game: the moves before it, the move played, and who won."""

    size: str
    moves: tuple[str, ...]
    played: str
    mover_won: bool


def positions(count: int, seed: int = 0, first: int = 5, last: int = 40) -> list[Position]:
    """`count` positions, spread evenly over the games (the seed picks the moves), each before
    a peg played between move `first` and `last` (1-based) in a game won by either side."""
    rng = random.Random(seed)
    found: list[Position] = []
    games = [game for game in sample_games() if game.outcome and game.outcome.winner]
    per_game = math.ceil(count / len(games))
    for game in games:
        turns = [turn for turn in game.history if turn.placed is not None]
        plies = range(first - 1, min(last, len(turns)))
        for ply in sorted(rng.sample(plies, min(per_game, len(plies)))):
            mover = turns[ply].colour
            found.append(Position(game.options.size_text,
                                  tuple(turn.text for turn in turns[:ply]),
                                  turns[ply].text.split()[0],
                                  game.outcome is not None and game.outcome.winner is mover))
    return found[:count]


def speed(versions: list[Version], seconds: float, count: int) -> None:
    """Nodes a second of each version on the same real 24×24 positions: the pegs and links
    after 20 moves in classic; the pegs alone in pp (pp links them itself). The versions take
    turns position by position, so a change in the machine's load falls on all alike; the
    nodes per CPU second hardly depend on that load at all."""
    games = [game for game in sample_games() if game.pegs_placed >= 22][:count]
    versions = [run for version in versions for run in (
        [replace(version, label=f"{version.label} [python]", core="python"), version]
        if (version.path / "setup.py").is_file() else [version])]
    processes = [EngineProcess(version) for version in versions]
    try:
        for rules in ("classic", "pp"):
            totals = [[0.0, 0.0, 0.0] for _ in versions]   # nodes, seconds, CPU seconds
            for game in games:
                moves = [turn.text for turn in game.history[:20]]
                if rules != "classic":
                    moves = [move.split()[0] for move in moves]
                for process, total in zip(processes, totals, strict=True):
                    reply = ask(process, game.options.size_text, rules, moves,
                                {"seconds": seconds})
                    total[0] += reply["nodes"]
                    total[1] += reply["seconds"]
                    total[2] += reply["cpu"]
            for process, (nodes, elapsed, cpu) in zip(processes, totals, strict=True):
                print(f"{rules:7} 24x24 {process.version.label} (core {process.core}): "
                      f"{nodes / elapsed:8.0f} nodes/s, {nodes / cpu:8.0f} nodes/CPU s "
                      f"({len(games)} positions, {seconds:g} s each)", flush=True)
            first, wall, cpu = totals[0]
            for version, (nodes, elapsed, spent) in zip(versions[1:], totals[1:], strict=True):
                print(f"{rules:7} {version.label} / {versions[0].label}: "
                      f"{nodes / elapsed / (first / wall):.2f} (wall), "
                      f"{nodes / spent / (first / cpu):.2f} (CPU)", flush=True)
    finally:
        for process in processes:
            process.close()


def replayed(position: Position) -> tuple[Game, int]:
    """The game at `position`, before its peg, and the index of the hole that was played."""
    game = Game(("red", "black"), size=position.size, rules="classic", swap=False)
    for move in position.moves:
        game.play(move)
    placed = game.copy().play(position.played).placed
    assert placed is not None
    return game, game.geometry.index(placed)


def played_ranks(sample: list[Position]) -> list[int]:
    """Per position, the rank (1: first) this tree's priors give the played peg among every
    hole the mover could play."""
    from twixt.engine.board import Board
    from twixt.engine.candidates import ranked
    from twixt.engine.evaluate import side

    ranks = []
    for position in sample:
        game, played = replayed(position)
        board, colour = Board(game), game.colour_to_move
        free = board.free(colour)
        holes, _priors = ranked(board, colour, board.recent(colour), side(board.pos, colour),
                                side(board.pos, colour.opponent), free, free.bit_count(),
                                everywhere=True)
        ranks.append(holes.index(played) + 1)
    return ranks


def policy_ranks(sample: list[Position]) -> list[int]:
    """Per position, the rank (1: first) the root's policy network gives the played peg
    among every hole the mover could play (equal scores: the lower hole first, as the cores
    rank them)."""
    from twixt.engine.board import Board
    from twixt.engine.policy import root_scores

    ranks = []
    for position in sample:
        game, played = replayed(position)
        board, colour = Board(game), game.colour_to_move
        scores = root_scores(board, colour)
        mine = scores[played]
        ranks.append(1 + sum(1 for hole, score in enumerate(scores)
                             if score > mine or (score == mine and hole < played)))
    return ranks


def ranking(sample: list[Position]) -> None:
    """How this tree's priors (below the root) and its root policy rank the played peg
    among every hole the mover could play."""
    for label, ranks in (("priors alone", played_ranks(sample)),
                         ("root policy", policy_ranks(sample))):
        count = len(ranks)
        print(f"{label}, {count} positions: top-1 {sum(r == 1 for r in ranks) / count:.1%}, "
              f"top-5 {sum(r <= 5 for r in ranks) / count:.1%}, "
              f"mean rank of the played peg {sum(ranks) / count:.1f} "
              f"(median {sorted(ranks)[count // 2]})", flush=True)


def ask(process: EngineProcess, size: str, rules: str, moves: list[str] | tuple[str, ...],
        limit: dict[str, float]) -> dict[str, Any]:
    """The engine's answer in the position, or the end of the run when it fails."""
    reply = process.ask({"size": size, "rules": rules, "swap": False, "moves": list(moves),
                         "limit": limit, "seed": 0})
    if "error" in reply:
        raise SystemExit(f"{process.version.label}: {reply['error']}")
    return reply


#: the calibration table's bands: [0, 0.1), [0.1, 0.2), ..., [0.9, 1.0]
BANDS = 10


@dataclass
class Tally:
    """One version's answers on the positions, summed up."""

    agree: int = 0
    loss: float = 0.0
    brier: float = 0.0
    nodes: float = 0.0
    seconds: float = 0.0
    cpu: float = 0.0
    chances: list[tuple[float, bool]] = field(default_factory=list)

    def add(self, reply: dict[str, Any], position: Position) -> None:
        self.agree += reply["move"].split()[0] == position.played
        win = min(max(float(reply["win"]), 1e-6), 1 - 1e-6)
        self.loss -= math.log(win if position.mover_won else 1 - win)
        self.brier += (win - position.mover_won) ** 2
        self.chances.append((win, position.mover_won))
        self.nodes += reply["nodes"]
        self.seconds += reply["seconds"]
        self.cpu += reply["cpu"]

    def report(self, title: str) -> None:
        count = len(self.chances)
        print(f"\n{title}, {count} positions, {self.seconds / count:.2f} s and "
              f"{self.nodes / count:.0f} nodes a position "
              f"({self.nodes / self.cpu:.0f} nodes/CPU s)")
        print(f"move prediction: top-1 {self.agree}/{count} = {self.agree / count:.1%}")
        print(f"win chance: log-loss {self.loss / count:.3f}, Brier {self.brier / count:.3f}")
        for threshold, what in ((RESIGN_BELOW, "a hopeless turn, 3 in a row resign"),
                                (ACCEPT_DRAW_BELOW, "it accepts a draw")):
            below = [won for win, won in self.chances if win < threshold]
            print(f"chance below {threshold:.0%} (for the bot {what}): {len(below)} positions,"
                  f" the side to move won {sum(below)}")
        print("  band      positions  mean chance  side to move won")
        bands: list[list[tuple[float, bool]]] = [[] for _ in range(BANDS)]
        for win, won in self.chances:
            bands[min(int(win * BANDS), BANDS - 1)].append((win, won))
        for number, members in enumerate(bands):
            if members:
                mean = sum(win for win, _ in members) / len(members)
                share = sum(won for _, won in members) / len(members)
                print(f"  {number * 10:3}-{number * 10 + 10:3}%  {len(members):9}  {mean:11.1%}"
                      f"  {share:16.1%}")


def predict(versions: list[Version], sample: list[Position], limit: dict[str, float]) -> None:
    """Print each version's move prediction and calibration on the positions. The versions
    take turns position by position, so that a change in the machine's load (which changes
    what a time limit buys, or whether a level's time cap cuts its search) falls on all alike."""
    processes = [EngineProcess(version) for version in versions]
    tallies = [Tally() for _ in versions]
    try:
        for number, position in enumerate(sample, start=1):
            for process, tally in zip(processes, tallies, strict=True):
                tally.add(ask(process, position.size, "classic", position.moves, limit),
                          position)
            if number % 20 == 0:   # a long run shows it is alive
                print(f"{number}/{len(sample)} positions", file=sys.stderr, flush=True)
    finally:
        for process in processes:
            process.close()
    for process, tally in zip(processes, tallies, strict=True):
        tally.report(f"{process.version.label} (core {process.core}), limit {limit}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add_arguments(parser)
    run(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options (engine_bench.py takes the same for its `games` part)."""
    parser.add_argument("--engine", action="append", dest="engines",
                        help="revision or source tree (repeat it; default: this tree)")
    parser.add_argument("--level", type=int, default=5, help="the level to ask (default 5)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="a time a position instead of a level")
    parser.add_argument("--nodes", type=int, default=None,
                        help="nodes a position instead of a level (no time cap: the same "
                             "search however busy the machine)")
    parser.add_argument("--positions", type=int, default=200, help="positions (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="which moves of the games")
    parser.add_argument("--ranking", action="store_true",
                        help="print how this tree's priors alone rank the played peg instead")
    parser.add_argument("--speed", action="store_true",
                        help="print nodes/s on fixed positions instead (--seconds each, 2 s)")


def run(args: argparse.Namespace) -> None:
    if args.ranking:
        ranking(positions(args.positions, args.seed))
        return
    versions = [install(source) for source in args.engines or [None]]
    if args.speed:
        speed(versions, args.seconds or 2.0, min(args.positions, 8))
        return
    sample = positions(args.positions, args.seed)
    limit = ({"seconds": args.seconds} if args.seconds else {"nodes": args.nodes}
             if args.nodes else {"level": args.level})
    predict(versions, sample, limit)


if __name__ == "__main__":
    main()
