"""The web board under load: 1,000 games open, 1,000 live pages, moves through the web API.

`python benchmarks/web_bench.py [--games 1000] [--moves 1000] [--workers 4]` makes a SQLite
database with GAMES games in as many channels, starts `twixt web` on a free port of this
machine (loopback only), opens one live page (server-sent events) per game and keeps them
open, then plays MOVES moves through `POST …/act` from WORKERS clients at once, each a
different game's player to move, and prints the moves' latency (median, p90, p99, max) and
how many live pages saw each move. It also prints what a page weighs (its HTML, script and
styles, gzipped), how long the first board takes to come (the page, its script and the
game's view over HTTP, and in headless Chromium from navigation to the drawn board), and
how long `twixt web` takes to stop on SIGTERM with every live page open. Every loop is
bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
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
#: a game's moves, alternating seats, far enough apart to link nothing
MOVES = ["J10", "M14", "J14", "M10", "O12", "G12", "K8", "K16"]


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


def start_server(path: Path) -> tuple[subprocess.Popen[str], str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DISCORD_", "TWIXT_"))}
    env["TWIXT_WEB_SECRET"] = SECRET
    server = subprocess.Popen([TWIXT, "web", "--db", str(path), "--port", "0"], env=env,
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert server.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline())
    assert found, "twixt web did not start"
    return server, found.group(0)


async def live_page(session: aiohttp.ClientSession, base: str, token: str,
                    seen: list[int], opened: asyncio.Event, count: list[int],
                    pages: int) -> None:
    """One live page: counts every view after the first."""
    async with session.get(f"{base}/api/g/{token}/live") as response:
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
                seen[0] += 1


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Figures:
    open: float
    latencies: list[float]
    seen: int
    first_http: float
    weight: int
    activity_weight: int
    token: str
    #: the server's CPU time for each move, its live pages' views included
    cpu_per_move: float


async def measure(base: str, ids: list[int], moves: int, workers: int,
                  server_pid: int) -> Figures:
    signer = Signer(SECRET.encode())
    watch = [signer.token(game, None) for game in ids]
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=PATIENCE)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        seen, count, opened = [0], [0], asyncio.Event()
        pages = [asyncio.create_task(live_page(session, base, token, seen, opened, count,
                                               len(ids))) for token in watch]
        started = time.perf_counter()
        await asyncio.wait_for(opened.wait(), PATIENCE)
        open_seconds = time.perf_counter() - started
        # the moves: game g's k-th move is made by seat k % 2, MOVES[k] (each game in turn)
        plan = [(ids[n % len(ids)], n // len(ids)) for n in range(moves)]
        assert max(k for _, k in plan) < len(MOVES), "more moves than the plan holds"
        latencies: list[float] = []
        queue: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
        for item in plan:
            queue.put_nowait(item)

        async def player() -> None:
            while not queue.empty():
                game, k = queue.get_nowait()
                token = signer.token(game, k % 2)
                began = time.perf_counter()
                async with session.post(f"{base}/api/g/{token}/act",
                                        json={"control": "move", "text": MOVES[k]}) as answer:
                    await answer.read()
                    assert answer.status == 200, (answer.status, await answer.text())
                latencies.append(time.perf_counter() - began)

        cpu_before = cpu_seconds(server_pid)
        await asyncio.wait_for(asyncio.gather(*(player() for _ in range(workers))), PATIENCE)
        cpu_per_move = (cpu_seconds(server_pid) - cpu_before) / moves
        deadline = time.perf_counter() + 10
        while seen[0] < moves and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        views_seen = seen[0]
        # the first board over HTTP: the page, its script and styles, the game's view
        token = signer.token(ids[-1], 0)
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
        for page in pages:
            page.cancel()
        await asyncio.gather(*pages, return_exceptions=True)
    return Figures(open_seconds, latencies, views_seen, first_board_http, weight,
                   activity_weight, token, cpu_per_move)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "twixt.db"
        ids = asyncio.run(make_games(path, args.games))
        server, base = start_server(path)
        try:
            figures = asyncio.run(measure(base, ids, args.moves, args.workers, server.pid))
            chromium_seconds = first_board_in_chromium(base, figures.token)
            stop_seconds = asyncio.run(stop_with_pages(base, server, ids))
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
    latencies = [1000 * x for x in figures.latencies]
    print(f"games open: {args.games}, live pages: {args.games} "
          f"(all open after {figures.open:.2f} s)")
    print(f"moves through the web API: {len(latencies)} from {args.workers} clients at once")
    print(f"  latency ms: median {statistics.median(latencies):.1f}, "
          f"p90 {percentile(latencies, 0.9):.1f}, p99 {percentile(latencies, 0.99):.1f}, "
          f"max {max(latencies):.1f}")
    print(f"  server CPU a move (its live pages' views included): "
          f"{1000 * figures.cpu_per_move:.1f} ms; load average during the run: "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  views the live pages saw: {figures.seen} of {len(latencies)} moves")
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
