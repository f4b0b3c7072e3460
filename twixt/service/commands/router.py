"""The one place that decides what a typed line means: `challenge bob size 12`, `G6 link E5`,
`takeback`, `history alice page 2` … become `ServiceCommand`s.

The terminal table and chat messages both come through here; slash commands build their
commands directly from Discord's options. The words are the subjects' own, each declared
beside its commands (`commands.words.Words`) and put together here (`VOCABULARY`). People
are named differently by each front end (a name at the terminal, a mention in Discord), so
the front end passes `people`, which turns one word into a `User` or raises `ServiceError`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from twixt.rules import Action
from twixt.service import commands as cmd
from twixt.service.commands.spelling import did_you_mean
from twixt.service.commands.words import People, Vocabulary, Words, nobody, with_engine
from twixt.service.errors import MalformedError, NotAllowedError

if TYPE_CHECKING:
    from twixt.service.commands.turns import PRIVATE, conditional

__all__ = ["PRIVATE", "SUBJECTS", "VOCABULARY", "People", "conditional", "is_move_language",
           "nobody", "read_command", "with_engine"]

#: every subject's words, in the order `help` names them (`commands.OFFERED`'s; each
#: subject declares its own, beside its commands: `commands.words.Words`)
SUBJECTS: tuple[Words, ...]
#: the one vocabulary every front end reads: what a typed line means here, `help`'s topics,
#: and the commands listed (Discord's slash commands); each reads it when it is used, so
#: that it is the one place to look. Both are put together when first asked for (importing
#: every subject's commands: `__getattr__`), not when the router is imported.
VOCABULARY: Vocabulary


def __getattr__(name: str) -> Any:
    """`SUBJECTS` and `VOCABULARY`, put together when first asked for; the move language's
    `PRIVATE` and `conditional`, from the turns' commands."""
    if name in ("PRIVATE", "conditional"):
        return getattr(importlib.import_module(f"{cmd.__name__}.turns"), name)
    if name not in ("SUBJECTS", "VOCABULARY"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    subjects = tuple(importlib.import_module(f"{cmd.__name__}.{module}").WORDS
                     for module in cmd.OFFERED)
    globals().setdefault("SUBJECTS", subjects)
    globals().setdefault("VOCABULARY", Vocabulary(*subjects))
    return globals()[name]


def _vocabulary() -> Vocabulary:
    """`VOCABULARY` as it is now (a test may have set another)."""
    vocabulary: Vocabulary = (globals()["VOCABULARY"] if "VOCABULARY" in globals()
                              else __getattr__("VOCABULARY"))
    return vocabulary


#: the words that start a line of conditional moves (`move if …` too, as `/twixt move` reads it)
_LEADS = (["if"], ["conditions"], ["move", "if"], ["move", "conditions"])
#: words of the move language, which a text may begin with and never be a mistyped command
_MOVE_LANGUAGE = frozenset({"remove", "link", *(word for action in Action
                                                for word in action.value.split())})


def read_command(text: str, people: People = nobody, *, public: bool = False) -> cmd.ServiceCommand:
    """What a line means; ServiceError says what is wrong with it. Each front end reads what
    was typed here, once, and hands the service the command.

    A whole line that is a command as it stands (`board`, `accept takeback`) is that
    command; else its first word's reader (`VOCABULARY.readers`) reads the rest; a line no
    reader takes is the move language's, unless its first word is a command's mistyped.
    A typed `resign` (or `move resign`) asks to confirm, wherever it is typed: the answer
    is the Confirm button, or the line `resign yes`. Where the reply is `public` (a chat
    message), a line of conditional moves is refused before it is read: a refusal that named
    what is wrong with it would repeat the plan to the channel (`if clear` shows nothing, so
    it may be said anywhere).
    """
    from twixt.service.commands.turns import PRIVATE, read_move

    words = text.split()
    if not words:
        raise MalformedError("write a command, like G6 or help")
    lowered = [word.lower() for word in words]
    if public and any(lowered[:len(lead)] == lead and lowered[len(lead):] != ["clear"]
                      for lead in _LEADS):
        raise NotAllowedError(PRIVATE)
    verb, rest = lowered[0], words[1:]
    vocabulary = _vocabulary()
    whole = vocabulary.lines.get(" ".join(lowered))
    if whole is not None:
        return whole
    reader = vocabulary.readers.get(verb)
    if reader is not None:
        asked = reader(rest, people)
        if asked is not None:
            return asked
    typo = did_you_mean(verb, vocabulary.words) if verb not in _MOVE_LANGUAGE else None
    if typo is not None:
        raise typo  # a command's word mistyped: the move language's hint would not help
    return read_move(text)


def is_move_language(asked: cmd.ServiceCommand) -> bool:
    """Whether a command asked is one of the move language's own (a move, a draw word, resign,
    conditional moves): what a channel's chatter may contain without being addressed to the
    bot. (Conditional moves are only refused there: they are private.)"""
    return (isinstance(asked, cmd.Move | cmd.Resign)
            or (isinstance(asked, cmd.Conditional) and asked.action == "store"))
