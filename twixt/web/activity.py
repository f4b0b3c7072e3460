"""Inside Discord: the Activity's sign-in, and who a request of the Activity is.

The page (with Discord's Embedded App SDK) asks Discord for an OAuth2 code and sends it
here; this server exchanges it at Discord (`POST /oauth2/token`, with the application's
secret, which never leaves the server) and hands the page its access token. From then on
every request carries that token (`Authorization: Bearer …`) and the Activity's instance
id. Before a request may read or move, the token is checked against Discord
(`GET /users/@me`: who it is) and the instance against Discord too (`GET
/applications/{id}/activity-instances/{instance}`: the channel it runs in and who is in it):
only a participant of the instance, for the instance's channel's game. Answers are kept a
short while (`USER_TTL`, `INSTANCE_TTL`) and for a bounded number of keys, so a page's
requests do not each go to Discord.

Discord restricts an address that makes too many invalid requests (401, 403 or 429: 10,000
in 10 minutes, "Invalid Request Limit" in its rate-limit docs), and the bot shares this
server's address: made-up tokens sent here must not spend that for it. So a token or an
instance Discord refused is refused again without asking for a while (`REFUSED_TTL`), an
instance id that cannot be one is never sent, and Discord's refusals in all are held to a
budget (`REFUSALS`, about a tenth of Discord's limit): once it is spent, what is not already
known is refused without asking until it refills. A flood of made-up tokens then keeps new
sign-ins out for a while; those already signed in play on, and the bot stays reachable.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from twixt.language import locale_of
from twixt.web.limits import RateLimit

#: Discord's HTTP API
DISCORD_API = "https://discord.com/api/v10"
USER_TTL = 60.0
INSTANCE_TTL = 5.0
MAX_CACHED = 10_000
#: how long a token or an instance Discord refused is refused without asking again
REFUSED_TTL = 300.0
#: Discord's refusals (and failures) this server may cause: 1 a second, 100 at once, at most
#: 700 in 10 minutes where Discord restricts an address at 10,000
REFUSALS = (1.0, 100)
#: what an Activity instance id can be (Discord's look like `i-1234…-gc-…`); anything else
#: would be sent into a Discord URL with the bot's token
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
#: the longest wait for Discord
TIMEOUT = aiohttp.ClientTimeout(total=10)


class DiscordRefused(Exception):
    """Discord did not vouch for the request (a bad code or token, a user not in the
    instance, or Discord out of reach). `status` is Discord's answer when it gave one."""

    def __init__(self, why: str, status: int | None = None) -> None:
        super().__init__(why)
        self.status = status

    @property
    def invalid(self) -> bool:
        """Whether Discord counts it against this address (its 401, 403 and 429, and the
        404 of what does not exist, which it expects not to be asked again)."""
        return self.status in (401, 403, 404, 429)


class _Cache:
    def __init__(self, ttl: float, clock: Callable[[], float]) -> None:
        self._ttl = ttl
        self._clock = clock
        self._items: dict[str, tuple[float, Any]] = {}

    def get(self, key: str) -> Any:
        found = self._items.get(key)
        if found is None or found[0] < self._clock():
            self._items.pop(key, None)
            return None
        return found[1]

    def put(self, key: str, value: Any) -> None:
        if len(self._items) >= MAX_CACHED:
            now = self._clock()
            self._items = {k: v for k, v in self._items.items() if v[0] >= now}
            if len(self._items) >= MAX_CACHED:
                self._items.clear()
        self._items[key] = (self._clock() + self._ttl, value)


class ActivityAuth:
    """The application's credentials (from the environment) and the checks against
    Discord. `api` is Discord's API base (the tests point it at a fake server)."""

    def __init__(self, client_id: str, client_secret: str, bot_token: str,
                 api: str = DISCORD_API, clock: Callable[[], float] = time.monotonic) -> None:
        self.client_id = client_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self._api = api.rstrip("/")
        self._users = _Cache(USER_TTL, clock)
        self._instances = _Cache(INSTANCE_TTL, clock)
        self._refused = _Cache(REFUSED_TTL, clock)
        self._refusals = RateLimit(*REFUSALS, clock=clock)
        self._session: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def exchange(self, code: str) -> str:
        """The access token Discord gives for the page's OAuth2 code."""
        data = await self._ask("code:" + hashlib.sha256(code.encode()).hexdigest(),
                               "POST", "/oauth2/token", data={
            "client_id": self.client_id, "client_secret": self._client_secret,
            "grant_type": "authorization_code", "code": code})
        token = data.get("access_token")
        if not isinstance(token, str):
            raise DiscordRefused("no access token")
        return token

    async def participant(self, authorization: str, instance_id: str) -> tuple[int, int, str]:
        """The user a request's access token is, the channel of the Activity instance they
        are in, and their language; DiscordRefused when either is not so."""
        scheme, _space, token = authorization.partition(" ")
        if (scheme != "Bearer" or not 0 < len(token) <= 200
                or INSTANCE_ID.fullmatch(instance_id) is None):
            raise DiscordRefused("no access token")
        key = "user:" + hashlib.sha256(token.encode()).hexdigest()
        user = self._users.get(key)
        if user is None:
            user = await self._ask(key, "GET", "/users/@me",
                                   headers={"Authorization": f"Bearer {token}"})
            self._users.put(key, user)
        instance = self._instances.get(instance_id)
        if instance is None:
            instance = await self._ask(
                "instance:" + instance_id, "GET",
                f"/applications/{self.client_id}/activity-instances/{instance_id}",
                headers={"Authorization": f"Bot {self._bot_token}"})
            self._instances.put(instance_id, instance)
        user_id = str(user.get("id", ""))
        location = instance.get("location") or {}
        channel = str(location.get("channel_id", ""))
        if (not user_id.isdigit() or user_id not in instance.get("users", ())
                or not channel.isdigit()):
            raise DiscordRefused("not in this Activity")
        return int(user_id), int(channel), locale_of(user.get("locale"))

    async def _ask(self, key: str, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        """Discord's answer for `key` (a token's hash, an instance), unless Discord refused it
        lately or the budget of its refusals is spent: then refused without asking."""
        if self._refused.get(key) is not None:
            raise DiscordRefused("refused lately")
        if not self._refusals.has_room("discord"):
            raise DiscordRefused("too many refusals lately")
        try:
            return await self._call(method, path, **kwargs)
        except DiscordRefused as refused:
            if refused.invalid:  # not Discord out of reach: that may pass
                self._refused.put(key, True)
                self._refusals.allow("discord")
            raise

    async def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        try:
            async with self._session.request(method, self._api + path, **kwargs) as response:
                if response.status != 200:
                    raise DiscordRefused(f"Discord answered {response.status}",
                                         response.status)
                data = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise DiscordRefused(str(error)) from None
        if not isinstance(data, dict):
            raise DiscordRefused("Discord answered no object")
        return data
