"""Forgiving words and help that helps: a mistyped command gets the command it most likely
meant (in English and German, at the terminal and in chat), a text that looks like a move
keeps the move hint, and `help COMMAND` says how to write each command the router knows."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import twixt.service.commands.spelling
from tests.refusals import refusal
from tests.service.people import ALICE, asking
from tests.typed import enter
from twixt.discord.replies import shown
from twixt.language import LOCALES, translation, unmarked
from twixt.service import MalformedError, TwixtService
from twixt.service.commands.help import help_for, overview
from twixt.service.commands.router import VOCABULARY, read_command

#: one Discord message
MAX_MESSAGE = 2000
_MOVE_HINT = "a move looks like G6, G6 link E5 or remove J9-K11; I11 link K10"


@pytest.mark.parametrize("typed, meant", [
    ("chalenge bob size 12", "challenge"),
    ("acept", "accept"),
    ("resgin", "resign"),
    ("leaderbord", "leaderboard"),
    ("tournement list", "tournament"),
    ("Chalenge", "challenge"),  # case aside
    ("tournament lst", "tournament list"),
    ("tournament standngs 3", "tournament standings"),
    ("draw ofer", "draw offer"),
    ("takeback acept", "takeback accept"),
])
def test_a_mistyped_command_names_the_command_meant(typed, meant):
    word = next(w for w in typed.split() if w.lower() not in ("tournament", "draw", "takeback"))
    assert refusal(MalformedError, read_command, typed) == (
        f"I don't know the command “{word.lower()}”: did you mean `{meant}`?")


def test_only_words_of_a_plausible_length_are_compared(monkeypatch):
    """The comparison costs time a letter of the typed word, on the event loop: a word of
    6,000 letters is compared with nothing, and a short typo only with the commands within
    its edits of its length."""
    compared: list[tuple[str, str]] = []
    distance = twixt.service.commands.spelling._distance

    def counted(a: str, b: str) -> int:
        compared.append((a, b))
        return distance(a, b)

    monkeypatch.setattr(twixt.service.commands.spelling, "_distance", counted)
    assert refusal(MalformedError, read_command, "x" * 6000).startswith("I don't understand")
    assert compared == []
    assert refusal(MalformedError, read_command, "acept").endswith("did you mean `accept`?")
    assert compared and all(abs(len(known) - 5) <= 1 for _typed, known in compared)


@pytest.mark.parametrize("typed, refused", [
    ("hello", f"I don't understand “hello”: {_MOVE_HINT}"),
    ("G6 lnk E5", "after G6 write link and the pegs to link, like G6 link E5"),
    ("remove", "remove what? write remove J9-K11 or remove H4"),
    ("bored", f"I don't understand “bored”: {_MOVE_HINT}"),
    ("of", f"I don't understand “of”: {_MOVE_HINT}"),
])
def test_a_move_like_or_far_off_text_keeps_the_move_hint(typed, refused):
    assert refusal(MalformedError, read_command, typed).startswith(refused)


async def test_the_command_meant_is_said_in_german(service: TwixtService):
    with pytest.raises(MalformedError) as refused:
        await enter(service, asking(ALICE, locale="de"), "chalenge bob")
    assert unmarked(translation("de").say(refused.value.message)) == (
        "den Befehl “chalenge” kenne ich nicht: meinst du `challenge`?")


@pytest.mark.parametrize("locale", LOCALES)
def test_each_commands_help_has_its_form_values_and_example_in_one_message(locale):
    tr = translation(locale)
    for word in VOCABULARY.words:
        text = shown(help_for(word, tr))  # as Discord gets it
        assert len(text) <= MAX_MESSAGE, (word, locale, len(text))
        assert text.startswith(f"**{word}** — ") and f"`{VOCABULARY.topics[word].example}`" in text
        assert f"`{VOCABULARY.topics[word].form}`" in text
        assert all(f"`{option}`" in text for option in VOCABULARY.topics[word].options)
        assert locale == "en" or not any(english in text for english in (
            "Write:", "Example:", "Options:")), (word, text)
    assert "`size 24|12|24x18`" in shown(help_for("challenge", tr))
    assert "`first me|them|random`" in shown(help_for("challenge", tr))
    assert "`theme light|dark`" in shown(help_for("settings", tr))


@pytest.mark.parametrize("locale", LOCALES)
def test_help_names_every_command_in_one_message(locale):
    text = shown(translation(locale).say(overview()))
    assert len(text) <= MAX_MESSAGE
    named = text.split("**", 4)[-1]  # after the bold "Commands:"/"Befehle:"
    assert all(f" {word}," in named or f" {word}." in named for word in VOCABULARY.words), named
    assert "tournament" in named


async def test_help_command_through_the_service(service: TwixtService):
    reply = await enter(service, asking(ALICE), "help Challenge")
    assert reply.ephemeral and reply.plain.startswith("**challenge** — Challenge someone")
    with pytest.raises(MalformedError, match=r"^I don't know the command “chalenge”: did you mean "
                                             r"`challenge`\?$"):
        await enter(service, asking(ALICE), "help chalenge")
    with pytest.raises(MalformedError, match=r"^there is no command “xyzzy”: help names them all$"):
        await enter(service, asking(ALICE), "help xyzzy")
    german = await enter(service, asking(ALICE, locale="de"), "help vacation")
    assert "Schreib: `vacation [DAYS|end]`" in german.plain
    assert "In Discord: `/twixt-settings vacation`" in german.plain


def test_the_terminal_table_names_the_command_meant(tmp_path: Path):
    twixt = str(Path(sys.executable).with_name("twixt"))
    done = subprocess.run([twixt, "play", "--locale", "de", "--db", "t.db", "--out", "pics"],
                          cwd=tmp_path, input="alice: chalenge bob size 12\nalice: help team\n",
                          capture_output=True, text=True, check=False, timeout=120)
    assert "! alice: den Befehl “chalenge” kenne ich nicht: meinst du `challenge`?" \
        in done.stdout.splitlines()
    assert "Beispiel: `team carol vs bob dave size 24`" in done.stdout


def test_the_spelling_doctests():
    assert doctest.testmod(twixt.service.commands.spelling).failed == 0
