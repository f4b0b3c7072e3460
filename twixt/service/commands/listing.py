"""Commands as front ends list them: a name in a group, a description, options a person fills
in (each with its kind, description and choices), and how their values build the command.

A subject's command module declares a command's listing once, beside its value, its reader
and its help (`Words.word(…, listing=Listing(…))`); Discord's slash commands, their
localised names and descriptions, the help's "In Discord" line and a game page's controls
are derived from it (`router.VOCABULARY.controls`, `Listing.controls`). Nothing here
knows Discord: a front end turns its own values (a member, an attachment) into the service's
(`User`, `Attachment`) by the option's `Kind`, and calls `Listed.build`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from twixt.language import Message, message
from twixt.service.commands.controls import Offered

if TYPE_CHECKING:  # the commands' module declares them with a `Listing`
    from twixt.service.commands.words import ServiceCommand

__all__ = ["PLAY", "Group", "Kind", "Listed", "Listing", "Option", "names_of"]


@dataclass(frozen=True)
class Group:
    """Commands listed together under one name (Discord's `/twixt`, `/twixt-records` …: a
    group holds at most 25)."""

    name: str
    description: Message


#: the commands of playing (challenges, a game's turns, one's own games): what players type
#: most stays this short (`/twixt move`, `/twixt board`)
PLAY = Group("twixt", message("Play TwixT"))


class Kind(enum.Enum):
    """What an option's value is, and what the build is given for it."""

    TEXT = "text"  #: a `str`, `least` to `most` characters when given
    NUMBER = "number"  #: an `int` from `least` to `most` when given
    CHOICE = "choice"  #: one of `choices`, a `str`
    PERSON = "person"  #: anyone named, as a `User` (whose numbers, whose games)
    PLAYER = "player"  #: someone to play with, a `User`; no bot may be one
    OPPONENT = "opponent"  #: a `User` to play against: a person, or the engine's seat
    FILE = "file"  #: a `model.Attachment`: the file's name and bytes


@dataclass(frozen=True)
class Option:
    """One option of a listed command: its name (lower case, no spaces: Discord's rule), what
    it is for, its kind, and for a choice the values allowed. `suggestions` gives common
    values to offer while a text is typed (any other may still be typed: the service judges
    it)."""

    name: str
    description: Message
    kind: Kind = Kind.TEXT
    required: bool = False
    choices: tuple[str, ...] = ()
    least: int | None = None
    most: int | None = None
    suggestions: Callable[[], Sequence[str]] | None = None


@dataclass(frozen=True)
class Listing:
    """How a command is listed, as its subject declares it: its options and `build`, which is
    called with the values of the options given, by name (an option left out is not passed,
    so the build's defaults decide), and may raise `ServiceError`. `name` is the word that
    begins the command unless given, `description` its help's. `controls`: how a game's
    page offers it (`controls.Offered`: a command may be offered as several, like a draw's
    offer, accept and decline)."""

    build: Callable[..., ServiceCommand]
    options: tuple[Option, ...] = ()
    name: str | None = None
    description: Message | None = None
    controls: tuple[Offered, ...] = ()


@dataclass(frozen=True)
class Listed:
    """A command as front ends list it, resolved from its `Listing`: the group it is in, its
    name and description, its options, its build, and the word that begins it typed (None:
    it is typed as its group's word, like `tournament create`)."""

    group: Group
    name: str
    description: Message
    options: tuple[Option, ...]
    build: Callable[..., ServiceCommand]
    word: str | None
    controls: tuple[Offered, ...] = ()

    @property
    def path(self) -> str:
        """Where it is among the slash commands: `/twixt challenge`."""
        return f"/{self.group.name} {self.name}"


def names_of(listed: Iterable[Listed]) -> frozenset[str]:
    """Every name the commands `listed` show: their groups', their own, their options' and
    the choices' (a front end that shows them in a player's language looks each up in the
    catalogue, as Discord's translator does)."""
    return frozenset(name for command in listed
                     for name in (command.group.name, command.name,
                                  *(option.name for option in command.options),
                                  *(choice for option in command.options
                                    for choice in option.choices)))
