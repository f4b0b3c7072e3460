"""The challenges' commands (`cases/challenges.py` does them): challenge, team, accept,
decline, rematch — their values, how a typed line is read into them, and their help."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from twixt.engine import LEVELS
from twixt.language import message
from twixt.service.commands.listing import PLAY, Kind, Listing, Option
from twixt.service.commands.options import (
    CHALLENGE_OPTIONS,
    GAME_OPTION_FORMS,
    OPTION_NAMES,
    SEATING_OPTION_FORMS,
    YES_NO_FORM,
    ChallengeOptions,
    build_options,
    parse_option_words,
)
from twixt.service.commands.words import (
    People,
    ServiceCommand,
    Topic,
    Words,
    is_number,
    number,
    with_engine,
)
from twixt.service.errors import MalformedError
from twixt.service.model import User

__all__ = ["CHALLENGE_OPTION_FORMS", "Answer", "AnswerChallenge", "Challenge", "Rematch",
           "TeamChallenge"]

WORDS = Words(PLAY)

Answer = Literal["accept", "decline"]
#: the options of a challenge, as help writes them
CHALLENGE_OPTION_FORMS = (*GAME_OPTION_FORMS[:3], "handicap ROWS", *GAME_OPTION_FORMS[3:],
                          *SEATING_OPTION_FORMS, f"level {min(LEVELS)}-{max(LEVELS)}",
                          f"takebacks {YES_NO_FORM}")


@dataclass(frozen=True)
class Challenge(ServiceCommand):
    """Challenge one user, or anyone in the channel when `opponent` is None."""

    opponent: User | None
    options: ChallengeOptions = field(default_factory=ChallengeOptions)


def _listed_challenge(user: User | None = None, **options: Any) -> Challenge:
    return Challenge(user, build_options(**options))


@WORDS.reads("challenge", topic=Topic(
    message("Challenge someone, or anyone here, to TwixT"),
    "challenge [PLAYER|bot] [OPTION VALUE …]", "challenge bob size 12 time 3d",
    CHALLENGE_OPTION_FORMS),
             listing=Listing(_listed_challenge, (
                 Option("user", message("who you challenge (leave out: anyone here may "
                                        "accept)"), Kind.OPPONENT), *CHALLENGE_OPTIONS)))
def _challenge(words: list[str], people: People) -> Challenge:
    opponent = (with_engine(people)(words.pop(0))
                if words and words[0].lower() not in OPTION_NAMES else None)
    return Challenge(opponent, parse_option_words(words))


@dataclass(frozen=True)
class TeamChallenge(ServiceCommand):
    """Double TwixT: the asker and `partner` against `opponents`."""

    partner: User
    opponents: tuple[User, User]
    options: ChallengeOptions = field(default_factory=ChallengeOptions)


def _listed_team(partner: User, opponent1: User, opponent2: User,
                 **options: Any) -> TeamChallenge:
    return TeamChallenge(partner, (opponent1, opponent2), build_options(**options))


@WORDS.reads("team", topic=Topic(
    message("Double TwixT: you and a partner against two others"),
    "team PARTNER vs OPPONENT1 OPPONENT2 [OPTION VALUE …]", "team carol vs bob dave size 24",
    CHALLENGE_OPTION_FORMS),
             listing=Listing(_listed_team, (
                 Option("partner", message("your teammate"), Kind.OPPONENT, required=True),
                 Option("opponent1", message("first opponent"), Kind.OPPONENT, required=True),
                 Option("opponent2", message("second opponent"), Kind.OPPONENT, required=True),
                 *CHALLENGE_OPTIONS)))
def _team(words: list[str], people: People) -> TeamChallenge:
    if len(words) < 4 or words[1].lower() != "vs":
        raise MalformedError("write team PARTNER vs OPPONENT1 OPPONENT2 [options]")
    people = with_engine(people)
    partner, first, second = (people(w) for w in (words[0], words[2], words[3]))
    options = parse_option_words(words[4:]) if words[4:] else build_options()
    return TeamChallenge(partner, (first, second), options)


@dataclass(frozen=True)
class AnswerChallenge(ServiceCommand):
    """Accept or decline a challenge (the newest one open to the asker when no id)."""

    answer: Answer
    challenge_id: int | None = None


def _answer(words: list[str], answer: Answer) -> AnswerChallenge | None:
    """`accept [CHALLENGE]`; anything else after the word is the move language's
    (`accept draw`)."""
    if words and (len(words) > 1 or not is_number(words[0])):
        return None
    return AnswerChallenge(answer, number(words[0]) if words else None)


WORDS.word("accept", Topic(message("Accept the challenge made to you here"),
                           "accept [CHALLENGE]", "accept 12"),
           reader=lambda words, people: _answer(words, "accept"),
           listing=Listing(lambda: AnswerChallenge("accept")))
WORDS.word("decline", Topic(message("Decline a challenge made to you, or withdraw yours"),
                            "decline [CHALLENGE]", "decline"),
           reader=lambda words, people: _answer(words, "decline"),
           listing=Listing(lambda: AnswerChallenge("decline")))


@dataclass(frozen=True)
class Rematch(ServiceCommand):
    """The players of a finished game again (the channel's last game when `game_id` is None)."""

    game_id: int | None = None


@WORDS.reads("rematch", topic=Topic(
    message("Challenge the players of this channel's last game again"),
    "rematch [GAME]", "rematch"), listing=Listing(Rematch))
def _rematch(words: list[str], people: People) -> Rematch:
    return Rematch(number(words[0]) if words else None)
