"""Every text the code marks, and every command name the service lists, has a translation in
every language of `LOCALES` with the same placeholders, and no catalogue keeps anything else.

A failure names each id and the languages it is missing from (or wrong in), so that whoever
adds an English text knows what to translate where: `python -m tests.language.extraction fr`
prints the missing entries of one language as `.po` entries.
"""

from __future__ import annotations

import doctest
import re
from collections import defaultdict

import pytest
from babel.messages.catalog import Catalog

import twixt.language.catalogue
from tests.language.extraction import built_texts, listed_name_keys, marked_texts, singular_of
from twixt.language import LOCALES, bold, message, plural_message, translation, unmarked
from twixt.language.catalogue import merged_catalogue
from twixt.language.message import fields

#: the languages translated from the English
TRANSLATED = LOCALES[1:]
#: Discord's pattern for a slash command's, subcommand's or option's name, in every locale
#: (its docs: `^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`, lower case where a letter
#: has one); Python's `\w` is its letters, digits and `_`
SLASH_NAME = re.compile(r"^[-_\w]{1,32}$")
#: a user command's name (right-click a member → Apps) may have capitals and spaces
MAX_USER_COMMAND_NAME = 32


@pytest.fixture(scope="module")
def catalogues() -> dict[str, Catalog]:
    return {locale: merged_catalogue(locale) for locale in TRANSLATED}


def _strings(translated: object) -> tuple[str, ...]:
    return tuple(translated) if isinstance(translated, tuple | list) else (str(translated),)


def _report(by_id: dict[str, list[str]]) -> str:
    """One line an id: `'{hole} is taken' (twixt/rules/game.py:12): fr, nl`."""
    return "\n".join(f"{key}: {', '.join(locales)}" for key, locales in sorted(by_id.items()))


def _wanted() -> dict[str, str]:
    """Every id a catalogue must hold, with where it comes from."""
    wanted = {singular_of(text.english): text.where for text in marked_texts()}
    wanted.update({key: "a listed command name" for key in listed_name_keys()})
    return wanted


def test_every_marked_text_is_a_literal_template() -> None:
    assert list(built_texts()) == []


def test_every_text_has_a_translation_in_every_language(catalogues) -> None:  # type: ignore[no-untyped-def]
    missing: dict[str, list[str]] = defaultdict(list)
    for key, where in _wanted().items():
        for locale, catalogue in catalogues.items():
            entry = catalogue.get(key)
            if not entry or entry.fuzzy or not all(_strings(entry.string)):
                missing[f"{key!r} ({where})"].append(locale)
    assert not missing, "missing translations (id: languages):\n" + _report(missing)


def test_no_catalogue_keeps_a_text_the_code_no_longer_says(catalogues) -> None:  # type: ignore[no-untyped-def]
    wanted = _wanted()
    stale: dict[str, list[str]] = defaultdict(list)
    for locale, catalogue in catalogues.items():
        for entry in catalogue:
            if entry.id and singular_of(entry.id) not in wanted:
                stale[repr(singular_of(entry.id))].append(locale)
    assert not stale, "translations of texts no longer said (id: languages):\n" + _report(stale)


def test_placeholders_match_the_english_in_every_language(catalogues) -> None:  # type: ignore[no-untyped-def]
    wrong: dict[str, list[str]] = defaultdict(list)
    for locale, catalogue in catalogues.items():
        for entry in catalogue:
            if not entry.id:
                continue
            english = entry.id if isinstance(entry.id, tuple) else (entry.id,)
            for index, translated in enumerate(_strings(entry.string)):
                source = english[min(index, len(english) - 1)]
                allowed = fields(source) | ({"n"} if entry.pluralizable else set())
                if not fields(source) <= fields(translated) | {"n"} \
                        or not fields(translated) <= allowed:
                    wrong[f"{source!r}"].append(f"{locale} {translated!r}")
    assert not wrong, "placeholders differ from the English (id: translations):\n" + _report(
        wrong)


def test_every_translation_keeps_the_englishs_bold_and_code_marks(catalogues) -> None:  # type: ignore[no-untyped-def]
    """`**{name}**` and `` `{move}` `` stay marked as in the English: a command in backticks
    is one the player types as written."""
    wrong: dict[str, list[str]] = defaultdict(list)
    for locale, catalogue in catalogues.items():
        for entry in catalogue:
            english = entry.id if isinstance(entry.id, tuple) else (entry.id,)
            for index, translated in enumerate(_strings(entry.string) if entry.id else ()):
                source = english[min(index, len(english) - 1)]
                if any(source.count(mark) != translated.count(mark) for mark in ("**", "`")):
                    wrong[repr(source)].append(f"{locale} {translated!r}")
    assert not wrong, "bold or code marks differ from the English (id: translations):\n" + (
        _report(wrong))


def test_every_plural_has_both_forms_in_every_language(catalogues) -> None:  # type: ignore[no-untyped-def]
    wrong = [f"{locale}: {entry.id[0]!r}" for locale, catalogue in catalogues.items()
             for entry in catalogue if entry.pluralizable and len(_strings(entry.string)) != 2]
    assert wrong == []


def test_every_command_name_is_one_discord_accepts_in_every_language(catalogues) -> None:  # type: ignore[no-untyped-def]
    """A slash command's, option's or choice's name in lower case, without spaces, at most 32
    characters (Discord refuses the whole sync otherwise); a user command's at most 32."""
    from twixt.discord.translator import name_key
    from twixt.discord.user_commands import NAMES

    user_commands = {name_key(name) for name in NAMES}
    wrong = []
    for locale, catalogue in catalogues.items():
        for key in sorted(listed_name_keys()):
            entry = catalogue.get(key)
            name = str(entry.string) if entry else ""
            fits = (0 < len(name) <= MAX_USER_COMMAND_NAME if key in user_commands
                    else bool(SLASH_NAME.match(name)) and name == name.lower())
            if not fits:
                wrong.append(f"{locale}: {key!r} → {name!r}")
    assert wrong == []


def test_each_language_says_a_message_in_its_own_words() -> None:
    taken = message("{hole} is already taken", hole="G6")
    reason = message("line {line}: {reason}", line=3, reason=taken)
    said = {locale: unmarked(translation(locale).say(reason)) for locale in LOCALES}
    assert said == {"en": "line 3: G6 is already taken",
                    "de": "Zeile 3: G6 ist schon besetzt",
                    "fr": "ligne 3\u00a0: G6 est déjà occupé",
                    "es": "línea 3: G6 ya está ocupado",
                    "nl": "regel 3: G6 is al bezet"}


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


def test_plurals_follow_the_count_by_each_languages_rule() -> None:
    """French says 0 in the singular; the others the plural."""
    moves = [plural_message("{n} move", "{n} moves", n) for n in (0, 1, 2)]
    said = {locale: [translation(locale).say(text) for text in moves] for locale in LOCALES}
    assert said == {"en": ["0 moves", "1 move", "2 moves"],
                    "de": ["0 Züge", "1 Zug", "2 Züge"],
                    "fr": ["0 coup", "1 coup", "2 coups"],
                    "es": ["0 jugadas", "1 jugada", "2 jugadas"],
                    "nl": ["0 zetten", "1 zet", "2 zetten"]}


def test_the_locale_doctests() -> None:
    assert doctest.testmod(twixt.language.catalogue).failed == 0
