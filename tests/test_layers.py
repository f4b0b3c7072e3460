"""The layers import in one direction, and no modules import each other in a circle.

Read from the source with `ast`, so a wrong import fails here before it can work by accident
(as `respond → outbox → replies → views → respond` once did, through late attribute reads).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("twixt",)

#: a layer → the first-party packages it may import (besides itself)
ALLOWED = {
    "twixt.language": set(),
    "twixt.rules": {"twixt.language"},
    "twixt.engine": {"twixt.rules"},
    "twixt.rendering": {"twixt.language", "twixt.rules"},
    "twixt.storage": {"twixt.rules"},
    "twixt.config": {"twixt.storage"},
    "twixt.service": {"twixt.language", "twixt.rules", "twixt.engine", "twixt.rendering",
                      "twixt.storage"},
    # the front ends: the service's face, never the storage nor each other
    "twixt.terminal": {"twixt.language", "twixt.rules", "twixt.service", "twixt.config"},
    "twixt.web": {"twixt.language", "twixt.rules", "twixt.service"},
    "twixt.discord": {"twixt.language", "twixt.rules", "twixt.service", "twixt.config"},
    # the process's composition root: opens the storage, puts the front ends together
    "twixt.app": {"twixt.language", "twixt.rules", "twixt.storage", "twixt.service",
                  "twixt.config", "twixt.terminal", "twixt.web", "twixt.discord"},
    # the command line reads its arguments and calls the root, or the layers it runs alone
    "twixt.cli": {"twixt.language", "twixt.rules", "twixt.engine", "twixt.rendering",
                  "twixt.service", "twixt.config", "twixt.app"},
}
#: the front ends: only the composition root opens the storage
FRONT_ENDS = ("twixt.terminal", "twixt.web", "twixt.discord", "twixt.cli")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(module: str, *, top_level_only: bool) -> Iterator[str]:
    """The first-party modules `module` imports (at its top level only, if asked)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in nodes:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from package import module` depends on the module; `from module import name`
            # on the module that holds the name
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                     for alias in node.names]
        else:
            continue
        for name in names:
            target = _known(name)
            if target is not None and target != module:
                yield target


def _known(name: str) -> str | None:
    """The longest known module that `name` is or lies in."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _layer(module: str) -> str:
    for layer in sorted(ALLOWED, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return module.split(".")[0]


def _top_package(module: str) -> str:
    layer = _layer(module)
    return layer if layer in ALLOWED else module.split(".")[0]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) in ALLOWED))
def test_each_layer_imports_only_the_layers_below_it(module):
    layer = _layer(module)
    wrong = {target for target in _imports(module, top_level_only=False)
             if _layer(target) != layer and not any(
                 target == allowed or target.startswith(allowed + ".")
                 for allowed in ALLOWED[layer])}
    assert not wrong, f"{module} ({layer}) imports {sorted(wrong)}"


def test_every_module_lies_in_a_layer():
    assert [m for m in MODULES if m != "twixt" and _layer(m) not in ALLOWED] == []


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_no_front_end_imports_the_storage_nor_another_front_end(front_end):
    others = {"twixt.storage", *FRONT_ENDS} - {front_end}
    assert not others & ALLOWED[front_end]
    reached = {_layer(target) for module in MODULES if _layer(module) == front_end
               for target in _imports(module, top_level_only=False)}
    assert not others & reached, f"{front_end} imports {sorted(others & reached)}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_discord_front_end_imports_discord(module):
    if module.startswith("twixt.discord"):
        return
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                 else [])
        assert not any(n == "discord" or n.startswith("discord.") for n in names), module


def test_no_modules_import_each_other_in_a_circle():
    graph = {m: set(_imports(m, top_level_only=True)) for m in MODULES}
    circles = _circles(graph)
    assert circles == [], circles


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


#: the service's pure arithmetic → the service modules it may import (besides its own)
BELOW_CORE = {
    "twixt.service.pure": {"twixt.service.model", "twixt.service.errors"},
}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if any(
    m == below or m.startswith(below + ".") for below in BELOW_CORE)))
def test_the_pure_time_and_tournament_arithmetic_imports_nothing_above_it(module):
    below = next(b for b in sorted(BELOW_CORE, key=len, reverse=True)
                 if module == b or module.startswith(b + "."))
    wrong = {target for target in _imports(module, top_level_only=False)
             if target.startswith("twixt.service") and target not in BELOW_CORE[below]
             and not target.startswith(below + ".") and target != below}
    assert not wrong, f"{module} imports {sorted(wrong)}, above it"


def _service_part(module: str) -> str:
    """The module's part of the service: its subject package, or the module itself."""
    return ".".join(module.split(".")[:3])


def test_the_service_subjects_import_each_other_without_a_circle():
    """Read as whole packages, no import of the service runs back up: a module grouped into
    a package it does not belong to (`clocks` into `clock`) would close a circle here."""
    graph: dict[str, set[str]] = {}
    for module in MODULES:
        if module.startswith("twixt.service."):
            graph.setdefault(_service_part(module), set()).update(
                _service_part(target) for target in _imports(module, top_level_only=False)
                if target.startswith("twixt.service.")
                and _service_part(target) != _service_part(module))
    assert _circles(graph) == []
