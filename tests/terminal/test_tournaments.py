"""A tournament at the terminal table (`twixt play`): announced, joined, started at its
deadline by a later sitting, its games played in their threads (`name@channel: …`), and the
crosstable saved as a picture."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

TWIXT = str(Path(sys.executable).with_name("twixt"))


def _play(cwd: Path, clock: str, lines: str) -> subprocess.CompletedProcess:
    return subprocess.run([TWIXT, "play", "--db", "t.db", "--channel", "den", "--clock", clock,
                           "--out", "pics", "--manager", "td"], cwd=cwd, input=lines,
                          capture_output=True, text=True, check=False, timeout=120)


def test_a_round_robin_of_three_at_the_table(tmp_path: Path):
    signup = _play(tmp_path, "2026-01-01T12:00",
                   "td: tournament create Den Cup format roundrobin size 8 rules pp signup 1d\n"
                   "alice: tournament join\nbob: tournament join\ncarol: tournament join 1\n"
                   "carol: tournament start\n"
                   "bob: tournament info\n")
    assert signup.returncode == 1, signup.stdout  # carol may not start it
    assert ("Tournament #1 **Den Cup**: round robin, 8×8, pp, swap — sign-up.\n"
            "Sign up until 2026-01-02 12:00 UTC: press Join, or write tournament join 1.\n"
            "  [Join]\n") in signup.stdout
    assert "alice joins Den Cup." in signup.stdout
    assert "! carol: only a channel manager can start a tournament" in signup.stdout
    entrants = next(line for line in signup.stdout.splitlines() if line.startswith("Entrants"))
    assert sorted(entrants.removeprefix("Entrants (3): ").split(", ")) == ["alice", "bob",
                                                                           "carol"]

    # the next day's sitting: the deadline has passed, so the table's first tick starts it
    lines = ["alice: tournament standings"]
    games = {("alice", "bob"), ("alice", "carol"), ("bob", "carol")}
    started = _play(tmp_path, "2026-01-02T13:00", "\n".join(lines) + "\n")
    assert "Den Cup: 3 games opened, each in its own thread." in started.stdout
    threads = [line.split("]")[0].removeprefix("[#") for line in started.stdout.splitlines()
               if line.startswith("[#den/den-cup-")]
    assert len(threads) == 3 and all(t.startswith("den/den-cup-") for t in threads)
    assert "Standings of Den Cup." in started.stdout

    # each game lost by the player named later in the alphabet (the thread tells who plays)
    resigns = []
    for thread in threads:
        pair = tuple(sorted(name for name in ("alice", "bob", "carol") if name in thread))
        assert pair in games
        resigns.append(f"{pair[1]}@{thread}: resign yes")
    done = _play(tmp_path, "2026-01-02T14:00", "\n".join(resigns) + "\n")
    assert done.returncode == 0, done.stdout
    assert "Den Cup is over: these are the final standings." in done.stdout
    pictures = sorted((tmp_path / "pics").glob("den-*.png"))
    assert pictures and Image.open(pictures[-1]).size[0] > 0
