"""Are the analysis's swings the game's turning points? Checked by play and by a deeper look.

    python benchmarks/analysis_swings.py --games 4      # the issue's play-outs: 10 at 15,000 nodes
    python benchmarks/analysis_swings.py --games 2 --after 0019.twixt   # games not yet seen

For each of the first `--games` games of the real-game benchmark (`benchmarks/games/`) with a
listed swing, this analyses the game at the default budget (`engine.analysis.default_limit`)
and again with ten times its nodes (`--deeper`), and prints both analyses' swings and
largest losses: whether the deeper look's largest loss (when it is at least 15 points) is
among the swings listed at the default budget (goal: every one), and how many listed swings
cost nothing by it (goal: none).

Then, for each listed swing of the default analysis, it plays the game out from the position
after the move played and from the position after the engine's choice there, `--playouts`
games each, the engine against itself at `--playout-nodes` nodes a move (the seed changes
each game's root noise, so the games differ), and prints how often the swing's mover won from
each: a turning point is a move after which its mover wins less often than after the engine's
choice. A game still open after a move a hole counts half.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from twixt.engine import Limit, think
from twixt.engine.analysis import GameAnalysis, analyze_game, default_limit
from twixt.rules import Colour, Game
from twixt.rules.records import load

GAMES = Path(__file__).with_name("games")
#: the deeper look: this many times the default budget's nodes
DEEPER = 10
#: a deeper look's largest loss at least this is expected among the listed swings
LISTED_ABOVE = 0.15


def position_before(game: Game, number: int) -> Game:
    """The position of `game` before its move `number` (counted from 1)."""
    moves = [index for index, turn in enumerate(game.history) if turn.command.is_move]
    board = game.copy()
    for _ in range(len(game.history) - moves[number - 1]):
        board.undo()
    return board


def play_out(start: Game, nodes: int, seed: int) -> Colour | None:
    """The winner of the engine against itself from `start` (None: a draw, or still open after
    a move a hole)."""
    game = start.copy()
    holes = game.geometry.cols * game.geometry.rows
    for ply in range(holes):
        if game.outcome is not None:
            return game.outcome.winner
        game.play(think(game, Limit(nodes=nodes), seed=seed * 1000 + ply).move)
    return None if game.outcome is None else game.outcome.winner


def mover_score(start: Game, mover: Colour, games: int, nodes: int) -> float:
    """The mover's share of `games` played out from `start` (a draw or open game half)."""
    score = 0.0
    for seed in range(games):
        winner = play_out(start, nodes, seed)
        score += 0.5 if winner is None else float(winner is mover)
    return score / games


def largest_loss(analysis: GameAnalysis) -> tuple[int, float]:
    """The move that lost most, and its loss."""
    worst = max(analysis.moves, key=lambda report: report.loss)
    return worst.number, worst.loss


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--playouts", type=int, default=10, help="0: no play-outs")
    parser.add_argument("--playout-nodes", type=int, default=15000)
    parser.add_argument("--deeper", type=int, default=DEEPER)
    parser.add_argument("--after", default="", help="only games whose file name sorts after this")
    args = parser.parse_args(argv)
    found = confirmed = deeper_listed = deeper_big = swings = costless = 0
    started = time.monotonic()
    for path in sorted(GAMES.glob("*.twixt")):
        if found >= args.games:
            break
        if path.name <= args.after:
            continue
        game = load(path)
        limit = replace(default_limit(game), seconds=None)
        analysis = analyze_game(game, limit)
        if not analysis.swings:
            continue
        found += 1
        deep = analyze_game(game, Limit(nodes=(limit.nodes or 0) * args.deeper))
        number, loss = largest_loss(deep)
        print(f"\n{path.name}: {len(analysis.moves)} moves; swings {list(analysis.swings)} "
              f"(losses {[round(analysis.move(n).loss * 100) for n in analysis.swings]}); "
              f"{args.deeper}x deeper: swings {list(deep.swings)}, largest loss move {number} "
              f"({loss:.0%})")
        if loss >= LISTED_ABOVE:
            deeper_big += 1
            deeper_listed += number in analysis.swings
        costless += sum(deep.move(listed).loss <= 0 for listed in analysis.swings)
        for swing in map(analysis.move, analysis.swings if args.playouts else ()):
            before = position_before(game, swing.number)
            after_played = before.copy()
            after_played.play(swing.played)
            after_best = before.copy()
            after_best.play(swing.best)
            mover = swing.colour
            played_score = mover_score(after_played, mover, args.playouts, args.playout_nodes)
            best_score = mover_score(after_best, swing.best_colour or mover, args.playouts,
                                     args.playout_nodes)
            confirmed += played_score < best_score
            swings += 1
            print(f"  move {swing.number}, {mover.value} {swing.played} (loss {swing.loss:.0%}):"
                  f" the mover won {played_score:.0%} of {args.playouts} played out after it,"
                  f" {best_score:.0%} after the engine's {swing.best}"
                  f" ({time.monotonic() - started:.0f} s)")
    print(f"\n{found} games: the deeper look's largest loss (>= {LISTED_ABOVE:.0%}) listed in "
          f"{deeper_listed} of {deeper_big} (goal: all); listed swings that cost nothing by it: "
          f"{costless} (goal: none); swings confirmed by play ({args.playouts} a side at "
          f"{args.playout_nodes:,} nodes a move): {confirmed} of {swings}")


if __name__ == "__main__":
    main()
