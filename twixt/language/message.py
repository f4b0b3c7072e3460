"""A text for a player that is not yet in any language: its English template and values."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from string import Formatter

#: around a value that is shown as typed (a name, a move, a quote of what someone wrote):
#: the Unicode isolates FSI and PDI, which also keep a right-to-left name from turning the
#: text around it, and show nothing where a front end leaves them in. No value holds them
#: (`verbatim` drops them; names drop every invisible character, see `rules.visible`).
VERBATIM_START, VERBATIM_END = "\u2068", "\u2069"
_MARKS = str.maketrans("", "", VERBATIM_START + VERBATIM_END)


class Markup(str):
    """Text already said: the template's own formatting (bold, code, a channel link) as the
    front end reads it, with each value in it marked `verbatim`. It goes into a further
    template as it is; any other text put into a template is a value shown as typed."""

    __slots__ = ()


def verbatim(value: object) -> str:
    """`value` as text to be shown exactly as typed, whatever characters it holds: marked
    for the front end, which decides how (Discord escapes it so that it cannot format, link
    or ping; the terminal prints it). Every value of a template goes through here, so a name
    reaches a message only so; text put together without a template calls it itself."""
    text = str(value).translate(_MARKS)
    return f"{VERBATIM_START}{text}{VERBATIM_END}" if text else ""


def bold(value: object) -> Markup:
    """`**value**`: a name in bold, shown as typed inside."""
    return Markup(f"**{verbatim(value)}**")


def code(value: object) -> Markup:
    """`` `value` ``: a move or a command in a code span, shown as typed inside."""
    return Markup(f"`{verbatim(value)}`")


def unmarked(text: str) -> str:
    """`text` without the marks of `verbatim`: for places that show text but read no
    markup (a picture, a log line, a button's label)."""
    return text.translate(_MARKS)

#: how a template is looked up: gettext(template), or ngettext(singular, plural, n)
Lookup = Callable[[str], str]
PluralLookup = Callable[[str, str, int], str]


@dataclass(frozen=True)
class Message:
    """`template` in English with `{name}` fields filled from `values`; with `plural` set,
    `values["n"]` chooses between the two forms (each language of `LOCALES` has two forms,
    chosen by its own rule: French says 0 in the singular)."""

    template: str
    values: tuple[tuple[str, object], ...] = ()
    plural: str | None = None

    def say(self, lookup: Lookup, plural_lookup: PluralLookup) -> Markup:
        """The text in the language whose catalogue `lookup` reads; values that are messages
        are said in it too, text already said goes in as it is, and every other value is
        put in `verbatim`: the template's formatting is the only formatting."""
        filled = {name: _filled(value, lookup, plural_lookup) for name, value in self.values}
        return Markup(self.looked_up(lookup, plural_lookup).format(**filled))

    def looked_up(self, lookup: Lookup, plural_lookup: PluralLookup) -> str:
        """The template in the language whose catalogue `lookup` reads, fields not filled."""
        if self.plural is None:
            return lookup(self.template)
        return plural_lookup(self.template, self.plural, int(str(dict(self.values)["n"])))

    def __str__(self) -> str:
        """The English text (for logs, and for players who read English), unmarked."""
        return unmarked(self.say(_english, _english_plural))


class _Verbatim:
    """A value formatted first by its own format spec (`{rating:.0f}`, `{name:<12}`), then
    marked `verbatim`."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return verbatim(format(self.value, spec))


def _filled(value: object, lookup: Lookup, plural_lookup: PluralLookup) -> object:
    if isinstance(value, Message):
        return value.say(lookup, plural_lookup)
    if isinstance(value, Markup | bool | int | float):
        return value
    return _Verbatim(value)


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
