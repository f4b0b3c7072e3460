"""Challenge options as players write them, in Discord or in the terminal.

`size 24x18 rules pp swap no handicap 2 time 3d first them thread yes vacation no`: name-value
pairs in any order; a challenge to the bot adds `level 3 takebacks yes`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import reduce

from twixt.engine import LEVELS
from twixt.language import Message, message
from twixt.rules import TwixtError, parse_size, quote
from twixt.rules.numbers import whole_number
from twixt.service.commands.listing import Kind, Option
from twixt.service.errors import MalformedError
from twixt.service.pure.clock.timecontrol import parse_time_control, time_control_of
from twixt.storage import FirstMove, GameSetup

OPTION_NAMES = ("size", "rules", "swap", "handicap", "time", "first", "thread", "vacation",
                "level", "takebacks")
#: every way of saying yes or no, in options and settings alike
YES_NO = {"yes": True, "y": True, "on": True, "true": True,
          "no": False, "n": False, "off": False, "false": False}
#: a player's settings: name → (UserPrefs field, the values allowed, None for on/off)
SETTINGS: dict[str, tuple[str, dict[str, str] | None]] = {
    "theme": ("theme", {"light": "light", "dark": "dark"}),
    "palette": ("palette", {"normal": "normal", "colour-blind": "colour-blind",
                            "colourblind": "colour-blind", "color-blind": "colour-blind",
                            "colorblind": "colour-blind"}),
    "side": ("side", {"red": "red", "black": "black", "any": "any"}),
    "dm": ("dm_reminders", None),
    "autolink": ("auto_link", None),
    "confirm": ("confirm_moves", None),
    "weekends": ("weekends", None),
}
#: server settings: name → (GuildSettings field, the unit of a number, or None for yes/no)
SERVER_SETTINGS = {"thread": ("thread_default", None), "forfeit": ("forfeit_on_timeout", None),
           "expiry": ("challenge_expiry_hours", "hours"), "reminder": ("reminder_hours", "hours"),
           "vacationdays": ("vacation_days", "days"), "vacation": ("vacation_default", None),
           "botgames": ("bot_games", "games")}

YES_NO_CHOICES = ("yes", "no")
#: sizes and times to suggest as they are typed; a time's last is a bank like Little Golem's
#: (10 days, 36 hours more with each move)
COMMON_SIZES = ("24", "24x18", "20", "16", "12", "30", "48")
COMMON_TIMES = ("12h", "1d", "2d", "3d", "7d", "10d+36h")


def yes_no_option(name: str, description: Message) -> Option:
    """An option answered yes or no."""
    return Option(name, description, Kind.CHOICE, choices=YES_NO_CHOICES)


#: the options of a game's own, as a challenge and a tournament list them
SIZE = Option("size", message("board size: 24, 12 or columns x rows like 24x18 (default 24)"),
              suggestions=lambda: COMMON_SIZES)
RULES = Option("rules", message("classic (links block, removals allowed) or pp (own links may "
                                "cross)"), Kind.CHOICE, choices=("classic", "pp"))
TIME = Option("time", message("time per move like 3d or 12h, or a bank like 10d+36h (default: "
                              "no clock)"), suggestions=lambda: COMMON_TIMES)
VACATION = yes_no_option("vacation", message("may vacations and weekends off stop the clocks? "
                                             "(default: the server's)"))
THREAD = yes_no_option("thread", message("play in a new thread of its own"))
#: a challenge's options after its players (`build_options` takes them by name)
CHALLENGE_OPTIONS = (
    SIZE, RULES,
    yes_no_option("swap", message("may the second player take over the first peg? (default "
                                  "yes, no with handicap)")),
    Option("handicap", message("rows the weaker side's opponent gives up"), Kind.NUMBER,
           least=0),
    Option("first", message("who plays Red and moves first (default me)"), Kind.CHOICE,
           choices=tuple(first.value for first in FirstMove)),
    THREAD, TIME, VACATION,
    Option("level", message("when you challenge me, the bot: 1 (easy) to 5 (strong), default 3"),
           Kind.NUMBER, least=min(LEVELS), most=max(LEVELS)),
    yes_no_option("takebacks", message("when you challenge me, the bot: may you take back? "
                                       "(default no)")))

#: how help writes the options, as `name values` (`help challenge`, `help tournament`)
YES_NO_FORM = "yes|no"
GAME_OPTION_FORMS = ("size 24|12|24x18", "rules classic|pp", f"swap {YES_NO_FORM}",
                     "time 3d|12h|10d+36h|none", f"vacation {YES_NO_FORM}")
#: the options a challenge and an import share: who moves first, and a thread of its own
SEATING_OPTION_FORMS = ("first " + "|".join(FirstMove), f"thread {YES_NO_FORM}")


@dataclass(frozen=True)
class ChallengeOptions:
    """A challenge's game options and who moves first; `thread` None means the guild default,
    and so does `vacation` (whether vacations stop the game's clock, `setup.vacation` once
    the challenge is made). `level` and `takebacks` are for the bot's seats: how strongly
    it plays (None: `engine_seats.DEFAULT_LEVEL`) and whether it grants takebacks (None: no)."""

    setup: GameSetup = field(default_factory=GameSetup)
    first: FirstMove = FirstMove.ME
    thread: bool | None = None
    vacation: bool | None = None
    level: int | None = None
    takebacks: bool | None = None

    def describe(self) -> Message:
        return describe_setup(self.setup)


def describe_setup(setup: GameSetup) -> Message:
    """`24×24, classic, swap` — the options of a game in a few words, said in the reader's
    language (`24×24, klassisch, Tausch`); the values a player types (`3d`) stay as typed."""
    cols, rows = parse_size(setup.size)
    swap = setup.swap if setup.swap is not None else not setup.handicap
    parts: list[Message | str] = [message("swap") if swap else message("no swap")]
    if setup.handicap:
        parts.append(message("handicap {rows}", rows=setup.handicap))
    if setup.time_control:
        parts.append(message("bank {time}", time=setup.time_control)
                     if time_control_of(setup.time_control).is_bank
                     else message("{time} per move", time=setup.time_control))
        if not setup.vacation:
            parts.append(message("no vacation"))
    return reduce(lambda text, part: message("{items}, {item}", items=text, item=part), parts,
                  message("{items}, {item}", items=f"{cols}×{rows - setup.handicap}",
                          item=rules_word(setup.rules)))


def rules_word(rules: str) -> Message | str:
    """The name of a rule set in a sentence: `classic` (German `klassisch`), `pp`."""
    return message("classic") if rules == "classic" else rules


def either(items: Sequence[Message | str]) -> Message | str:
    """`a or b or c`: the choices a player has, names or words to type (a value of a
    message: one item alone is that item)."""
    return reduce(lambda text, item: message("{items} or {item}", items=text, item=item), items)


def build_options(size: str | None = None, rules: str | None = None,
                  swap: str | bool | None = None, handicap: int | str | None = None,
                  first: str | None = None, thread: str | bool | None = None,
                  time: str | None = None, vacation: str | bool | None = None,
                  level: int | str | None = None,
                  takebacks: str | bool | None = None) -> ChallengeOptions:
    """Check and assemble challenge options; MalformedError names the first bad one."""
    setup = GameSetup()
    if size is not None:
        try:
            cols, rows = parse_size(str(size))
        except TwixtError as error:
            raise MalformedError(error.message) from None
        setup = replace(setup, size=f"{cols}x{rows}")
    if rules is not None:
        if rules.lower() not in ("classic", "pp"):
            raise MalformedError("rules are classic or pp, not {value}", value=quote(rules))
        setup = replace(setup, rules=rules.lower())
    if handicap is not None:
        given = whole_number(handicap) if isinstance(handicap, str) else handicap
        if given is None:
            raise MalformedError("handicap is a number of rows, not {value}",
                                 value=quote(str(handicap)))
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
            raise MalformedError("first is me, them or random, not {value}",
                                 value=quote(first)) from None
    if thread is not None:
        options = replace(options, thread=yes_no("thread", thread))
    if vacation is not None:
        options = replace(options, vacation=yes_no("vacation", vacation))
    if level is not None:
        options = replace(options, level=_level(level))
    if takebacks is not None:
        options = replace(options, takebacks=yes_no("takebacks", takebacks))
    _check_setup(options.setup)
    return options


def parse_option_words(words: list[str]) -> ChallengeOptions:
    """Options written as `name value` pairs in any order (the terminal's way)."""
    def unknown(name: str) -> MalformedError:
        return MalformedError("unknown option {name}: use size, rules, swap, handicap, time, "
                              "first, thread, vacation, level or takebacks", name=quote(name))

    return build_options(**name_value_pairs(words, OPTION_NAMES, unknown))


def name_value_pairs(words: Sequence[str], names: Sequence[str],
                     unknown: Callable[[str], MalformedError]) -> dict[str, str]:
    """`name value` pairs in any order, each name one of `names` (lower case); a time may
    take several words (`time 1 day 12 hours`). `unknown` is the error for a name not known."""
    pairs: dict[str, str] = {}
    rest = list(words)
    while rest:
        name = rest.pop(0).lower()
        if name not in names:
            raise unknown(name)
        if not rest:
            raise MalformedError("option {name} needs a value, like size 24x18", name=quote(name))
        value = [rest.pop(0)]
        while name == "time" and rest and rest[0].lower() not in names:
            value.append(rest.pop(0))
        pairs[name] = " ".join(value)
    return pairs


def setting_pairs(words: list[str]) -> dict[str, str]:
    """A player's settings as typed: `theme dark palette colorblind`, where a value that
    only one setting takes may stand alone (`dark colorblind`)."""
    pairs: dict[str, str] = {}
    rest = list(words)
    while rest:
        word = rest.pop(0)
        alone = [name for name, (_, allowed) in SETTINGS.items()
                 if allowed and word.lower() in allowed]
        if word.lower() not in SETTINGS and len(alone) == 1:
            pairs[alone[0]] = word
        elif not rest:
            raise MalformedError("settings takes name value pairs, like settings theme dark")
        else:
            pairs[word] = rest.pop(0)
    return pairs


def yes_no(name: str, value: str | bool, on_off: bool = False) -> bool:
    """A yes/no option or setting; MalformedError names it (`swap is yes or no, not “x”`, or
    with `on_off`, `dm is on or off, not “x”`)."""
    if isinstance(value, bool):
        return value
    if value.lower() not in YES_NO:
        if on_off:
            raise MalformedError("{name} is on or off, not {value}", name=name, value=quote(value))
        raise MalformedError("{name} is yes or no, not {value}", name=name, value=quote(value))
    return YES_NO[value.lower()]


def _level(value: int | str) -> int:
    """The bot's level, 1 to 5 (`engine.LEVELS`)."""
    given = whole_number(value) if isinstance(value, str) else value
    if given is None or given not in LEVELS:
        raise MalformedError("the bot's level is 1 to 5, not {value}", value=quote(str(value)))
    return given


def _check_setup(setup: GameSetup) -> None:
    from twixt.rules import Game  # the rules are the judge of which combinations make a game

    try:
        Game(("a", "b"), size=setup.size, rules=setup.rules, swap=setup.swap,
             handicap=setup.handicap)
    except TwixtError as error:
        raise MalformedError(error.message) from None
