"""`twixt play --locale de` (or `fr`, `es`, `nl`): the terminal table says everything in that
language — its own lines, the service's replies and refusals — while the lines typed stay the
move language."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from twixt.app.table import open_table
from twixt.storage import SqliteStorage

TWIXT = str(Path(sys.executable).with_name("twixt"))


def _twixt(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([TWIXT, *args], cwd=cwd, input=stdin, capture_output=True, text=True,
                          check=False, timeout=120)


def test_the_table_speaks_german_when_asked(tmp_path: Path):
    script = ("no colon here\nalice: challenge bob size 12 swap no\nbob: accept\n"
              "alice: A5\nalice: G6\nbob: resign\n")
    done = _twixt("play", "--locale", "de", "--db", "t.db", "--out", "pics", cwd=tmp_path,
                  stdin=script)
    assert done.returncode == 1, done.stderr  # two refused lines
    lines = done.stdout.splitlines()
    assert "! Zeile 1: schreib Name: Befehl, etwa alice: G6" in lines
    assert "! alice: A5 liegt in der Grenzreihe von Schwarz" in lines
    assert any(line.startswith("  Brett: pics/table-") for line in lines)
    assert any(line.startswith("(nur du siehst das) ") for line in lines)  # resign asks first
    assert "board:" not in done.stdout and "(only you see this)" not in done.stdout


@pytest.mark.parametrize(("locale", "said"), [
    ("fr", ["! ligne 1\u00a0: écris nom: commande, comme alice: G6",
            "! alice: A5 est dans la rangée de bord de Noir"]),
    ("es", ["! línea 1: escribe nombre: comando, como alice: G6",
            "! alice: A5 está en la fila de borde de Negro"]),
    ("nl", ["! regel 1: schrijf naam: opdracht, zoals alice: G6",
            "! alice: A5 ligt in de randrij van Zwart"]),
])
def test_the_table_speaks_french_spanish_or_dutch_when_asked(tmp_path: Path, locale: str,
                                                           said: list[str]):
    done = _twixt("play", "--locale", locale, "--db", "t.db", "--out", "pics", cwd=tmp_path,
                  stdin="no colon here\nalice: challenge bob\nbob: accept\nalice: A5\n")
    assert [line for line in done.stdout.splitlines() if line.startswith("!")] == said


def test_english_stays_english_by_default(tmp_path: Path):
    done = _twixt("play", "--db", "t.db", "--out", "pics", cwd=tmp_path,
                  stdin="no colon here\nalice: challenge bob\nbob: accept\nalice: A5\n")
    assert "! line 1: write name: command, like alice: G6" in done.stdout
    assert "! alice: A5 is in Black's border row" in done.stdout
    assert "  board: pics/table-0001.png" in done.stdout


def test_the_command_line_refuses_in_german_and_takes_only_known_languages(tmp_path: Path):
    (tmp_path / "boards").write_text("a file, not a folder")
    done = _twixt("play", "--locale", "de", "--db", "t.db", "--out", "boards", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (2, "twixt: --out boards ist kein Ordner\n")
    done = _twixt("play", "--locale", "pt", "--db", "t.db", cwd=tmp_path)
    assert done.returncode == 2 and "--locale" in done.stderr


async def test_a_german_table_in_process(tmp_path: Path):
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        out = StringIO()
        table = open_table(storage, "den", tmp_path / "gone", out=out,
                              locale="de")
        (tmp_path / "gone").write_text("in the way")  # boards cannot be saved here
        refused = await table.run(["alice: challenge bob swap no", "bob: accept",
                                   "alice: A5", "alice: import missing.twixt"])
    said = out.getvalue()
    assert refused == 2
    assert "  (Brett nicht gespeichert: " in said
    assert "! alice: A5 liegt in der Grenzreihe von Schwarz\n" in said
    assert "! alice: missing.twixt lässt sich nicht lesen: " in said
