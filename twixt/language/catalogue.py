"""Saying a text in one language: the catalogues, and which language a Discord locale means."""

from __future__ import annotations

import gettext
import io
from functools import cache
from typing import TYPE_CHECKING

from twixt.language.message import Markup, Message, message, plural_message, verbatim

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

#: the languages the bot speaks, English first (the language every text is written in);
#: each other one has a folder of catalogues, `locales/<code>/`
LOCALES = ("en", "de", "fr", "es", "nl")


def locale_of(discord_locale: object) -> str:
    """The language for a Discord locale (`de`, `es-ES`, `es-419`, `en-US`, …, or None), a
    browser's language tag (`fr-CH`) or a `--locale`: the language of `LOCALES` it names,
    whatever the region (Spain's Spanish and Latin America's are one catalogue), and English
    for everything else.

    >>> locale_of("de"), locale_of("es-419"), locale_of("es_ES"), locale_of("nl"), locale_of("FR")
    ('de', 'es', 'es', 'nl', 'fr')
    >>> locale_of("en-GB"), locale_of(None), locale_of("pt-BR"), locale_of("")
    ('en', 'en', 'en', 'en')
    """
    code = str(discord_locale or "").replace("_", "-").split("-")[0].lower()
    return code if code in LOCALES else "en"


@cache
def decimal_sign(locale: str) -> str:
    """The sign before a number's fraction in a language of `LOCALES`, as CLDR writes it:
    `.` in English, `,` in German, French, Spanish and Dutch.

    >>> [decimal_sign(locale) for locale in LOCALES]
    ['.', ',', ',', ',', ',']
    """
    if locale not in LOCALES[1:]:
        return "."  # English, without loading Babel
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(locale)


class Translation:
    """One language. `tr("…", name=value)` says a template at once, `tr.plural(…)` one with a
    count, `tr.say(message)` a `Message` made earlier. Each gives `Markup` (typed as the
    `str` it is, so that said lines gather in plain lists), its values marked `verbatim`."""

    def __init__(self, locale: str, catalogue: gettext.NullTranslations) -> None:
        self.locale = locale
        self._catalogue = catalogue

    def __call__(self, template: str, **values: object) -> str:
        return self.say(message(template, **values))

    def plural(self, singular: str, plural: str, n: int, **values: object) -> str:
        """`tr.plural("{n} peg", "{n} pegs", 3)`: `n` is a value of the template too."""
        return self.say(plural_message(singular, plural, n, **values))

    def say(self, text: Message | str) -> str:
        """A message in this language; a plain string (a name, a quote) is said as typed,
        `Markup` as it is."""
        if isinstance(text, Markup):
            return text
        if isinstance(text, str):
            return Markup(verbatim(text))
        return text.say(self._catalogue.gettext, self._catalogue.ngettext)

    def template(self, text: Message) -> str:
        """The message's template in this language, its fields not yet filled: for a caller
        that sets each value in a style of its own (a name, a swatch in the caption)."""
        return text.looked_up(self._catalogue.gettext, self._catalogue.ngettext)


@cache
def translation(locale: str) -> Translation:
    """The translation for a locale of `LOCALES` (anything else is English)."""
    if locale not in LOCALES[1:]:
        return Translation("en", gettext.NullTranslations())
    return Translation(locale, gettext.GNUTranslations(io.BytesIO(compiled_catalogue(locale))))


def compiled_catalogue(locale: str) -> bytes:
    """The `.mo` bytes of a language's catalogue: gettext reads those (fuzzy entries, which a
    translator has not confirmed, are left out, so their English shows)."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, merged_catalogue(locale))
    return buffer.getvalue()


def merged_catalogue(locale: str) -> Catalog:
    """All `.po` files of a language as one catalogue: each part of the code keeps its own
    file, so that people translating different parts do not edit one file."""
    from importlib import resources

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    merged = Catalog(locale=locale)
    folder = resources.files("twixt.language").joinpath("locales", locale)
    for part in sorted(folder.iterdir(), key=lambda path: path.name):
        if part.name.endswith(".po"):
            with part.open("rb") as file:
                read = read_po(file, locale=locale)
            # the files' `Plural-Forms` rule, not Babel's from CLDR (which gives French and
            # Spanish a third form, for millions, that gettext's two forms do not have)
            merged.mime_headers = read.mime_headers
            for entry in read:
                if entry.id:
                    merged[entry.id] = entry
    return merged


def catalogue_entries(locale: str) -> dict[object, object]:
    """Each English text of a language's catalogue, with its translation(s)."""
    return {entry.id: entry.string for entry in merged_catalogue(locale) if entry.id}
