"""The benchmarks share with the tests only what lives in `support/`: a benchmark that imported
from `tests/` would break whenever a test is moved, and would run test code as a measurement."""

from __future__ import annotations

import ast
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_no_benchmark_imports_from_the_tests() -> None:
    offenders = {path.name: sorted(name for name in _imported(path)
                                   if name == "tests" or name.startswith("tests."))
                 for path in sorted(BENCHMARKS.glob("*.py"))}
    assert {name: found for name, found in offenders.items() if found} == {}
