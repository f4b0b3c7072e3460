"""Finding every text the code marks for translation (see `language`), with Babel.

`python -m tests.language.extraction fr` prints the texts the French catalogues lack, as `.po`
entries to translate (any code of `language.LOCALES`; without one, German).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.extract import extract_from_dir

from twixt.service.errors import REFUSAL_KINDS

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("twixt",)

#: the marks, and which arguments are the English text (1-based; two for singular, plural)
KEYWORDS: dict[str, tuple[int, ...]] = {
    "tr": (1,),
    "plural": (1, 2),
    "message": (1,),
    "plural_message": (1, 2),
    "TwixtError": (1,),
    "InvalidMoveError": (1,),
    "IllegalMoveError": (1,),
    "OutOfTurnError": (1,),
    "RecordError": (2,),
    "locale_str": (1,),
    # the service refuses with one of its kinds, each taking its English text first
    **{kind.__name__: (1,) for kind in REFUSAL_KINDS},
}


@dataclass(frozen=True)
class Marked:
    """One marked text: its English (a tuple for singular and plural) and where it is."""

    english: str | tuple[str, str]
    where: str


def marked_texts() -> Iterator[Marked]:
    for package in PACKAGES:
        for filename, line, english, _, _ in extract_from_dir(
                ROOT / package, method_map=[("**.py", "python")],
                keywords=KEYWORDS, comment_tags=()):  # type: ignore[arg-type]
            if isinstance(english, tuple):
                if any(part is None for part in english):
                    continue  # not a literal: the guard test reports those
                yield Marked((english[0], english[1]), f"{package}/{filename}:{line}")
            elif english:
                yield Marked(english, f"{package}/{filename}:{line}")


def listed_name_keys() -> set[str]:
    """The catalogue's keys of the names the service lists (its commands', their options'
    and choices': `name: time`), which are read from the listings, not marked in the code,
    and of Discord's user commands."""
    from twixt.discord.translator import SAME_EVERYWHERE, name_key
    from twixt.discord.user_commands import NAMES
    from twixt.service.commands.listing import names_of
    from twixt.service.commands.router import VOCABULARY

    return {name_key(name) for name in (names_of(VOCABULARY.listed) | NAMES) - SAME_EVERYWHERE}


def built_texts() -> Iterator[str]:
    """Marked calls whose text is built (an f-string, `+`, `%`, `.format`): those cannot be
    translated, because the catalogue holds only literal templates."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = (node.func.id if isinstance(node.func, ast.Name)
                        else node.func.attr if isinstance(node.func, ast.Attribute) else None)
                for position in KEYWORDS.get(name or "", ()):
                    if position > len(node.args):
                        continue
                    argument = node.args[position - 1]
                    if _is_built(argument):
                        yield f"{path.relative_to(ROOT)}:{node.lineno}"


def _is_built(node: ast.expr) -> bool:
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format")


def _missing_entries(locale: str) -> str:
    """The entries a language's catalogues lack (a plural is known by its singular, as
    gettext looks it up)."""
    from twixt.language.catalogue import catalogue_entries

    known = {singular_of(english) for english in catalogue_entries(locale)}
    out = []
    listed = [Marked(key, "a listed command") for key in sorted(listed_name_keys())]
    for text in [*marked_texts(), *listed]:
        if singular_of(text.english) in known:
            continue
        out.append(f"#: {text.where}")
        if isinstance(text.english, tuple):
            out += [f"msgid {_po(text.english[0])}", f"msgid_plural {_po(text.english[1])}",
                    'msgstr[0] ""', 'msgstr[1] ""', ""]
        else:
            out += [f"msgid {_po(text.english)}", 'msgstr ""', ""]
        known.add(singular_of(text.english))
    return "\n".join(out)


def singular_of(english: object) -> str:
    """A catalogue's key for a text: its English, or a plural's singular."""
    return str(english[0] if isinstance(english, tuple) else english)


def _po(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


if __name__ == "__main__":
    import sys

    from twixt.language import LOCALES

    asked = sys.argv[1] if len(sys.argv) > 1 else "de"
    if asked not in LOCALES[1:]:
        sys.exit(f"{asked} is not a translated language: choose one of {', '.join(LOCALES[1:])}")
    print(_missing_entries(asked))
