"""One word, one meaning: no public name is defined in two modules of the package, and `bot`
names the Discord bot only.

A name defined in two places with two meanings makes the next engineer look up which one a
module means (an `Outcome` of the rules is how a game ended, a search's is something else).
Read from the source with `ast`: every public class, function and assignment at a module's
top level. Constants (`WORDS`, `DATA`: each module's own, read through its module) and each
module's logger are not counted.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "twixt"

_RECORD_FORMATS = frozenset({
    "twixt/rules/records/__init__.py", "twixt/rules/records/littlegolem.py",
    "twixt/rules/records/t1.py", "twixt/rules/records/transcript.py"})

#: names defined in several modules on purpose, each with the same meaning in its own place
SAME_MEANING: dict[str, frozenset[str]] = {
    # each record format's module reads and writes its own format, and `records.read` and
    # `records.write` do it for the format named: one meaning, per format
    "read": _RECORD_FORMATS,
    "write": _RECORD_FORMATS,
    # each back end's numbered migrations: SQLite's from the schema module that applies them,
    # PostgreSQL's from its back end (read by the same loader from its own folder)
    "migrations": frozenset({"twixt/storage/schema.py", "twixt/storage/backends/postgres.py"}),
}

#: names with `bot` in them outside the Discord front end, each of them the Discord bot (a
#: name that says `discord` too, `discord_bot`, needs no place here)
DISCORD_BOT = {
    "_run_bot",     # `twixt run`: starts the Discord bot
    "bot_token",    # the Discord bot's token, for the Activity's token exchange
    "_bot_token",
    # the server setting `botgames`, stored under its name: games with the Discord bot (the
    # engine in its seats) that one player may have in progress at once
    "bot_games",
}


def _module_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [target.id for target in node.targets if isinstance(target, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return [name for name in names
            if not name.startswith("_") and not name.isupper() and name != "log"]


def defined_twice(root: Path = ROOT) -> dict[str, frozenset[str]]:
    """Each public name defined in two or more modules of `root`'s package, and where."""
    homes: defaultdict[str, set[str]] = defaultdict(set)
    for path in sorted((root / "twixt").rglob("*.py")):
        for name in _module_names(ast.parse(path.read_text(encoding="utf-8"))):
            homes[name].add(path.relative_to(root).as_posix())
    return {name: frozenset(found) for name, found in homes.items() if len(found) > 1}


def test_no_public_name_is_defined_in_two_modules_with_two_meanings() -> None:
    twice = [f"{name}: {', '.join(sorted(homes))}" for name, homes in defined_twice().items()
             if SAME_MEANING.get(name) != homes]
    assert not twice, ("public names defined in two modules: rename one to say what it is "
                       "(or, if it means the same in each, add it to SAME_MEANING):\n"
                       + "\n".join(sorted(twice)))


def test_each_name_allowed_twice_is_still_defined_twice() -> None:
    assert set(SAME_MEANING) <= set(defined_twice())


def test_the_rule_sees_a_name_defined_twice(tmp_path: Path) -> None:
    for module, text in (("rules/model.py", "class Outcome:\n    pass\n"),
                         ("engine/search.py", "Outcome = tuple[int, float]\n"),
                         ("engine/api.py", "WIDTH = 3\nlog = None\n_Outcome = 1\n")):
        (tmp_path / "twixt" / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "twixt" / module).write_text(text, encoding="utf-8")
    assert defined_twice(tmp_path) == {
        "Outcome": frozenset({"twixt/rules/model.py", "twixt/engine/search.py"})}


def _identifiers(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
    return found


def test_bot_names_only_the_discord_bot() -> None:
    """Outside the Discord front end the engine's seats are the engine's (`engine_seats`,
    `with_engine`), not a bot's."""
    word = re.compile(r"(^|_)bots?($|_)", re.IGNORECASE)
    named = {(path.relative_to(ROOT).as_posix(), name)
             for path in sorted(PACKAGE.rglob("*.py")) if path.parent.name != "discord"
             for name in _identifiers(ast.parse(path.read_text(encoding="utf-8")))
             if word.search(name) and name not in DISCORD_BOT
             and "discord" not in name.lower()}
    assert not named, f"`bot` naming something other than the Discord bot: {sorted(named)}"
