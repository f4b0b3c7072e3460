"""Challenge options as players write them, in Discord or in the terminal.

`size 24x18 rules pp swap no handicap 2 time 3d first them thread yes`: name-value pairs in any
order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.service.model import ServiceError
from bot.service.timecontrol import parse_time_control
from rules import TwixtError, parse_size, quote
from rules.numbers import whole_number
from storage import FirstMove, GameSetup

OPTION_NAMES = ("size", "rules", "swap", "handicap", "time", "first", "thread")
#: every way of saying yes or no, in options and settings alike
YES_NO = {"yes": True, "y": True, "on": True, "true": True,
          "no": False, "n": False, "off": False, "false": False}


@dataclass(frozen=True)
class ChallengeOptions:
    """A challenge's game options and who moves first; `thread` None means the guild default."""

    setup: GameSetup = field(default_factory=GameSetup)
    first: FirstMove = FirstMove.ME
    thread: bool | None = None

    def describe(self) -> str:
        return describe_setup(self.setup)


def describe_setup(setup: GameSetup) -> str:
    """`24×24, classic, swap` — the options of a game in a few words."""
    cols, rows = parse_size(setup.size)
    parts = [f"{cols}×{rows - setup.handicap}", setup.rules]
    swap = setup.swap if setup.swap is not None else not setup.handicap
    parts.append("swap" if swap else "no swap")
    if setup.handicap:
        parts.append(f"handicap {setup.handicap}")
    if setup.time_control:
        parts.append(f"{setup.time_control} per move")
    return ", ".join(parts)


def build_options(size: str | None = None, rules: str | None = None,
                  swap: str | bool | None = None, handicap: int | str | None = None,
                  first: str | None = None, thread: str | bool | None = None,
                  time: str | None = None) -> ChallengeOptions:
    """Check and assemble challenge options; ServiceError names the first bad one."""
    setup = GameSetup()
    if size is not None:
        try:
            cols, rows = parse_size(str(size))
        except TwixtError as error:
            raise ServiceError(str(error)) from None
        setup = replace(setup, size=f"{cols}x{rows}")
    if rules is not None:
        if rules.lower() not in ("classic", "pp"):
            raise ServiceError(f"rules are classic or pp, not {quote(rules)}")
        setup = replace(setup, rules=rules.lower())
    if handicap is not None:
        given = whole_number(handicap) if isinstance(handicap, str) else handicap
        if given is None:
            raise ServiceError(f"handicap is a number of rows, not {quote(str(handicap))}")
        setup = replace(setup, handicap=given)
    if swap is not None:
        setup = replace(setup, swap=yes_no("swap", swap))
    if time is not None and time.lower() not in ("none", "no", "off"):
        setup = replace(setup, time_control=parse_time_control(time))
    options = ChallengeOptions(setup=setup)
    if first is not None:
        try:
            options = replace(options, first=FirstMove(first.lower()))
        except ValueError:
            raise ServiceError(f"first is me, them or random, not {quote(first)}") from None
    if thread is not None:
        options = replace(options, thread=yes_no("thread", thread))
    _check_setup(options.setup)
    return options


def parse_option_words(words: list[str]) -> ChallengeOptions:
    """Options written as `name value` pairs in any order (the terminal's way); a time may
    take several words (`time 1 day 12 hours`)."""
    pairs: dict[str, str] = {}
    rest = list(words)
    while rest:
        name = rest.pop(0).lower()
        if name not in OPTION_NAMES:
            raise ServiceError(f"unknown option {quote(name)}: use size, rules, swap, handicap, "
                               "time, first or thread")
        if not rest:
            raise ServiceError(f"option {quote(name)} needs a value, like size 24x18")
        value = [rest.pop(0)]
        while name == "time" and rest and rest[0].lower() not in OPTION_NAMES:
            value.append(rest.pop(0))
        pairs[name] = " ".join(value)
    return build_options(**pairs)


def yes_no(name: str, value: str | bool, words: str = "yes or no") -> bool:
    """A yes/no option or setting; ServiceError names it (`swap is yes or no, not “x”`)."""
    if isinstance(value, bool):
        return value
    if value.lower() not in YES_NO:
        raise ServiceError(f"{name} is {words}, not {quote(value)}")
    return YES_NO[value.lower()]


def _check_setup(setup: GameSetup) -> None:
    from rules import Game  # the rules are the judge of which combinations make a game

    try:
        Game(("a", "b"), size=setup.size, rules=setup.rules, swap=setup.swap,
             handicap=setup.handicap)
    except TwixtError as error:
        raise ServiceError(str(error)) from None
