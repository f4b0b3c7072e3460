"""docs/architecture.md is a five-minute read whose testable claims are true: at most 1,500
words, no history (issue numbers, commit hashes), every path and every code name it cites
present in the repository, its table of rooms the one `tests/test_layers.py` enforces, and its
steps for adding a command the ones `tests/discord/test_adding_a_command.py` takes.

A code span that reads as a name (`Desk.commit`, `router.read_command(...)`, `Words(PLAY)`) or as a
path (`twixt/web/`, `port.py`) is a citation: the page keeps other words out of code spans."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest

from tests import test_layers

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
TEXT = PAGE.read_text(encoding="utf-8")
#: a five-minute read
MAX_WORDS = 1500
#: the folders whose paths and names the page may cite
SOURCES = ("twixt", "tests", "benchmarks", "support")

_CODE_SPAN = re.compile(r"`([^`\n]+)`")
#: `name`, `Class.method`, `module.name`, `@decorator(...)`, `call(...)`
_NAME = re.compile(r"^@?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\(.*\))?$")
#: `folder/`, `folder/file.py`, `file.py`, `twixt/language/locales/de/*.po`
_PATH = re.compile(r"^[\w.*-]+(?:/[\w.*-]+)*/?$")
_HISTORY = (re.compile(r"\b(?:issues?|items?|PRs?|pull requests?)\s+#?\d+", re.IGNORECASE),
            re.compile(r"(?<![\w/])#\d+\b"),
            re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"))


def _section(heading: str) -> str:
    """The page's text under `heading`, up to the next heading of its level or above."""
    lines = TEXT.splitlines()
    start = next(number for number, line in enumerate(lines)
                 if line.startswith("#") and line.lstrip("#").strip() == heading)
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next((number for number in range(start + 1, len(lines))
                if re.match(rf"^#{{1,{level}}}\s", lines[number])), len(lines))
    return "\n".join(lines[start + 1:end])


def _spans(text: str = TEXT) -> list[str]:
    return _CODE_SPAN.findall(text)


def test_it_is_a_five_minute_read():
    assert len(TEXT.split()) <= MAX_WORDS


def test_it_carries_no_history():
    found = [match.group(0) for pattern in _HISTORY for match in pattern.finditer(TEXT)]
    assert found == [], "history belongs in git"


def test_the_history_finder_finds_history():
    text = "as issue 42 item 3 asked (#17), at 23cdccd, not in 2026 nor in `add`"
    assert [m.group(0) for pattern in _HISTORY for m in pattern.finditer(text)] == [
        "issue 42", "item 3", "#17", "23cdccd"]


# --- paths --------------------------------------------------------------------------------

def _cited_paths() -> list[str]:
    return sorted({span for span in _spans() if "/" in span or span.endswith(".py")
                   if _PATH.match(span) and not span.startswith("/")})


def _present(path: str) -> bool:
    """A path from the repository's root (`twixt/…`), or a module's or folder's name as the
    page gives it within its room (`cases/`, `port.py`), found among the sources."""
    if any(ROOT.glob(path.rstrip("/"))):
        return True
    return any(found.is_relative_to(ROOT / source) for source in SOURCES
               for found in ROOT.glob("**/" + path.rstrip("/")))


@pytest.mark.parametrize("path", _cited_paths())
def test_every_path_it_cites_is_there(path: str):
    assert _present(path), path


# --- names --------------------------------------------------------------------------------

def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _definitions() -> dict[str, set[tuple[str, str]]]:
    """Each name defined in the sources → (module, where in it): the modules themselves,
    what a module defines at its top, and what its classes define (their attributes, fields
    and the attributes their methods set on `self`)."""
    found: dict[str, set[tuple[str, str]]] = {}
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            module = _module_name(path)
            found.setdefault(module.rpartition(".")[2], set()).add((module, ""))
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                for name in _defined(node):
                    found.setdefault(name, set()).add((module, name))
                if isinstance(node, ast.ClassDef):
                    for name in _members(node):
                        found.setdefault(name, set()).add((module, f"{node.name}.{name}"))
    return found


def _defined(node: ast.stmt) -> Iterator[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.Assign):
        yield from (target.id for target in node.targets if isinstance(target, ast.Name))
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        yield node.target.id


def _members(node: ast.ClassDef) -> Iterator[str]:
    for statement in node.body:
        yield from _defined(statement)
    for inner in ast.walk(node):
        if (isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store)
                and isinstance(inner.value, ast.Name) and inner.value.id == "self"):
            yield inner.attr


DEFINED = _definitions()


def _member(owner: Any, name: str) -> Any:
    """`owner.name`: an attribute, a submodule, a dataclass's field, or what a class's
    methods set on `self`; raises AttributeError when there is none."""
    if hasattr(owner, name):
        return getattr(owner, name)
    if inspect.ismodule(owner) and importlib.util.find_spec(f"{owner.__name__}.{name}"):
        return importlib.import_module(f"{owner.__name__}.{name}")
    if inspect.isclass(owner):
        if is_dataclass(owner) and name in {field.name for field in fields(owner)}:
            return None
        for klass in owner.__mro__:
            if klass.__module__.split(".")[0] in SOURCES and (
                    klass.__module__, f"{klass.__name__}.{name}") in DEFINED.get(name, ()):
                return None
    raise AttributeError(name)


def _resolves(dotted: str) -> bool:
    """Whether `dotted` names something: `twixt.x.y` (or a standard module's
    `functools.partial`) from the package down, anything else from a name that a module of
    the sources, or a class in one, defines."""
    first, *rest = dotted.split(".")
    starts = ([(first, "")] if first in SOURCES or first in sys.stdlib_module_names
              else sorted(DEFINED.get(first, ())))
    for module, within in starts:
        try:
            owner: Any = importlib.import_module(module)
            for part in [*filter(None, within.split(".")), *rest]:
                owner = _member(owner, part)
        except (AttributeError, ImportError):
            continue
        return True
    return False


def _cited_names() -> list[str]:
    names = set()
    for span in _spans():
        if span.startswith("python -m "):
            names.add(span.removeprefix("python -m ").split()[0])
        elif (match := _NAME.match(span)) and not span.endswith(".py"):
            # the name, and the classes and constants given to it (`Words(PLAY)`)
            names |= {match.group(1), *re.findall(r"\b[A-Z]\w*", span[match.end(1):])}
    return sorted(names)


@pytest.mark.parametrize("name", _cited_names())
def test_every_name_it_cites_is_in_the_code(name: str):
    assert _resolves(name), name


def test_the_name_finder_tells_present_from_absent():
    assert _resolves("twixt.service.TwixtService.answer")
    assert _resolves("Desk.turn_played")  # set on `self` in its constructor
    assert _resolves("Reply.refused")  # a dataclass's field
    assert _resolves("router.VOCABULARY")
    assert not _resolves("Desk.no_such_thing")
    assert not _resolves("twixt.storage.common.NoSuchStorage")
    assert _resolves("functools.partial") and not _resolves("functools.no_such_thing")
    assert _cited_paths() and _cited_names()


# --- the rooms ------------------------------------------------------------------------------

def _room(cell: str) -> str:
    """`twixt/service/` or `twixt/config.py` → twixt.service, twixt.config."""
    return cell.strip().strip("`").rstrip("/").removesuffix(".py").replace("/", ".")


def _rooms_table() -> dict[str, set[str]]:
    """The page's table of rooms: each room → the rooms it may import."""
    rows = [line.strip().strip("|").split("|") for line in _section("The rooms").splitlines()
            if line.startswith("| `")]
    return {_room(room): ({f"twixt.{word.strip()}" for word in imports.split(",")}
                          if imports.strip() != "nothing" else set())
            for room, _job, imports in rows}


def test_its_table_of_rooms_is_the_one_the_layers_test_enforces():
    assert _rooms_table() == test_layers.ALLOWED


def test_each_room_imports_only_rooms_above_it():
    order = list(_rooms_table())
    below = {room: [other for other in imports if other in order
                    and order.index(other) > order.index(room)]
             for room, imports in _rooms_table().items()}
    assert {room: others for room, others in below.items() if others} == {}


# --- adding a command -----------------------------------------------------------------------

ADDING = ROOT / "tests" / "discord" / "test_adding_a_command.py"


def _steps() -> list[str]:
    """The numbered steps under "A command", each its text."""
    return re.split(r"^\d+\. ", _section("A command"), flags=re.MULTILINE)[1:]


def _declaring_names() -> set[str]:
    """The names of the service's commands package that the test's command and its handler
    are declared with (its module's part above its first fixture), annotations aside."""
    tree = ast.parse(ADDING.read_text(encoding="utf-8"))
    imported = {alias.asname or alias.name for node in tree.body
                if isinstance(node, ast.ImportFrom)
                and (node.module or "").startswith("twixt.service.commands")
                for alias in node.names}
    used: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any(
                ast.unparse(decorator).startswith("pytest") for decorator in node.decorator_list):
            break
        used |= _names_outside_annotations(node)
    return imported & used


def _names_outside_annotations(node: ast.AST) -> set[str]:
    annotations = {id(inner) for outer in ast.walk(node)
                   for part in (getattr(outer, "annotation", None), getattr(outer, "returns", None))
                   if part is not None for inner in ast.walk(part)}
    return {inner.id for inner in ast.walk(node)
            if isinstance(inner, ast.Name) and id(inner) not in annotations}


def test_its_steps_for_a_command_are_the_ones_the_test_takes():
    parts = re.findall(r"^# --- (.+?) -+$", ADDING.read_text(encoding="utf-8"), re.MULTILINE)
    titles = [re.findall(r"^\*\*(.+?)\*\*", step)[0] for step in _steps()]
    assert titles[:len(parts)] == parts == ["the subject's command module", "its handler"]
    assert titles[len(parts):] == ["its catalogue lines"]  # the German, once it has its lines
    cited = {word for span in _spans("".join(_steps())) for word in re.findall(r"\w+", span)}
    assert _declaring_names() - cited == set()
    assert f"`{ADDING.relative_to(ROOT)}`" in _section("A command")
