"""The slash commands in the player's language: discord.py's `Translator` over the bot's
gettext catalogues.

When the commands are synced, discord.py asks the translator for every name and description
of the command groups, their commands and options, and the names of the options' choices,
once for each of Discord's locales; what it answers becomes the command's
`name_localizations` and `description_localizations`, which a Discord client shows in its
language. German locales get German; every other locale (and a text with no German) gets
none, so it sees the English.

Descriptions are marked `locale_str("…")` where they are written. Names are not written as
text anywhere: discord.py takes them from the methods, their parameters and the `Literal`
values of the options, so they are marked here (`NAMES`, read only by the catalogue's
extraction), each as `name: <the name>` (see `name_key`);
`tests/discord/test_translator.py` checks that every text discord.py asks for is one or
the other, or one of the names that are the same in every language (`SAME_EVERYWHERE`).

A German name follows Discord's rules for names (lower case, no spaces, 32 characters) and
differs from the command's other options; Discord still finds a command by its English
name, which is the name the bot's hints and the move language use.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location
from discord.app_commands import TranslationContextTypes, locale_str

from twixt.language import Message, locale_of, translation

#: names that stay as they are in every language (the game's name, a format's short name)
SAME_EVERYWHERE = frozenset({"twixt", "pp", "lg", "t1"})

#: every other name discord.py asks for: groups, commands, options and the options' choices
NAMES = (
    # the groups
    locale_str("name: twixt-records"), locale_str("name: twixt-settings"),
    # `/twixt …`
    locale_str("name: challenge"), locale_str("name: team"), locale_str("name: accept"),
    locale_str("name: decline"), locale_str("name: move"), locale_str("name: swap"),
    locale_str("name: privilege"), locale_str("name: resign"), locale_str("name: draw"),
    locale_str("name: board"), locale_str("name: status"), locale_str("name: help"),
    locale_str("name: abort"), locale_str("name: claim"), locale_str("name: takeback"),
    locale_str("name: rematch"), locale_str("name: games"), locale_str("name: note"),
    locale_str("name: notes"), locale_str("name: if"),
    # `/twixt-records …`
    locale_str("name: export"), locale_str("name: history"), locale_str("name: replay"),
    locale_str("name: import"), locale_str("name: stats"), locale_str("name: leaderboard"),
    locale_str("name: analyze"),
    # `/twixt-tournament …` (their German is in service-tournaments.po)
    locale_str("name: twixt-tournament"), locale_str("name: create"), locale_str("name: join"),
    locale_str("name: leave"), locale_str("name: start"), locale_str("name: withdraw"),
    locale_str("name: standings"), locale_str("name: list"), locale_str("name: info"),
    locale_str("name: next-season"), locale_str("name: event"), locale_str("name: name"),
    locale_str("name: rounds"), locale_str("name: group"), locale_str("name: double"),
    locale_str("name: teams"), locale_str("name: signup"), locale_str("name: roundrobin"),
    locale_str("name: swiss"), locale_str("name: league"),
    # `/twixt-settings …`
    locale_str("name: me"), locale_str("name: server"), locale_str("name: vacation"),
    locale_str("name: digest"), locale_str("name: next"),
    # options
    locale_str("name: user"), locale_str("name: size"), locale_str("name: rules"),
    locale_str("name: handicap"), locale_str("name: first"), locale_str("name: thread"),
    locale_str("name: time"), locale_str("name: partner"), locale_str("name: opponent1"),
    locale_str("name: opponent2"), locale_str("name: opponent"), locale_str("name: command"),
    locale_str("name: action"), locale_str("name: format"), locale_str("name: page"),
    locale_str("name: game"), locale_str("name: file"), locale_str("name: theme"),
    locale_str("name: palette"), locale_str("name: side"), locale_str("name: dm"),
    locale_str("name: autolink"), locale_str("name: expiry"), locale_str("name: forfeit"),
    locale_str("name: reminder"), locale_str("name: text"), locale_str("name: clear"),
    locale_str("name: confirm"), locale_str("name: moves"), locale_str("name: days"),
    locale_str("name: end"), locale_str("name: weekends"), locale_str("name: vacationdays"),
    locale_str("name: level"), locale_str("name: takebacks"), locale_str("name: botgames"),
    locale_str("name: hour"), locale_str("name: timezone"),
    # choices
    locale_str("name: classic"), locale_str("name: yes"), locale_str("name: no"),
    locale_str("name: them"), locale_str("name: random"), locale_str("name: offer"),
    locale_str("name: request"), locale_str("name: transcript"), locale_str("name: light"),
    locale_str("name: dark"), locale_str("name: normal"), locale_str("name: colour-blind"),
    locale_str("name: red"), locale_str("name: black"), locale_str("name: any"),
    locale_str("name: on"), locale_str("name: off"),
)


class CatalogueTranslator(app_commands.Translator):
    """Names and descriptions of the commands from the German catalogue, for German
    clients."""

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
