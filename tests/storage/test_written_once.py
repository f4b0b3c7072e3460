"""Each SQL statement is written once: none stands in two storage modules.

Each subject's module (`games.py`, `challenges.py`, …) runs its statements through the connection
seam on both back ends; a statement copied into `backends/sqlite.py` and `backends/postgres.py`
again (or into another subject) would drift from its twin. Statements are the string literals
(adjacent ones joined, an f-string's fields as `{}`) that begin with a SQL verb, spaces
folded; short ones (`SELECT 1 …`) are too common to be copies.
"""

import ast
import re
from pathlib import Path

from twixt import storage

SHORTEST = 40
VERB = re.compile(r"\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", re.IGNORECASE)


def statements(source: str) -> set[str]:
    """The SQL statements of a module's source, spaces folded."""
    tree = ast.parse(source)
    parts = {id(value) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
             for value in node.values}
    found = set()
    for node in ast.walk(tree):
        if id(node) in parts:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(value.value if isinstance(value, ast.Constant) else "{}"
                           for value in node.values)
        else:
            continue
        folded = " ".join(text.split())
        if len(folded) >= SHORTEST and VERB.match(folded):
            found.add(folded)
    return found


def test_the_reader_finds_a_statement_and_its_f_string_twin():
    source = ('A = ("SELECT game_id, version, stage FROM reminders "\n'
              '     "WHERE delivered_at IS NULL")\n'
              'B = f"SELECT {COLUMNS} FROM reminders WHERE delivered_at IS NULL"\n'
              'C = "SELECT 1 FROM games"\n')
    assert statements(source) == {
        "SELECT game_id, version, stage FROM reminders WHERE delivered_at IS NULL",
        "SELECT {} FROM reminders WHERE delivered_at IS NULL"}


def test_no_statement_stands_in_two_storage_modules():
    where: dict[str, list[str]] = {}
    for path in sorted(Path(storage.__file__).parent.rglob("*.py")):
        for statement in statements(path.read_text(encoding="utf-8")):
            where.setdefault(statement, []).append(path.name)
    twice = {statement: files for statement, files in where.items() if len(files) > 1}
    assert not twice, twice


def test_a_turn_is_written_in_one_place():
    """The turn log is added to, and a game's version moved on, by one statement each (in
    `games.py`): SQLite's lone turn and PostgreSQL's batches run the same SQL."""
    where: dict[str, list[str]] = {"INSERT INTO turns": [], "version = games.version + 1": []}
    for path in sorted(Path(storage.__file__).parent.rglob("*.py")):
        for statement in statements(path.read_text(encoding="utf-8")):
            for found, files in where.items():
                if found in statement:
                    files.append(path.name)
    assert where == {"INSERT INTO turns": ["games.py"], "version = games.version + 1": ["games.py"]}
