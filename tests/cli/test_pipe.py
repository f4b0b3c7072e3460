"""The `twixt` command line, read by a program that stops early, ends without a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any


def twixt(*args: str, **options: Any) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "twixt.cli", *args], check=False,
                          **options)


def test_a_reader_that_closed_the_pipe_gets_no_traceback(tmp_path: Path) -> None:
    db = str(tmp_path / "twixt.db")
    lines = b"alice: challenge bob size 12\nbob: accept\nalice: F6\nbob: D7\n"
    twixt("play", "--db", db, "--channel", "den", "--out", str(tmp_path), input=lines,
          capture_output=True)
    # a reader that is gone before anything is written: every write meets a closed pipe
    reader = subprocess.Popen([sys.executable, "-c", "pass"], stdin=subprocess.PIPE)
    reader.wait()
    assert reader.stdin is not None
    written = twixt("export", "--db", db, "--channel", "den", stdout=reader.stdin,
                    stderr=subprocess.PIPE)
    reader.stdin.close()
    assert written.returncode == 1
    assert written.stderr == b""
