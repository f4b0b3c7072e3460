"""The floor of `web_bench.py`: the least a web move can cost, served by a plain aiohttp server.

    python benchmarks/web_floor.py --db PATH [--port 0]

It does the durable work of a move and no more: `POST /act/GAME/SEAT` reads the move's JSON
body, stores it with one INSERT and one COMMIT into SQLite (WAL, synchronous=FULL: fsynced
before the answer, as the storage does; in a worker thread, as the storage does), then puts
one event, the game's moves so far as JSON (about the size of a page's view), on the stream
of each live page of that game (`GET /live/GAME/SEAT`, server-sent events), and answers.
No rules, no view, no keys: what `twixt web` does beyond this is what its CPU a move beyond
the floor's pays for. It prints its address on the first line, as `twixt web` does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor

from aiohttp import web

#: the fields of a page's view the floor's event carries beside the moves (its size kept
#: near a real view's, which names every peg and link)
PADDING = "x" * 1500


class Floor:
    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS floor_turns (game INTEGER, seat INTEGER, "
                        "text TEXT)")
        self.writer = ThreadPoolExecutor(1)
        self.moves: dict[int, list[str]] = {}
        self.pages: dict[int, set[asyncio.Queue[bytes]]] = {}

    def _insert(self, game: int, seat: int, text: str) -> None:
        self.db.execute("BEGIN")
        self.db.execute("INSERT INTO floor_turns VALUES (?, ?, ?)", (game, seat, text))
        self.db.execute("COMMIT")

    async def act(self, request: web.Request) -> web.Response:
        game, seat = int(request.match_info["game"]), int(request.match_info["seat"])
        body = await request.json()
        text = str(body["text"])
        await asyncio.get_running_loop().run_in_executor(self.writer, self._insert, game,
                                                         seat, text)
        moves = self.moves.setdefault(game, [])
        moves.append(text)
        view = {"game": game, "turns": len(moves), "history": moves, "pad": PADDING}
        event = f"data: {json.dumps(view)}\n\n".encode()
        for queue in self.pages.get(game, ()):
            queue.put_nowait(event)
        return web.json_response({"ok": True, "said": ""})

    async def live(self, request: web.Request) -> web.StreamResponse:
        game = int(request.match_info["game"])
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        self.pages.setdefault(game, set()).add(queue)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        try:
            await response.prepare(request)
            moves = self.moves.get(game, [])
            await response.write(f"data: {json.dumps({'game': game, 'turns': len(moves)})}\n\n"
                                 .encode())
            while True:
                await response.write(await queue.get())
        finally:
            self.pages[game].discard(queue)

    async def hello(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")


async def serve(path: str, port: int) -> None:
    floor = Floor(path)
    app = web.Application()
    app.router.add_get("/", floor.hello)
    app.router.add_post("/act/{game}/{seat}", floor.act)
    app.router.add_get("/live/{game}/{seat}", floor.live)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port, backlog=512)
    await site.start()
    print(f"http://127.0.0.1:{runner.addresses[0][1]}", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(serve(args.db, args.port))


if __name__ == "__main__":
    main()
