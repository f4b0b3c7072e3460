"""A Discord-shaped server on localhost: as much of Discord's HTTP API and gateway as `twixt
run` uses to log in, sync its slash commands and wait for events, so that the real
discord.py client runs in a real process (for signals, exit codes and the gateway's close).

Only the network is fake: the bot process is `twixt run` itself, with discord.py's API base
pointed here (`BOT`, run with `python -c`). The server records what matters to the tests:
whether the client asked to sync its commands (`hold_sync` never answers, so the client is
held in its start, before it connects), identified and was told it is ready (`hold_ready`
keeps it waiting there, as Discord does while it sends a big bot its servers), and the close
code it sent when it left.

For the Activity it knows OAuth2's code exchange (`codes`: code → user), the users behind
access tokens (`GET /users/@me` with `Bearer`), the Activity instances (`instances`: whom
Discord lists in each, and where it runs), the application's global commands with their
Primary Entry Point (type 4): a bulk overwrite that leaves it out is refused with Discord's
error 50240, as Discord refuses it; and it records the interaction callbacks' types (12:
LAUNCH_ACTIVITY).
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
CLIENT_SECRET = "client-secret"
#: what Discord says to an overwrite without the entry point (its JSON error code 50240)
ENTRY_POINT_REFUSAL = {"code": 50240, "message": "You cannot remove this app's Entry Point "
                       "command in a bulk update operation. Please include the Entry Point "
                       "command in your update request or delete it separately."}
#: the command Discord makes when an app's Activities are enabled (handler 2: Discord
#: launches the Activity)
ENTRY_POINT = {"id": "900000000000000077", "application_id": BOT_ID, "version": "1",
               "name": "launch", "description": "", "type": 4, "handler": 2,
               "integration_types": [0, 1], "contexts": [0, 1, 2]}
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
        #: OAuth2 codes the Activity's page may exchange, for the user they sign in
        self.codes: dict[str, dict[str, Any]] = {}
        #: access tokens handed out, for their user
        self.tokens: dict[str, dict[str, Any]] = {}
        #: Activity instances: {"users": [ids], "location": {"channel_id": …, …}}
        self.instances: dict[str, dict[str, Any]] = {}
        #: the application's global commands as Discord holds them
        self.commands: list[dict[str, Any]] = [dict(ENTRY_POINT)]
        #: the bulk overwrites refused (missing the entry point)
        self.refused_overwrites = 0
        #: the interaction callbacks' response types, in order
        self.callbacks: list[int] = []

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/api/v10/gateway/bot", self._gateway_bot)
        app.router.add_get("/api/v10/users/@me", self._me)
        app.router.add_post("/api/v10/oauth2/token", self._token)
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}",
                           self._instance)
        app.router.add_get(f"/api/v10/applications/{BOT_ID}/commands", self._commands)
        app.router.add_put(f"/api/v10/applications/{BOT_ID}/commands", self._overwrite)
        app.router.add_post("/api/v10/interactions/{id}/{token}/callback", self._callback)
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

    async def _me(self, request: web.Request) -> web.Response:
        """The bot itself (a bot token), or the user an access token was given to."""
        scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer":
            return _response(USER)
        user = self.tokens.get(token)
        if user is None:
            return _response({"message": "401: Unauthorized", "code": 0}, 401)
        return _response(user)

    async def _token(self, request: web.Request) -> web.Response:
        """OAuth2's authorization code grant: the application's id and secret, and a code
        given once."""
        form = await request.post()
        user = self.codes.pop(str(form.get("code", "")), None)
        if (form.get("client_id") != BOT_ID or form.get("client_secret") != CLIENT_SECRET
                or form.get("grant_type") != "authorization_code" or user is None):
            return _response({"error": "invalid_grant"}, 400)
        token = f"access-{user['id']}-{len(self.tokens)}"
        self.tokens[token] = user
        return _response({"access_token": token, "token_type": "Bearer",
                          "expires_in": 604800, "refresh_token": "refresh",
                          "scope": "identify"})

    async def _instance(self, request: web.Request) -> web.Response:
        """An Activity instance, to the application's bot only."""
        if (request.headers.get("Authorization") != "Bot token"
                or request.match_info["app"] != BOT_ID):
            return _response({"message": "401: Unauthorized", "code": 0}, 401)
        instance_id = request.match_info["instance"]
        instance = self.instances.get(instance_id)
        if instance is None:
            return _response({"message": "Unknown Activity Instance", "code": 10000}, 404)
        return _response({"application_id": BOT_ID, "instance_id": instance_id,
                          "launch_id": "1", **instance})

    async def _commands(self, request: web.Request) -> web.Response:
        self.sync_asked.set()
        return _response(self.commands)

    async def _overwrite(self, request: web.Request) -> web.Response:
        """The global commands replaced by the payload, unless it leaves out the entry
        point Discord has."""
        self.sync_asked.set()
        while self.hold_sync:
            await asyncio.sleep(0.1)
        payload = await request.json()
        has_entry = any(c.get("type") == 4 for c in self.commands)
        if has_entry and not any(c.get("type") == 4 for c in payload):
            self.refused_overwrites += 1
            return _response(ENTRY_POINT_REFUSAL, 400)
        self.commands = [{"id": str(900000000000001000 + n), "application_id": BOT_ID,
                          "version": "1", "type": 1, "description": "", **c}
                         for n, c in enumerate(payload)]
        return _response(self.commands)

    async def _callback(self, request: web.Request) -> web.Response:
        payload = await request.json()
        kind = int(payload.get("type", 0))
        self.callbacks.append(kind)
        if request.query.get("with_response") not in ("1", "true"):
            return web.Response(status=204)
        # the interaction callback response; LAUNCH_ACTIVITY's names the instance it began
        instance = {"activity_instance_id": "i-launched"} if kind == 12 else {}
        return _response({
            "interaction": {"id": request.match_info["id"], "type": 3,
                            "response_message_id": None, "response_message_loading": False,
                            "response_message_ephemeral": False, **instance},
            "resource": {"type": kind, **({"activity_instance": {"id": "i-launched"}}
                                          if kind == 12 else {})}})

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


def _response(data: Any, status: int = 200) -> web.Response:
    """JSON as Discord sends it: discord.py reads a body as JSON only when the content type
    is exactly `application/json` (no charset)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        content_type="application/json")
