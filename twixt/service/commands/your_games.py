"""The commands of a player's own games (`cases/my_games.py`, `your_move.py` and `notes.py`
do them): games, next, note, notes — their values, how a typed line is read into them, and
their help."""

from __future__ import annotations

from dataclasses import dataclass

from twixt.language import message
from twixt.service.commands.controls import Offered, always
from twixt.service.commands.listing import PLAY, Kind, Listing, Option
from twixt.service.commands.words import (
    People,
    ServiceCommand,
    Topic,
    Words,
    is_number,
    number,
    take_page,
)
from twixt.service.errors import MalformedError
from twixt.service.model import MAX_PAGE

__all__ = ["MAX_NOTE", "MyGames", "NextGame", "Note", "Notes"]

WORDS = Words(PLAY)

#: a note's characters at most (a slash command's option is one line anyway)
MAX_NOTE = 1000
_GAME = Option("game", message("the game's number (leave out: this channel's game)"),
               Kind.NUMBER, least=1)


@dataclass(frozen=True)
class MyGames(ServiceCommand):
    """The asker's games in progress in this server, those waiting for them first."""

    page: int = 1


@WORDS.reads("games", topic=Topic(message("Your games here, those waiting for your move first"),
                                  "games [page N]", "games page 2"),
             listing=Listing(MyGames, (Option("page", message(
                 "which page of your games (default 1)"), Kind.NUMBER, least=1,
                                              most=MAX_PAGE),)))
def _my_games(words: list[str], people: People) -> MyGames:
    asked = take_page(words)
    if words:
        raise MalformedError("write games, or games page 2")
    return MyGames(asked)


@dataclass(frozen=True)
class NextGame(ServiceCommand):
    """The asker's most urgent game waiting for their move, in any server or direct message;
    other than game `skip` (the one a Next game button was under), when given."""

    skip: int = 0


WORDS.word("next", Topic(message("Your most urgent game waiting for your move, anywhere"),
                         "next", "next"),
           lines=[("next", NextGame())], listing=Listing(NextGame))


@dataclass(frozen=True)
class Note(ServiceCommand):
    """Keep a private note on a game (the channel's current or last when `game_id` is None)."""

    text: str
    game_id: int | None = None


@WORDS.reads("note", topic=Topic(message("Keep a private note on a game"), "note [#GAME] TEXT",
                                 "note E5 blocks his bridge"),
             listing=Listing(lambda text, game=None: Note(text, game), (
                 Option("text", message("your note; only you will see it"), required=True,
                        least=1, most=MAX_NOTE), _GAME), controls=(
                 Offered("note", message("Keep a note"), always,
                         lambda text, game_id: Note(text, game_id), takes_text=True),)))
def _note(words: list[str], people: People) -> Note:
    """`note TEXT`, or `note #12 TEXT` for another game (the `#` tells a number from text)."""
    game_id = None
    if words and words[0].startswith("#") and is_number(words[0]):
        game_id = number(words.pop(0))
    if not words:
        raise MalformedError("write note TEXT, like note E5 blocks his bridge")
    return Note(" ".join(words), game_id)


@dataclass(frozen=True)
class Notes(ServiceCommand):
    """Show the asker's notes on a game, a page of them, or `clear` them all."""

    game_id: int | None = None
    page: int = 1
    clear: bool = False


@WORDS.reads("notes", topic=Topic(message("Your private notes on a game"),
                                  "notes [GAME] [clear] [page N]", "notes 12"),
             listing=Listing(lambda game=None, take_page=1, clear="no": Notes(game, take_page,
                                                                         clear == "yes"), (
                 _GAME,
                 Option("page", message("which page of notes (default 1)"), Kind.NUMBER,
                        least=1, most=MAX_PAGE),
                 Option("clear", message("yes: remove all your notes on the game"),
                        Kind.CHOICE, choices=("yes", "no"))), controls=(
                 Offered("notes", message("Your notes"), always,
                         lambda text, game_id: Notes(game_id)),)))
def _notes(words: list[str], people: People) -> Notes:
    asked = take_page(words)
    clear = bool(words) and words[-1].lower() == "clear"
    if clear:
        words.pop()
    game_id = number(words.pop(0)) if words else None
    if words:
        raise MalformedError("write notes, notes #12, notes page 2 or notes clear")
    return Notes(game_id, asked, clear)
