"""A move's text read into its command: the same reading whether kept or read anew."""

from __future__ import annotations

import pytest

from twixt.rules import parse_command
from twixt.service.commands import Move, Resign, read_move
from twixt.service.commands.turns import READ_MOVE_CHARS
from twixt.service.errors import MalformedError, ServiceError

TEXTS = ["C3", "c3", "K12 link M11", "K12 link all", "swap", "resign",
         "remove J9-K11; H4 link G6", "offer draw", "F6" + " " * READ_MOVE_CHARS + "link H7"]


def test_a_kept_reading_is_its_own_texts_each_time():
    """Each text read twice among the others (a reading kept for a short text, a long one
    read each time) is the command its own text parses to, never another's."""
    for _ in range(2):
        for text in TEXTS:
            read = read_move(text)
            command = parse_command(text)
            assert read == (Resign(confirmed=False) if text == "resign" else Move(command))


@pytest.mark.parametrize("text", ["Z99 link", "C3; C4", "", "x" * (READ_MOVE_CHARS + 5)])
def test_a_text_that_is_no_move_is_refused_every_time(text):
    """A refusal is not kept as a reading: the second time says the same."""
    with pytest.raises(ServiceError) as first:
        read_move(text)
    with pytest.raises(ServiceError) as second:
        read_move(text)
    assert isinstance(first.value, MalformedError)
    assert type(second.value) is type(first.value)
    assert second.value.message == first.value.message
