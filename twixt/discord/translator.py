"""The slash commands in the player's language: discord.py's `Translator` over the bot's
gettext catalogues.

When the commands are synced, discord.py asks the translator for every name and description
of the command groups, their commands and options, and the names of the options' choices,
once for each of Discord's locales; what it answers becomes the command's
`name_localizations` and `description_localizations`, which a Discord client shows in its
language. A locale of a language the bot speaks (`language.LOCALES`: `de`, `fr`, `es-ES` and
`es-419`, `nl`) gets that language; every other locale (and a text the catalogue reads as in
English) gets none, so it sees the English.

The commands are derived from the service's listings (`slash`): a description is marked
`message("…")` where its command is declared, and its translation is the catalogue's entry
for that English; a name (of a group, a command, an option or a choice) is looked up as
`name: <the name>` (see `name_key`), unless it is one that is the same in every language
(`SAME_EVERYWHERE`). `tests/discord/test_translator.py` checks that every text discord.py
asks for has a translation in every language.

A translated name follows Discord's rules for names (lower case, no spaces, 32 characters)
and differs from the command's other options (`tests/discord/test_limits.py`); Discord still
finds a command by its English name, which is the name the bot's hints and the move language
use.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location
from discord.app_commands import TranslationContextTypes, locale_str

from twixt.language import Message, locale_of, translation

#: names that stay as they are in every language (the game's name, a format's short name)
SAME_EVERYWHERE = frozenset({"twixt", "pp", "lg", "t1"})

class CatalogueTranslator(app_commands.Translator):
    """Names and descriptions of the commands from the catalogue of the client's language."""

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: TranslationContextTypes) -> str | None:
        return said_in(string.message, locale, is_name=context.location in NAME_LOCATIONS)


#: where discord.py asks for a name (the rest are descriptions)
NAME_LOCATIONS = frozenset({Location.group_name, Location.command_name,
                            Location.parameter_name, Location.choice_name})


def said_in(english: str, locale: discord.Locale, *, is_name: bool) -> str | None:
    """A command's name or description in a Discord locale's language; None where it reads
    as in English."""
    language = locale_of(locale)
    if language == "en" or english in SAME_EVERYWHERE:
        return None
    key = name_key(english) if is_name else english
    said = translation(language).template(Message(key))
    return said if said not in (key, english) else None


def name_key(name: str) -> str:
    """The catalogue's key for a name: `name: time`. A name is a word, which the catalogue
    may hold for other uses too (`time` as a game's end is *Zeitüberschreitung*); the key
    keeps the command's words apart, in the lower case and without spaces that Discord
    wants for them."""
    return f"name: {name}"
