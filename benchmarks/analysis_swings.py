"""Are the analysis's swings the game's turning points? Checked by a deeper look and by play.

    python benchmarks/analysis_swings.py --games 20           # the deeper look and the screen
    python benchmarks/analysis_swings.py --games 1 --playouts 10 --top 1   # and a play-out

For each of the first `--games` games of the real-game benchmark (`benchmarks/games/`, those
whose file name sorts after `--after`) this analyses the game at the default budget
(`engine.analysis.default_limit`, its nodes alone) as `twixt analyze` does, and again with
every move judged by the analysis's deeper look (`analysis.deep_limit`: ten times the nodes;
the deeper look's own choice at the position before, the move played and that choice, each
with the opponent to move): that is the 10× look's loss of every move. It prints each listed
swing with both looks' losses, and the 10× look's largest loss: whether it is listed (goal:
whenever it is at least 15 points), its loss by the first look and its rank there (which a
screen must let through to the deeper look). At the end: how many listed swings the deeper
look clears (under 10 points; goal: none), how many 10× largest losses of 15 points or more
are left out (goal: none), and for several screens (`analysis.Screen`: the `most` largest
first-look losses, each at least `least`) how many of those largest losses each would leave
out and how many moves a game it sends to the deeper look.

With `--playouts N` it then plays out the `--top` largest listed swings of each game: the
engine against itself from the position after the move played and from the one after the
engine's choice there, N games each at `--playout-nodes` nodes a move (the seed changes each
game's root noise), and prints how often the swing's mover won from each: a turning point is
a move after which its mover wins less often than after the engine's choice. A game still open
after a move a hole counts half. It is expensive (16–29 minutes a swing at 10 a side and
15,000 nodes on a quiet core), so it is off by default.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from twixt.engine import Limit, think
from twixt.engine.analysis import (
    MIN_SWING,
    SCREEN,
    GameAnalysis,
    Screen,
    analyze_game,
    default_limit,
)
from twixt.rules import Colour, Game
from twixt.rules.records import load

GAMES = Path(__file__).with_name("games")
#: a 10× look's largest loss at least this must be among the listed swings
LISTED_ABOVE = 0.15
#: the screens compared: (least loss by the first look, most moves judged again)
SCREENS = [Screen(least, most) for least in (0.0, 0.03, 0.05, 0.08, 0.10)
           for most in (3, 4, 6, 8, 10)]


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
        print(f"    played out {seed + 1} of {games}: the mover's score {score:g}", flush=True)
    return score / games


def every_move(game: Game) -> Screen:
    """A screen that lets every move of `game` through to the deeper look."""
    return Screen(least=-1.0, most=len(game.history))


def first_rank(analysis: GameAnalysis, index: int) -> int:
    """The rank (from 1) of the move at `index` among the first look's losses."""
    losses = analysis.first_losses
    return 1 + sum(loss > losses[index] or (loss == losses[index] and other < index)
                   for other, loss in enumerate(losses))


def points(loss: float) -> str:
    """A loss in points."""
    return f"{loss * 100:.0f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--after", default="", help="only games whose file name sorts after this")
    parser.add_argument("--playouts", type=int, default=0, help="0: no play-outs")
    parser.add_argument("--top", type=int, default=3, help="the listed swings played out a game")
    parser.add_argument("--playout-nodes", type=int, default=15000)
    args = parser.parse_args(argv)
    games = listed = cleared = big = left_out = confirmed = played_out = 0
    judged = cpu_first = cpu_reference = 0.0
    # per game with a 10× largest loss >= LISTED_ABOVE: (its first-look loss, its rank)
    largest: list[tuple[float, int]] = []
    first_losses: list[tuple[float, ...]] = []
    # the same for every move whose 10× loss is at least `MIN_SWING` (a swing it would list)
    tens: list[tuple[float, int]] = []
    for path in sorted(GAMES.glob("*.twixt")):
        if games >= args.games:
            break
        if path.name <= args.after:
            continue
        game = load(path)
        limit = replace(default_limit(game), seconds=None)
        started = time.process_time()
        analysis = analyze_game(game, limit)
        cpu_first += time.process_time() - started
        started = time.process_time()
        reference = analyze_game(game, limit, screen=every_move(game))
        cpu_reference += time.process_time() - started
        if analysis.step != 1 or not analysis.moves:
            continue
        games += 1
        judged += len(analysis.judged)
        first_losses.append(analysis.first_losses)
        index, worst = max(enumerate(reference.moves), key=lambda pair: pair[1].loss)
        first = analysis.first_losses[index]
        rank = first_rank(analysis, index)
        shown = [f"{n} ({points(analysis.first_losses[n - 1])} -> "
                 f"{points(analysis.move(n).loss)})" for n in analysis.swings]
        print(f"{path.name}: {len(analysis.moves)} moves, {len(analysis.judged)} judged again; "
              f"swings (first look -> 10x look, points): {', '.join(shown) or 'none'}; "
              f"the 10x look's largest loss: move {worst.number}, {points(worst.loss)} "
              f"({'listed' if worst.number in analysis.swings else 'not listed'}; first look "
              f"{points(first)}, rank {rank})", flush=True)
        tens += [(analysis.first_losses[place], first_rank(analysis, place))
                 for place, report in enumerate(reference.moves) if report.loss >= MIN_SWING]
        listed += len(analysis.swings)
        cleared += sum(reference.move(n).loss < MIN_SWING for n in analysis.swings)
        if worst.loss >= LISTED_ABOVE:
            big += 1
            left_out += worst.number not in analysis.swings
            largest.append((first, rank))
        for swing in map(analysis.move, analysis.swings[:args.top] if args.playouts else ()):
            before = position_before(game, swing.number)
            after_played, after_best = before.copy(), before.copy()
            after_played.play(swing.played)
            after_best.play(swing.best)
            started = time.monotonic()
            played_score = mover_score(after_played, swing.colour, args.playouts,
                                       args.playout_nodes)
            best_score = mover_score(after_best, swing.best_colour or swing.colour,
                                     args.playouts, args.playout_nodes)
            confirmed += played_score < best_score
            played_out += 1
            print(f"  move {swing.number}, {swing.colour.value} {swing.played} (loss "
                  f"{points(swing.loss)}): the mover won {played_score:.0%} of {args.playouts} "
                  f"played out after it, {best_score:.0%} after the deeper look's {swing.best} "
                  f"({time.monotonic() - started:.0f} s)", flush=True)
    print(f"\n{games} games, screen {SCREEN}: {listed} swings listed, {cleared} of them under "
          f"{MIN_SWING:.0%} by the 10x look (goal: none); the 10x look's largest loss "
          f">= {LISTED_ABOVE:.0%} in {big} games, left out in {left_out} (goal: none); "
          f"{judged / max(games, 1):.1f} moves a game judged again; CPU {cpu_first:.0f} s for "
          f"the analyses, {cpu_reference:.0f} s for the 10x look at every move (the floor)")
    for name, found in (("the 10x largest losses >= 15", largest), ("every 10x loss >= 10", tens)):
        print(f"{name} points (first look's loss, rank): "
              + ", ".join(f"({points(first)}, {rank})" for first, rank in found))
    for screen in SCREENS:
        missed = sum(first < screen.least or rank > screen.most for first, rank in largest)
        missed_tens = sum(first < screen.least or rank > screen.most for first, rank in tens)
        sent = sum(min(screen.most, sum(loss >= screen.least for loss in losses))
                   for losses in first_losses)
        print(f"  screen least {screen.least:.0%}, most {screen.most}: leaves out {missed} of "
              f"{len(largest)} (of the 10x losses >= {MIN_SWING:.0%}: {missed_tens} of "
              f"{len(tens)}); {sent / max(games, 1):.1f} moves a game judged again")
    if played_out:
        print(f"play-outs ({args.playouts} a side at {args.playout_nodes:,} nodes a move): "
              f"{confirmed} of {played_out} swings confirmed")


if __name__ == "__main__":
    main()
