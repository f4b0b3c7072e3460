"""Conditional moves at the terminal table (`twixt play`), on a fixed clock, across two
sittings: stored in the first, played in the second, and never in the exported record."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TWIXT = str(Path(sys.executable).with_name("twixt"))


def _play(cwd: Path, clock: str, lines: str) -> subprocess.CompletedProcess:
    return subprocess.run([TWIXT, "play", "--db", "t.db", "--channel", "den", "--out", "pics",
                           "--clock", clock], cwd=cwd, input=lines, capture_output=True,
                          text=True, check=False, timeout=120)


def test_a_stored_reply_is_played_in_a_later_sitting(tmp_path: Path):
    first = _play(tmp_path, "2030-01-01", "alice: challenge bob size 12 swap no time 3d\n"
                                          "bob: accept\nalice: F5\nbob: E5\n"
                                          "bob: if H9 then G6 link E5; if J10 then K8\n"
                                          "alice: if H9 then G6\n")
    assert first.returncode == 1, first.stderr  # alice may not store on her own turn
    assert ("(only you see this) Stored. Your conditional moves in game 1, answering alice's "
            "next move (any other move clears them):\n```\nif H9 then G6 link E5\n"
            "if J10 then K8\n```\n") in first.stdout
    assert "! alice: it is your turn: play it;" in first.stdout

    second = _play(tmp_path, "2030-01-02", "alice: H9\nbob: if\n")
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith(
        "(direct message to alice) alice, it is your move in game 1 (2d 0h left).\n"
        "@alice **alice** (Red): `H9`\nbob answers at once with a stored move:\n"
        "**bob** (Black): `G6 link E5`\nalice (Red) to move. (3d 0h left)\n"
        "  [Offer draw] [Resign]\n  board: pics/den-0004.png\n")
    assert "(only you see this) You have no conditional moves in game 1." in second.stdout

    exported = subprocess.run([TWIXT, "export", "--db", "t.db", "--channel", "den"],
                              cwd=tmp_path, capture_output=True, text=True, check=False,
                              timeout=120)
    assert exported.stdout.endswith("alice: F5\nbob: E5\nalice: H9\nbob: G6 link E5\n")
    assert "K8" not in exported.stdout
