"""Several bot processes (shards) over one PostgreSQL: 40 clocked games at once, every clock
running out while players move, four service processes ticking the same clocks at the same
moments and two of them racing each move; one process is SIGKILLed with reminders claimed
and half of them not yet sent, and restarted.

Afterwards every reminder, time-up notice and forfeit the clocks called for happened exactly
once (counted from what each process reports it posted and from the database), every move a
process was told had landed is in the log exactly once, and every game replays.

Real processes (`shard_worker.py`), a real throw-away PostgreSQL server, a clock passed
explicitly: the processes go through the same moments in step, so what must have happened is
worked out from each game's log.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg

from tests.storage.conftest import fresh_database
from twixt.service import TwixtService, User, build_options
from twixt.service.model import Request
from twixt.service.pure.clock.timecontrol import clock_marks
from twixt.storage import rebuild
from twixt.storage.backends.postgres import PostgresStorage

WORKER = Path(__file__).with_name("shard_worker.py")
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)
#: twice every kind of game (its moves by number % 5, forfeit by number % 4, shard by
#: number % 2): more games cost time and cover no other case
GAMES = 40
#: the processes, by their shards (count 2): one per shard, one with both, one with every
#: guild (no shards given) — each game's clock is looked after by three at once
PROCESSES = {"zero": "2:0", "one": "2:1", "both": "2:0,1", "all": "all"}
TICKS = [T0 + k * H for k in range(41)]
#: the hours whose ticks kill process `zero` mid-send: first reminders are due at the first,
#: time-up notices and forfeits at the second
KILL_AT = (8, 24)
#: when each kind of game has its moves (hours after the start), by game number % 5
MOVES = {0: [], 1: [0.5], 2: [9.5], 3: [0.5, 12.5], 4: [0.5 + k for k in range(7)]}


def guild_of(number: int) -> int:
    """Game `number`'s server, a snowflake-like id on shard `number % 2` (of 2)."""
    return (number << 22) | 7


def channel_of(number: int) -> int:
    return 5000 + number


def players_of(number: int) -> tuple[User, User]:
    return User(100_000 + 2 * number, f"a{number}"), User(100_001 + 2 * number, f"b{number}")


def forfeits(number: int) -> bool:
    return number % 4 < 2


class Process:
    """One `shard_worker.py`, spoken to one line at a time."""

    def __init__(self, name: str, shards: str, proc: asyncio.subprocess.Process) -> None:
        self.name, self.shards, self.proc = name, shards, proc

    @classmethod
    async def start(cls, name: str, shards: str, url: str) -> Process:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(WORKER), url, shards, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=2**24)
        process = cls(name, shards, proc)
        assert await process.read() == {"ready": True}
        return process

    async def read(self) -> dict[str, object]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 120)
        assert line, f"process {self.name} died"
        answer: dict[str, object] = json.loads(line)
        return answer

    async def ask(self, order: dict[str, object]) -> dict[str, object]:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(order) + "\n").encode())
        await self.proc.stdin.drain()
        return await self.read()

    def holds(self, number: int) -> bool:
        return self.shards == "all" or str(number % 2) in self.shards.split(":")[1].split(",")

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()
        await self.proc.wait()


async def start_games(url: str) -> None:
    """The games, started at T0 with a day a move and no vacation (their deadlines are
    the clocks' own); forfeit on time in half the servers."""
    def clock() -> datetime:
        return T0

    async with await PostgresStorage.open(url) as storage:
        service = TwixtService(storage, clock=clock)
        for number in range(GAMES):
            if forfeits(number):
                await storage.update_guild_settings(guild_of(number), forfeit_on_timeout=True)
            alice, bob = players_of(number)
            where = (guild_of(number), channel_of(number))
            await service.challenges.challenge(Request(*where, alice), bob,
                                               build_options(time="1d", swap="no", first="me",
                                                             size="12", vacation="no"))
            await service.challenges.accept(Request(*where, bob))


async def test_shards_in_processes_fire_every_clock_once(pg_server):
    url = await fresh_database(pg_server)
    await start_games(url)
    processes = {name: await Process.start(name, shards, url)
                 for name, shards in PROCESSES.items()}
    said: list[dict[str, object]] = []  # every message a process reports it posted
    held: list[dict[str, object]] = []  # claimed by the killed process, never posted
    moves: list[list[object]] = []
    try:
        for hour, moment in enumerate(TICKS):
            if hour in KILL_AT:
                # first alone, so that it is sure to take its shard's due games; then SIGKILLed
                # with half of their reminders posted and half not (mid-send), and restarted
                answer = await processes["zero"].ask({"op": "tick_and_hold",
                                                      "at": moment.isoformat()})
                said += [{**s, "by": "zero"} for s in answer["said"]]  # type: ignore[attr-defined]
                held += answer["held"]  # type: ignore[arg-type]
                await processes["zero"].stop()
                processes["zero"] = await Process.start("zero", PROCESSES["zero"], url)
            # every process ticks at the same moment, racing for the same due games
            answers = await asyncio.gather(*(process.ask({"op": "tick",
                                                          "at": moment.isoformat()})
                                             for process in processes.values()))
            for name, answer in zip(processes, answers, strict=True):
                said += [{**s, "by": name} for s in answer["said"]]  # type: ignore[attr-defined]
            await play(processes, hour + 0.5, moves)
    finally:
        for process in processes.values():
            await process.stop()
    assert held, "the killed process held no reminder: the test missed its point"
    await check(url, said, held, moves)


async def play(processes: dict[str, Process], hour: float,
               moves: list[list[object]]) -> None:
    """The moves due at `hour`, each tried by its shard's process and by `all` at once."""
    wanted: dict[str, list[list[int | str]]] = {name: [] for name in processes}
    for number in range(GAMES):
        times = MOVES[number % 5]
        if hour not in times:
            continue
        user = players_of(number)[times.index(hour) % 2]
        order = [guild_of(number), channel_of(number), user.id, user.name]
        wanted["zero" if number % 2 == 0 else "one"].append(order)
        wanted["all"].append(order)
    if not wanted["all"]:
        return
    at = (T0 + hour * H).isoformat()
    answers = await asyncio.gather(*(processes[name].ask({"op": "moves", "at": at,
                                                          "moves": orders})
                                     for name, orders in wanted.items() if orders))
    for answer in answers:
        moves += answer["moves"]  # type: ignore[arg-type]


async def check(url: str, said: list[dict[str, object]], held: list[dict[str, object]],
                moves: list[list[object]]) -> None:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT game_id, version, stage, delivered_at FROM reminders")
    finally:
        await conn.close()
    claimed = {(r["game_id"], r["version"], r["stage"]) for r in rows}
    assert all(r["delivered_at"] is not None for r in rows), "a reminder left undelivered"
    posted = [tuple(s["receipt"]) for s in said if s["receipt"] is not None]  # type: ignore
    doubled = [r for r, n in Counter(posted).items() if n > 1]
    assert not doubled, f"reminders posted twice: {doubled[:5]}"
    # a process with shards speaks only in its own shards' servers
    for s in said:
        number = int(s["channel"]) - 5000  # type: ignore[call-overload]
        assert s["by"] not in ("zero", "one") or (number % 2 == 0) == (s["by"] == "zero")
    forfeit_posts = {s["channel"] for s in said
                     if s["receipt"] is not None and s["receipt"][2] == "forfeit"}  # type: ignore
    assert all(s["receipt"] is not None for s in said)  # every clock message has a receipt

    expected: set[tuple[int, int, str]] = set()
    expected_forfeits: set[int] = set()
    landed = Counter((m[0], m[2]) for m in moves if m[3] == "landed")
    logged: Counter[tuple[int, str]] = Counter()
    async with await PostgresStorage.open(url) as storage:
        games = await storage.list_games(limit=GAMES * 2)
        assert len(games) == GAMES
        for stored in games:
            loaded = await storage.load_game(stored.id)
            game = rebuild(loaded)  # every game replays
            assert [t.number for t in loaded.turns] == list(range(1, stored.version + 1))
            assert game.is_over == (not stored.is_active)
            number = stored.channel_id - 5000
            played = [t for t in loaded.turns if t.command != "timeout"]
            logged.update((stored.channel_id, t.command) for t in played)
            timeouts = [t for t in loaded.turns if t.command == "timeout"]
            # what the clocks had to say about each turn, at the ticks before the next move
            for version in range(len(played) + 1):
                start = T0 if version == 0 else played[version - 1].played_at
                end = played[version].played_at if version < len(played) else None
                marks = clock_marks(start, timedelta(days=1), 24)
                for stage, mark in (("first", marks.first), ("final", marks.final),
                                    ("expired", marks.due)):
                    assert mark is not None
                    tick = next((t for t in TICKS if t >= mark), None)
                    if tick is None or (end is not None and tick > end):
                        continue
                    if stage == "expired" and forfeits(number):
                        expected_forfeits.add(stored.channel_id)
                        expected.add((stored.id, version, "forfeit"))
                        # forfeited at that very tick, as the last turn
                        assert [t.played_at for t in timeouts] == [tick]
                        assert loaded.turns[-1].command == "timeout"
                    else:
                        expected.add((stored.id, version, stage))
            if stored.channel_id not in expected_forfeits:
                assert not timeouts
    # every move a process was told had landed is in the log once, and nothing else is
    assert landed == logged
    assert all(n == 1 for n in logged.values())
    # every clock mark fired once: claimed once, posted once (or held by the killed process
    # and then found obsolete), never twice; forfeits too (each announcement has a receipt)
    assert claimed == expected
    unposted = claimed - set(posted)
    held_receipts = {tuple(h["receipt"]) for h in held if h["receipt"] is not None}  # type: ignore
    assert unposted <= held_receipts
    assert held_receipts & set(posted), "no held reminder was sent again"
    assert any(r[2] == "forfeit" for r in held_receipts & set(posted)), \
        "no held forfeit was announced again"
    assert set(posted) <= claimed
    assert set(forfeit_posts) == expected_forfeits
    # the clocks did run out: a forfeit in more than a tenth of the games, and more than two
    # marks a game
    assert len(expected_forfeits) > GAMES // 10 and len(expected) > 2 * GAMES
