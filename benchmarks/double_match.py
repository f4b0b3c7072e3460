"""Double TwixT: does a bot team that may call privilege beat one that never does?

    python benchmarks/double_match.py --level 3 --games 20 --size 24 --rules pp --seed 0

Two bot teams at the same level play Double TwixT (four seats, partners opposite): in the
team *calling*, every seat plays `think`'s move as it is (the engine adds `; privilege` when
that turns a threat into a win, or saves the game from a winning peg the one move could not
stop, `engine.api._calls_privilege`); in the team *never*, every seat plays the same search's
move without it. Games 2k and 2k+1 start from the same first peg (the k-th of the holes near
the middle shuffled by the seed, played by Red's first seat as its opening) with the calling
team Red once and Black once; the seeds of each seat's searches follow the game's number, so
the two games of a pair differ only in who calls. Every game runs in this one process, to its
end or to a move a hole (a draw); the end prints the calling team's score with its Wilson 95%
interval and how often it called.
"""

from __future__ import annotations

import argparse
import random
import time

from engine_match import wilson

from twixt.engine import level_limit, think
from twixt.rules import Colour, Game

PRIVILEGE = "; privilege"
SEATS = ("red 1", "black 1", "red 2", "black 2")


def openings(size: int, seed: int) -> list[str]:
    """The holes of the board's middle third, shuffled by the seed."""
    third = size // 3
    holes = [f"{chr(ord('A') + col)}{row + 1}"
             for col in range(third, size - third) for row in range(third, size - third)]
    random.Random(seed).shuffle(holes)
    return holes


def play(number: int, opening: str, calling: Colour, level: int, size: int, rules: str
         ) -> tuple[Colour | None, int, int, int]:
    """One game: the winner (None: a draw), its moves, how often the calling team called and
    how often the other team's search would have."""
    game = Game(SEATS, size=size, rules=rules, swap=False)
    game.play(opening)
    calls = forgone = 0
    limit = level_limit(level)
    while not game.is_over and game.moves_made < size * size:
        result = think(game, limit, seed=number * 1000 + game.moves_made)
        move = result.move
        if game.colour_to_move is not calling and move.endswith(PRIVILEGE):
            move = move[:-len(PRIVILEGE)]
            forgone += 1
        calls += move.endswith(PRIVILEGE)
        game.play(move)
    outcome = game.outcome
    return (None if outcome is None else outcome.winner), game.moves_made, calls, forgone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--size", type=int, default=24)
    parser.add_argument("--rules", choices=("pp", "classic"), default="pp")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    holes = openings(args.size, args.seed)
    points = 0.0
    called = 0
    for number in range(args.games):
        calling = Colour.RED if number % 2 == 0 else Colour.BLACK
        started = time.monotonic()
        winner, moves, calls, forgone = play(number, holes[number // 2], calling, args.level,
                                    args.size, args.rules)
        points += 0.5 if winner is None else float(winner is calling)
        called += calls
        said = "draw" if winner is None else ("calling" if winner is calling else "never")
        print(f"game {number + 1}: opening {holes[number // 2]}, calling team {calling.value},"
              f" won by {said}, {moves} moves, {calls} privilege called,"
              f" {forgone} forgone by the other team,"
              f" {time.monotonic() - started:.0f} s", flush=True)
    low, high = wilson(points, args.games)
    print(f"calling team: {points:g} of {args.games}, {points / args.games:.1%}"
          f" [{low:.1%}, {high:.1%}]; privilege called in {called} moves")


if __name__ == "__main__":
    main()
