"""Why the search's move leaves the root policy's and the players' choice, on real games.

    python benchmarks/search_agreement.py --nodes 15000
    python benchmarks/search_agreement.py --nodes 15000 --c-puct 3 --first-play-urgency 0.3
    python benchmarks/search_agreement.py --nodes 15000 --prior-choice 3   # visits × prior³
    python benchmarks/search_agreement.py --nodes 4000 --root-temperature 0.6 --tempo 0

The fixed positions of the real-game benchmark (`engine_games.positions`: 200, two a game,
between moves 5 and 40) are searched in this process with `think`'s search (compiled core
when built) at `--nodes`, with the search's constants as given (both cores take them as
parameters: `engine.core` passes `C_PUCT`, `FIRST_PLAY_URGENCY` and the leaf's constants; the
root's final choice, `search.PRIOR_CHOICE`, is made in Python for both; `--root-temperature`
divides the network's logarithms the root's priors are made from, as a caller of either core
could). It prints how often the search's move is the peg played (top-1) beside the goal of
issue 45 (at least 30%), how often the policy's first choice is, how often the two agree, and
where they part: who of the two matched the player, and how the search saw the policy's move
(its share of the root's visits, its value against the value of the move chosen, both for the
side to move). This is what decides whether a stronger pull of the priors would bring the
search nearer to the players; whether it costs strength is for `engine_match.py` to say.
"""

from __future__ import annotations

import argparse
import random
from statistics import mean

from engine_games import positions, replayed

from twixt.engine import core, evaluate
from twixt.engine import search as tree
from twixt.engine.api import _PLAIN as BY_THE_BOOK
from twixt.engine.board import Board
from twixt.engine.core import search
from twixt.engine.policy import root_scores
from twixt.engine.search import ROOT_WIDTH

#: issue 45's goal: the search's move is the players' at least this often on real games
GOAL = 0.30


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=15000)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--c-puct", type=float, default=None, help="default: the engine's")
    parser.add_argument("--first-play-urgency", type=float, default=None,
                        help="default: the engine's")
    parser.add_argument("--prior-choice", type=float, default=None,
                        help="the root's choice by visits × prior ** this (default: the"
                             " engine's; 0: the most visited)")
    parser.add_argument("--leaf", default=None, choices=("matches", "fitted"),
                        help="the leaf evaluation's constants (default: the engine's)")
    parser.add_argument("--tempo", type=float, default=None,
                        help="the leaf's TEMPO alone (after --leaf)")
    parser.add_argument("--weak", type=float, default=None,
                        help="the leaf's WEAK alone (after --leaf)")
    parser.add_argument("--root-temperature", type=float, default=1.0,
                        help="the root's priors from the network's logarithms / this")
    args = parser.parse_args(argv)
    if args.leaf is not None:  # the constants both cores' evaluations are given
        leaf = {"matches": evaluate.BY_MATCHES, "fitted": evaluate.FITTED}[args.leaf]
        for module in (core, evaluate):
            vars(module).update(SHARPNESS=leaf.sharpness, TEMPO=leaf.tempo,
                                NARROW=leaf.narrow, WEAK=leaf.weak)
    for name, value in (("TEMPO", args.tempo), ("WEAK", args.weak)):
        if value is not None:
            for module in (core, evaluate):
                vars(module)[name] = value
    if args.prior_choice is not None:  # read by SearchOutcome.best, for either core
        vars(tree)["PRIOR_CHOICE"] = args.prior_choice
    if args.c_puct is not None:  # the constants both cores' searches are given
        vars(core)["C_PUCT"] = args.c_puct
    if args.first_play_urgency is not None:
        vars(core)["FIRST_PLAY_URGENCY"] = args.first_play_urgency
    sample = positions(args.positions)
    searched = policy = agree = 0
    parted: list[tuple[bool, bool, float, float]] = []
    for position in sample:
        game, played = replayed(position)
        board, colour = Board(game), game.colour_to_move
        scores = [score / args.root_temperature for score in root_scores(board, colour)]
        top = max(range(len(scores)), key=lambda hole: (scores[hole], -hole))
        rng = random.Random(0)  # as think's seed 0 draws the root's noise
        found = search(board, colour, args.nodes, None, noise=BY_THE_BOOK[0],
                       rng_values=[rng.random() for _ in range(ROOT_WIDTH)], root_scores=scores)
        best = found.best()
        move = -1 if best is None else found.moves[best]
        searched += move == played
        policy += top == played
        agree += move == top
        if move != top and best is not None and top in found.moves:
            at = found.moves.index(top)
            visits = sum(found.visits)
            share = found.visits[at] / visits if visits else 0.0
            gap = (found.values[best] / max(1, found.visits[best])
                   - (found.values[at] / found.visits[at] if found.visits[at] else 0.0))
            parted.append((move == played, top == played, share, gap))
    count = len(sample)
    constants = vars(core)
    print(f"{count} positions, {args.nodes} nodes, leaf SHARPNESS {constants['SHARPNESS']},"
          f" TEMPO {constants['TEMPO']}, NARROW {constants['NARROW']}, WEAK"
          f" {constants['WEAK']}, C_PUCT {constants['C_PUCT']}, first-play"
          f" urgency {constants['FIRST_PLAY_URGENCY']}, root temperature"
          f" {args.root_temperature}, prior choice"
          f" {vars(tree)['PRIOR_CHOICE']}: the search's move played {searched / count:.1%}"
          f" (goal: at least {GOAL:.0%}),"
          f" the policy's first {policy / count:.1%}; search = policy {agree / count:.1%}")
    if parted:
        print(f"where they part ({len(parted)}): the search's move played"
              f" {sum(s for s, _, _, _ in parted)}, the policy's {sum(p for _, p, _, _ in parted)};"
              f" the policy's move had {mean(share for _, _, share, _ in parted):.1%} of the"
              f" visits on average, a value {mean(gap for _, _, _, gap in parted):.3f} below"
              f" the move chosen (side to move)")


if __name__ == "__main__":
    main()
