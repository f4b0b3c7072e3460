"""A tournament's options as a channel manager writes them: `tournament create Autumn Cup
format roundrobin size 24 rules pp time 10d+36h double yes signup 3d vacation no`.

The game options are a challenge's (`twixt.service.commands.options`), checked by the same code; the
tournament adds its format, its rounds (a Swiss), both colours per pairing, Double TwixT teams
and how long sign-up runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta

from twixt.rules import quote
from twixt.rules.numbers import whole_number
from twixt.service.commands.options import ChallengeOptions, build_options, name_value_pairs, yes_no
from twixt.service.errors import LimitError, MalformedError
from twixt.service.names import MAX_NAME, clean_name
from twixt.storage import TournamentFormat

#: what `create` takes besides its games' options, which are a challenge's but for those the
#: tournament decides (colours by the pairing, every game in a thread of its own, the rules'
#: swap and no handicap)
TOURNAMENT_NAMES = ("format", "rounds", "group", "double", "signup", "teams")
GAME_NAMES = ("size", "rules", "time", "vacation")
NAMES = TOURNAMENT_NAMES + GAME_NAMES
MAX_ROUNDS = 20
#: a league's groups: Little Golem's are 9 to 11
GROUP_SIZES = (4, 16)
DEFAULT_GROUP = 10
DEFAULT_SIGNUP = timedelta(days=3)
MAX_SIGNUP = timedelta(days=60)
_SPAN = re.compile(r"([0-9]{1,4})([dh])")


@dataclass(frozen=True)
class TournamentOptions:
    """What a tournament is: its format, its games' options (`game.vacation` None: the server's
    default), rounds of a Swiss (a league's: the size of its groups), both colours per
    pairing, teams, and how long sign-up runs."""

    format: TournamentFormat
    game: ChallengeOptions = field(default_factory=ChallengeOptions)
    rounds: int = 0
    double: bool = False
    teams: bool = False
    signup: timedelta = DEFAULT_SIGNUP


def tournament_name(text: str) -> str:
    """A tournament's name as typed, checked: one line of 1 to `MAX_NAME` characters, cleaned
    as players' names are of what chat would format or ping."""
    name = clean_name(text, "")
    if not name:
        raise MalformedError("give the tournament a name, like tournament create Autumn Cup "
                             "format roundrobin")
    if len(" ".join(text.split())) > MAX_NAME:
        raise LimitError("a tournament's name is at most {most} characters", most=MAX_NAME)
    return name


def build_tournament_options(fmt: str | None, *, rounds: int | str | None = None,
                        group: int | str | None = None, double: str | bool | None = None,
                        teams: str | bool | None = None,
                        signup: str | None = None, **game: str | None) -> TournamentOptions:
    """Check and assemble a tournament's options; MalformedError names the first bad one."""
    if fmt is None:
        raise MalformedError("a tournament needs a format: roundrobin, swiss or league")
    try:
        form = TournamentFormat(fmt.lower())
    except ValueError:
        raise MalformedError("format is roundrobin, swiss or league, not {value}",
                             value=quote(fmt)) from None
    options = TournamentOptions(form, build_options(**game), double=bool(double is not None
                                                                    and yes_no("double", double)),
                           teams=bool(teams is not None and yes_no("teams", teams)))
    count = _rounds(rounds)
    if form is TournamentFormat.SWISS:
        if options.double:
            raise MalformedError("double is for round robins and leagues")
        count = count or 4
    elif count and form is TournamentFormat.LEAGUE:
        raise MalformedError("rounds is for a swiss: a league's groups play everyone in them "
                             "(group sets their size)")
    elif count:
        raise MalformedError("rounds is for a swiss: a round robin plays everyone")
    elif form is TournamentFormat.LEAGUE:
        count = _number("group", group, *GROUP_SIZES) if group is not None else DEFAULT_GROUP
    if group is not None and form is not TournamentFormat.LEAGUE:
        raise MalformedError("group is for a league")
    return TournamentOptions(form, options.game, count, options.double, options.teams,
                        _signup(signup))


def parse_tournament_words(words: list[str]) -> tuple[str, TournamentOptions]:
    """`NAME option value …`: the name is every word before the first option's."""
    first = next((i for i, word in enumerate(words) if word.lower() in NAMES), len(words))
    name = tournament_name(" ".join(words[:first]))
    def unknown(key: str) -> MalformedError:
        return MalformedError("unknown tournament option {name}: use {names}", name=quote(key),
                              names=", ".join(NAMES))

    pairs = name_value_pairs(words[first:], NAMES, unknown)
    fmt = pairs.pop("format", None)
    return name, build_tournament_options(fmt, **pairs)


def _rounds(rounds: int | str | None) -> int:
    return 0 if rounds is None else _number("rounds", rounds, 1, MAX_ROUNDS)


def _number(name: str, value: int | str, least: int, most: int) -> int:
    given = value if isinstance(value, int) else whole_number(value)
    number = -1 if given is None else given
    if not least <= number <= most:
        raise MalformedError("{name} is a number from {least} to {most}, not {value}",
                             name=name, least=least, most=most, value=quote(str(value)))
    return number


def _signup(signup: str | None) -> timedelta:
    if signup is None:
        return DEFAULT_SIGNUP
    found = _SPAN.fullmatch(signup.lower().replace(" ", ""))
    span = (None if found is None else
            timedelta(days=int(found[1])) if found[2] == "d" else timedelta(hours=int(found[1])))
    if span is None or not timedelta(0) < span <= MAX_SIGNUP:
        raise MalformedError("signup is a time like 3d or 12h, at most 60d, not {value}",
                             value=quote(signup))
    return span
