"""Each use case is given the subjects of storage it uses, typed, and reaches storage through
them alone: not through the desk's whole `Storage`, so that what a case may read and write is
in its constructor's signature."""

import ast
from pathlib import Path

import pytest

from twixt import storage
from twixt.service import cases

CASES = sorted(Path(cases.__file__).parent.rglob("*.py"))
SUBJECTS = {name for name in storage.__all__ if name.endswith("Store")}


def _reaches_the_desks_storage(tree: ast.AST) -> list[int]:
    """The lines that read `storage` off a desk (`desk.storage`, `self._desk.storage`)."""
    return sorted(node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "storage"
            and ((isinstance(node.value, ast.Name) and node.value.id == "desk")
                 or (isinstance(node.value, ast.Attribute) and node.value.attr == "_desk")))


def test_the_finder_sees_the_desks_storage():
    assert _reaches_the_desks_storage(ast.parse(
        "x = self._desk.storage.get_game(1)\ny = desk.storage\nz = self._store")) == [1, 2]


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_a_case_reaches_storage_only_through_what_it_was_given(path: Path):
    assert _reaches_the_desks_storage(ast.parse(path.read_text(encoding="utf-8"))) == []


def _store_types(tree: ast.Module) -> dict[str, set[str]]:
    """Each class's constructor's `store` annotation, and the Protocols a class of the module
    of that name is made of (its bases), by class."""
    bases = {node.name: {ast.unparse(base) for base in node.bases}
             for node in tree.body if isinstance(node, ast.ClassDef)}
    found = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                for arg in item.args.args:
                    if arg.arg == "store" and arg.annotation is not None:
                        kind = ast.unparse(arg.annotation)
                        found[node.name] = bases.get(kind, {kind}) - {"Protocol"}
    return found


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_a_case_is_given_subjects_of_storage_not_all_of_it(path: Path):
    for case, subjects in _store_types(ast.parse(path.read_text(encoding="utf-8"))).items():
        assert subjects, case
        assert subjects <= SUBJECTS, (case, subjects - SUBJECTS)
