"""A text for a player that is not yet in any language: its English template and values."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from string import Formatter

#: how a template is looked up: gettext(template), or ngettext(singular, plural, n)
Lookup = Callable[[str], str]
PluralLookup = Callable[[str, str, int], str]


@dataclass(frozen=True)
class Message:
    """`template` in English with `{name}` fields filled from `values`; with `plural` set,
    `values["n"]` chooses between the two forms (in German as in English, one or other)."""

    template: str
    values: tuple[tuple[str, object], ...] = ()
    plural: str | None = None

    def say(self, lookup: Lookup, plural_lookup: PluralLookup) -> str:
        """The text in the language whose catalogue `lookup` reads; values that are messages
        are said in it too."""
        filled = {name: value.say(lookup, plural_lookup) if isinstance(value, Message)
                  else value for name, value in self.values}
        return self.looked_up(lookup, plural_lookup).format(**filled)

    def looked_up(self, lookup: Lookup, plural_lookup: PluralLookup) -> str:
        """The template in the language whose catalogue `lookup` reads, fields not filled."""
        if self.plural is None:
            return lookup(self.template)
        return plural_lookup(self.template, self.plural, int(str(dict(self.values)["n"])))

    def __str__(self) -> str:
        """The English text (for logs, and for players who read English)."""
        return self.say(_english, _english_plural)


def message(template: str, **values: object) -> Message:
    """A text to say later, e.g. `message("{hole} is already taken", hole="G6")`."""
    return Message(template, tuple(values.items()))


def plural_message(singular: str, plural: str, n: int, **values: object) -> Message:
    """A text with a count: `plural_message("{n} peg", "{n} pegs", n)`."""
    return Message(singular, (("n", n), *values.items()), plural)


def fields(template: str) -> set[str]:
    """The placeholders of a template: `fields("{a} and {b}")` is `{"a", "b"}`."""
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def _english(template: str) -> str:
    return template


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural
