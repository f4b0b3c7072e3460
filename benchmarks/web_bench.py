"""The web board under load: 1,000 games, 200 live pages, moves through the web API, each
figure beside its floor's in the same run.

    python benchmarks/web_bench.py [--games 1000] [--pages 200] [--moves 1000] [--workers 4]
                                   [--rounds 7] [--starts 5] [--moves-only] [--source TREE]
                                   [--profile FILE] [--first-answer-only]

It makes a SQLite database with GAMES games in as many channels, and for each round a fresh
copy of it for each server, which it starts on a free port of this machine (loopback only):
both players' live pages (server-sent events) of the first PAGES / 2 games are opened and kept
open, one move is played in each of those games to warm the server up (not counted: a process's
first moves load modules and fill caches), then MOVES moves are played through `POST …/act`
from WORKERS clients at once, each a different game's player to move. Each move is timed from
its POST to the *opponent's page* hearing of it (the POST's answer beside it), and the server's
CPU (user + system, all its threads, from its own counters in /proc) over the counted moves,
until every page has heard the last, is divided by the moves. The floor (`web_floor.py`:
aiohttp, one fsynced INSERT, the same event to each live page) and `twixt web` (and
`--source`'s, another tree's, the two taking turns to go first) are measured in turns, floor
first, ROUNDS rounds and the floor once more at the end: each round's ratio is `twixt web`'s
CPU a move over the mean of the floor's rounds just before and after it, and the run's figure
is their median, printed with every round's, the quartiles and the range. Each round prints
what the server's pages heard (events, bytes), and a line says whether every server had the
same moves seen and its pages heard the same number of events (within 1%). Then STARTS starts
of each, in turns, time the first answer a player can use: `twixt web`'s page of a game (which
reads the game) against a plain aiohttp server's `/` (by the clock, and the CPU each had used
by then), both run with bytecode caching on, as an installed package has its compiled modules
(a first round, not counted, writes them). The `aims:` line puts issue 46's aims beside the
run's figures. It also prints what a page weighs (gzipped), how long the first board takes to
come (over HTTP, and in headless Chromium from navigation to the drawn board), and how long
`twixt web` takes to stop on SIGTERM with a live page open for every game. Every loop is
bounded in count and time. `--moves-only` stops after the rounds of moves.
`--first-answer-only` times the first answers alone (STARTS starts of each, over GAMES games),
with `--source FOLDER` another tree's `twixt web` too, in turns (as `startup_bench.py` does).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gzip
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from twixt.storage import GameSetup, Player, SqliteStorage  # noqa: E402
from twixt.web.links import Signer  # noqa: E402

SECRET = "web-bench-secret-0123456789abcdef"
TWIXT = str(Path(sys.executable).with_name("twixt"))
#: the longest any one step may take before the benchmark gives up
PATIENCE = 120.0
#: a game's moves, alternating seats, three holes apart so that none links
MOVES = [f"{col}{row}" for row in range(3, 22, 3) for col in "CFILORU"][:16]


async def make_games(path: Path, games: int) -> list[int]:
    async with await SqliteStorage.open(path) as storage:
        ids = []
        for n in range(games):
            stored = await storage.create_game(
                guild_id=1, channel_id=10_000 + n,
                players=[Player(2 * n + 1, f"red{n}"), Player(2 * n + 2, f"black{n}")],
                setup=GameSetup(size="24x24", swap=False))
            ids.append(stored.id)
        return ids


def fresh_copy(made: Path, path: Path) -> None:
    """The database `made` copied to `path`, over whatever a round left there (its journal
    too)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
        if Path(f"{made}{suffix}").exists():
            shutil.copyfile(f"{made}{suffix}", f"{path}{suffix}")


FLOOR = str(ROOT / "benchmarks" / "web_floor.py")


def start_server(command: list[str], source: Path | None = None
                 ) -> tuple[subprocess.Popen[str], str, float]:
    """A server started (the `twixt` of the tree `source`, first on its PYTHONPATH, if
    given), its address, and when it was started (perf_counter)."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DISCORD_", "TWIXT_")) and key != "PYTHONDONTWRITEBYTECODE"}
    env["TWIXT_WEB_SECRET"] = SECRET
    if source is not None:
        env["PYTHONPATH"] = str(source.resolve())
    began = time.perf_counter()
    server = subprocess.Popen(command, env=env, text=True, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    assert server.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline())
    assert found, f"{command[0]} did not start"
    return server, found.group(0), began


def twixt_web(path: Path, profile: str | None = None) -> list[str]:
    """`twixt web` over the database at `path` (under cProfile, writing `profile` when it
    stops, if given)."""
    if profile:
        return [sys.executable, "-m", "cProfile", "-o", profile, "-m", "twixt.cli", "web",
                "--db", str(path), "--port", "0"]
    return [TWIXT, "web", "--db", str(path), "--port", "0"]


def floor_server(path: Path) -> list[str]:
    return [sys.executable, FLOOR, "--db", str(path), "--port", "0"]


def stop(server: subprocess.Popen[str]) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


async def first_answer(url: str, began: float) -> float:
    """Seconds from the server's start to the end of its first answer to `url`."""
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        await answer.read()
        assert answer.status == 200, answer.status
    return time.perf_counter() - began


def first_answers(path: Path, game: int, rounds: int, source: Path | None = None
                  ) -> dict[str, list[tuple[float, float]]]:
    """`twixt web`'s first answer (a game's page) and a plain aiohttp server's (the floor's
    `/`), from their processes' start, in turns (with the `twixt web` of the tree `source`
    too, if given): each start's seconds by the clock, and of its server's CPU when it had
    answered (which the machine's load moves less)."""
    token = Signer(SECRET.encode()).token(game, 0)
    servers: list[tuple[str, list[str], str, Path | None]] = [
        ("twixt web", twixt_web(path), f"/g/{token}", None),
        ("floor", floor_server(path), "/", None)]
    if source is not None:
        servers.append((f"twixt web of {source}", twixt_web(path), f"/g/{token}", source))
    starts: dict[str, list[tuple[float, float]]] = {name: [] for name, *_ in servers}
    for round_ in range(rounds + 1):  # the first writes the compiled modules: not counted
        for name, command, page, tree in servers:
            server, base, began = start_server(command, tree)
            try:
                took = asyncio.run(first_answer(base + page, began))
                cpu = cpu_seconds(server.pid)
            finally:
                stop(server)
            if round_:
                starts[name].append((took, cpu))
    return starts


def print_first_answers(starts: dict[str, list[tuple[float, float]]], count: int) -> float:
    """Print the medians of `first_answers`' starts, each beside the floor's; `twixt web`'s
    ratio to the floor by the clock."""
    medians = {name: (statistics.median(took for took, _cpu in taken),
                      statistics.median(cpu for _took, cpu in taken))
               for name, taken in starts.items()}
    plain, plain_cpu = medians.pop("floor")
    for name, (web, web_cpu) in medians.items():
        print(f"first answer from the process's start, median of {count}: {name} "
              f"{1000 * web:.0f} ms, a plain aiohttp server {1000 * plain:.0f} ms "
              f"({web / plain:.2f}x); its CPU by then {1000 * web_cpu:.0f} ms against "
              f"{1000 * plain_cpu:.0f} ms ({web_cpu / plain_cpu:.2f}x)", flush=True)
    return medians["twixt web"][0] / plain


async def later_views(session: aiohttp.ClientSession, url: str, opened: asyncio.Event,
                      count: list[int], pages: int) -> AsyncIterator[bytes]:
    """A live page's views after its first, which counts it open (the last of `pages` to
    open sets `opened`)."""
    async with session.get(url) as response:
        assert response.status == 200, response.status
        first = True
        async for line in response.content:
            if not line.startswith(b"data: "):
                continue
            if first:
                first = False
                count[0] += 1
                if count[0] == pages:
                    opened.set()
            else:
                yield line


async def live_page(session: aiohttp.ClientSession, base: str, token: str,
                    seen: list[int], opened: asyncio.Event, count: list[int],
                    pages: int) -> None:
    """One live page: counts every view after the first."""
    async for _view in later_views(session, f"{base}/api/g/{token}/live", opened, count, pages):
        seen[0] += 1


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time a process has used, all its threads (Linux /proc)."""
    return sum(cpu_parts(pid))


def cpu_parts(pid: int) -> tuple[float, float]:
    """The user and the system CPU time a process has used, all its threads (the kernel
    keeps their sum exact; the split between them is sampled at its ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass(frozen=True)
class Target:
    """A server under measure: where a seat's page acts and listens."""

    name: str
    base: str
    act: Callable[[int, int], str]
    live: Callable[[int, int], str]


def twixt_target(base: str) -> Target:
    """`twixt web`'s seats, each with one link (as a page keeps the link it was opened by:
    a token made anew each second would be a new signature to check each time)."""
    token = functools.cache(Signer(SECRET.encode()).token)
    return Target("twixt web", base,
                  lambda game, seat: f"{base}/api/g/{token(game, seat)}/act",
                  lambda game, seat: f"{base}/api/g/{token(game, seat)}/live")


def floor_target(base: str) -> Target:
    return Target("floor", base, lambda game, seat: f"{base}/act/{game}/{seat}",
                  lambda game, seat: f"{base}/live/{game}/{seat}")


@dataclass
class Moves:
    """One server's round of moves: each move's time to the opponent's page and to the
    POST's answer (ms), the server's CPU a move, how many moves the opponent's page saw, and
    the load it was given: the events its live pages heard during the measured moves and
    their bytes."""

    name: str
    to_opponent: list[float]
    to_answer: list[float]
    cpu_per_move: float
    seen: int
    load: float
    events: int
    event_bytes: int
    #: the share of the CPU the kernel spent for it (the system time)
    system_share: float


_TURNS = re.compile(rb'"turns": (\d+)')


async def seated_page(session: aiohttp.ClientSession, url: str, arrived: dict[int, float],
                      opened: asyncio.Event, count: list[int], pages: int,
                      heard: list[int]) -> None:
    """One player's live page: notes when each number of turns first reached it, and adds
    each event and its bytes to `heard` (what the server sent the pages, to check that two
    servers were given the same load)."""
    async for line in later_views(session, url, opened, count, pages):
        heard[0] += 1
        heard[1] += len(line)
        if (found := _TURNS.search(line)) is not None:
            arrived.setdefault(int(found.group(1)), time.perf_counter())


async def play_moves(target: Target, ids: list[int], moves: int, workers: int,
                     server_pid: int) -> Moves:
    """Both players' pages of each game open, one move in each game to warm the server up
    (not counted: a process's first moves load modules and fill caches), then `moves` moves
    played from `workers` clients at once, each timed from its POST to its opponent's page
    hearing of it; the server's CPU is read from its own counters before the first counted
    move and once every page has heard the last."""
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=PATIENCE)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        arrived: dict[tuple[int, int], dict[int, float]] = {
            (game, seat): {} for game in ids for seat in (0, 1)}
        count, opened, heard = [0], asyncio.Event(), [0, 0]
        pages = [asyncio.create_task(seated_page(session, target.live(game, seat), times,
                                                 opened, count, len(arrived), heard))
                 for (game, seat), times in arrived.items()]
        await asyncio.wait_for(opened.wait(), PATIENCE)
        # game g's k-th move is made by seat k % 2, MOVES[k] (each game in turn); the first
        # round of them warms the server up
        plan = [(ids[n % len(ids)], n // len(ids)) for n in range(len(ids) + moves)]
        assert max(k for _, k in plan) < len(MOVES), "more moves than the plan holds"
        warm, counted = plan[:len(ids)], plan[len(ids):]
        sent: dict[tuple[int, int], float] = {}
        to_answer: list[float] = []

        async def player(queue: list[tuple[int, int]]) -> None:
            while queue:
                game, k = queue.pop()
                began = sent[game, k] = time.perf_counter()
                async with session.post(target.act(game, k % 2),
                                        json={"control": "move", "text": MOVES[k]}) as answer:
                    await answer.read()
                    assert answer.status == 200, (answer.status, await answer.text())
                to_answer.append(1000 * (time.perf_counter() - began))

        async def play(part: list[tuple[int, int]]) -> None:
            queue = part[::-1]
            await asyncio.wait_for(asyncio.gather(*(player(queue) for _ in range(workers))),
                                   PATIENCE)
            deadline = time.perf_counter() + 10
            while (sum((k + 1) in arrived[game, 1 - k % 2] for game, k in part) < len(part)
                   and time.perf_counter() < deadline):
                await asyncio.sleep(0.01)

        await play(warm)
        to_answer.clear()
        heard[:] = [0, 0]
        user_before, system_before = cpu_parts(server_pid)
        await play(counted)
        user, system = cpu_parts(server_pid)
        cpu_per_move = (user - user_before + system - system_before) / moves
        system_share = (system - system_before) / (user - user_before + system - system_before)
        events, event_bytes = heard
        to_opponent = [1000 * (arrived[game, 1 - k % 2][k + 1] - sent[game, k])
                       for game, k in counted if (k + 1) in arrived[game, 1 - k % 2]]
        for page in pages:
            page.cancel()
        await asyncio.gather(*pages, return_exceptions=True)
    return Moves(target.name, to_opponent, to_answer, cpu_per_move, len(to_opponent),
                 os.getloadavg()[0], events, event_bytes, system_share)


@dataclass
class Figures:
    first_http: float
    weight: int
    activity_weight: int
    token: str


async def page_figures(base: str, game: int) -> Figures:
    """What the page weighs, and its first board over HTTP."""
    signer = Signer(SECRET.encode())
    async with aiohttp.ClientSession() as session:
        # the first board over HTTP: the page, its script and styles, the game's view
        token = signer.token(game, 0)
        began = time.perf_counter()
        weight = 0
        for path in (f"/g/{token}", "/static/drawing.js", "/static/board.js",
                     "/static/board.css", "/static/colours.css", f"/api/g/{token}/state"):
            async with session.get(base + path, headers={"Accept-Encoding": "gzip"},
                                   auto_decompress=False) as answer:
                body = await answer.read()
                if not path.startswith("/api"):
                    weight += len(body if answer.headers.get("Content-Encoding") == "gzip"
                                  else gzip.compress(body))
        first_board_http = time.perf_counter() - began
        async with session.get(base + "/static/activity.js",
                               headers={"Accept-Encoding": "gzip"},
                               auto_decompress=False) as answer:
            activity_weight = len(await answer.read())
    return Figures(first_board_http, weight, activity_weight, token)


def first_board_in_chromium(base: str, token: str) -> float | None:
    """Navigation to the drawn board in headless Chromium (None without Chromium)."""
    try:
        from support.browser import chromium, label_of, wait_for
    except ImportError:
        return None
    if not Path("/usr/bin/chromium").exists():
        return None
    with chromium() as page:
        page.get(base + "/static/board.css")  # the browser itself started, not timed
        began = time.perf_counter()
        page.get(f"{base}/g/{token}")
        wait_for(lambda: label_of(page, "J10"), "the board")
        return time.perf_counter() - began


async def stop_with_pages(base: str, server: subprocess.Popen[str], ids: list[int]) -> float:
    """SIGTERM to exit with a live page open for every game."""
    signer = Signer(SECRET.encode())
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        seen, count, opened = [0], [0], asyncio.Event()
        pages = [asyncio.create_task(live_page(session, base, signer.token(game, None), seen,
                                               opened, count, len(ids))) for game in ids]
        await asyncio.wait_for(opened.wait(), PATIENCE)
        began = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        while server.poll() is None and time.perf_counter() - began < PATIENCE:
            await asyncio.sleep(0.01)
        stopped = time.perf_counter() - began
        await asyncio.gather(*pages, return_exceptions=True)
    return stopped


def summary(round_: int, name: str, moves: Moves) -> str:
    opponent, answer = moves.to_opponent, moves.to_answer
    return (f"  round {round_} {name:9}: CPU {1000 * moves.cpu_per_move:5.3f} ms a move "
            f"({100 * moves.system_share:.0f}% system); "
            f"to the opponent's page median {statistics.median(opponent):5.1f}, "
            f"p99 {percentile(opponent, 0.99):6.1f}, max {max(opponent):6.1f} ms; the POST's "
            f"answer median {statistics.median(answer):5.1f} ms; {moves.seen} of {len(answer)} "
            f"seen; {moves.events} events to the pages, {moves.event_bytes / moves.events:.0f} "
            f"bytes each; load {moves.load:.1f}")


def cpu_ratios(played: dict[str, list[Moves]], name: str = "twixt web") -> list[float]:
    """Each round's CPU a move of the server `name` over the floor's around it: the mean of
    the floor's round just before and just after it (the floor runs once more at the end),
    so that a load rising or falling through a round weighs on both sides alike."""
    floors = [moves.cpu_per_move for moves in played["floor"]]
    assert len(floors) == len(played[name]) + 1
    return [mine.cpu_per_move / ((floors[n] + floors[n + 1]) / 2)
            for n, mine in enumerate(played[name])]


def spread(values: list[float]) -> str:
    """The median of some ratios, with their quartiles (four or more) and range."""
    ordered = sorted(values)
    middle = f"median {statistics.median(ordered):.2f}x"
    whole = f"range {ordered[0]:.2f}-{ordered[-1]:.2f}x"
    if len(ordered) < 4:
        return f"{middle} ({whole})"
    low, _, high = statistics.quantiles(ordered, n=4)
    return f"{middle} (quartiles {low:.2f}-{high:.2f}x, {whole})"


def print_rounds(played: dict[str, list[Moves]]) -> None:
    """Every round's ratio, their median and spread, and the load each server was given."""
    cpu = {name: sorted(1000 * m.cpu_per_move for m in rounds) for name, rounds in played.items()}
    floor = statistics.median(cpu["floor"])
    for name in played:
        if name == "floor":
            continue
        ratios = cpu_ratios(played, name)
        print(f"  {name} / floor, CPU a move, round by round: "
              + ", ".join(f"{ratio:.2f}x" for ratio in ratios))
        print(f"  {name} / floor, CPU a move: {spread(ratios)} of {len(ratios)} rounds; the "
              f"medians' ratio {statistics.median(cpu[name]) / floor:.2f}x")
    for name in list(played)[2:]:  # another tree's, beside this one's in the same rounds
        pairs = [mine.cpu_per_move / theirs.cpu_per_move
                 for mine, theirs in zip(played["twixt web"], played[name], strict=True)]
        print(f"  twixt web / {name}, CPU a move, round by round: "
              + ", ".join(f"{ratio:.2f}x" for ratio in pairs) + f"; {spread(pairs)}")
    moves = {(len(m.to_answer), m.seen) for rounds in played.values() for m in rounds}
    events = [m.events for rounds in played.values() for m in rounds]
    same = len(moves) == 1 and max(events) <= 1.01 * min(events)
    print(f"  {'the same load' if same else 'NOT THE SAME LOAD'}: moves, and moves the "
          f"opponent's page saw, {sorted(moves)}; events the pages heard "
          f"{min(events)}-{max(events)}")
    for name, rounds in played.items():
        print(f"  {name}: CPU a move {cpu[name][0]:.3f}-{cpu[name][-1]:.3f} ms; "
              f"{len(rounds[0].to_answer)} moves a round, its pages heard "
              f"{', '.join(str(m.events) for m in rounds)} events, "
              f"{statistics.median(m.event_bytes / m.events for m in rounds):.0f} bytes each")


def aims(played: dict[str, list[Moves]], first_answer: float | None) -> str:
    """Issue 46's aims for the web move beside this run's figures: the CPU's ratio as the
    median of the rounds', the p99 as its worst round's."""
    worst = max(range(len(played["twixt web"])),
                key=lambda n: percentile(played["twixt web"][n].to_opponent, 0.99))
    p99 = (f"{percentile(played['twixt web'][worst].to_opponent, 0.99):.0f} ms in the worst "
           f"round (floor {percentile(played['floor'][worst].to_opponent, 0.99):.0f})")
    first = ("not measured (--moves-only)" if first_answer is None
             else f"{first_answer:.2f}x")
    return (f"aims: CPU a move at most 2x the floor's: {spread(cpu_ratios(played))}; p99 to "
            f"the opponent's page under 100 ms: {p99}; first answer within 1.5x a plain "
            f"aiohttp server's: {first}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--pages", type=int, default=200,
                        help="live pages: both players' of the first PAGES / 2 games")
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7,
                        help="the floor and twixt web, each measured this many times in turn")
    parser.add_argument("--moves-only", action="store_true",
                        help="only the rounds of moves (no first answers, page figures, stop)")
    parser.add_argument("--starts", type=int, default=5,
                        help="starts of twixt web and of a plain aiohttp server, in turn")
    parser.add_argument("--profile", metavar="FILE",
                        help="run twixt web's moves under cProfile, its figures to FILE "
                        "(its CPU is then cProfile's)")
    parser.add_argument("--first-answer-only", action="store_true",
                        help="time only the first answers (STARTS starts of each, in turn)")
    parser.add_argument("--source", type=Path, metavar="FOLDER",
                        help="the `twixt web` of this source tree too (its compiled core "
                        "copied in), in turns with the others: in the rounds of moves, or "
                        "with --first-answer-only in the starts")
    args = parser.parse_args()
    if args.first_answer_only:
        with tempfile.TemporaryDirectory() as work:
            path = Path(work) / "starts.db"
            ids = asyncio.run(make_games(path, args.games))
            print_first_answers(first_answers(path, ids[0], args.starts, args.source),
                                args.starts)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    print(f"{args.games} games, {args.pages} live pages (both players' of {args.pages // 2} "
          f"games), {args.moves} moves from {args.workers} clients at once; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    servers: list[tuple[str, Callable[[Path], list[str]], Callable[[str], Target],
                        Path | None]] = [
        ("floor", floor_server, floor_target, None),
        ("twixt web", functools.partial(twixt_web, profile=args.profile), twixt_target, None)]
    if args.source is not None:
        servers.append((f"twixt web of {args.source}", twixt_web, twixt_target, args.source))
    played: dict[str, list[Moves]] = {name: [] for name, *_ in servers}
    with tempfile.TemporaryDirectory() as work:
        made = Path(work) / "made.db"
        ids = asyncio.run(make_games(made, args.games))
        path = Path(work) / "games.db"
        for round_ in range(1, args.rounds + 2):  # the floor once more at the end
            # the floor first; the others in turn first after it, round by round
            others = servers[1:] if round_ % 2 else servers[:0:-1]
            for name, command, target, tree in (servers[:1] + others if round_ <= args.rounds
                                                else servers[:1]):
                fresh_copy(made, path)  # the same games, none moved yet
                server, base, _began = start_server(command(path), tree)
                try:
                    moves = asyncio.run(play_moves(target(base), ids[:args.pages // 2],
                                                   args.moves, args.workers, server.pid))
                finally:
                    stop(server)
                played[name].append(moves)
                print(summary(round_, name, moves), flush=True)
        print_rounds(played)
        if args.moves_only:
            print(aims(played, None), flush=True)
            return
        fresh_copy(made, path)
        starts = print_first_answers(first_answers(path, ids[0], args.starts), args.starts)
        print(aims(played, starts), flush=True)
        server, base, _began = start_server(twixt_web(path))
        try:
            figures = asyncio.run(page_figures(base, ids[0]))
            chromium_seconds = first_board_in_chromium(base, figures.token)
            stop_seconds = asyncio.run(stop_with_pages(base, server, ids))
        finally:
            stop(server)
    total = figures.weight + figures.activity_weight
    print(f"page weight, gzipped: {figures.weight / 1024:.1f} KB (HTML, drawing.js, board.js, "
          f"board.css, colours.css); "
          f"the Activity's SDK bundle {figures.activity_weight / 1024:.1f} KB more: "
          f"{total / 1024:.1f} KB of 300 KB")
    print(f"first board over HTTP (page, script, styles, view): "
          f"{1000 * figures.first_http:.1f} ms")
    if chromium_seconds is not None:
        print(f"first board in headless Chromium (navigation to the drawn board): "
              f"{1000 * chromium_seconds:.0f} ms")
    print(f"twixt web stops on SIGTERM with {args.games} live pages open in "
          f"{stop_seconds:.2f} s (exit code {server.returncode})")


if __name__ == "__main__":
    main()
