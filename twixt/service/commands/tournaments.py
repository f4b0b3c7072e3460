"""The tournaments' command (`cases/tournaments/` does it): `tournament create|join|leave|
start|withdraw|standings|list|info|next-season` — its value, how a typed line is read into
it, and its help (its options are read in `tournament_options`)."""

from __future__ import annotations

from dataclasses import dataclass

from twixt.language import message
from twixt.service.commands.options import GAME_OPTION_FORMS, YES_NO_FORM
from twixt.service.commands.spelling import did_you_mean
from twixt.service.commands.tournament_options import TournamentOptions, parse_tournament_words
from twixt.service.commands.words import People, ServiceCommand, Topic, Words, number
from twixt.service.errors import MalformedError
from twixt.service.model import User
from twixt.storage import TournamentFormat

__all__ = ["TournamentAction"]

WORDS = Words()

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
    message("TwixT tournaments and leagues"),
    "tournament create NAME OPTION VALUE … | tournament "
    "join|leave|start|withdraw|standings|list|info|next-season [EVENT]", "/twixt-tournament",
    "tournament create Autumn Cup format swiss rounds 5",
    ("format " + "|".join(TournamentFormat), "rounds N", "group 4-16", f"double {YES_NO_FORM}",
     "signup 3d|12h", f"teams {YES_NO_FORM}",
     *(option for option in GAME_OPTION_FORMS if not option.startswith("swap"))))


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
