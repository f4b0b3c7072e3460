"""What both back ends' stats benchmarks share: the finished games they hold (the same rows
from the same seed on SQLite and PostgreSQL), the store calls timed on each, how they are
timed (round after round, every database taking its turn) and the table of the figures."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from twixt.storage import Storage

GUILD = 1
PLAYERS = 200
RANKED = 100  # players with a rating (on the leaderboard)
CALLS = 400
ROUNDS = 20
HISTORY_PAGE = 10
ASKER = 1  # plays every tenth game: page 10 of their history exists at every size

Call = Callable[[], Awaitable[Any]]
Rows = list[tuple[Any, ...]]

#: each table filled, with the columns given
COLUMNS = {
    "games": ("id", "guild_id", "channel_id", "status", "size", "rules", "created_at",
              "updated_at", "result", "reason", "finished_at", "opening"),
    "game_seats": ("game_id", "seat", "user_id", "name", "winner"),
    "ratings": ("guild_id", "user_id", "rating", "rated_games", "updated_at"),
}


def finished_rows(games: int, rng: random.Random, at: object) -> dict[str, Rows]:
    """The rows of `COLUMNS`' tables: `games` finished games in one guild (a mix of wins,
    draws, aborts, continued imports and Double TwixT) and the ratings; times are `at`."""
    game_rows: Rows = []
    seat_rows: Rows = []
    for game_id in range(1, games + 1):
        users = rng.sample(range(ASKER + 1, PLAYERS + 1), 4 if rng.random() < 0.1 else 2)
        if game_id % 10 == 0:
            users[rng.randrange(len(users))] = ASKER
        result = rng.choices(["red", "black", "draw", "aborted"], [45, 40, 10, 5])[0]
        opening = "0: C3\n1: F6" if rng.random() < 0.03 else None
        game_rows.append((game_id, GUILD, game_id % 500, "finished", "24x24", "classic",
                          at, at, result, "test", at, opening))
        seat_rows += [(game_id, seat, user, f"player {user}",
                       result == ("red", "black")[seat % 2])
                      for seat, user in enumerate(users)]
    rating_rows: Rows = [(GUILD, user, rng.gauss(1500, 200), 10, at)
                         for user in range(1, RANKED + 1)]
    return {"games": game_rows, "game_seats": seat_rows, "ratings": rating_rows}


def store_calls(store: Storage) -> dict[str, Call]:
    """The three reads timed on every back end, as the commands ask them."""
    offset = (HISTORY_PAGE - 1) * 10

    async def stats() -> None:
        await store.player_stats(GUILD, 2)
        await store.head_to_head(GUILD, ASKER, 2)

    return {
        "stats": stats,
        "leaderboard page": lambda: store.leaderboard(GUILD, limit=11),
        f"history page {HISTORY_PAGE}": lambda: store.list_games(
            user_id=ASKER, guild_id=GUILD, limit=11, offset=offset, visible_to=(1, ASKER)),
    }


async def measure(calls: dict[tuple[str, int], dict[str, Call]]
                  ) -> dict[tuple[str, int, str], list[float]]:
    """Each call's times (s) by (back end, size, name). The databases take turns, round after
    round, so a busy moment hits them all alike."""
    times: dict[tuple[str, int, str], list[float]] = {}
    for _ in range(ROUNDS):
        for (backend, size), named in calls.items():
            for name, call in named.items():
                spent = times.setdefault((backend, size, name), [])
                for _ in range(CALLS // ROUNDS):
                    started = time.perf_counter()
                    await call()
                    spent.append(time.perf_counter() - started)
    return times


def print_table(times: dict[tuple[str, int, str], list[float]], sizes: list[int]) -> None:
    """Median ms per call: a row a call, each back end's sizes and ratio side by side."""
    backends = list(dict.fromkeys(backend for backend, _, _ in times))
    names = list(dict.fromkeys(name for _, _, name in times))
    ratio = f"{sizes[-1]:,}/{sizes[0]:,}"
    gap = max(9, len(ratio) + 2)  # the ratio's column
    width = 10 * len(sizes) + gap
    print()
    print((" " * 34 + "".join(f"  {backend:<{width}}" for backend in backends)).rstrip())
    print(f"{'median ms per call':<34}" + "".join(
        "  " + "".join(f"{size:>10,}" for size in sizes) + f"{ratio:>{gap}}" for _ in backends))
    for name in names:
        line = f"{name:<34}"
        for backend in backends:
            if (backend, sizes[0], name) not in times:
                line += "  " + f"{'—':>{width}}"
                continue
            values = [statistics.median(times[backend, size, name]) * 1000 for size in sizes]
            line += ("  " + "".join(f"{ms:>10.3f}" for ms in values)
                     + f"{values[-1] / values[0]:>{gap - 1}.2f}x")
        print(line)
