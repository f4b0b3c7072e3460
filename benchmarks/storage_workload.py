"""The workload the storage benchmarks share: the same legal games, played the same way on
any back end, and how their figures are summed up."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import statistics
import time
from datetime import UTC, datetime

from twixt.rules import Game
from twixt.storage import GameSetup, Player, Storage
from twixt.storage.waiting import Waiting

DISTINCT_LOGS = 50
SETUP = GameSetup(size="24x24", rules="classic")
#: each run of the garbage collector during the games played (`play_all`): its generation and
#: how long it stalled the event loop (s), every turn under way waiting it out
COLLECTIONS: list[tuple[int, float]] = []


def played_logs(rng: random.Random, turns: int) -> list[list[str]]:
    """Legal random logs (canonical texts), played before the clock starts."""
    logs = []
    for _ in range(DISTINCT_LOGS):
        game = Game(players=("1", "2"), size=SETUP.size, rules=SETUP.rules)
        log = [game.play(str(rng.choice(game.legal_placements())), by=game.player_to_move).text
               for _ in range(turns)]
        logs.append(log)
    return logs


async def create_games(store: Storage, count: int) -> list[int]:
    games = await asyncio.gather(*(
        store.create_game(guild_id=1, channel_id=channel, setup=SETUP,
                          players=[Player(1, "one"), Player(2, "two")])
        for channel in range(count)))
    return [game.id for game in games]


async def play(store: Storage, game_id: int, log: list[str],
               latencies: list[float]) -> None:
    for version, text in enumerate(log):
        started = time.perf_counter()
        await store.append_turn(game_id, version, 1 + version % 2, text)
        latencies.append(time.perf_counter() - started)


def waiting_turns(log: list[str]) -> list[tuple[str, datetime, Waiting]]:
    """A game's turns as the service sends them (`play_waiting`): each with its moment and
    saying that the game now waits for the other player since then. Made before the clock
    starts, as the floors' rows are: the storage is timed from its caller's values to the
    commit, as the floors are from theirs."""
    return [(text, now, Waiting(2 - version % 2, None, now))
            for version, text in enumerate(log) for now in [datetime.now(UTC)]]


async def play_waiting(store: Storage, game_id: int,
                       turns: list[tuple[str, datetime, Waiting]], latencies: list[float]) -> None:
    """As `play`, each turn as the service writes it (`waiting_turns`): at its moment, saying
    whose move the game now waits for since then (`Waiting`, the rows of `games_waiting_for`)."""
    for version, (text, now, waiting) in enumerate(turns):
        started = time.perf_counter()
        await store.append_turn(game_id, version, 1 + version % 2, text, now=now,
                                waiting=waiting)
        latencies.append(time.perf_counter() - started)


async def play_all(store: Storage, ids: list[int], logs: list[list[str]],
                   at_once: bool = True, *, waiting: bool = False) -> tuple[float, list[float]]:
    """Turns per second and each turn's latency: the games all at once, or one by one; with
    `waiting`, each turn says whose move the game waits for (`play_waiting`)."""
    latencies: list[float] = []
    plays = [play_waiting(store, game_id, waiting_turns(logs[i % len(logs)]), latencies)
             if waiting else play(store, game_id, logs[i % len(logs)], latencies)
             for i, game_id in enumerate(ids)]
    began: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[:] = [time.perf_counter()]
        elif began:
            COLLECTIONS.append((info["generation"], time.perf_counter() - began[0]))

    gc.callbacks.append(timed)
    started = time.perf_counter()
    try:
        if at_once:
            await asyncio.gather(*plays)
        else:
            for game in plays:
                await game
    finally:
        gc.callbacks.remove(timed)
    elapsed = time.perf_counter() - started
    return len(latencies) / elapsed, latencies


def collections_line() -> str:
    """The collector's runs since `COLLECTIONS` was emptied: the full ones, and the longest."""
    full = [pause for generation, pause in COLLECTIONS if generation == 2]
    longest = max((pause for _, pause in COLLECTIONS), default=0.0)
    return (f"{'garbage collections':>34}: {len(COLLECTIONS)}, {len(full)} full (longest "
            f"{max(full, default=0.0) * 1000:.1f} ms), the longest {longest * 1000:.1f} ms")


def load_line() -> str:
    """The machine's load average now (over 1, 5 and 15 minutes): the figures beside it were
    measured on a machine that busy."""
    return f"{'load average':>34}: " + ", ".join(f"{load:.1f}" for load in os.getloadavg())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Figures:
    """Turns/s, p50 and p99 (ms) of several rounds, and of the waits for a connection where
    they were timed; their medians."""

    def __init__(self) -> None:
        self.rates: list[float] = []
        self.p50s: list[float] = []
        self.p99s: list[float] = []
        self.wait_p50s: list[float] = []
        self.wait_p99s: list[float] = []
        #: the process's CPU time a turn (s), where it was timed: a figure load hardly moves
        self.cpus: list[float] = []

    def add(self, rate: float, latencies: list[float], waits: list[float] | None = None,
            cpu: float | None = None) -> None:
        self.rates.append(rate)
        if cpu is not None:
            self.cpus.append(cpu)
        self.p50s.append(percentile(latencies, 0.50) * 1000)
        self.p99s.append(percentile(latencies, 0.99) * 1000)
        if waits:
            self.wait_p50s.append(percentile(waits, 0.50) * 1000)
            self.wait_p99s.append(percentile(waits, 0.99) * 1000)

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)

    @property
    def tail(self) -> float:
        """p99 / p50 of a turn: how much longer the unluckiest turns wait than the usual."""
        return statistics.median(self.p99s) / statistics.median(self.p50s)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    def line(self, label: str) -> str:
        cpu = f", CPU {self.cpu * 1e6:5.1f} µs a turn" if self.cpus else ""
        return (f"{label:>34}: {self.rate:7.0f} turns/s, "
                f"latency p50 {statistics.median(self.p50s):8.2f} ms, "
                f"p99 {statistics.median(self.p99s):8.2f} ms{cpu}")

    def wait_line(self) -> str:
        """The wait for a connection, part of each turn's latency."""
        return (f"{'of which waiting for a connection':>34}: {'':25}"
                f"p50 {statistics.median(self.wait_p50s):8.2f} ms, "
                f"p99 {statistics.median(self.wait_p99s):8.2f} ms")
