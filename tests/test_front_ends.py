"""The front ends touch the service only through its face: `TwixtService`'s public methods,
and what `twixt.service` offers (the model, the port, the limits of options), its commands and
its router. Read from the source with `ast`, so that a reach into the service's insides
(`service.desk.storage`, `service.engine_player.deliver = …`) fails here before it can work.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

import twixt.service
from twixt.service import TwixtService

ROOT = Path(__file__).resolve().parents[1]
FRONT_ENDS = ("twixt/discord", "twixt/terminal", "twixt/web", "twixt/cli", "twixt/app")
#: the service's modules a front end may import from besides the package itself
FACES = {"twixt.service", "twixt.service.commands", "twixt.service.commands.router"}
#: the names a service is held by in the front ends
HOLDERS = {"service", "_service"}
PUBLIC = {name for name, member in inspect.getmembers(TwixtService)
          if not name.startswith("_") and callable(member)}


def _sources() -> Iterator[Path]:
    for folder in FRONT_ENDS:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _held(node: ast.expr) -> bool:
    """Whether `node` is a service as a front end holds one: `service`, `self.service`."""
    if isinstance(node, ast.Name):
        return node.id in HOLDERS
    return isinstance(node, ast.Attribute) and node.attr in HOLDERS


def _reaches(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("twixt.service"):
            module = node.module or ""
            if module not in FACES:
                yield f"line {node.lineno}: from {module} import …"
            elif module == "twixt.service":
                for alias in node.names:
                    if alias.name not in (*twixt.service.__all__, "commands"):
                        yield f"line {node.lineno}: from twixt.service import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("twixt.service") and alias.name not in FACES:
                    yield f"line {node.lineno}: import {alias.name}"
        elif (isinstance(node, ast.Attribute) and _held(node.value)
              and node.attr not in PUBLIC):
            yield f"line {node.lineno}: service.{node.attr}"


@pytest.mark.parametrize("path", list(_sources()), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_front_end_uses_only_the_services_public_face(path: Path):
    assert list(_reaches(path)) == []


def test_the_check_finds_a_reach_inside(tmp_path: Path):
    sample = tmp_path / "reach.py"
    sample.write_text("from twixt.service.desk.desk import utc_now\n"
                      "from twixt.service import TwixtService, answer_safely\n"
                      "async def f(self, service):\n"
                      "    service.engine_player.deliver = print\n"
                      "    await self.service.desk.storage.close()\n"
                      "    await self._service.tick()\n", encoding="utf-8")
    assert list(_reaches(sample)) == [
        "line 1: from twixt.service.desk.desk import …",
        "line 2: from twixt.service import answer_safely",
        "line 4: service.engine_player",
        "line 5: service.desk",
    ]
