"""Speed and size of board pictures: a late 24×24 position and a 60-turn replay.

Prints medians; the aims are 8 ms and 250 KB a board (the bot's 100 turns a second on two
cores leave that much for the picture), two threads drawing nearly twice the boards a second
of one (the bot draws in worker threads, so the work must be in C code that releases the
GIL), and a replay under 3 s and 8 MB. Run: python benchmarks/render_bench.py
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from twixt.rendering import RenderOptions, ThemeName, render_png, render_replay
from twixt.rules import Colour, Game, Hole

REPEATS = 15
#: Boards drawn per timing of the thread pools, and how many timings to take the median of.
POOL_BOARDS = 60
POOL_REPEATS = 5


def late_game(seed: int = 7, min_pegs: int = 84, min_links: int = 64) -> Game:
    """A reproducible, still-running 24×24 pp game with many pegs and links.

    Each side mostly plays a knight's move from one of its own pegs (pp links them
    automatically) and never completes its chain, so the game stays open.
    """
    rng = random.Random(seed)
    game = Game(("alice", "bob"), size=24, rules="pp", swap=False)
    while len(game.pegs()) < min_pegs or len(game.links()) < min_links:
        own = [p.hole for p in game.pegs() if p.colour is game.colour_to_move]
        near = {Hole(h.col + dc, h.row + dr) for h in own
                for dc, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1),
                               (-1, 2))}
        holes = game.legal_placements()
        preferred = [h for h in holes if h in near] if rng.random() < 0.85 else []
        for hole in rng.sample(preferred or holes, len(preferred or holes)):
            game.play(str(hole))
            if not game.is_over:
                break
            game.undo()
    return game


def median_ms(job: Callable[[], bytes]) -> tuple[float, bytes]:
    times, result = [], b""
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = job()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, result


def boards_per_second(threads: int, job: Callable[[], bytes]) -> float:
    """The median rate at which a pool of `threads` workers draws POOL_BOARDS boards."""
    rates = []
    with ThreadPoolExecutor(threads) as pool:
        for _ in range(POOL_REPEATS):
            start = time.perf_counter()
            for _png in pool.map(lambda _: job(), range(POOL_BOARDS)):
                pass
            rates.append(POOL_BOARDS / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    game = late_game()
    print(f"late 24x24 position: {len(game.pegs())} pegs, {len(game.links())} links")
    render_png(game)  # the static layer is drawn once per size and theme, then reused
    for theme in ThemeName:
        for side in Colour:
            options = RenderOptions(theme=theme, side=side)
            render_png(game, options)
            ms, png = median_ms(functools.partial(render_png, game, options))
            print(f"  board {theme.value:5} {side.value:5}: median {ms:5.1f} ms, "
                  f"{len(png) / 1024:5.1f} KB")
    one, two = (boards_per_second(threads, lambda: render_png(game)) for threads in (1, 2))
    print(f"  boards a second: {one:5.0f} in 1 thread, {two:5.0f} in 2 threads "
          f"({two / one:.2f}x)")
    replayed = late_game(seed=11, min_pegs=60, min_links=0)
    start = time.perf_counter()
    gif = render_replay(replayed)
    seconds = time.perf_counter() - start
    print(f"replay of {len(replayed.history)} turns: {seconds:.2f} s, "
          f"{len(gif) / 1024 / 1024:.2f} MB")


if __name__ == "__main__":
    main()
