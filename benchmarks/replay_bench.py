"""Replays of long games: time and extra memory of one replay, and how fast a refusal is.

Cases: a 60-turn 24×24 game, a 2,000-turn 48×48 game (random pegs), and a 10,000-turn
48×48 classic game (removing and replacing a peg, over and over, is legal). Each case runs
in a fresh process, so its peak memory is its own: the figure is the growth of the peak
resident size while the replay is drawn. Targets: at most 5 s and 200 MB a replay; a refusal
(too many replays at once) in under 50 ms.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path

from twixt.rendering import plan_of, render_replay
from twixt.rules import Game
from twixt.service import Request, TwixtService, User, build_options
from twixt.service.commands import router
from twixt.storage import SqliteStorage


def long_game(size: int, turns: int, seed: int = 1) -> Game:
    """Random pegs (pp links them) until `turns` turns or the end; then, in classic, the
    players remove and replace a peg of theirs until `turns` turns are played."""
    rng = random.Random(seed)
    rules = "pp" if turns <= size * size else "classic"
    game = Game(("red", "black"), size=size, rules=rules, swap=False)
    while not game.is_over and len(game.history) < min(turns, 40 if rules == "classic" else turns):
        game.play(str(rng.choice(game.legal_placements())))
    while not game.is_over and len(game.history) < turns:
        own = next(p.hole for p in game.pegs() if p.colour is game.colour_to_move)
        game.play(f"remove {own}; {own}")
    return game


#: what one measurement sends back: turns, frames, width, step, seconds, MB grown, bytes
Case = tuple[int, int, int, int, float, float, int]


def _measure(size: int, turns: int, out: multiprocessing.Queue[Case]) -> None:
    game = long_game(size, turns)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    data = render_replay(game)
    seconds = time.perf_counter() - start
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    plan = plan_of(game)
    out.put((len(game.history), plan.frames, plan.width, plan.step, seconds, grown_mb,
             len(data)))


def replay_case(size: int, turns: int) -> Case:
    queue: multiprocessing.Queue[Case] = multiprocessing.Queue()
    child = multiprocessing.get_context("fork").Process(target=_measure,
                                                      args=(size, turns, queue))
    child.start()
    result: Case = queue.get(timeout=600)
    child.join()
    return result


async def refusal_ms(rounds: int = 20) -> float:
    """How long the third replay at once waits for its refusal, median of `rounds`."""
    with tempfile.TemporaryDirectory() as folder:
        async with await SqliteStorage.open(Path(folder) / "bench.db") as storage:
            service = TwixtService(storage)
            alice, bob = User(1, "alice"), User(2, "bob")
            await service.challenges.challenge(Request(1, 1, alice), bob,
                                               build_options(swap="no", size="24"))
            await service.challenges.accept(Request(1, 1, bob))
            for move in long_game(24, 60).history:
                who = alice if move.seat == 0 else bob
                await service.execute(Request(1, 1, who), router.read_command(move.text))
            times = []
            for _ in range(rounds):
                drawing = [asyncio.create_task(service.records.replay(Request(1, 1, alice)))
                           for _ in range(2)]
                await asyncio.sleep(0.05)  # both are drawing now
                start = time.perf_counter()
                try:
                    await service.records.replay(Request(1, 1, bob))
                except Exception:
                    times.append(time.perf_counter() - start)
                await asyncio.gather(*drawing)
            return statistics.median(times) * 1000


def main() -> None:
    print("replay of a long game (fresh process per case):")
    for size, turns in ((24, 60), (48, 2000), (48, 10_000)):
        played, frames, width, step, seconds, grown_mb, size_bytes = replay_case(size, turns)
        print(f"  {size}x{size}, {played:>6,} turns: {frames} frames of {width} px "
              f"(every {step}) in {seconds:.2f} s, +{grown_mb:.0f} MB peak, "
              f"{size_bytes / 1e6:.2f} MB GIF")
    print(f"refusal of a third replay at once: {asyncio.run(refusal_ms()):.2f} ms (median)")


if __name__ == "__main__":
    main()
