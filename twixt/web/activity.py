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
instance id that cannot be one is never sent, the same question asked many times at once goes
to Discord once, and every call to Discord takes one from a budget (`REFUSALS`, about a
tenth of Discord's limit) *before* it leaves: a call Discord answers is given back, a refusal,
a failure (5xx) or a timeout stays spent. Once the budget is spent, nothing more is asked
until it refills, however many requests are in flight. A 429 is not a refusal of the key:
Discord's `Retry-After` is waited out (when short), and the call made once more.

Players already signed in play on through a flood: the budget is two, one for what Discord
has never vouched for (`STRANGERS`: all a flood of made-up tokens and instance ids can reach)
and one for asking again of what it vouched for within `KNOWN_TTL` (`RECHECKS`: only real
tokens and instances get there), so their re-checks never wait behind strangers' refusals;
and when Discord cannot be asked (a `Retry-After` pending, Discord failing, even that budget
spent), what Discord said of their token and instance within `KNOWN_TTL` stands.
"""

from __future__ import annotations

import asyncio
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
#: how long Discord's word on a token or an instance stands when Discord cannot be asked
KNOWN_TTL = 300.0
MAX_CACHED = 10_000
#: how long a token or an instance Discord refused is refused without asking again
REFUSED_TTL = 300.0
#: Discord's refusals (and failures) this server may cause, as (a second, at once): 1 and 100,
#: at most 700 in 10 minutes where Discord restricts an address at 10,000, in two budgets:
#: asking about what Discord never vouched for, and asking again about what it did
STRANGERS = (0.9, 90)
RECHECKS = (0.1, 10)
REFUSALS = (STRANGERS[0] + RECHECKS[0], STRANGERS[1] + RECHECKS[1])
#: the longest `Retry-After` of a 429 that a request waits out (a longer one: refused)
MAX_RETRY_AFTER = 10.0
#: what an Activity instance id can be (Discord's look like `i-1234…-gc-…`); anything else
#: would be sent into a Discord URL with the bot's token
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
#: the longest wait for Discord
TIMEOUT = aiohttp.ClientTimeout(total=10)


class DiscordRefused(Exception):
    """Discord did not vouch for the request (a bad code or token, a user not in the
    instance). `status` is Discord's answer when it gave one."""

    def __init__(self, why: str, status: int | None = None, retry_after: float = 0.0) -> None:
        super().__init__(why)
        self.status = status
        self.retry_after = retry_after


class DiscordUnasked(DiscordRefused):
    """Discord could not be asked, or did not answer: the budget of refusals is spent, a
    429's `Retry-After` is pending, or Discord failed (5xx, a timeout, out of reach)."""


class _Cache:
    """Answers by key, each with the time it was put; kept `keep` seconds at most."""

    def __init__(self, keep: float, clock: Callable[[], float]) -> None:
        self._keep = keep
        self._clock = clock
        self._items: dict[str, tuple[float, Any]] = {}

    def get(self, key: str, max_age: float | None = None) -> Any:
        """The answer put for `key` at most `max_age` seconds ago (default: `keep`)."""
        found = self._items.get(key)
        age = self._keep if max_age is None else max_age
        if found is None or found[0] + age < self._clock():
            return None
        return found[1]

    def put(self, key: str, value: Any) -> None:
        if len(self._items) >= MAX_CACHED:
            oldest = self._clock() - self._keep
            self._items = {k: v for k, v in self._items.items() if v[0] >= oldest}
            if len(self._items) >= MAX_CACHED:
                self._items.clear()
        self._items[key] = (self._clock(), value)


class ActivityAuth:
    """The application's credentials (from the environment) and the checks against
    Discord. `api` is Discord's API base (the tests point it at a fake server)."""

    def __init__(self, client_id: str, client_secret: str, bot_token: str,
                 api: str = DISCORD_API, clock: Callable[[], float] = time.monotonic) -> None:
        self.client_id = client_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self._api = api.rstrip("/")
        self._clock = clock
        self._users = _Cache(KNOWN_TTL, clock)
        self._instances = _Cache(KNOWN_TTL, clock)
        self._refused = _Cache(REFUSED_TTL, clock)
        self._strangers = RateLimit(*STRANGERS, clock=clock)
        self._rechecks = RateLimit(*RECHECKS, clock=clock)
        #: no call leaves before this time (a 429's `Retry-After`)
        self._quiet_until = 0.0
        #: the calls in flight, by key: the same question at once is asked once
        self._asking: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._session: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def exchange(self, code: str) -> str:
        """The access token Discord gives for the page's OAuth2 code."""
        data = await self._ask("code:" + hashlib.sha256(code.encode()).hexdigest(),
                               "POST", "/oauth2/token", self._strangers, data={
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
        user = await self._known(self._users, USER_TTL, "user:" + hashlib.sha256(
            token.encode()).hexdigest(), "GET", "/users/@me",
            headers={"Authorization": f"Bearer {token}"})
        instance = await self._known(
            self._instances, INSTANCE_TTL, "instance:" + instance_id, "GET",
            f"/applications/{self.client_id}/activity-instances/{instance_id}",
            headers={"Authorization": f"Bot {self._bot_token}"})
        user_id = str(user.get("id", ""))
        location = instance.get("location") or {}
        channel = str(location.get("channel_id", ""))
        if (not user_id.isdigit() or user_id not in instance.get("users", ())
                or not channel.isdigit()):
            raise DiscordRefused("not in this Activity")
        return int(user_id), int(channel), locale_of(user.get("locale"))

    async def _known(self, cache: _Cache, fresh: float, key: str, method: str, path: str,
                     **kwargs: Any) -> dict[str, Any]:
        """Discord's answer for `key`, kept `fresh` seconds; when Discord cannot be asked
        now, its last answer within `KNOWN_TTL` (someone already signed in plays on)."""
        answer = cache.get(key, fresh)
        if answer is not None:
            return answer  # type: ignore[no-any-return]
        known = cache.get(key)
        try:
            answer = await self._ask(key, method, path, self._strangers if known is None
                                     else self._rechecks, **kwargs)
        except DiscordUnasked:
            if known is None:
                raise
            return known  # type: ignore[no-any-return]
        cache.put(key, answer)
        return answer

    async def _ask(self, key: str, method: str, path: str, budget: RateLimit,
                   **kwargs: Any) -> dict[str, Any]:
        """Discord's answer for `key` (a token's hash, an instance), unless Discord refused it
        lately; a call already asking the same is joined, not repeated."""
        if self._refused.get(key) is not None:
            raise DiscordRefused("refused lately")
        asking = self._asking.get(key)
        if asking is None:
            asking = asyncio.ensure_future(self._ask_discord(key, method, path, budget,
                                                             **kwargs))
            self._asking[key] = asking
            asking.add_done_callback(lambda done: self._asked(key, done))
        return await asyncio.shield(asking)

    def _asked(self, key: str, done: asyncio.Future[dict[str, Any]]) -> None:
        self._asking.pop(key, None)
        if not done.cancelled():
            done.exception()  # seen, even when every asker has gone

    async def _ask_discord(self, key: str, method: str, path: str, budget: RateLimit,
                           **kwargs: Any) -> dict[str, Any]:
        """One question to Discord; a 429 waited out and asked once more."""
        try:
            return await self._ask_once(key, method, path, budget, **kwargs)
        except DiscordUnasked as failed:
            if failed.status != 429:
                raise
        return await self._ask_once(key, method, path, budget, **kwargs)

    async def _ask_once(self, key: str, method: str, path: str, budget: RateLimit,
                        **kwargs: Any) -> dict[str, Any]:
        """One call, after any `Retry-After` pending, paid from `budget` before it leaves
        and given back when Discord answers."""
        wait = self._quiet_until - self._clock()
        # a re-check does not wait: what Discord said within `KNOWN_TTL` stands meanwhile
        if wait > MAX_RETRY_AFTER or (wait > 0 and budget is self._rechecks):
            raise DiscordUnasked("Discord asked to wait")
        if wait > 0:
            await asyncio.sleep(wait)
        if not budget.allow("discord"):
            raise DiscordUnasked("too many refusals lately")
        try:
            answer = await self._call(method, path, **kwargs)
        except DiscordUnasked as failed:  # the budget stays spent: 5xx and timeouts count
            if failed.status == 429:  # a refusal of the pace, not of the key
                self._quiet_until = max(self._quiet_until, self._clock() + failed.retry_after)
            raise
        except DiscordRefused:
            self._refused.put(key, True)
            raise
        budget.give_back("discord")
        return answer

    async def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        try:
            async with self._session.request(method, self._api + path, **kwargs) as response:
                status = response.status
                if status == 429:
                    raise DiscordUnasked("Discord answered 429", 429,
                                         _retry_after(response.headers.get("Retry-After")))
                if status >= 500:
                    raise DiscordUnasked(f"Discord answered {status}", status)
                if status != 200:
                    raise DiscordRefused(f"Discord answered {status}", status)
                data = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise DiscordUnasked(str(error)) from None
        if not isinstance(data, dict):
            raise DiscordUnasked("Discord answered no object")
        return data


def _retry_after(header: str | None) -> float:
    """A 429's `Retry-After` in seconds (Discord sends a number, possibly with decimals);
    a missing or unreadable one is taken as a second."""
    try:
        seconds = float(header or "1")
    except ValueError:
        return 1.0
    return min(max(seconds, 0.0), 3600.0) if seconds == seconds else 1.0
