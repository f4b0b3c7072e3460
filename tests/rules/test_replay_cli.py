"""`twixt replay FILE`: the JSON on stdout and exit 0, or `line N: why` on stderr and exit 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.rules.test_records import GAMES
from twixt.cli import main

TRANSCRIPT = """[Board "24x24"]
[Rules "classic"]
[Swap "yes"]
[Players "alice, bob"]
alice: G6
bob: swap
alice: H9
bob: E7 link G6
alice: resign
"""


def test_replay_prints_the_outcome_as_json(tmp_path: Path, capsys):
    record = tmp_path / "game.twixt"
    record.write_text(TRANSCRIPT)
    assert main(["replay", str(record)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {"result": "red", "reason": "resignation", "winners": ["bob"],
                               "to_move": None, "turns": 3}
    assert err == ""


def test_replay_of_an_unfinished_game_names_the_player_to_move(tmp_path: Path, capsys):
    record = tmp_path / "game.twixt"
    record.write_text(TRANSCRIPT.replace("alice: resign\n", ""))
    assert main(["replay", str(record)]) == 0
    assert json.loads(capsys.readouterr().out)["to_move"] == "alice"


def test_replay_stops_at_the_first_illegal_line(tmp_path: Path, capsys):
    record = tmp_path / "game.twixt"
    record.write_text(TRANSCRIPT.replace("alice: H9", "alice: H1"))
    assert main(["replay", str(record)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "line 7: H1 is in Red's border row\n"


def test_replay_guesses_the_format_and_accepts_it_given(capsys):
    assert main(["replay", str(GAMES / "game2206555.tsgf")]) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["Hekate"]
    assert main(["replay", "--format", "t1", str(GAMES / "sample.T1")]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == "black"


def test_the_console_script_runs(tmp_path: Path):
    record = tmp_path / "game.twixt"
    record.write_text(TRANSCRIPT)
    twixt = Path(sys.executable).with_name("twixt")
    done = subprocess.run([str(twixt), "replay", str(record)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0
    assert json.loads(done.stdout)["result"] == "red"


def test_a_missing_file_is_one_line_on_stderr(tmp_path: Path, capsys):
    assert main(["replay", str(tmp_path / "nope.twixt")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cannot read ") and err.count("\n") == 1


def test_replay_refuses_a_handicap_that_puts_the_board_out_of_range(tmp_path: Path, capsys):
    record = tmp_path / "game.twixt"
    record.write_text('[Board "24x24"]\n[Handicap "40"]\n[Players "a, b"]\na: G6\n')
    assert main(["replay", str(record)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "line 2: Handicap 40 makes the board before it 64 rows, more than 48\n"


def test_an_endless_record_is_refused_in_one_line(tmp_path: Path):
    """`twixt replay /dev/zero` (and `twixt think` reading it on standard input) reads no
    more than a record may hold, and says so in one line."""
    import resource

    def limit() -> None:  # an endless read fails at once rather than take the machine's memory
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**29, 3 * 2**29))

    twixt = str(Path(sys.executable).with_name("twixt"))
    with open("/dev/zero", "rb") as zeros:
        for args, stdin in ((["replay", "/dev/zero"], None), (["think", "-"], zeros)):
            done = subprocess.run([twixt, *args], stdin=stdin, capture_output=True, text=True,
                                  check=False, timeout=120, preexec_fn=limit)
            assert done.returncode == 1, done.stderr
            assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
            assert "larger than 262144 bytes: too big for a game record" in done.stderr
