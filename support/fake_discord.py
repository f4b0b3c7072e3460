"""A Discord-shaped server on localhost: as much of Discord's HTTP API and gateway as `twixt
run` uses to log in, sync its slash commands and wait for events, so that the real
discord.py client runs in a real process (for signals, exit codes and the gateway's close).

Only the network is fake: the bot process is `twixt run` itself, with discord.py's API base
pointed here (`BOT`, run with `python -c`). The server records what matters to the tests:
whether the client asked to sync its commands (`hold_sync` never answers, so the client is
held in its start, before it connects), identified and was told it is ready (`hold_ready`
keeps it waiting there, as Discord does while it sends a big bot its servers), and the close
code it sent when it left.

It also plays a user-installed app's part in private channels, as Discord documents it:
`interact` sends INTERACTION_CREATE from a user (not a member) in a DM or group DM
(context 1 or 2, `authorizing_integration_owners` naming the user's install,
`app_permissions`), with the message a component was pressed on. Answers come back through
the interaction's callback and its webhook (followups), which hold Discord's limits: the
first answer within 3 seconds (else 10062 Unknown interaction), the token for 15 minutes
(else 50027 Invalid Webhook Token), 5 followups for an app not installed where it is used
(else 40094), at most 5 action rows, 5 buttons a row, 25 options a select and custom ids
of 100 characters (else 50035 Invalid Form Body). A post into a private channel the app
was not added to is refused with 50001 (Missing Access), and counted; a direct message to a
user whose DMs are closed is refused with 50007. Time moves by `later(seconds)`.

For the Activity it knows OAuth2's code exchange (`codes`: code → user), the users behind
access tokens (`GET /users/@me` with `Bearer`), the Activity instances (`instances`: whom
Discord lists in each, and where it runs), the application's global commands with their
Primary Entry Point (type 4): a bulk overwrite that leaves it out is refused with Discord's
error 50240, as Discord refuses it; and it records the interaction callbacks' types (12:
LAUNCH_ACTIVITY).

It answers as Discord's documentation says for a user-installed app (the sources are cited in
docs/anywhere.md): a direct message to a user who shares no server with the bot
(`strangers`) is refused with 50278, one whose DMs are closed with 50007; the first
follow-up after a "thinking" defer (callback type 5) fills in that deferred message, with
the defer's visibility, instead of making a new one; a component's interaction names as
`authorizing_integration_owners` the user who installed the app and used it (the one whose
command made the message), not the presser; every 4xx answer is recorded (`invalid`);
messages, DMs and follow-ups are paced per route (`pace`: so many a window, with Discord's
`X-RateLimit-*` headers, and 429 with `Retry-After` past them); a command sync naming an
install type the app has not enabled (`install_types`) is refused with 50035, as are a
button label over 80 characters, a placeholder over 150, an option's label, value or
description over 100 and content over 2,000. Where the documentation is unclear — are the
follow-ups of a user-installed app in a DM forced ephemeral, as the 2024 change log said of
the preview? — `dm_followups_ephemeral` chooses, and the tests run both. Each message
records whom Discord would notify (`Sent.notified`): the users its content mentions that
its `allowed_mentions` let ping, in a message that is not ephemeral.

Messages hold Discord's rules for Components V2 (docs/components/reference): with the flag
`IS_COMPONENTS_V2` (1 << 15) no content and no embeds, at most 40 components counted with the
nested ones, only the components a container may hold, 4,000 characters of text displays,
media galleries of 1 to 10 items, and an `attachment://` name only for a file the message
carries; without it, action rows alone. Messages are edited in place (`Sent.edits`), with
the flag kept once set: by an interaction's UPDATE_MESSAGE (callback type 7) the message
its component was used on, by an interaction's token any message its answers made, within
its 15 minutes (else 50027), and by the bot its posts where it may post (its own DMs; else
50001). An edit notifies no one.

Its Invalid Request Limit is Discord's: an address whose requests were answered 401, 403 or
429 more than `invalid_limit` times (10,000) in 10 minutes is restricted, and every request
it makes after is answered 429 (`restricted` says so). The Activity's checks (a user's
token, an instance, a code) are counted (`activity_calls`, and `activity_refusals` those not
answered 200), each answered after `latency` seconds; `pace_limited` answers that many
of them 429 with Discord's `Retry-After` (seconds, and `retry_after` in the body), and
`failing` answers them 502, as Discord out of order.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
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


#: Discord's limits on what an answer carries
MAX_ROWS, MAX_BUTTONS_A_ROW, MAX_OPTIONS, MAX_CUSTOM_ID = 5, 5, 25, 100
MAX_LABEL, MAX_PLACEHOLDER, MAX_OPTION_TEXT, MAX_CONTENT = 80, 150, 100, 2000
FIRST_ANSWER_SECONDS, TOKEN_SECONDS, MAX_FOLLOWUPS = 3, 15 * 60, 5
#: Components V2 (docs/components/reference): the message flag, the most components a
#: message holds (nested ones counted), the characters of all its text displays, the items
#: of a media gallery, and the components a container may hold
IS_COMPONENTS_V2, EPHEMERAL = 1 << 15, 1 << 6
MAX_V2_COMPONENTS, MAX_V2_TEXT, MAX_GALLERY_ITEMS = 40, 4000, 10
ACTION_ROW, BUTTON, SELECT, SECTION, TEXT_DISPLAY = 1, 2, 3, 9, 10
THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 11, 12, 13, 14, 17
IN_CONTAINER = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR}
TOP_LEVEL_V2 = IN_CONTAINER | {CONTAINER}
PRIVATE_CHANNEL, BOT_DM = 2, 1
#: a user's DM that Discord refuses: closed to the bot, or no server shared with it
CLOSED = (403, 50007, "Cannot send messages to this user")
NO_MUTUAL_GUILDS = (403, 50278, "Cannot send messages to this user due to having no mutual "
                    "guilds")
#: the routes paced (method, path's pattern): their bucket is per channel, user or token
PACED = (("POST", "/api/v10/channels/{channel}/messages"),
         ("POST", "/api/v10/users/@me/channels"),
         ("POST", "/api/v10/webhooks/{app}/{token}"),
         ("PATCH", "/api/v10/webhooks/{app}/{token}/messages/{message}"))
_MENTION = re.compile(r"<@!?(\d+)>")


def user(uid: int, name: str) -> dict[str, Any]:
    """A Discord user object."""
    return {"id": str(uid), "username": name, "global_name": name, "discriminator": "0",
            "avatar": None, "bot": False, "flags": 0}


@dataclass
class Sent:
    """A message Discord accepted: where, how (callback, followup, post, dm), its JSON
    and its files (name → bytes)."""

    channel_id: int
    via: str
    data: dict[str, Any]
    files: dict[str, bytes]
    ephemeral: bool
    interaction_id: int | None = None
    #: the `allowed_mentions` it was sent with (Discord keeps them to itself)
    allowed_mentions: dict[str, Any] | None = None
    #: the times it was edited since (an edit notifies no one)
    edits: int = 0

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def components_v2(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & IS_COMPONENTS_V2)

    @property
    def content(self) -> str:
        """What it says: its content, or (Components V2) its text displays."""
        if self.components_v2:
            return "\n".join(item["content"] for item in _walk(self.data["components"])
                             if item.get("type") == TEXT_DISPLAY)
        return str(self.data.get("content") or "")

    def items(self) -> list[dict[str, Any]]:
        """Its interactive components, however deep they are nested."""
        return [item for item in _walk(self.data.get("components") or [])
                if item.get("type") not in (ACTION_ROW, SECTION, CONTAINER)]

    @property
    def notified(self) -> list[int]:
        """The users Discord notifies of this message (its `mentions`)."""
        return [int(u["id"]) for u in self.data.get("mentions", ())]

    def custom_ids(self) -> list[str]:
        return [item["custom_id"] for item in self.items() if "custom_id" in item]

    def component(self, prefix: str) -> dict[str, Any]:
        """The first component whose custom id starts with `prefix`, or whose label is it."""
        for item in self.items():
            if item.get("custom_id", "").startswith(prefix) or item.get("label") == prefix:
                return dict(item)
        raise AssertionError(f"no component {prefix!r} in {self.data.get('components')}")


@dataclass
class Interaction:
    """One interaction sent to the client, and what it has been answered with."""

    id: int
    token: str
    channel_id: int
    context: int
    at: float
    answered: bool = False
    followups: int = 0
    answers: list[Sent] = field(default_factory=list)
    #: who used it, and whose install of the app it ran on
    user_id: int = 0
    installer: int = 0
    #: a "thinking" defer (type 5) waiting for its message: its flags
    thinking: int | None = None
    #: the INTERACTION_CREATE payload sent
    payload: dict[str, Any] = field(default_factory=dict)
    #: an autocomplete's answer (callback type 8): its choices
    choices: list[dict[str, Any]] | None = None


class DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


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
        #: set once the client has synced its global commands
        self.commands_synced = asyncio.Event()
        self.users: dict[int, dict[str, Any]] = {}
        #: private channels (DM, group DM) by id: their type and their recipients' ids
        self.private: dict[int, tuple[int, tuple[int, ...]]] = {}
        #: users whose direct messages with the bot are closed (50007)
        self.closed_dms: set[int] = set()
        #: users who share no server with the bot (a DM to them: 50278)
        self.strangers: set[int] = set()
        #: the install types enabled in the developer portal (0 guild, 1 user)
        self.install_types = {0, 1}
        #: follow-ups of a user-installed app in a DM or group DM shown to the user alone
        self.dm_followups_ephemeral = False
        #: every answer 400–499: (status, JSON code, method, path)
        self.invalid: list[tuple[int, int, str, str]] = []
        #: requests a paced route takes in a window of seconds; their times by bucket
        self.pace = (5, 1.0)
        self._buckets: dict[tuple[str, ...], list[float]] = {}
        self.sent: list[Sent] = []
        #: posts refused with 50001 (into a private channel), DMs refused with 50007 or
        #: 50278
        self.refused: list[tuple[int, int]] = []
        self.interactions: dict[int, Interaction] = {}
        self._ids = itertools.count(800_000_000_000_000_001)
        self._socket: web.WebSocketResponse | None = None
        self._sequence = 1
        self._offset = 0.0
        self._answered = asyncio.Condition()
        #: seconds Discord's clock moves on as each interaction is answered: a token that
        #: expires between the answer and what the bot says after it
        self.age_after_answer = 0.0
        #: Discord's Invalid Request Limit, and the times of the invalid answers given
        self.invalid_limit = 10_000
        self.invalid_answers: list[float] = []
        self.restricted = False
        #: the Activity's checks asked, the next ones answered 429 (after `retry_after`
        #: seconds) and whether they fail (502)
        self.activity_calls = 0
        #: of those, the ones not answered 200
        self.activity_refusals = 0
        self.pace_limited = 0
        self.retry_after = 0.25
        self.failing = False
        #: seconds each of the Activity's checks takes to answer (Discord is not next door)
        self.latency = 0.0

    @web.middleware
    async def _invalid_request_limit(self, request: web.Request, handler: Any
                                     ) -> web.StreamResponse:
        """Discord's Cloudflare ban: too many 401, 403 and 429 in 10 minutes and the address
        gets 429 for everything."""
        if self.restricted:
            return _response({"message": "You are being blocked from accessing our API "
                              "temporarily due to exceeding our rate limits frequently.",
                              "code": 0}, 429)
        response: web.StreamResponse = await self._paced(request, handler)
        if 400 <= response.status < 500:
            code = 0
            if isinstance(response, web.Response) and response.body:
                try:
                    code = int(json.loads(bytes(response.body)).get("code", 0))  # type: ignore[arg-type]
                except (ValueError, AttributeError):
                    code = 0
            self.invalid.append((response.status, code, request.method, request.path))
        if response.status in (401, 403, 429):
            now = time.monotonic()
            self.invalid_answers = [at for at in self.invalid_answers if at > now - 600]
            self.invalid_answers.append(now)
            self.restricted = len(self.invalid_answers) > self.invalid_limit
        return response

    async def _paced(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Discord's per-route rate limits: each answer of a paced route carries its
        bucket's `X-RateLimit-*` headers, and a request past the limit is answered 429 with
        `Retry-After` (a client that reads the headers never meets one)."""
        route = request.match_info.route.resource
        pattern = route.canonical if route is not None else ""
        if (request.method, pattern) not in PACED:
            return await self._activity_check(request, handler)
        limit, window = self.pace
        key = (request.method, pattern, *request.match_info.values())
        now = time.monotonic()
        times = [at for at in self._buckets.get(key, []) if at > now - window]
        self._buckets[key] = times
        reset_after = (times[0] + window - now) if times else window
        answer: web.StreamResponse
        if len(times) >= limit:
            answer = _response({"message": "You are being rate limited.",
                                "retry_after": round(reset_after, 3), "global": False}, 429)
            answer.headers.update({"Retry-After": f"{reset_after:.3f}",
                                   "X-RateLimit-Scope": "user"})
        else:
            times.append(now)
            answer = await self._activity_check(request, handler)
        answer.headers.update({
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(limit - len(times), 0)),
            "X-RateLimit-Reset-After": f"{(times[0] + window - now) if times else window:.3f}",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Bucket": "-".join(key[:2])})
        return answer

    async def _activity_check(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """The Activity's checks counted, paced (429 with `Retry-After`) or failing (502)."""
        bearer = request.headers.get("Authorization", "").startswith("Bearer ")
        if not (request.path == "/api/v10/oauth2/token" or "/activity-instances/" in request.path
                or (request.path == "/api/v10/users/@me" and bearer)):
            return await handler(request)  # type: ignore[no-any-return]
        self.activity_calls += 1
        await asyncio.sleep(self.latency)
        if self.pace_limited > 0:
            self.pace_limited -= 1
            answer = _response({"message": "You are being rate limited.",
                                "retry_after": self.retry_after, "global": False}, 429)
            answer.headers["Retry-After"] = str(self.retry_after)
        elif self.failing:
            answer = _response({"message": "502: Bad Gateway", "code": 0}, 502)
        else:
            answer = await handler(request)
        self.activity_refusals += answer.status != 200
        return answer

    async def start(self) -> None:
        app = web.Application(middlewares=[self._invalid_request_limit])
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
        app.router.add_post("/api/v10/webhooks/{app}/{token}", self._followup)
        app.router.add_route("*", "/api/v10/webhooks/{app}/{token}/messages/{message}",
                             self._original)
        app.router.add_post("/api/v10/channels/{channel}/messages", self._post)
        app.router.add_patch("/api/v10/channels/{channel}/messages/{message}",
                             self._edit_posted)
        app.router.add_get("/api/v10/channels/{channel}", self._channel)
        app.router.add_post("/api/v10/channels/{channel}/typing", self._typing)
        app.router.add_post("/api/v10/users/@me/channels", self._open_dm)
        app.router.add_get("/api/v10/users/{user}", self._user)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._sync)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        # a held answer lets go, or the cleanup would wait out aiohttp's shutdown timeout
        # (60 s) for a handler whose client is long gone
        self.hold_sync = False
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
        for command in payload:
            unknown = set(command.get("integration_types") or [0]) - self.install_types
            if unknown:
                return _error(DiscordError(400, 50035, f"Invalid Form Body: command "
                                           f"{command.get('name')!r} names install types "
                                           f"{sorted(unknown)} the app does not support"))
        has_entry = any(c.get("type") == 4 for c in self.commands)
        if has_entry and not any(c.get("type") == 4 for c in payload):
            self.refused_overwrites += 1
            return _response(ENTRY_POINT_REFUSAL, 400)
        self.commands = [{"id": str(900000000000001000 + n), "application_id": BOT_ID,
                          "version": "1", "type": 1, "description": "", **c}
                         for n, c in enumerate(payload)]
        self.commands_synced.set()
        return _response(self.commands)

    async def _sync(self, request: web.Request) -> web.Response:
        """The command syncs (and any other call): no commands."""
        self.sync_asked.set()
        while self.hold_sync:
            await asyncio.sleep(0.1)  # until the server stops
        return _response([])

    # --- time and people ---------------------------------------------------------------

    def now(self) -> float:
        return time.monotonic() + self._offset

    def later(self, seconds: float) -> None:
        """Move Discord's clock on (the tokens' life)."""
        self._offset += seconds

    def add_user(self, uid: int, name: str) -> dict[str, Any]:
        self.users[uid] = user(uid, name)
        return self.users[uid]

    def group_dm(self, *uids: int) -> int:
        """A group DM (or, with two people, a DM) of these users, which the bot is not in."""
        channel_id = next(self._ids)
        self.private[channel_id] = (3 if len(uids) > 2 else 1, uids)
        return channel_id

    def bot_dm(self, uid: int) -> int:
        """A user's DM with the bot (context 1), where the bot may post."""
        channel_id = uid + 1
        self.private[channel_id] = (1, (uid, int(BOT_ID)))
        self.users.setdefault(int(BOT_ID), USER)
        return channel_id

    # --- interactions ------------------------------------------------------------------

    async def interact(self, who: int, channel_id: int, data: dict[str, Any], *,
                       kind: int = 2, message: Sent | None = None,
                       context: int = PRIVATE_CHANNEL) -> Interaction:
        """Send INTERACTION_CREATE: a slash command (`kind` 2) or a component (3, on
        `message`) used by `who` in a private channel where the app is installed to an
        account only: a command runs on `who`'s install, a component on the install of
        whoever used the app to make `message` (Discord's `authorizing_integration_owners`
        names the installing user)."""
        assert self._socket is not None, "the client is not connected"
        channel_type, recipients = self.private[channel_id]
        interaction_id = next(self._ids)
        token = f"token-{interaction_id}"
        installer = who
        if message is not None and message.interaction_id in self.interactions:
            installer = self.interactions[message.interaction_id].installer
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": BOT_ID, "type": kind, "token": token,
            "version": 1, "data": data, "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": channel_type,
                        "recipients": [self.users[u] for u in recipients if u != who]},
            "user": self.users[who], "locale": "en-US", "app_permissions": "562949953601536",
            "authorizing_integration_owners": {"1": str(installer)}, "context": context,
            "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024}
        if message is not None:
            payload["message"] = message.data
        record = Interaction(interaction_id, token, channel_id, context, self.now(),
                             user_id=who, installer=installer, payload=payload)
        self.interactions[interaction_id] = record
        self._sequence += 1
        await self._socket.send_str(json.dumps({"op": 0, "s": self._sequence,
                                                "t": "INTERACTION_CREATE", "d": payload}))
        return record

    async def answered(self, interaction: Interaction, count: int = 1,
                       timeout: float = 60) -> list[Sent]:
        """The first `count` answers to an interaction, once sent (a defer is none)."""
        async def enough() -> None:
            async with self._answered:
                await self._answered.wait_for(lambda: len(interaction.answers) >= count)
        await asyncio.wait_for(enough(), timeout)
        return interaction.answers[:count]

    async def _told(self) -> None:
        async with self._answered:
            self._answered.notify_all()

    def _interaction(self, request: web.Request) -> Interaction:
        token = request.match_info["token"]
        found = next((i for i in self.interactions.values() if i.token == token), None)
        if found is None:
            raise DiscordError(404, 10062, "Unknown interaction")
        return found

    async def _callback(self, request: web.Request) -> web.Response:
        """An interaction's answer: checked and kept for one that `interact` sent (its
        message recorded), else only its type noted (the Activity's launch)."""
        token = request.match_info["token"]
        if not any(i.token == token for i in self.interactions.values()):
            return await self._launch_callback(request)
        try:
            interaction = self._interaction(request)
            if interaction.answered:
                raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
            if self.now() - interaction.at > FIRST_ANSWER_SECONDS:
                raise DiscordError(404, 10062, "Unknown interaction")
            body, files = await _body(request)
            interaction.answered = True
            kind = body["type"]
            self.callbacks.append(kind)
            response: dict[str, Any] = {"interaction": {"id": str(interaction.id),
                                                        "type": 2}}
            if kind == 8:  # an autocomplete's choices
                interaction.choices = _checked_choices(body.get("data", {}))
            if kind == 4:  # a message
                sent = self._accept(interaction.channel_id, "callback", body.get("data", {}),
                                    files, interaction)
                response["resource"] = {"type": kind, "message": sent.data}
            elif kind == 7:  # the message a component was used on, updated in place
                pressed = interaction.payload.get("message")
                if pressed is None:
                    raise DiscordError(400, 50035, "Invalid Form Body: UPDATE_MESSAGE "
                                       "answers a component's interaction only")
                sent = self._edit(self.message(int(pressed["id"])), body.get("data", {}),
                                  files)
                interaction.answers.append(sent)
                response["resource"] = {"type": kind, "message": sent.data}
            else:
                response["resource"] = {"type": kind}
                if kind == 5:
                    response["interaction"]["response_message_loading"] = True
                    interaction.thinking = int(body.get("data", {}).get("flags") or 0)
        except DiscordError as error:
            return _error(error)
        self.later(self.age_after_answer)
        await self._told()
        return _response(response)

    async def _launch_callback(self, request: web.Request) -> web.Response:
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

    async def _followup(self, request: web.Request) -> web.Response:
        try:
            interaction = self._interaction(request)
            if self.now() - interaction.at > TOKEN_SECONDS:
                raise DiscordError(401, 50027, "Invalid Webhook Token")
            if interaction.followups >= MAX_FOLLOWUPS:
                raise DiscordError(400, 40094, "This interaction has hit the maximum number "
                                   "of follow up messages")
            body, files = await _body(request)
            interaction.followups += 1
            if interaction.thinking is not None:
                # the deferred message is filled in, and keeps the defer's visibility
                body = {**body, "flags": _thinking_flags(interaction, body)}
                interaction.thinking = None
                via = "thinking"
            elif self.dm_followups_ephemeral:
                body = {**body, "flags": int(body.get("flags") or 0) | 64}
                via = "followup"
            else:
                via = "followup"
            sent = self._accept(interaction.channel_id, via, body, files, interaction)
        except DiscordError as error:
            return _error(error)
        await self._told()
        return _response(sent.data)

    async def _original(self, request: web.Request) -> web.Response:
        try:
            interaction = self._interaction(request)
        except DiscordError as error:
            return _error(error)
        first = interaction.answers[0] if interaction.answers else None
        if request.method == "DELETE":
            if first is None and interaction.thinking is None:
                return _error(DiscordError(404, 10008, "Unknown Message"))
            interaction.thinking = None
            return web.Response(status=204)
        target = request.match_info["message"]
        if request.method == "PATCH" and interaction.thinking is None:
            # the original answer, or any message this interaction's answers made, through
            # its token while it lives
            def made() -> Sent:
                if self.now() - interaction.at > TOKEN_SECONDS:
                    raise DiscordError(401, 50027, "Invalid Webhook Token")
                found = next((a for a in interaction.answers if str(a.id) == target
                              or (target == "@original" and a.via == "callback")), None)
                if found is None:
                    raise DiscordError(404, 10008, "Unknown Message")
                return found
            return await self._edited(request, made)
        if request.method == "PATCH" and interaction.thinking is not None:
            body, files = await _body(request)
            body = {**body, "flags": _thinking_flags(interaction, body)}
            interaction.thinking = None
            try:
                sent = self._accept(interaction.channel_id, "thinking", body, files,
                                    interaction)
            except DiscordError as error:
                return _error(error)
            await self._told()
            return _response(sent.data)
        if first is None:
            return _error(DiscordError(404, 10008, "Unknown Message"))
        return _response(first.data)

    def _accept(self, channel_id: int, via: str, body: dict[str, Any], files: dict[str, bytes],
                interaction: Interaction | None = None) -> Sent:
        flags = int(body.get("flags") or 0)
        _check_message(body, flags, set(files))
        message_id = next(self._ids)
        attachments = self._attachments(message_id, files)
        ephemeral = bool(flags & EPHEMERAL)
        notified = [] if ephemeral else self._notified(channel_id, body)
        data = {"id": str(message_id), "channel_id": str(channel_id), "type": 0,
                "content": body.get("content") or "", "author": USER,
                "attachments": attachments, "embeds": body.get("embeds") or [],
                "components": _with_types(body.get("components") or []),
                "flags": flags & (EPHEMERAL | IS_COMPONENTS_V2),
                "timestamp": "2026-01-01T00:00:00+00:00",
                "edited_timestamp": None, "tts": False, "mention_everyone": False,
                "mentions": [self.users[uid] for uid in notified], "mention_roles": [],
                "pinned": False}
        sent = Sent(channel_id, via, data, files, ephemeral,
                    interaction.id if interaction else None, body.get("allowed_mentions"))
        self.sent.append(sent)
        if interaction is not None:
            interaction.answers.append(sent)
        return sent

    def _attachments(self, message_id: int, files: dict[str, bytes]) -> list[dict[str, Any]]:
        return [{"id": str(next(self._ids)), "filename": name, "size": len(data),
                 "url": f"{self.url}/attachments/{message_id}/{name}",
                 "proxy_url": f"{self.url}/attachments/{message_id}/{name}"}
                for name, data in files.items()]

    def _edit(self, sent: Sent, body: dict[str, Any], files: dict[str, bytes]) -> Sent:
        """Edit a message in place, as Discord does: the fields given replace its own, the
        attachments kept are those the edit names, and the Components V2 flag, once set,
        stays (an edit that would drop it, or give such a message content or embeds, is
        refused with 50035). An edit notifies no one."""
        old = sent.data
        flags = int(old.get("flags") or 0)
        if "flags" in body and flags & IS_COMPONENTS_V2 and not (
                int(body["flags"] or 0) & IS_COMPONENTS_V2):
            raise DiscordError(400, 50035, "Invalid Form Body: flags: the IS_COMPONENTS_V2 "
                               "flag cannot be removed")
        flags |= int(body.get("flags") or 0) & IS_COMPONENTS_V2
        named = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = ([a for a in old["attachments"] if a["id"] in named]
                if "attachments" in body else list(old["attachments"]))
        new = {"content": body["content"] if "content" in body else old["content"],
               "embeds": body["embeds"] if "embeds" in body else old["embeds"],
               "components": body["components"] if "components" in body else old["components"]}
        names = {a["filename"] for a in kept} | set(files)
        _check_message(new, flags, names)
        uploaded = self._attachments(sent.id, files)
        old.update(content=new["content"] or "", embeds=new["embeds"] or [],
                   components=_with_types(new["components"] or []), flags=flags,
                   attachments=kept + uploaded, edited_timestamp="2026-01-01T00:00:01+00:00")
        sent.files = {**{name: data for name, data in sent.files.items()
                         if name in {a["filename"] for a in kept}}, **files}
        sent.edits += 1
        return sent

    def message(self, message_id: int) -> Sent:
        found = next((sent for sent in self.sent if sent.id == message_id), None)
        if found is None:
            raise DiscordError(404, 10008, "Unknown Message")
        return found

    def _notified(self, channel_id: int, body: dict[str, Any]) -> list[int]:
        """Whom Discord notifies of a message: the users its content (or its text
        displays) mentions that its `allowed_mentions` let ping (none given: every mention
        pings), who can see the channel."""
        said = str(body.get("content") or "") + "".join(
            str(item.get("content") or "") for item in _walk(body.get("components") or [])
            if item.get("type") == TEXT_DISPLAY)
        mentioned = [int(uid) for uid in _MENTION.findall(said)]
        allowed = body.get("allowed_mentions")
        if allowed is not None:
            users = {int(uid) for uid in allowed.get("users", ())}
            every = "users" in allowed.get("parse", ())
            mentioned = [uid for uid in mentioned if every or uid in users]
        present = self.private.get(channel_id, (0, tuple(self.users)))[1]
        return [uid for uid in dict.fromkeys(mentioned) if uid in present and uid in self.users]

    # --- channels and direct messages --------------------------------------------------

    async def _post(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if channel_id in self.private and channel_id not in self.dms:
            self.refused.append((channel_id, 50001))
            return _error(DiscordError(403, 50001, "Missing Access"))
        if channel_id in self.dms:
            uid = self.dms[channel_id]
            refusal = (CLOSED if uid in self.closed_dms
                       else NO_MUTUAL_GUILDS if uid in self.strangers else None)
            if refusal is not None:
                self.refused.append((channel_id, refusal[1]))
                return _error(DiscordError(*refusal))
            body, files = await _body(request)
            sent = self._accept(channel_id, "dm", body, files)
            await self._told()
            return _response(sent.data)
        return _error(DiscordError(404, 10003, "Unknown Channel"))

    async def _edit_posted(self, request: web.Request) -> web.Response:
        """A message of the bot's edited through the bot: in a channel it may post in (its
        own DMs); refused, as a post is, where it is not."""
        channel_id = int(request.match_info["channel"])

        def posted() -> Sent:
            if channel_id not in self.dms:
                raise DiscordError(403, 50001, "Missing Access")
            sent = self.message(int(request.match_info["message"]))
            if sent.channel_id != channel_id or sent.ephemeral:
                raise DiscordError(404, 10008, "Unknown Message")
            return sent
        return await self._edited(request, posted)

    async def _edited(self, request: web.Request, target: Callable[[], Sent]) -> web.Response:
        """The message `target` finds (or its refusal) edited as the request asks."""
        try:
            sent = target()
            body, files = await _body(request)
            sent = self._edit(sent, body, files)
        except DiscordError as error:
            return _error(error)
        await self._told()
        return _response(sent.data)

    @property
    def dms(self) -> dict[int, int]:
        """The bot's own DM channels: channel id → the user."""
        return {uid + 1: uid for uid in self.users}

    async def _open_dm(self, request: web.Request) -> web.Response:
        uid = int((await request.json())["recipient_id"])
        if uid not in self.users:
            return _error(DiscordError(404, 10013, "Unknown User"))
        return _response({"id": str(uid + 1), "type": 1, "recipients": [self.users[uid]],
                          "last_message_id": None})

    async def _channel(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if channel_id in self.dms:  # the bot's own DM with a user
            return _response({"id": str(channel_id), "type": 1, "last_message_id": None,
                              "recipients": [self.users[self.dms[channel_id]]]})
        if channel_id in self.private:
            return _error(DiscordError(403, 50001, "Missing Access"))
        return _error(DiscordError(404, 10003, "Unknown Channel"))

    async def _typing(self, request: web.Request) -> web.Response:
        """The typing sign: in the bot's own DMs; refused where the bot is not."""
        if int(request.match_info["channel"]) in self.dms:
            return web.Response(status=204)
        return _error(DiscordError(403, 50001, "Missing Access"))

    async def _user(self, request: web.Request) -> web.Response:
        uid = int(request.match_info["user"])
        if uid not in self.users:
            return _error(DiscordError(404, 10013, "Unknown User"))
        return _response(self.users[uid])

    def direct_messages(self, uid: int) -> list[Sent]:
        return [sent for sent in self.sent if sent.via == "dm" and sent.channel_id == uid + 1]

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return _response({
            "url": self.url.replace("http", "ws") + "/gateway", "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                    "max_concurrency": 1}})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._socket = socket
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


def _error(error: DiscordError) -> web.Response:
    return web.Response(status=error.status, content_type="application/json", body=json.dumps(
        {"code": error.code, "message": error.message}).encode())


async def _body(request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
    """A request's JSON and its files, sent as JSON or as multipart (`payload_json`)."""
    if not request.content_type.startswith("multipart/"):
        return await request.json(), {}
    body: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    reader = await request.multipart()
    async for part in reader:
        assert isinstance(part, object)
        name = getattr(part, "name", None)
        data = await part.read()  # type: ignore[union-attr]
        if name == "payload_json":
            body = json.loads(data)
        else:
            files[getattr(part, "filename", None) or str(name)] = bytes(data)
    return body, files


def _thinking_flags(interaction: Interaction, body: dict[str, Any]) -> int:
    """The flags of the message that fills in a "thinking" defer: the defer's visibility,
    and the Components V2 flag when the message sets it."""
    return (interaction.thinking or 0) | int(body.get("flags") or 0) & IS_COMPONENTS_V2


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, nested ones after their parent (a section's accessory too)."""
    for component in components:
        yield component
        yield from _walk(list(component.get("components") or []))
        if "accessory" in component:
            yield component["accessory"]


def _check_message(body: dict[str, Any], flags: int, files: set[str]) -> None:
    """A message's content and components as Discord takes them, else 50035: with the
    Components V2 flag no content and no embeds, at most 40 components in all, containers
    holding only what a container may, 4,000 characters of text displays, media galleries
    of 1 to 10 items, and an `attachment://` name only for a file the message carries;
    without it at most 5 action rows and content of 2,000 characters."""
    components = list(body.get("components") or [])
    if not flags & IS_COMPONENTS_V2:
        if len(body.get("content") or "") > MAX_CONTENT:
            raise DiscordError(400, 50035, "Invalid Form Body: content: Must be 2000 or "
                               "fewer in length.")
        if any(component.get("type", ACTION_ROW) != ACTION_ROW for component in components):
            raise DiscordError(400, 50035, "Invalid Form Body: components: only action rows "
                               "without the IS_COMPONENTS_V2 flag")
        _check_components(components)
        return
    problems = []
    if body.get("content") or body.get("embeds"):
        problems.append("content and embeds cannot be used with IS_COMPONENTS_V2")
    every = list(_walk(components))
    if len(every) > MAX_V2_COMPONENTS:
        problems.append(f"{len(every)} components, more than {MAX_V2_COMPONENTS}")
    if any(component.get("type") not in TOP_LEVEL_V2 for component in components):
        problems.append("a component that cannot be at the top level")
    for container in (c for c in every if c.get("type") == CONTAINER):
        if any(child.get("type") not in IN_CONTAINER for child in container["components"]):
            problems.append("a component that a container cannot hold")
        colour = container.get("accent_color")
        if colour is not None and not 0 <= colour <= 0xFFFFFF:
            problems.append(f"accent_color {colour}")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
    if text > MAX_V2_TEXT:
        problems.append(f"{text} characters of text displays, more than {MAX_V2_TEXT}")
    media = []
    for component in every:
        if component.get("type") == MEDIA_GALLERY:
            items = component.get("items") or []
            if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
                problems.append(f"a media gallery of {len(items)} items")
            media += [item["media"]["url"] for item in items]
        elif component.get("type") in (FILE, THUMBNAIL):
            media.append((component.get("file") or component.get("media") or {})["url"])
    for url in media:
        name = url.removeprefix("attachment://")
        if url.startswith("attachment://") and name not in files:
            problems.append(f"{url} names no file of the message")
    ids = [c["id"] for c in every if c.get("id")]
    if len(ids) != len(set(ids)):
        problems.append("two components with one id")
    if problems:
        raise DiscordError(400, 50035, "Invalid Form Body: " + "; ".join(problems))
    _check_components([c for c in every if c.get("type") == ACTION_ROW], most=None)


def _check_components(rows: list[dict[str, Any]], most: int | None = MAX_ROWS) -> None:
    """Discord's limits on action rows (at most `most` of them, in a message without the
    Components V2 flag): 50035 Invalid Form Body past any of them."""
    problems = []
    if most is not None and len(rows) > most:
        problems.append(f"{len(rows)} action rows")
    for row in rows:
        items = row.get("components", [])
        if sum(item.get("type") == 2 for item in items) > MAX_BUTTONS_A_ROW:
            problems.append("too many buttons in a row")
        if any(item.get("type") == 3 for item in items) and len(items) > 1:
            problems.append("a select shares its row")
        for item in items:
            if len(item.get("custom_id", "")) > MAX_CUSTOM_ID:
                problems.append(f"custom_id {item['custom_id']!r} too long")
            if len(item.get("options", [])) > MAX_OPTIONS:
                problems.append(f"{len(item['options'])} options")
            if len(item.get("label") or "") > MAX_LABEL:
                problems.append(f"label {item['label']!r} too long")
            if len(item.get("placeholder") or "") > MAX_PLACEHOLDER:
                problems.append(f"placeholder {item['placeholder']!r} too long")
            for option in item.get("options", ()):
                for key in ("label", "value", "description"):
                    if len(option.get(key) or "") > MAX_OPTION_TEXT:
                        problems.append(f"option {key} {option[key]!r} too long")
    if problems:
        raise DiscordError(400, 50035, "Invalid Form Body: " + "; ".join(problems))


def _checked_choices(data: dict[str, Any]) -> list[dict[str, Any]]:
    """An autocomplete's choices within Discord's limits (25, each name and value 1–100
    characters), else 50035."""
    choices: list[dict[str, Any]] = list(data.get("choices") or [])
    if len(choices) > MAX_OPTIONS or any(
            not 1 <= len(str(choice.get(key, ""))) <= MAX_OPTION_TEXT
            for choice in choices for key in ("name", "value")):
        raise DiscordError(400, 50035, "Invalid Form Body: choices")
    return choices


def _with_types(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"type": ACTION_ROW, **row} for row in rows]
