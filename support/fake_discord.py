"""A Discord-shaped server on localhost: as much of Discord's HTTP API and gateway as `twixt
run` uses to log in, sync its slash commands and wait for events, so that the real
discord.py client runs in a real process (for signals, exit codes and the gateway's close).

Only the network is fake: the bot process is `twixt run` itself, with discord.py's API base
pointed here (`BOT`, run with `python -c`). The server records what matters to the tests:
whether the client asked to sync its commands (`hold_sync` never answers, so the client is
held in its start, before it connects), identified and was told it is ready (`hold_ready`
keeps it waiting there, as Discord does while it sends a big bot its servers), and the close
code it sent when it left.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from aiohttp import WSMsgType, web

BOT_ID = "900000000000000001"
USER = {"id": BOT_ID, "username": "TwixT", "discriminator": "0", "global_name": None,
        "avatar": None, "bot": True, "flags": 0}
#: `twixt run` with discord.py's API base at the fake server (argv[1])
BOT = ("import sys, discord.http\n"
       "discord.http.Route.BASE = sys.argv[1] + '/api/v10'\n"
       "from twixt.cli import main\n"
       "sys.exit(main(['run']))\n")


class FakeDiscord:
    """The server: `await start()`, then run the bot with `bot_command()`."""

    def __init__(self) -> None:
        self.sync_asked = asyncio.Event()
        #: never answer the command sync, so the client stays in its start
        self.hold_sync = False
        self.identified = asyncio.Event()
        self.ready_sent = asyncio.Event()
        #: answer IDENTIFY with nothing, so the client waits before it is ready
        self.hold_ready = False
        self.closed = asyncio.Event()
        #: the close code of each gateway connection the client closed (None: dropped)
        self.close_codes: list[int | None] = []
        self._runner: web.AppRunner | None = None
        self.url = ""

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/api/v10/gateway/bot", self._gateway_bot)
        app.router.add_get("/api/v10/users/@me", self._json(USER))
        app.router.add_get("/api/v10/oauth2/applications/@me", self._json(
            {"id": BOT_ID, "name": "TwixT", "description": "", "icon": None,
             "bot_public": True, "bot_require_code_grant": False, "owner": USER,
             "verify_key": "0" * 64, "flags": 0}))
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._sync)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def bot_command(self) -> list[str]:
        """The command line of `twixt run` against this server."""
        return [sys.executable, "-c", BOT, self.url]

    @staticmethod
    def _json(data: Any) -> Any:
        async def answer(request: web.Request) -> web.Response:
            return _response(data)
        return answer

    async def _sync(self, request: web.Request) -> web.Response:
        """The command syncs (and any other call): no commands."""
        self.sync_asked.set()
        while self.hold_sync:
            await asyncio.sleep(0.1)  # until the server stops
        return _response([])

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return _response({
            "url": self.url.replace("http", "ws") + "/gateway", "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                    "max_concurrency": 1}})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 40000}}))
        async for message in socket:
            if message.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            if payload["op"] == 1:  # a heartbeat
                await socket.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:  # identify
                self.identified.set()
                if self.hold_ready:
                    continue
                await socket.send_str(json.dumps({"op": 0, "s": 1, "t": "READY", "d": {
                    "v": 10, "user": USER, "guilds": [], "session_id": "session",
                    "resume_gateway_url": self.url.replace("http", "ws") + "/gateway",
                    "shard": payload["d"].get("shard", [0, 1]),
                    "application": {"id": BOT_ID, "flags": 0}}}))
                self.ready_sent.set()
        self.close_codes.append(socket.close_code)
        self.closed.set()
        return socket


def _response(data: Any) -> web.Response:
    """JSON as Discord sends it: discord.py reads a body as JSON only when the content type
    is exactly `application/json` (no charset)."""
    return web.Response(body=json.dumps(data).encode(), content_type="application/json")
