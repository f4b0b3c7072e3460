"""The slash commands in the player's language: every name and description discord.py asks
the translator for has a translation in every language of `LOCALES`; a client in German,
French, Spanish (Spain's or Latin America's) or Dutch gets it, everyone else the English."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.app_commands import TranslationContext, TranslationContextTypes, locale_str
from discord.app_commands import TranslationContextLocation as Location

from tests.discord import tree
from tests.language.extraction import marked_texts
from twixt.discord.translator import SAME_EVERYWHERE, CatalogueTranslator, name_key
from twixt.language import LOCALES, locale_of
from twixt.language.catalogue import catalogue_entries
from twixt.service.commands.listing import names_of
from twixt.service.commands.router import VOCABULARY

GERMAN = discord.Locale.german.value
#: Discord's locales of the languages the bot speaks besides English
SPOKEN_DISCORD_LOCALES = frozenset(locale.value for locale in discord.Locale
                                   if locale_of(locale.value) in LOCALES[1:])


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


def test_every_text_asked_for_is_marked_or_listed_and_has_every_translation(synced):
    """A description is marked where its command is declared; a name is one of those the
    service lists (each looked up as `name: …`)."""
    _, recording = synced
    marked = {text.english for text in marked_texts()}
    listed = names_of(VOCABULARY.listed)
    descriptions = {text for text, is_name in recording.asked if not is_name}
    names = {text for text, is_name in recording.asked if is_name} - SAME_EVERYWHERE
    assert len(descriptions) + len(names) > 200
    assert sorted(descriptions - marked) == []
    assert sorted(names - listed) == []
    keys = descriptions | {name_key(name) for name in names}
    for language in LOCALES[1:]:
        translated = catalogue_entries(language)
        assert sorted(key for key in keys if not translated.get(key)) == [], language


def test_every_name_listed_is_asked_for(synced):
    _, recording = synced
    asked = {text for text, is_name in recording.asked if is_name}
    assert sorted(names_of(VOCABULARY.listed) - asked) == []


def _commands(payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [*payload, *(sub for command in payload for sub in command["options"])]


def _localized(item: dict[str, Any], field: str, locale: str) -> str | None:
    return (item.get(f"{field}_localizations") or {}).get(locale)


@pytest.mark.parametrize("locale", sorted(SPOKEN_DISCORD_LOCALES))
def test_every_command_and_option_has_its_name_and_description_in_each_language(
        synced, locale):
    """The catalogue's translation wherever it differs from the English (a few words are the
    same: `team`, `status`, the move language's example)."""
    payload, _ = synced
    translated = catalogue_entries(locale_of(locale))
    items = [*_commands(payload), *(option for command in _commands(payload)
                                    for option in command.get("options", [])
                                    if option["type"] not in (1, 2))]
    assert len(items) > 60
    for item in items:
        name = item["name"]
        expected = translated[name_key(name)] if name not in SAME_EVERYWHERE else name
        assert _localized(item, "name", locale) == (expected if expected != name else None), name
        expected = translated[item["description"]]
        assert _localized(item, "description", locale) == (
            expected if expected != item["description"] else None), name
    assert all(_localized(command, "description", locale) for command in _commands(payload))


def test_what_a_german_player_sees(synced):
    payload, _ = synced
    groups = {command["name"]: command for command in payload}
    assert groups["twixt-settings"]["name_localizations"][GERMAN] == "twixt-einstellungen"
    twixt = {sub["name"]: sub for sub in groups["twixt"]["options"]}
    challenge = twixt["challenge"]
    assert challenge["name_localizations"][GERMAN] == "herausfordern"
    assert challenge["description_localizations"][GERMAN] == (
        "Fordere jemanden – oder alle hier – zu TwixT heraus")
    swap = next(option for option in challenge["options"] if option["name"] == "swap")
    assert swap["name_localizations"][GERMAN] == "tausch"
    assert [choice["name_localizations"][GERMAN] for choice in swap["choices"]] == [
        "ja", "nein"]
    assert [choice["value"] for choice in swap["choices"]] == ["yes", "no"]  # what is sent


def test_what_a_french_spanish_or_dutch_player_sees(synced):
    """Spain's Spanish and Latin America's are one; a word the same as the English (`no`)
    is left to the English."""
    payload, _ = synced
    groups = {command["name"]: command for command in payload}
    assert groups["twixt-settings"]["name_localizations"] == {
        GERMAN: "twixt-einstellungen", "fr": "twixt-paramètres", "es-ES": "twixt-ajustes",
        "es-419": "twixt-ajustes", "nl": "twixt-instellingen"}
    twixt = {sub["name"]: sub for sub in groups["twixt"]["options"]}
    assert twixt["move"]["name_localizations"] == {
        GERMAN: "zug", "fr": "coup", "es-ES": "jugada", "es-419": "jugada", "nl": "zet"}
    challenge = twixt["challenge"]
    assert challenge["description_localizations"]["nl"] == (
        "Daag iemand, of iedereen hier, uit voor TwixT")
    swap = next(option for option in challenge["options"] if option["name"] == "swap")
    shown = {locale: [(choice.get("name_localizations") or {}).get(locale)
                      for choice in swap["choices"]] for locale in ("fr", "es-419", "nl")}
    assert shown == {"fr": ["oui", "non"], "es-419": ["sí", None], "nl": ["ja", "nee"]}


@pytest.mark.parametrize("locale", [discord.Locale.american_english,
                                    discord.Locale.british_english,
                                    discord.Locale.brazil_portuguese, discord.Locale.japanese])
async def test_everyone_else_sees_the_english(locale):
    translator = CatalogueTranslator()
    for text, location, in_german in (
            ("Play TwixT", Location.group_description, "TwixT spielen"),
            ("challenge", Location.command_name, "herausfordern")):
        context: Any = TranslationContext(location=location, data=None)
        assert await translator.translate(locale_str(text), locale, context) is None
        german = await translator.translate(locale_str(text), discord.Locale.german, context)
        assert german == in_german


def test_only_the_languages_the_bot_speaks_are_localized(synced):
    payload, _ = synced
    seen = set()
    for command in _commands(payload):
        seen |= set(command.get("name_localizations") or {})
        seen |= set(command.get("description_localizations") or {})
    assert seen == SPOKEN_DISCORD_LOCALES == {GERMAN, "fr", "es-ES", "es-419", "nl"}
