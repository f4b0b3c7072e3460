"""The slash commands in German: every name and description discord.py asks the translator
for has German in the catalogue, German clients get it, everyone else the English."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.app_commands import TranslationContext, TranslationContextTypes, locale_str
from discord.app_commands import TranslationContextLocation as Location

from tests.discord import tree
from tests.language.extraction import marked_texts
from twixt.discord.translator import SAME_EVERYWHERE, CatalogueTranslator, name_key
from twixt.language.catalogue import catalogue_entries
from twixt.service.commands.listing import names_of
from twixt.service.commands.router import VOCABULARY

GERMAN = discord.Locale.german.value


class Recording(CatalogueTranslator):
    """The bot's translator, noting every text it is asked for and whether it is a name."""

    def __init__(self) -> None:
        self.asked: set[tuple[str, bool]] = set()

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: TranslationContextTypes) -> str | None:
        self.asked.add((string.message, context.location.name.endswith("_name")))
        return await super().translate(string, locale, context)


@pytest.fixture
async def synced(client, monkeypatch) -> tuple[list[dict[str, Any]], Recording]:
    """The commands as `setup_hook` syncs them, translated by a recording translator."""
    recording = Recording()
    payload = await tree.synced(client, monkeypatch, recording)
    assert isinstance(client.tree.translator, CatalogueTranslator)
    return payload, recording


def test_every_text_asked_for_is_marked_or_listed_and_has_german(synced):
    """A description is marked where its command is declared; a name is one of those the
    service lists (each looked up as `name: …`)."""
    _, recording = synced
    marked = {text.english for text in marked_texts()}
    listed = names_of(VOCABULARY.listed)
    german = catalogue_entries("de")
    descriptions = {text for text, is_name in recording.asked if not is_name}
    names = {text for text, is_name in recording.asked if is_name} - SAME_EVERYWHERE
    assert len(descriptions) + len(names) > 200
    assert sorted(descriptions - marked) == []
    assert sorted(names - listed) == []
    keys = descriptions | {name_key(name) for name in names}
    assert sorted(key for key in keys if not german.get(key)) == []


def test_every_name_listed_is_asked_for(synced):
    _, recording = synced
    asked = {text for text, is_name in recording.asked if is_name}
    assert sorted(names_of(VOCABULARY.listed) - asked) == []


def _commands(payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [*payload, *(sub for command in payload for sub in command["options"])]


def _german(item: dict[str, Any], field: str) -> str | None:
    return (item.get(f"{field}_localizations") or {}).get(GERMAN)


def test_every_command_and_option_has_its_german_name_and_description(synced):
    """German wherever the catalogue's German differs from the English (a few words are the
    same: `team`, `status`, the move language's example)."""
    payload, _ = synced
    german = catalogue_entries("de")
    items = [*_commands(payload), *(option for command in _commands(payload)
                                    for option in command.get("options", [])
                                    if option["type"] not in (1, 2))]
    assert len(items) > 60
    for item in items:
        name = item["name"]
        expected = german[name_key(name)] if name not in SAME_EVERYWHERE else name
        assert _german(item, "name") == (expected if expected != name else None), name
        expected = german[item["description"]]
        assert _german(item, "description") == (
            expected if expected != item["description"] else None), name
    assert all(_german(command, "description") for command in _commands(payload))


def test_what_a_german_player_sees(synced):
    payload, _ = synced
    groups = {command["name"]: command for command in payload}
    assert groups["twixt-settings"]["name_localizations"] == {GERMAN: "twixt-einstellungen"}
    twixt = {sub["name"]: sub for sub in groups["twixt"]["options"]}
    challenge = twixt["challenge"]
    assert challenge["name_localizations"] == {GERMAN: "herausfordern"}
    assert challenge["description_localizations"] == {
        GERMAN: "Fordere jemanden – oder alle hier – zu TwixT heraus"}
    swap = next(option for option in challenge["options"] if option["name"] == "swap")
    assert swap["name_localizations"] == {GERMAN: "tausch"}
    assert [choice.get("name_localizations") for choice in swap["choices"]] == [
        {GERMAN: "ja"}, {GERMAN: "nein"}]
    assert [choice["value"] for choice in swap["choices"]] == ["yes", "no"]  # what is sent


@pytest.mark.parametrize("locale", [discord.Locale.american_english,
                                    discord.Locale.british_english, discord.Locale.french])
async def test_everyone_else_sees_the_english(locale):
    translator = CatalogueTranslator()
    for text, location, in_german in (
            ("Play TwixT", Location.group_description, "TwixT spielen"),
            ("challenge", Location.command_name, "herausfordern")):
        context: Any = TranslationContext(location=location, data=None)
        assert await translator.translate(locale_str(text), locale, context) is None
        german = await translator.translate(locale_str(text), discord.Locale.german, context)
        assert german == in_german


def test_only_german_locales_are_localized(synced):
    payload, _ = synced
    seen = set()
    for command in _commands(payload):
        seen |= set(command.get("name_localizations") or {})
        seen |= set(command.get("description_localizations") or {})
    assert seen == {GERMAN}
