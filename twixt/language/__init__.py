"""The languages the bot speaks: English, in which every text is written, and German,
French, Spanish and Dutch (`LOCALES`).

Text for a player is written once, in English, where it is said, marked so that tools can
find it: `tr("…")` and `tr.plural(…)` for text said at once, `message(…)` and
`plural_message(…)` for text said later (an error's reason, a caption's words), and the
error classes whose first argument is such a text. The English is the key of a gettext
catalogue (`twixt/language/locales/<language>/*.po`); `tests/language` checks that every
marked text has a translation in every language, with the same `{placeholders}`.

Placeholders are `str.format` fields; values are put in after translation, so a player's
name or text is never read as a template. A value may itself be a `Message`: it is said in
the same language. Every other value is shown as typed: it is marked `verbatim`, and each
front end shows marked text in its own way (Discord escapes its markdown and mentions), so
that the template's formatting is the only formatting of a message; text already said
(`Markup`, what `tr` returns) goes into a further template as it is.

This package is the lowest floor beside `rules`: it imports nothing of the project. Loading
a catalogue needs Babel, imported only when a language other than English is first used.
"""

from twixt.language.catalogue import (
                              LOCALES,
                              Translation,
                              decimal_sign,
                              locale_of,
                              translation,
)
from twixt.language.message import (
                              VERBATIM_END,
                              VERBATIM_START,
                              Markup,
                              Message,
                              bold,
                              code,
                              message,
                              plural_message,
                              unmarked,
                              verbatim,
)

__all__ = ["LOCALES", "VERBATIM_END", "VERBATIM_START", "Markup", "Message", "Translation",
           "bold", "code", "decimal_sign", "locale_of", "message", "plural_message",
           "translation", "unmarked", "verbatim"]
