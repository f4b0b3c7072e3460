"""The cache of replayed games under the heaviest games an import can bring: its memory
budget against the resident memory it really takes.

Each game is a 48×48 classic game of 2,500 turns (the import cap): pegs that link all they
can, then a linked peg taken out and put back with its links, over and over (the heaviest turn
there is). `GAMES` of them are stored as imports store them (the record as the game's
opening) in a SQLite file, and the service looks each one up, which replays and caches it.
Each mode runs in a fresh process, so the resident memory it grows is its own:

- `budget`: the cache as it is, bounded by `CACHE_BUDGET` of estimated bytes;
- `count`: a cache that only counts its games (2,048 of any size), as before.

Target: with the budget, the memory grown stays within the budget (the estimate is an upper
bound of what a game holds, `tests/service/desk/test_game_cache.py`). On a shared 2-core
machine, 100 games: `count` kept all 100 (estimated 619 MB) and grew 333 MB; `budget` kept 41
(estimated 254 MB) and grew 137 MB. Filling the database takes most of the half hour.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import random
import tempfile
from pathlib import Path

from twixt.rules import Game
from twixt.service import TwixtService
from twixt.service.desk.live_games import CACHE_BUDGET, GameCache
from twixt.storage import GameSetup, Player, SqliteStorage

#: the import cap (`twixt.service.cases.records.MAX_IMPORT_TURNS`), and the largest board
TURNS, SIZE = 2500, 48
MB = 1024 * 1024


def heaviest_game(seed: int = 1) -> Game:
    """A 48×48 classic game of `TURNS` turns: half linked pegs, half removals put back."""
    rng = random.Random(seed)
    game = Game(("ann", "ben"), size=SIZE, swap=False)
    while not game.is_over and len(game.history) < TURNS // 2:
        game.play(f"{rng.choice(game.legal_placements())} link all")
    while not game.is_over and len(game.history) < TURNS:
        own = next(p.hole for p in game.pegs() if p.colour is game.colour_to_move)
        game.play(f"remove {own}; {own} link all")
    return game


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


async def _fill(path: Path, games: int) -> None:
    game = heaviest_game()
    opening = "\n".join(f"{turn.seat}: {turn.text}" for turn in game.history)
    setup = GameSetup(f"{SIZE}x{SIZE}", "classic", False, 0, None, opening)
    async with await SqliteStorage.open(path) as storage:
        for channel in range(1, games + 1):
            await storage.create_game(guild_id=1, channel_id=channel, setup=setup,
                                      players=[Player(channel * 10 + 1, "ann"),
                                               Player(channel * 10 + 2, "ben")])


async def _look_up(path: Path, games: int, budget: int | None) -> tuple[float, int, int]:
    """(MB grown, games cached, their estimated bytes) after looking up every game."""
    async with await SqliteStorage.open(path) as storage:
        service = TwixtService(storage)
        cache = GameCache() if budget is None else GameCache(budget=budget)
        service.desk._games = cache
        stored = [await storage.active_game(channel) for channel in range(1, games + 1)]
        gc.collect()
        before = resident_mb()
        for game in stored:
            assert game is not None
            await service.desk.position(game)
        gc.collect()
        return resident_mb() - before, len(cache), cache.weight


def _measure(path: Path, games: int, budget: int | None,
             out: multiprocessing.Queue[tuple[float, int, int]]) -> None:
    out.put(asyncio.run(_look_up(path, games, budget)))


def measure(path: Path, games: int, budget: int | None) -> tuple[float, int, int]:
    queue: multiprocessing.Queue[tuple[float, int, int]] = multiprocessing.Queue()
    child = multiprocessing.get_context("fork").Process(target=_measure,
                                                      args=(path, games, budget, queue))
    child.start()
    result = queue.get()
    child.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    game = heaviest_game()
    print(f"heaviest import: {SIZE}x{SIZE}, {len(game.history)} turns, "
          f"{game.pegs_placed} pegs; {args.games} of them looked up")
    print(f"budget: {CACHE_BUDGET / MB:.0f} MB")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cache.db"
        asyncio.run(_fill(path, args.games))
        for mode, budget in (("count", 10**15), ("budget", None)):
            grown, held, weight = measure(path, args.games, budget)
            print(f"  {mode:>6}: {held:>4} games cached, estimated {weight / MB:7.0f} MB, "
                  f"resident memory grew {grown:7.0f} MB", flush=True)


if __name__ == "__main__":
    main()
