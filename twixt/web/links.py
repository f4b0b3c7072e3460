"""Signed, expiring links to a seat in a game (or to watch it): `/g/TOKEN`.

A token is `v1.GAME.SEAT.EXPIRY.SIGNATURE`: the game's id, the seat number (`w` for a
spectator's read-only link), the expiry in Unix seconds, and an HMAC-SHA256 over the text
before the signature, keyed with the server's secret (`TWIXT_WEB_SECRET`). The signature is
compared as text against the one this server would write, so any character changed, added or
removed (a digit, a leading zero, a base64 letter whose spare bits decode alike) is refused.
No state is kept (a signer remembers the signatures it has checked, to spare an HMAC a
request): a link is valid until it expires, in any process with the same secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import time
from dataclasses import dataclass

#: the environment variable that holds the secret the links are signed with
SECRET_VARIABLE = "TWIXT_WEB_SECRET"
#: the shortest secret accepted (bytes of its UTF-8 text): a guessable key signs nothing
MIN_SECRET = 16
#: how long a link lasts unless asked otherwise: a week of correspondence moves
DEFAULT_HOURS = 24 * 7
#: the longest a link may be asked to last (a year)
MAX_HOURS = 24 * 366
#: the most digits of a game's id (a 64-bit integer, as the databases store it)
MAX_GAME_DIGITS = 18
#: the bodies of valid tokens whose signature a signer keeps (all forgotten when full)
SIGNED_KEPT = 4096
_VERSION = "v1"
WATCH = "w"


class SecretError(ValueError):
    """A secret that cannot sign links (too short); the message says how to fix it."""


@dataclass(frozen=True)
class Pass:
    """What a valid link grants: the game, and the seat played from it (None: watching)."""

    game_id: int
    seat: int | None
    expires: int


class Signer:
    """Writes and checks links with one secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < MIN_SECRET:
            raise SecretError(f"{SECRET_VARIABLE} must be at least {MIN_SECRET} characters "
                              "long (e.g. the output of `python -c 'import secrets; "
                              "print(secrets.token_urlsafe(32))'`)")
        self._secret = secret
        #: the bodies of tokens found signed by this secret, with their signature: a page
        #: sends its token with every request, and an HMAC is most of a check
        self._signed: dict[str, str] = {}

    def token(self, game_id: int, seat: int | None, hours: float = DEFAULT_HOURS,
              now: float | None = None) -> str:
        """A link's token for `seat` of game `game_id` (None: to watch), valid `hours`."""
        expires = int((time.time() if now is None else now) + hours * 3600)
        body = f"{_VERSION}.{game_id}.{WATCH if seat is None else seat}.{expires}"
        return f"{body}.{self._sign(body)}"

    def check(self, token: str, now: float | None = None) -> Pass | None:
        """What the token grants, or None when it was not written by this secret, was
        changed in any way, or has expired."""
        if len(token) > 200:
            return None
        body, _dot, signature = token.rpartition(".")
        known = self._signed.get(body)
        if not hmac.compare_digest(signature.encode(), (known or self._sign(body)).encode()):
            return None
        if known is None:
            if len(self._signed) >= SIGNED_KEPT:
                self._signed.clear()
            self._signed[body] = signature
        fields = body.split(".")
        if len(fields) != 4:
            return None
        version, game, seat, expires = fields
        if (version != _VERSION or not ascii_number(game, MAX_GAME_DIGITS)
                or not ascii_number(expires, 12) or not (seat == WATCH or ascii_number(seat, 2))):
            return None
        if int(expires) <= (time.time() if now is None else now):
            return None
        return Pass(int(game), None if seat == WATCH else int(seat), int(expires))

    def _sign(self, body: str) -> str:
        digest = hmac.new(self._secret, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def ascii_number(text: str, digits: int) -> bool:
    """Whether `text` is a number of at most `digits` ASCII digits: `-1`, `x`, a superscript
    or an Arabic-Indic digit is none (a link's field, whatever signed it; a query's)."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


def signer_from_environment(env: dict[str, str] | None = None) -> tuple[Signer, bool]:
    """The signer of `TWIXT_WEB_SECRET`, and whether it came from there: without the
    variable, a random secret for this process alone (its links die with it)."""
    secret = (os.environ if env is None else env).get(SECRET_VARIABLE, "")
    if secret:
        return Signer(secret.encode()), True
    return Signer(secrets.token_bytes(32)), False


#: said once when a server signs with a secret of its own
EPHEMERAL_SECRET = (f"{SECRET_VARIABLE} is not set: links are signed with a random secret "
                    "of this process and stop working when it stops")


def link_to(signer: Signer, base_url: str, game_id: int, seat: int | None,
            hours: float = DEFAULT_HOURS) -> str:
    """The link to `seat` of game `game_id` (None: to watch it), served at `base_url`."""
    return f"{base_url.rstrip('/')}/g/{signer.token(game_id, seat, hours)}"
