"""The timed games the clock benchmarks share: the same clocked games written straight into
either back end's tables, and the tick with nothing due timed the same way on both."""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from twixt.rules import Game
from twixt.service import TwixtService
from twixt.service.pure.clock.timecontrol import clock_marks, time_control_of
from twixt.storage import Storage

NOW = datetime.now(UTC)  # the filled clocks are relative to it; turns run on real time
TIME = "3d"
TURNS = 6
GUILDS = 100
DISTINCT_LOGS = 20
FIRST_CHANNEL = 1_000_000  # the timed games' channels; the playing ones count from 1

Rows = list[tuple[Any, ...]]


def played_logs(rng: random.Random) -> list[list[str]]:
    """Legal logs of `TURNS` pegs (canonical texts), played before any clock starts."""
    logs = []
    for _ in range(DISTINCT_LOGS):
        game = Game(players=("1", "2"), size="24x24", rules="classic", swap=False)
        logs.append([game.play(f"{rng.choice(game.legal_placements())} link all",
                               by=game.player_to_move).text for _ in range(TURNS)])
    return logs


def clock_rows(games: int, rng: random.Random,
               when: Callable[[datetime], Any]) -> tuple[Rows, Rows, Rows]:
    """The rows of `games` active clocked games, each begun a day or two ago with its sixth
    turn played 0 to 23 hours ago, and its stored wake-up at its first reminder (24 hours on):
    games (id, guild_id, channel_id, time_control, version, created_at, updated_at, wake_at),
    seats (game_id, seat, user_id, name) and turns (game_id, number, actor_id, command,
    played_at), each time as `when` writes it."""
    logs = played_logs(rng)
    game_rows, seat_rows, turn_rows = [], [], []
    for game_id in range(1, games + 1):
        started = NOW - timedelta(minutes=rng.randrange(23 * 60))
        created = started - timedelta(hours=TURNS)
        marks = clock_marks(started, time_control_of(TIME).start, reminder_hours=24)
        game_rows.append((game_id, 1 + game_id % GUILDS, FIRST_CHANNEL + game_id, TIME,
                          TURNS, when(created), when(started), when(marks.earliest)))
        seat_rows += [(game_id, 0, 1, "one"), (game_id, 1, 2, "two")]
        for number, command in enumerate(logs[game_id % DISTINCT_LOGS], start=1):
            played = started - timedelta(hours=TURNS - number)
            turn_rows.append((game_id, number, 1 + (number - 1) % 2, command, when(played)))
    return game_rows, seat_rows, turn_rows


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    """Seconds each of `repeat` calls took."""
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        seconds.append(time.perf_counter() - start)
    return seconds


async def idle_ticks(storage: Storage, repeat: int) -> tuple[TwixtService, list[float]]:
    """`TwixtService.tick()` timed `repeat` times on filled games at `NOW`, when nothing is
    due (checked first); the service, for more."""
    service = TwixtService(storage, clock=lambda: NOW)
    assert await service.tick() == [], "nothing may be due"
    return service, await timed(service.tick, repeat)
