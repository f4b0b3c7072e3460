"""The commands of games on record (`cases/records.py`, `analysis.py` and `stats.py` do
them): export, history, replay, analyze, import, stats, leaderboard — their values, how a
typed line is read into them, and their help."""

from __future__ import annotations

from dataclasses import dataclass, field

from twixt.language import message
from twixt.service.commands.listing import Group, Kind, Listing, Option
from twixt.service.commands.options import (
    OPTION_NAMES,
    SEATING_OPTION_FORMS,
    THREAD,
    ChallengeOptions,
    build_options,
    parse_option_words,
)
from twixt.service.commands.words import (
    People,
    ServiceCommand,
    Topic,
    Words,
    number,
    take_page,
    with_engine,
)
from twixt.service.errors import MalformedError
from twixt.service.model import MAX_PAGE, Attachment, User
from twixt.storage import FirstMove

__all__ = ["Analyze", "Export", "History", "ImportRecord", "Leaderboard", "Replay", "Stats"]

WORDS = Words(Group("twixt-records", message("TwixT records, replays and ratings")))
#: the option of the commands on one game
_GAME = Option("game", message("the game's number (leave out: this channel's last game)"),
               Kind.NUMBER, least=1)


@dataclass(frozen=True)
class Export(ServiceCommand):
    """The channel's current or last game as record files (`fmt` None: every format)."""

    fmt: str | None = None


@WORDS.reads("export", topic=Topic(message("This channel's game as record files"),
                                   "export [transcript|lg|t1]", "export lg"),
             listing=Listing(lambda format=None: Export(format), (Option(
                 "format", message("transcript, Little Golem (lg) or T1 (default: all three)"),
                 Kind.CHOICE, choices=("transcript", "lg", "t1")),)))
def _export(words: list[str], people: People) -> Export:
    return Export(words[0].lower() if words else None)


@dataclass(frozen=True)
class History(ServiceCommand):
    """Past games of `user` in this server, or of this channel when None."""

    user: User | None = None
    page: int = 1


@WORDS.reads("history", topic=Topic(message("Past games of a player, or of this channel"),
                                    "history [PLAYER] [page N]", "history bob"),
             listing=Listing(History, (
                 Option("user", message("whose games (leave out: this channel's)"),
                        Kind.PERSON),
                 Option("page", message("which page of ten games (default 1)"), Kind.NUMBER,
                        least=1, most=MAX_PAGE))))
def _history(words: list[str], people: People) -> History:
    asked = take_page(words)
    return History(people(words[0]) if words else None, asked)


@dataclass(frozen=True)
class Replay(ServiceCommand):
    """An animated replay of a game (the channel's last when `game_id` is None)."""

    game_id: int | None = None


@WORDS.reads("replay", topic=Topic(message("A game as an animated picture, one frame a turn"),
                                   "replay [GAME]", "replay 12"),
             listing=Listing(lambda game=None: Replay(game), (_GAME,)))
def _replay(words: list[str], people: People) -> Replay:
    return Replay(number(words[0]) if words else None)


@dataclass(frozen=True)
class Analyze(ServiceCommand):
    """A finished game's win-probability curve (the channel's last game when `game_id` is
    None)."""

    game_id: int | None = None


@WORDS.reads("analyze", topic=Topic(
    message("A finished game's win chances, move by move, by the engine"), "analyze [GAME]",
    "analyze 12"), listing=Listing(lambda game=None: Analyze(game), (_GAME,)))
def _analyze(words: list[str], people: People) -> Analyze:
    return Analyze(number(words[0]) if words else None)


@dataclass(frozen=True)
class ImportRecord(ServiceCommand):
    """Show a record and challenge to continue it. `data` is the file's bytes, which only a
    front end can fetch (an attachment, a local file); None means it brought none."""

    filename: str
    data: bytes | None
    opponent: User | None = None
    options: ChallengeOptions = field(default_factory=ChallengeOptions)


def _listed_import(file: Attachment, opponent: User | None = None, first: str | None = None,
                   thread: str | None = None) -> ImportRecord:
    return ImportRecord(file.filename, file.data, opponent, build_options(first=first,
                                                                      thread=thread))


@WORDS.reads("import", topic=Topic(message("Show a game record, and challenge to continue it"),
                                   "import FILE [PLAYER] [OPTION VALUE …]",
                                   "import game.T1 bob first them", SEATING_OPTION_FORMS),
             listing=Listing(_listed_import, (
                 Option("file", message("a transcript (.twixt), Little Golem (.tsgf) or T1 "
                                        "(.T1) file"), Kind.FILE, required=True),
                 Option("opponent", message("who you challenge to continue it (leave out: "
                                            "anyone)"), Kind.PLAYER),
                 Option("first", message("me: you take the record's Red seat; them: its "
                                         "Black seat"), Kind.CHOICE,
                        choices=tuple(first.value for first in FirstMove)),
                 THREAD)))
def _import(words: list[str], people: People) -> ImportRecord:
    if not words:
        raise MalformedError("import FILE [opponent] [options]")
    source = words.pop(0)
    opponent = (with_engine(people)(words.pop(0))
                if words and words[0] not in OPTION_NAMES else None)
    return ImportRecord(source, None, opponent, parse_option_words(words))


@dataclass(frozen=True)
class Stats(ServiceCommand):
    """Wins, losses and rating of `user` (the asker when None)."""

    user: User | None = None


@WORDS.reads("stats", topic=Topic(message("Wins, losses and rating of a player in this server"),
                                  "stats [PLAYER]", "stats bob"),
             listing=Listing(Stats, (Option("user", message("whose numbers (leave out: yours)"),
                                            Kind.PERSON),)))
def _stats(words: list[str], people: People) -> Stats:
    return Stats(people(words[0]) if words else None)


@dataclass(frozen=True)
class Leaderboard(ServiceCommand):
    """This server's rated players, best first: a page of them."""

    page: int = 1


@WORDS.reads("leaderboard", topic=Topic(message("This server's rated players, best first"),
                                        "leaderboard [page N]", "leaderboard"),
             listing=Listing(Leaderboard, (Option("page", message(
                 "which page of ten players (default 1)"), Kind.NUMBER, least=1,
                                                  most=MAX_PAGE),)))
def _leaderboard(words: list[str], people: People) -> Leaderboard:
    return Leaderboard(take_page(words))
