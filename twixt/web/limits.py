"""Rate limits: a token bucket per key (a player's seat, a Discord user, an address), and
the address a request comes from behind a trusted proxy.

Buckets live in memory, at most `MAX_KEYS` of them: when more keys come, the fullest
(idlest) buckets are forgotten first, which only ever gives back a full bucket.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable

MAX_KEYS = 20_000


class RateLimit:
    """`burst` requests at once, then `per_second` a second, for each key."""

    def __init__(self, per_second: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        """Take one request from `key`'s bucket; False when it is empty."""
        now = self._clock()
        tokens = self._tokens(key, now)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        if key not in self._buckets and len(self._buckets) >= MAX_KEYS:
            self._forget()
        self._buckets[key] = (tokens - 1, now)
        return True

    def give_back(self, key: str) -> None:
        """Return a request taken from `key`'s bucket that turned out not to count."""
        now = self._clock()
        self._buckets[key] = (min(float(self.burst), self._tokens(key, now) + 1), now)

    def _tokens(self, key: str, now: float) -> float:
        """What `key`'s bucket holds now, refilled since it was last used."""
        tokens, since = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - since) * self.per_second)

    def _forget(self) -> None:
        now = self._clock()
        full = [key for key in self._buckets if self._tokens(key, now) >= self.burst]
        for key in full or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[key]


#: the environment variable naming the proxies whose `X-Forwarded-For` is believed
TRUSTED_PROXIES_VARIABLE = "TWIXT_WEB_TRUSTED_PROXIES"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_proxies(text: str) -> tuple[tuple[Network, ...], list[str]]:
    """The networks of `TWIXT_WEB_TRUSTED_PROXIES` (addresses or CIDR networks, separated
    by commas or spaces), and the entries that are neither (to be said, and left out)."""
    networks: list[Network] = []
    wrong: list[str] = []
    for entry in text.replace(",", " ").split():
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            wrong.append(entry[:60])
    return tuple(networks), wrong


def client_address(peer: str | None, forwarded_for: str | None,
                   trusted: tuple[Network, ...]) -> str:
    """The address a request comes from, for its rate limits: the peer's, unless the peer
    is a trusted proxy; then the last address of `X-Forwarded-For` that is not one (each
    proxy appends the address it heard from, so what stands left of a trusted one's entry
    was written by the client and is not believed)."""
    if not _within(peer, trusted) or not forwarded_for:
        return peer or ""
    for entry in reversed(forwarded_for.split(",")[-16:]):
        address = entry.strip()
        if not _within(address, trusted):
            return address if _address(address) is not None else peer or ""
    return peer or ""


def _address(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text or "")
    except ValueError:
        return None


def _within(text: str | None, networks: tuple[Network, ...]) -> bool:
    address = _address(text)
    return address is not None and any(address in network for network in networks)
