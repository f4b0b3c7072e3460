"""Every text the code marks has German with the same placeholders, and nothing else."""

from __future__ import annotations

import doctest

import pytest

import twixt.language.catalogue
from tests.language.extraction import built_texts, listed_name_keys, marked_texts
from twixt.language import bold, message, plural_message, translation, unmarked
from twixt.language.catalogue import merged_catalogue
from twixt.language.message import fields


@pytest.fixture(scope="module")
def german():  # type: ignore[no-untyped-def]
    return merged_catalogue("de")


def test_every_marked_text_is_a_literal_template() -> None:
    assert list(built_texts()) == []


def test_every_marked_text_has_german(german) -> None:  # type: ignore[no-untyped-def]
    missing = []
    for text in marked_texts():
        entry = german.get(text.english[0] if isinstance(text.english, tuple)
                           else text.english)
        strings = (entry.string if entry and isinstance(entry.string, tuple | list)
                   else (entry.string,) if entry else ())
        if not entry or entry.fuzzy or not all(strings):
            missing.append(f"{text.where}: {text.english!r}")
    assert missing == []


def test_german_placeholders_match_the_english(german) -> None:  # type: ignore[no-untyped-def]
    wrong = []
    for entry in german:
        if not entry.id:
            continue
        english = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
        for index, translated in enumerate(strings):
            source = english[min(index, len(english) - 1)]
            allowed = fields(source) | ({"n"} if entry.pluralizable else set())
            if not fields(source) <= fields(translated) | {"n"} \
                    or not fields(translated) <= allowed:
                wrong.append(f"{source!r} → {translated!r}")
    assert wrong == []


def test_no_german_text_is_left_over_from_removed_code(german) -> None:  # type: ignore[no-untyped-def]
    used = {text.english for text in marked_texts()} | listed_name_keys()
    used_ids = {english[0] if isinstance(english, tuple) else english for english in used}
    stale = [entry.id for entry in german if entry.id and
             (entry.id[0] if isinstance(entry.id, tuple) else entry.id) not in used_ids]
    assert stale == []


def test_a_message_is_said_in_the_language_asked_for_values_and_all() -> None:
    taken = message("{hole} is already taken", hole="G6")
    reason = message("line {line}: {reason}", line=3, reason=taken)
    assert str(reason) == "line 3: G6 is already taken"
    assert unmarked(translation("de").say(reason)) == "Zeile 3: G6 ist schon besetzt"
    assert unmarked(translation("en").say(reason)) == "line 3: G6 is already taken"


def test_a_players_text_in_a_value_is_never_read_as_a_template() -> None:
    said = translation("de").say(message("{hole} is already taken", hole="{n} {0}"))
    assert said == "\u2068{n} {0}\u2069 ist schon besetzt"


def test_every_value_is_marked_to_show_as_typed_and_said_text_keeps_its_formatting() -> None:
    tr = translation("en")
    name = "**x**_y_ \u2069 @everyone"
    said = tr("{name} ({colour}) to move.", name=name, colour=message("Red"))
    assert said == "\u2068**x**_y_  @everyone\u2069 (Red) to move."
    line = tr("{first} vs {second}", first=bold(name), second=tr("**{n}**", n="b`c"))
    assert line == "**\u2068**x**_y_  @everyone\u2069** vs **\u2068b`c\u2069**"
    assert tr("{n} left, {rating:.0f}", n=3, rating=1501.6) == "3 left, 1502"
    assert unmarked(tr.say(name)) == "**x**_y_  @everyone"


def test_plurals_follow_the_count_in_each_language() -> None:
    pegs = [plural_message("{n} move", "{n} moves", n) for n in (1, 2)]
    assert [str(text) for text in pegs] == ["1 move", "2 moves"]
    assert [translation("de").say(text) for text in pegs] == ["1 Zug", "2 Züge"]


def test_the_locale_doctests() -> None:
    assert doctest.testmod(twixt.language.catalogue).failed == 0
