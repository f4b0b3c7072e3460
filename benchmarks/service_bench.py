"""Turns per second through the whole service — parse, rules check, SQLite commit, board
picture — with many channels playing at once, and the latency of one turn (p50, p99).

Each channel plays random legal pegs (linking all) on a 24×24 board; a local copy of each game
picks the moves, so every request is legal and does the full work of a real turn.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from twixt.rules import Game
from twixt.service import Request, TwixtService, User, build_options
from twixt.service.commands import router
from twixt.storage import SqliteStorage

GUILD = 1


async def _start(service: TwixtService, channel: int) -> tuple[User, User]:
    red, black = User(channel * 10 + 1, f"red{channel}"), User(channel * 10 + 2, f"black{channel}")
    await service.challenges.challenge(Request(GUILD, channel, red), black,
                                       build_options(swap="no"))
    await service.challenges.accept(Request(GUILD, channel, black))
    return red, black


async def _play(service: TwixtService, channel: int, players: tuple[User, User], turns: int,
                latencies: list[float], rng: random.Random) -> int:
    mirror = Game(("r", "b"), swap=False)
    played = 0
    for _ in range(turns):
        if mirror.is_over:
            break
        command = f"{rng.choice(mirror.legal_placements())} link all"
        seat = mirror.seat_to_move
        assert seat is not None  # the loop stops once the game is over
        user = players[seat]
        start = time.perf_counter()
        reply = await service.execute(Request(GUILD, channel, user), router.read_command(command))
        latencies.append(time.perf_counter() - start)
        assert reply.image
        mirror.play(command)
        played += 1
    return played


async def run_round(channels: int, turns: int, seed: int) -> tuple[float, list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        async with await SqliteStorage.open(Path(folder) / "bench.db") as storage:
            service = TwixtService(storage)
            players = [await _start(service, channel) for channel in range(1, channels + 1)]
            rng = random.Random(seed)
            latencies: list[float] = []
            start = time.perf_counter()
            counts = await asyncio.gather(*(
                _play(service, channel, pair, turns, latencies, random.Random(rng.random()))
                for channel, pair in enumerate(players, start=1)))
            elapsed = time.perf_counter() - start
    return sum(counts) / elapsed, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--turns", type=int, default=20, help="turns per channel per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rates, all_latencies = [], []
    for seed in range(args.rounds):
        rate, latencies = asyncio.run(run_round(args.channels, args.turns, seed))
        rates.append(rate)
        all_latencies.extend(latencies)
    cuts = statistics.quantiles(all_latencies, n=100)
    print(f"{args.channels} channels at once, {args.turns} turns each, {args.rounds} rounds")
    print(f"  turns/s (median of rounds): {statistics.median(rates):.0f}"
          f"   (rounds: {', '.join(f'{r:.0f}' for r in rates)})")
    print(f"  latency of one turn: p50 {cuts[49] * 1000:.0f} ms, p99 {cuts[98] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
