"""Are the analysis's swings the game's turning points? Checked by a deeper look and by play.

    python benchmarks/analysis_swings.py --games 20           # the deeper look and its screen
    python benchmarks/analysis_swings.py --games 1 --playouts 10 --top 1   # and a play-out

For each of the first `--games` games of the real-game benchmark (`benchmarks/games/`, those
whose file name sorts after `--after`) this analyses the game at the default budget
(`engine.analysis.default_limit`, its nodes alone) with every move judged by the analysis's
deeper look (`analysis.deep_limit`: ten times the nodes; the deeper look's own choice at the
position before, the move played and that choice, each with the opponent to move): the 10×
look's loss of every move. The analysis's own screen (`analysis.SCREEN`) judges the same way
only the moves with the largest drops by the deeper look, so its swings are those of the moves
the screen lets through (`analysis.listed_swings`; `--check` runs `twixt analyze`'s analysis too
and stops if it lists other swings). It prints each listed swing with both looks' losses (the
first look's, at the analysis's budget against its choice, and the 10× look's), and the 10×
look's largest loss: whether it is listed (goal: whenever it is at least 15 points), and its
drop and the drop's rank (what the screen judges by). At the end: how many listed swings the
deeper look clears (none can be: goal none), how many 10× largest losses of 15 points or more
are left out (goal: none), and for several screens (`analysis.Screen`: the `most` largest
drops, each at least `least`) how many of those largest losses, and of all the 10× losses of 10
points or more, each would leave out, and how many moves a game it sends to the last search.
What an analysis costs against main's is `benchmarks/engine_bench.py --parts analysis`'s.

With `--playouts N` it then plays out the `--top` largest listed swings of each game: the
engine against itself from the position after the move played and from the one after the
engine's choice there, N games each at `--playout-nodes` nodes a move, and prints how often
the swing's mover won from each: a turning point is a move after which its mover wins less
often than after the engine's choice. A game still open after a move a hole counts half. The
first `--loose-plies` plies of each play-out are played as the bot's level 4 plays (its noise
and temperature, a seed a game): at a fixed number of nodes the engine plays by the book (2%
noise in the root's priors), so without them the N play-outs from a position are N copies of
nearly one game, and one game decides the verdict. It is expensive (16–29 minutes a swing
at 10 a side and 15,000 nodes on a quiet core), so it is off by default.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from twixt.engine import Limit, level_limit, think
from twixt.engine.analysis import (
    MIN_SWING,
    SCREEN,
    GameAnalysis,
    Screen,
    analyze_game,
    default_limit,
    listed_swings,
)
from twixt.rules import Colour, Game
from twixt.rules.records import load

GAMES = Path(__file__).with_name("games")
#: a 10× look's largest loss at least this must be among the listed swings
LISTED_ABOVE = 0.15
#: the level whose looseness (its noise and temperature) plays a play-out's first plies
LOOSE_LEVEL = 4
#: the screens compared: (least loss by the first look, most moves judged again)
SCREENS = [Screen(least, most) for least in (-1.0, 0.0, 0.05, 0.10)
           for most in (3, 4, 6, 8, 10)]


def position_before(game: Game, number: int) -> Game:
    """The position of `game` before its move `number` (counted from 1)."""
    moves = [index for index, turn in enumerate(game.history) if turn.command.is_move]
    board = game.copy()
    for _ in range(len(game.history) - moves[number - 1]):
        board.undo()
    return board


def play_out(start: Game, nodes: int, seed: int, loose: int) -> Colour | None:
    """The winner of the engine against itself from `start` (None: a draw, or still open after
    a move a hole): its first `loose` plies as the bot's `LOOSE_LEVEL` plays (the level's
    noise and temperature, so that the play-outs from one position differ), the rest at
    `nodes` a move."""
    game = start.copy()
    holes = game.geometry.cols * game.geometry.rows
    for ply in range(holes):
        if game.outcome is not None:
            return game.outcome.winner
        limit = level_limit(LOOSE_LEVEL) if ply < loose else Limit(nodes=nodes)
        game.play(think(game, limit, seed=seed * 1000 + ply).move)
    return None if game.outcome is None else game.outcome.winner


def mover_score(start: Game, mover: Colour, games: int, nodes: int, loose: int) -> float:
    """The mover's share of `games` played out from `start` (a draw or open game half)."""
    score = 0.0
    for seed in range(games):
        winner = play_out(start, nodes, seed, loose)
        score += 0.5 if winner is None else float(winner is mover)
        print(f"    played out {seed + 1} of {games}: the mover's score {score:g}", flush=True)
    return score / games


def every_move(game: Game) -> Screen:
    """A screen that lets every move of `game` through to the deeper look."""
    return Screen(least=-1.0, most=len(game.history))


def drop_rank(analysis: GameAnalysis, index: int) -> int:
    """The rank (from 1) of the move at `index` among the deeper look's drops (0: the deeper
    look's own choice, no candidate)."""
    drops = [-2.0 if drop is None else drop for drop in analysis.drops]
    if analysis.drops[index] is None:
        return 0
    return 1 + sum(drop > drops[index] or (drop == drops[index] and other < index)
                   for other, drop in enumerate(drops))


def deeper_losses(every: GameAnalysis) -> list[float]:
    """Each move's loss by the deeper look, of an analysis that judged every candidate: 0 where
    the deeper look's own choice is the move played (no candidate, so not judged)."""
    return [report.loss if report.number in every.judged else 0.0 for report in every.moves]


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
    parser.add_argument("--loose-plies", type=int, default=2,
                        help=f"a play-out's first plies played as level {LOOSE_LEVEL} does "
                             "(0: ten copies of nearly one game)")
    parser.add_argument("--check", action="store_true",
                        help="analyse each game as `twixt analyze` does too, and compare")
    args = parser.parse_args(argv)
    games = listed = cleared = big = left_out = confirmed = played_out = 0
    judged = cpu_every = 0.0
    # per game with a 10× largest loss >= LISTED_ABOVE: (its drop, the drop's rank)
    largest: list[tuple[float, int]] = []
    # the same for every move whose 10× loss is at least `MIN_SWING` (a swing it would list)
    tens: list[tuple[float, int]] = []
    all_drops: list[tuple[float | None, ...]] = []
    for path in sorted(GAMES.glob("*.twixt")):
        if games >= args.games:
            break
        if path.name <= args.after:
            continue
        game = load(path)
        limit = replace(default_limit(game), seconds=None)
        started = time.process_time()
        every = analyze_game(game, limit, screen=every_move(game))
        cpu_every += time.process_time() - started
        if every.step != 1 or not every.moves:
            continue
        games += 1
        screened = SCREEN.candidates(list(every.drops))
        swings = [every.moves[index].number
                  for index in listed_swings(every.moves, screened)]
        if args.check:
            analysis = analyze_game(game, limit)
            assert list(analysis.swings) == swings, (analysis.swings, swings)
            assert all(analysis.move(n) == every.move(n) for n in analysis.judged)
        judged += len(screened)
        all_drops.append(every.drops)
        losses = deeper_losses(every)
        index = max(range(len(losses)), key=lambda place: (losses[place], -place))
        number, worst = every.moves[index].number, losses[index]
        drop = every.drops[index] or 0.0
        rank = drop_rank(every, index)
        shown = [f"{n} ({points(every.first_losses[n - 1])} -> {points(losses[n - 1])})"
                 for n in swings]
        print(f"{path.name}: {len(every.moves)} moves, {len(screened)} judged against the "
              f"deeper look's choice; swings (first look -> 10x look, points): "
              f"{', '.join(shown) or 'none'}; the 10x look's largest loss: move {number}, "
              f"{points(worst)} ({'listed' if number in swings else 'not listed'}; "
              f"first look {points(every.first_losses[index])}, drop {points(drop)}, rank "
              f"{rank})", flush=True)
        tens += [(every.drops[place] or 0.0, drop_rank(every, place))
                 for place, loss in enumerate(losses) if loss >= MIN_SWING]
        listed += len(swings)
        cleared += sum(losses[n - 1] < MIN_SWING for n in swings)
        if worst >= LISTED_ABOVE:
            big += 1
            left_out += number not in swings
            largest.append((drop, rank))
        for swing in map(every.move, swings[:args.top] if args.playouts else ()):
            before = position_before(game, swing.number)
            after_played, after_best = before.copy(), before.copy()
            after_played.play(swing.played)
            after_best.play(swing.best)
            started = time.monotonic()
            played_score = mover_score(after_played, swing.colour, args.playouts,
                                       args.playout_nodes, args.loose_plies)
            best_score = mover_score(after_best, swing.best_colour or swing.colour,
                                     args.playouts, args.playout_nodes, args.loose_plies)
            confirmed += played_score < best_score
            played_out += 1
            print(f"  move {swing.number}, {swing.colour.value} {swing.played} (loss "
                  f"{points(swing.loss)}): the mover won {played_score:.0%} of {args.playouts} "
                  f"played out after it, {best_score:.0%} after the deeper look's {swing.best} "
                  f"({time.monotonic() - started:.0f} s)", flush=True)
    print(f"\n{games} games, screen {SCREEN}: {listed} swings listed, {cleared} of them under "
          f"{MIN_SWING:.0%} by the 10x look (goal: none); the 10x look's largest loss "
          f">= {LISTED_ABOVE:.0%} in {big} games, left out in {left_out} (goal: none); "
          f"{judged / max(games, 1):.1f} moves a game judged against the deeper look's choice; "
          f"CPU {cpu_every:.0f} s for the analyses with every move judged")
    for name, found in (("the 10x largest losses >= 15", largest), ("every 10x loss >= 10", tens)):
        print(f"{name} points (drop, rank): "
              + ", ".join(f"({points(drop)}, {rank})" for drop, rank in found))
    for screen in SCREENS:
        missed = sum(drop < screen.least or rank > screen.most for drop, rank in largest)
        missed_tens = sum(drop < screen.least or rank > screen.most for drop, rank in tens)
        sent = sum(len(screen.candidates(list(drops))) for drops in all_drops)
        print(f"  screen least {screen.least:.0%}, most {screen.most}: leaves out {missed} of "
              f"{len(largest)} (of the 10x losses >= {MIN_SWING:.0%}: {missed_tens} of "
              f"{len(tens)}); {sent / max(games, 1):.1f} moves a game judged")
    if played_out:
        print(f"play-outs ({args.playouts} a side at {args.playout_nodes:,} nodes a move, the "
              f"first {args.loose_plies} plies at level {LOOSE_LEVEL}): "
              f"{confirmed} of {played_out} swings confirmed")


if __name__ == "__main__":
    main()
