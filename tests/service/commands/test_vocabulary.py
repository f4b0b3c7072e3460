"""Each subject declares its commands' words beside them (`commands.words.Words`) and the
router puts them together (`router.VOCABULARY`): a command of a new subject is read, named
by `help` and corrected when mistyped with nothing registered anywhere else, and a word two
subjects claim is refused at once."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from twixt.language import message
from twixt.service import commands as cmd
from twixt.service.commands import router
from twixt.service.commands.listing import PLAY, Listing
from twixt.service.commands.words import People, ServiceCommand, Topic, Vocabulary, Words


@dataclass(frozen=True)
class Shout(ServiceCommand):
    """A command of a subject the router has never heard of."""

    text: str


def _shouting() -> Words:
    words = Words(PLAY)

    @words.reads("shout", topic=Topic(message("Say it loud"), "shout TEXT", "shout hi"))
    def _shout(rest: list[str], people: People) -> Shout:
        return Shout(" ".join(rest))

    words.word("hush", Topic(message("Say nothing"), "hush", "hush"),
               lines=[("hush", Shout(""))])
    return words


def test_a_subjects_words_are_all_it_takes_to_read_its_commands():
    vocabulary = Vocabulary(_shouting())
    assert vocabulary.readers["shout"](["hello", "there"], router.nobody) == Shout("hello there")
    assert vocabulary.lines["hush"] == Shout("")
    assert list(vocabulary.topics) == ["shout", "hush"]


def test_the_routers_words_are_every_subjects_in_their_order():
    assert router.VOCABULARY.words[:2] == ("challenge", "team")  # the challenges' first
    assert router.VOCABULARY.words[-1] == "tournament"
    every = {type(c) for c in router.VOCABULARY.lines.values()}
    assert every <= set(cmd.command_kinds())


def test_a_word_two_subjects_claim_is_refused():
    with pytest.raises(TypeError, match="shout claimed twice"):
        Vocabulary(_shouting(), _shouting())
    with pytest.raises(TypeError, match="board claimed twice"):
        Vocabulary(*(Words(PLAY) for _ in range(2)), _board(), _board())


def _board() -> Words:
    words = Words(PLAY)
    words.word("board", Topic(message("The board"), "board", "board"),
               lines=[("board", cmd.ShowBoard())])
    return words


def test_a_command_two_subjects_list_under_one_name_is_refused():
    def listing(word: str) -> Words:
        words = Words(PLAY)
        words.word(word, Topic(message("The board"), word, word),
                   listing=Listing(cmd.ShowBoard, name="board"))
        return words

    assert [listed.path for listed in Vocabulary(listing("board")).listed] == ["/twixt board"]
    with pytest.raises(TypeError, match="/twixt board claimed twice"):
        Vocabulary(listing("board"), listing("show"))
