"""The commands of a player's and a server's settings (`cases/preferences.py`,
`vacations.py` and `your_move.py` do them): settings, server, vacation, digest — their
values, how a typed line is read into them, and their help."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from twixt.language import message
from twixt.service.commands.listing import Group, Kind, Listing, Option
from twixt.service.commands.options import (
    SERVER_SETTINGS,
    SETTINGS,
    YES_NO_FORM,
    setting_pairs,
    yes_no_option,
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

WORDS = Words(Group("twixt-settings", message("TwixT settings: yours, and the server's")))

_ON_OFF = "on|off"
#: what each of a player's settings is for, in the order they are listed
_SETTING_WORDS = {
    "theme": message("the board's colours"),
    "palette": message("colours for colour-blindness"),
    "side": message("the side you see the board from"),
    "dm": message("clock reminders by direct message"),
    "autolink": message("a bare peg like G6 links all it can (classic)"),
    "confirm": message("see your move privately, and play it with a button"),
    "weekends": message("off: your clocks stop on Saturdays and Sundays (UTC) in new games"),
}


@cache
def _zones() -> tuple[str, ...]:
    """The IANA time zones, to suggest for the digest: found when first suggested (a walk of
    the time-zone folder, which no start of the service waits for)."""
    import zoneinfo

    return tuple(sorted(zoneinfo.available_timezones()))


@dataclass(frozen=True)
class UserSettings(ServiceCommand):
    """Show or change the asker's preferences (`name → value` as typed)."""

    changes: dict[str, str] = field(default_factory=dict)


@WORDS.reads("settings", topic=Topic(
    message("Show or change how the bot treats you"), "settings [NAME VALUE …]",
    "settings theme dark",
    tuple(f"{name} " + ("|".join(dict.fromkeys(allowed.values())) if allowed else _ON_OFF)
          for name, (_, allowed) in SETTINGS.items())),
             listing=Listing(lambda **changes: UserSettings(changes), tuple(
                 Option(name, says, Kind.CHOICE,
                        choices=tuple(dict.fromkeys(allowed.values())) if allowed else
                        ("on", "off"))
                 for name, says in _SETTING_WORDS.items()
                 for allowed in [SETTINGS[name][1]]), name="me"))
def _settings(words: list[str], people: People) -> UserSettings:
    return UserSettings(setting_pairs(words))


@dataclass(frozen=True)
class ServerSettings(ServiceCommand):
    """Show or change the server's settings (those who manage the server change them)."""

    changes: dict[str, str] = field(default_factory=dict)


@WORDS.reads("server", topic=Topic(
    message("The server's settings (changed by those with Manage Server)"),
    "server NAME VALUE …", "server forfeit yes",
    tuple(f"{name} " + (unit.upper() if unit else YES_NO_FORM)
          for name, (_, unit) in SERVER_SETTINGS.items())),
             listing=Listing(lambda **changes: ServerSettings(
                 {name: str(value) for name, value in changes.items()}), (
                 yes_no_option("thread", message("a thread for each new game unless the "
                                                 "challenge says")),
                 Option("expiry", message("hours before an unanswered challenge expires"),
                        Kind.NUMBER, least=1, most=720),
                 yes_no_option("forfeit", message("a player whose time runs out loses at once")),
                 Option("reminder", message("hours into a clocked turn before the first "
                                            "reminder"), Kind.NUMBER, least=1, most=720),
                 Option("vacationdays", message("vacation days each player has a year (0: no "
                                                "vacation)"), Kind.NUMBER, least=0, most=60),
                 yes_no_option("vacation", message("new games let vacations stop their clocks "
                                             "unless the challenge says")),
                 Option("botgames", message("games with the bot each player may have in "
                                            "progress at once"), Kind.NUMBER, least=1,
                        most=20))))
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
    "vacation [DAYS|end]", "vacation 3d"),
             listing=Listing(lambda days=None, end="no": Vacation(days, end == "yes"), (
                 Option("days", message("whole days from now (leave out: see your days left)"),
                        Kind.NUMBER, least=1, most=60),
                 yes_no_option("end", message("yes: end your vacation now")))))
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
    message("A direct message each day with the games waiting for you"),
    "digest [HOUR ZONE | off]", "digest 8 Europe/Berlin"),
             listing=Listing(lambda hour=None, timezone=None, off="no": Digest(
                 hour, timezone, off == "yes"), (
                 Option("hour", message("the hour of the day, 0 to 23, in your time zone"),
                        Kind.NUMBER, least=0, most=23),
                 Option("timezone", message("your time zone, like Europe/Berlin"), least=1,
                        most=64, suggestions=_zones),
                 yes_no_option("off", message("yes: no more digests")))))
def _digest(words: list[str], people: People) -> Digest:
    """`digest` (show it), `digest off`, `digest 8 Europe/Berlin` (an hour, a time zone)."""
    if [word.lower() for word in words] == ["off"]:
        return Digest(off=True)
    if len(words) > 2 or (words and not is_number(words[0])):
        raise MalformedError("write digest, digest off, or digest HOUR ZONE like "
                             "digest 8 Europe/Berlin")
    return Digest(number(words[0]) if words else None, words[1] if len(words) == 2 else None)
