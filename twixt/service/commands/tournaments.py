"""The tournaments' command (`cases/tournaments/` does it): `tournament create|join|leave|
start|withdraw|standings|list|info|next-season` — its value, how a typed line is read into
it, and its help (its options are read in `tournament_options`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from twixt.language import message
from twixt.service.commands.listing import Group, Kind, Listing, Option
from twixt.service.commands.options import (
    GAME_OPTION_FORMS,
    RULES,
    SIZE,
    TIME,
    VACATION,
    YES_NO_FORM,
    yes_no_option,
)
from twixt.service.commands.spelling import did_you_mean
from twixt.service.commands.tournament_options import (
    GROUP_SIZES,
    MAX_ROUNDS,
    TournamentOptions,
    build_tournament_options,
    parse_tournament_words,
    tournament_name,
)
from twixt.service.commands.words import People, ServiceCommand, Topic, Words, number
from twixt.service.errors import MalformedError
from twixt.service.model import User
from twixt.service.names import MAX_NAME
from twixt.storage import TournamentFormat

__all__ = ["TournamentAction"]

GROUP = Group("twixt-tournament", message("TwixT tournaments and leagues"))
WORDS = Words(GROUP)

#: the tournament commands that take only a tournament's number, if any
_ACTIONS = ("join", "leave", "start", "withdraw", "standings", "info", "next-season")


@dataclass(frozen=True)
class TournamentAction(ServiceCommand):
    """A tournament command (`action`: create, join, leave, start, withdraw, standings,
    list, info, next-season) on the tournament numbered `tournament_id` (None: this channel's
    newest);
    `name` and `options` make one, `partner` joins a Double TwixT tournament with a team."""

    action: str
    tournament_id: int | None = None
    name: str = ""
    options: TournamentOptions | None = None
    partner: User | None = None


_TOPIC = Topic(
    GROUP.description,
    "tournament create NAME OPTION VALUE … | tournament "
    "join|leave|start|withdraw|standings|list|info|next-season [EVENT]",
    "tournament create Autumn Cup format swiss rounds 5",
    ("format " + "|".join(TournamentFormat), "rounds N", "group 4-16", f"double {YES_NO_FORM}",
     "signup 3d|12h", f"teams {YES_NO_FORM}",
     *(option for option in GAME_OPTION_FORMS if not option.startswith("swap"))),
    slash=f"/{GROUP.name}")


@WORDS.reads("tournament", topic=_TOPIC)
def _tournament(words: list[str], people: People) -> TournamentAction:
    """`tournament create NAME options…`, `tournament list`, `tournament join [N] [with
    PARTNER]`, `tournament ACTION [N]`."""
    action = words.pop(0).lower() if words else ""
    if action == "create":
        name, options = parse_tournament_words(words)
        return TournamentAction("create", name=name, options=options)
    if action == "list" and not words:
        return TournamentAction("list")
    partner = None
    if action == "join" and len(words) >= 2 and words[-2].lower() == "with":
        partner = people(words[-1])
        del words[-2:]
    if action not in _ACTIONS or len(words) > 1:
        typo = did_you_mean(action, ("create", "list", *_ACTIONS), before="tournament ")
        raise typo or MalformedError("write tournament create, join, leave, start, withdraw, "
                                     "standings, list, info or next-season, then the "
                                     "tournament's number if it is not this channel's")
    return TournamentAction(action, number(words[0]) if words else None, partner=partner)


# --- the tournament's commands as they are listed: one each (`/twixt-tournament create`) ---

def _create(name: str, format: str, **options: Any) -> TournamentAction:
    return TournamentAction("create", name=tournament_name(name),
                            options=build_tournament_options(format, **options))


def _on_event(action: str, event: int | None = None) -> TournamentAction:
    return TournamentAction(action, event)


WORDS.lists(Listing(_create, (
    Option("name", message("the tournament's name"), required=True, least=1, most=MAX_NAME),
    Option("format", message("round robin, swiss (round by round) or league (groups by "
                             "rating)"), Kind.CHOICE, required=True,
           choices=tuple(form.value for form in TournamentFormat)),
    SIZE, RULES, TIME, VACATION,
    Option("rounds", message("a swiss's rounds (default 4)"), Kind.NUMBER, least=1,
           most=MAX_ROUNDS),
    Option("group", message("a league's group size (default 10)"), Kind.NUMBER,
           least=GROUP_SIZES[0], most=GROUP_SIZES[1]),
    yes_no_option("double", message("every pairing plays both colours (round robin, league)")),
    yes_no_option("teams", message("Double TwixT: teams of two sign up together")),
    Option("signup", message("how long sign-up runs, like 3d or 12h (default 3d)"))),
                    name="create", description=message("Announce a tournament here (channel "
                                                       "managers)")))
#: the option of the commands on one tournament
_EVENT = Option("event", message("the tournament's number (leave out: this channel's newest)"),
                Kind.NUMBER, least=1)
WORDS.lists(Listing(
    lambda event=None, partner=None: TournamentAction("join", event, partner=partner),
    (_EVENT, Option("partner", message("Double TwixT: your partner, who joins too"),
                    Kind.PLAYER)),
    name="join", description=message("Sign up for a tournament")))
for _action, _says in (
        ("leave", message("Take your sign-up back before the start")),
        ("start", message("Start a tournament now (channel managers)")),
        ("withdraw", message("Leave a running tournament: your games left are forfeited")),
        ("standings", message("A tournament's crosstable")),
        ("info", message("A tournament's options and entrants")),
        ("next-season", message("Open a league's next season (channel managers)"))):
    WORDS.lists(Listing(functools.partial(_on_event, _action), (_EVENT,), name=_action,
                        description=_says))
WORDS.lists(Listing(lambda: TournamentAction("list"), name="list",
                    description=message("This server's tournaments")))
