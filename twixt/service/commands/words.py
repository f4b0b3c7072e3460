"""What every subject's commands are made of: the `ServiceCommand` they are, and the `Words`
a subject's command module declares them with — the words that begin them, how the rest of a
typed line is read, and their help.

A subject's command module (`commands/turns.py`, `commands/records.py` …) holds its command
values, one `WORDS = Words()` and, beside each command, its reader and its help `Topic`; the
router puts the subjects' words together (`router.VOCABULARY`), as the service names the
subjects' handlers (`service.HANDLED_BY`). Like a discord.py cog's commands or a
Flask blueprint's routes: each subject keeps its own, and one place composes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TypeVar

from twixt.language import Message
from twixt.rules import quote
from twixt.rules.numbers import whole_number
from twixt.service.commands.controls import Offered
from twixt.service.commands.listing import Group, Listed, Listing
from twixt.service.desk.engine_seats import ENGINE_PLAYER_WORD, THE_ENGINE_PLAYER
from twixt.service.errors import MalformedError, MissingError
from twixt.service.model import User

__all__ = ["ForGame", "People", "Reader", "ServiceCommand", "Topic", "Vocabulary", "Words",
           "is_number", "nobody", "number", "take_page", "with_engine"]


@dataclass(frozen=True)
class ServiceCommand:
    """What someone asks the service to do: a frozen dataclass of parsed values (a move is
    a `rules.Command`, never text), done by the one subject method marked as its handler
    (`commands.handles`) with its fields by name."""


@dataclass(frozen=True)
class ForGame(ServiceCommand):
    """`asked` for the game numbered `game_id` only (a button under its messages, a control
    of its page): refused once the channel's game is another one, or none."""

    game_id: int
    asked: ServiceCommand


T = TypeVar("T")
#: how a front end names people: one typed word → a `User`, or ServiceError
People = Callable[[str], User]
#: how a line that begins with a command's word is read: the words after it (a list it may
#: take words off) → the command, or None when the line is not of this command's form and
#: is read as the move language (`accept draw`, `draw` alone)
Reader = Callable[[list[str], People], ServiceCommand | None]


@dataclass(frozen=True)
class Topic:
    """One command's help: what it does, how it is typed (at the table or after `@bot`), an
    example, its options as `name values`, and where it is among the slash commands (None: a
    button does it; `Words` fills it in from the command's `Listing`)."""

    says: Message
    form: str
    example: str
    options: tuple[str, ...] = ()
    slash: str | None = None


class Words:
    """A subject's part of the command language: each word that begins one of its commands,
    with its help and its reader (none for the move language's own words, which the rules
    read), whole lines that are a command as they stand (`board`, `accept takeback`), and
    how its commands are listed in `group` (`listing.Listing`: the slash commands)."""

    def __init__(self, group: Group) -> None:
        self.group = group
        self.topics: dict[str, Topic] = {}
        self.readers: dict[str, Reader] = {}
        self.lines: dict[str, ServiceCommand] = {}
        self.listed: list[Listed] = []

    def word(self, word: str, topic: Topic, *, lines: Iterable[tuple[str, ServiceCommand]] = (),
             reader: Reader | None = None, listing: Listing | None = None) -> None:
        """`word` begins a command: its help `topic`, the whole `lines` that are commands as
        they stand, the `reader` of any other line it begins, and its `listing`."""
        if listing is not None:
            listed = self.lists(listing, word=word, says=topic.says)
            topic = replace(topic, slash=listed.path)
        self.topics[word] = topic
        self.lines.update(lines)
        if reader is not None:
            self.readers[word] = reader

    def reads(self, *words: str, topic: Topic,
              listing: Listing | None = None) -> Callable[[Reader], Reader]:
        """Mark a function as the reader of the lines that begin with `words` (each with the
        help `topic`; the first listed by `listing`)."""
        def register(reader: Reader) -> Reader:
            first, *others = words
            self.word(first, topic, reader=reader, listing=listing)
            for word in others:
                self.word(word, self.topics[first], reader=reader)
            return reader

        return register

    def lists(self, listing: Listing, *, word: str | None = None,
              says: Message | None = None) -> Listed:
        """List a command in this subject's group; one that no word of its own begins (a
        tournament's `create`) names itself and says what it does."""
        name, description = listing.name or word, listing.description or says
        if name is None or description is None:
            raise TypeError("a listing with no word of its own needs a name and a description")
        listed = Listed(self.group, name, description, listing.options, listing.build,
                        word, listing.controls)
        self.listed.append(listed)
        return listed


class Vocabulary:
    """Every subject's words together, in the order given (the order `help` names them);
    a word, a line or a listed command that two subjects claim is a mistake, refused at
    once."""

    def __init__(self, *subjects: Words) -> None:
        self.topics: dict[str, Topic] = {}
        self.readers: dict[str, Reader] = {}
        self.lines: dict[str, ServiceCommand] = {}
        #: every command listed, in the order declared, each group's together
        self.listed: tuple[Listed, ...] = ()
        #: the controls a game's page may offer, by name, in the order declared
        self.controls: dict[str, Offered] = {}
        paths: dict[str, Listed] = {}
        for words in subjects:
            _join(self.topics, words.topics)
            _join(self.readers, words.readers)
            _join(self.lines, words.lines)
            _join(paths, {listed.path: listed for listed in words.listed})
        self.listed = tuple(sorted(paths.values(), key=lambda listed: listed.group.name))
        for listed in self.listed:
            _join(self.controls, {offered.name: offered for offered in listed.controls})

    @property
    def words(self) -> tuple[str, ...]:
        """Every word that begins a command, as `help` names them (each has its help topic),
        and as a mistyped word is matched against."""
        return tuple(self.topics)


def _join(mine: dict[str, T], theirs: dict[str, T]) -> None:
    twice = mine.keys() & theirs.keys()
    if twice:
        raise TypeError(f"{', '.join(sorted(twice))} claimed twice")
    mine.update(theirs)


def nobody(word: str) -> User:
    """For front ends where a typed word cannot name a person."""
    raise MissingError("I cannot tell who {word} is here", word=quote(word))


def with_engine(people: People) -> People:
    """`people`, except that the word `bot` (or `@bot`) names the bot, where a challenge
    names its players."""
    def person(word: str) -> User:
        return THE_ENGINE_PLAYER if word.lstrip("@").lower() == ENGINE_PLAYER_WORD else people(word)

    return person


def is_number(word: str) -> bool:
    return whole_number(word.lstrip("#")) is not None


def number(word: str) -> int:
    found = whole_number(word.lstrip("#"))
    if found is None:
        raise MalformedError("{word} is not a number", word=quote(word))
    return found


def take_page(words: list[str]) -> int:
    """`page N` at the end of a command's words (taken off them), or page 1."""
    if len(words) >= 2 and words[-2].lower() == "page":
        found = number(words[-1])
        del words[-2:]
        return found
    return 1
