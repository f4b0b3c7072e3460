"""`games`, `note`/`notes` and `settings confirm` at the terminal table (`twixt play`), in two
sittings at two channels on a fixed clock, and the record exported without the note."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

from tests.fakes import Clock
from twixt.app.table import open_table
from twixt.storage import SqliteStorage

TWIXT = str(Path(sys.executable).with_name("twixt"))


def _play(cwd: Path, channel: str, clock: str, lines: str) -> subprocess.CompletedProcess:
    return subprocess.run([TWIXT, "play", "--db", "t.db", "--channel", channel, "--clock", clock,
                           "--out", "pics"], cwd=cwd, input=lines, capture_output=True,
                          text=True, check=False, timeout=120)


def test_my_games_notes_and_confirmed_moves_across_two_sittings(tmp_path: Path):
    den = _play(tmp_path, "den", "2026-01-01T12:00",
                "alice: challenge bob time 3d swap no\nbob: accept\n"
                "alice: settings confirm on\nalice: K10\nalice: confirm\n"
                "alice: note K10 aims at the *bottom*\n")
    assert den.returncode == 0, den.stdout
    assert ("(only you see this) Your move in game 1: `K10`, not played yet. Press Confirm to "
            "play it, or type `confirm`; a new move replaces it.\n  [Confirm]\n") in den.stdout
    assert "@bob **alice** (Red): `K10`" in den.stdout

    hall = _play(tmp_path, "hall", "2026-01-02T12:00",
                 "carol: challenge alice time 1d swap no\nalice: accept\ncarol: J10\n"
                 "alice: games\nalice: notes #1\nalice: K12\nalice: confirm\n")
    assert hall.returncode == 0, hall.stdout
    assert ("(only you see this) **Your games in this server**: 2 games in progress, 1 waiting "
            "for you (page 1 of 1)\n"
            "#2 vs carol — your turn (1d 0h left) · #hall\n"
            "#1 vs bob — bob to move (2d 0h left) · another channel\n") in hall.stdout
    assert ("(only you see this) **Your notes on game 1** (page 1 of 1)\n"
            "1. 2026-01-01 12:00 UTC: `K10 aims at the *bottom*`\n") in hall.stdout
    assert "@carol **alice** (Black): `K12`" in hall.stdout

    exported = subprocess.run([TWIXT, "export", "--db", "t.db", "--channel", "den"],
                              cwd=tmp_path, capture_output=True, text=True, check=True)
    assert exported.stdout.endswith("alice: K10\n") and "bottom" not in exported.stdout


async def test_a_stale_confirmation_at_the_table_is_one_refused_line(tmp_path: Path):
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        out = StringIO()
        table = open_table(storage, "den", tmp_path, out=out, clock=Clock())
        refused = await table.run(["alice: challenge bob swap no size 12", "bob: accept",
                                   "alice: K10", "bob: settings confirm on", "bob: C8",
                                   "alice: offer draw", "bob: confirm"])
    assert refused == 1
    assert out.getvalue().endswith(
        "! bob: the game has changed since your move was shown: play it again\n")
