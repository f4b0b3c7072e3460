"""The commands of a player's and a server's settings (`cases/preferences.py`,
`vacations.py` and `your_move.py` do them): settings, server, vacation, digest — their
values, how a typed line is read into them, and their help."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from twixt.language import message
from twixt.service.commands.options import (
    SERVER_SETTINGS,
    SETTINGS,
    YES_NO_FORM,
    setting_pairs,
)
from twixt.service.commands.words import (
    People,
    ServiceCommand,
    Topic,
    Words,
    is_number,
    number,
)
from twixt.service.errors import MalformedError

__all__ = ["Digest", "ServerSettings", "UserSettings", "Vacation"]

WORDS = Words()

_ON_OFF = "on|off"


@dataclass(frozen=True)
class UserSettings(ServiceCommand):
    """Show or change the asker's preferences (`name → value` as typed)."""

    changes: dict[str, str] = field(default_factory=dict)


@WORDS.reads("settings", topic=Topic(
    message("Show or change how the bot treats you"), "settings [NAME VALUE …]",
    "/twixt-settings me", "settings theme dark",
    tuple(f"{name} " + ("|".join(dict.fromkeys(allowed.values())) if allowed else _ON_OFF)
          for name, (_, allowed) in SETTINGS.items())))
def _settings(words: list[str], people: People) -> UserSettings:
    return UserSettings(setting_pairs(words))


@dataclass(frozen=True)
class ServerSettings(ServiceCommand):
    """Show or change the server's settings (those who manage the server change them)."""

    changes: dict[str, str] = field(default_factory=dict)


@WORDS.reads("server", topic=Topic(
    message("The server's settings (changed by those with Manage Server)"),
    "server NAME VALUE …", "/twixt-settings server", "server forfeit yes",
    tuple(f"{name} " + (unit.upper() if unit else YES_NO_FORM)
          for name, (_, unit) in SERVER_SETTINGS.items())))
def _server(words: list[str], people: People) -> ServerSettings:
    if len(words) % 2:
        raise MalformedError("server takes name value pairs, like server forfeit yes")
    return ServerSettings(dict(zip(words[::2], words[1::2], strict=True)))


@dataclass(frozen=True)
class Vacation(ServiceCommand):
    """Show one's vacation days in this server, start a vacation of `days` days now, or
    `end` the running one."""

    days: int | None = None
    end: bool = False


#: a vacation's length as typed: `3d`, `3`, `3 days`, `1 day`
_DAYS = re.compile(r"([0-9]{1,3})(?:d|days?)?")


@WORDS.reads("vacation", topic=Topic(
    message("Vacation: your clocks stop in this server's games for some days"),
    "vacation [DAYS|end]", "/twixt-settings vacation", "vacation 3d"))
def _vacation(words: list[str], people: People) -> Vacation:
    phrase = "".join(words).lower()
    if not phrase:
        return Vacation()
    if phrase == "end":
        return Vacation(end=True)
    days = _DAYS.fullmatch(phrase)
    if days is None:
        raise MalformedError("vacation takes a number of days, like vacation 3d, or end")
    return Vacation(int(days[1]))


@dataclass(frozen=True)
class Digest(ServiceCommand):
    """Show or change the asker's daily digest of the games waiting for them: at `hour`
    (0-23) in time zone `zone` (an IANA name like Europe/Berlin), or `off`."""

    hour: int | None = None
    zone: str | None = None
    off: bool = False


@WORDS.reads("digest", topic=Topic(
    message("A direct message each day listing the games waiting for you"),
    "digest [HOUR ZONE | off]", "/twixt-settings digest", "digest 8 Europe/Berlin"))
def _digest(words: list[str], people: People) -> Digest:
    """`digest` (show it), `digest off`, `digest 8 Europe/Berlin` (an hour, a time zone)."""
    if [word.lower() for word in words] == ["off"]:
        return Digest(off=True)
    if len(words) > 2 or (words and not is_number(words[0])):
        raise MalformedError("write digest, digest off, or digest HOUR ZONE like "
                             "digest 8 Europe/Berlin")
    return Digest(number(words[0]) if words else None, words[1] if len(words) == 2 else None)
