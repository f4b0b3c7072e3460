"""Speed of the rules engine on 24×24: random playouts and one blockade check.

Prints random-playout placements per second (classic and pp; every placement links all its
legal links and runs the win, blockade and no-hole checks the game always runs), and the
median time of one full blockade search on a late-game position. Medians of several rounds.
"""

from __future__ import annotations

import random
import statistics
import time

from twixt.rules import Colour, Game
from twixt.rules.notation import Command, Placement

ROUNDS = 5
GAMES_PER_ROUND = 20


def random_placement(game: Game, rng: random.Random) -> Command:
    """A uniformly random legal peg, linking all: drawn by rejection, as playout engines do."""
    holes = game.geometry.holes
    legal = game.legal_placement_bits()
    while True:
        index = int(rng.random() * len(holes))
        if (legal >> index) & 1:
            return Command(placement=Placement(holes[index], link_all=True))


def playout(rules: str, rng: random.Random) -> int:
    """Play random legal pegs until the game ends; return the placements."""
    game = Game(("red", "black"), size=24, rules=rules, swap=False)
    while not game.is_over:
        game.push(random_placement(game, rng))
    return game.pegs_placed


def placements_per_second(rules: str) -> float:
    rates = []
    for round_number in range(ROUNDS):
        rng = random.Random(round_number)
        start = time.perf_counter()
        placed = sum(playout(rules, rng) for _ in range(GAMES_PER_ROUND))
        rates.append(placed / (time.perf_counter() - start))
    return statistics.median(rates)


def late_game(rng: random.Random) -> Game:
    """A 24×24 classic game some 200 placements in (or just before its end)."""
    while True:
        game = Game(("red", "black"), size=24, swap=False)
        while not game.is_over and game.pegs_placed < 200:
            game.push(random_placement(game, rng))
        if not game.is_over:
            return game


def blockade_check_ms() -> tuple[float, int, int]:
    game = late_game(random.Random(7))
    position = game.position
    times = []
    for _ in range(200):
        start = time.perf_counter()
        for colour in (Colour.RED, Colour.BLACK):
            position.find_open_path(colour)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), len(game.pegs()), len(game.links())


def main() -> None:
    for rules in ("classic", "pp"):
        rate = placements_per_second(rules)
        print(f"random playouts 24x24 {rules:>7}: {rate:,.0f} placements/s (median of {ROUNDS})")
    median_ms, pegs, links = blockade_check_ms()
    print(f"blockade check, late 24x24 game ({pegs} pegs, {links} links): "
          f"{median_ms:.3f} ms median (full search for both sides, no cached path)")


if __name__ == "__main__":
    main()
