"""`twixt think` and `twixt analyze` on records of every format, from files and stdin.

The engine's strength is another branch's; these hold the command line to `think`'s
interface: its move printed exactly, the JSON's keys and types, exit codes and messages."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.rules.test_records import GAMES
from twixt import engine
from twixt.cli import engine_commands, main
from twixt.engine import analysis, level_limit, think
from twixt.engine.analysis import analyze_game, default_limit
from twixt.engine.worker import analyze_record
from twixt.language import translation, unmarked
from twixt.rules import records
from twixt.service.cases.analysis import swing_lines

TWIXT = str(Path(sys.executable).with_name("twixt"))
OPEN = """[Board "8x8"]
[Rules "classic"]
[Swap "yes"]
[Players "alice, bob"]
alice: D4
bob: swap
alice: E6
"""
#: Red (alice) connects on a 6×6 board with her fourth peg
WON = """[Board "6x6"]
[Rules "pp"]
[Swap "no"]
[Players "alice, bob"]
alice: C1
bob: A3
alice: D3
bob: F3
alice: C5
bob: A5
alice: E6
"""
DOUBLE = """[Board "8x8"]
[Rules "pp"]
[Players "ann, bea, cid, dan"]
ann: D4
bea: E6
cid: C3
"""


def last_line(err: str) -> str:
    """What a command said last on standard error, after any `analysing: move n of N`."""
    return err.rstrip("\n").rpartition("\n")[2]


@pytest.fixture
def record(tmp_path: Path):
    def write(text: str, name: str = "game.twixt") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return write


def stdin_of(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_think_prints_the_engines_move_exactly_and_it_is_legal(record, capsys):
    assert main(["think", record(OPEN)]) == 0
    out, err = capsys.readouterr()
    game = records.read(OPEN)
    assert out == think(game, level_limit(3)).move + "\n" and err == ""
    game.play(out.strip())


def test_think_with_a_level_and_seed_always_answers_the_same(record, capsys):
    answers = set()
    for _ in range(2):
        assert main(["think", record(OPEN), "--level", "1", "--seed", "7"]) == 0
        answers.add(capsys.readouterr().out)
    assert answers == {think(records.read(OPEN), level_limit(1), seed=7).move + "\n"}


def test_think_json_has_the_engines_whole_answer(record, capsys):
    assert main(["think", record(DOUBLE), "--json", "--seconds", "0.5"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert set(answer) == {"move", "win", "pv", "nodes", "seconds", "core"}
    assert answer["core"] == engine.CORE
    assert isinstance(answer["move"], str) and 0.0 <= answer["win"] <= 1.0
    assert answer["pv"][0] == answer["move"] and all(isinstance(m, str) for m in answer["pv"])
    assert isinstance(answer["nodes"], int) and isinstance(answer["seconds"], float)
    records.read(DOUBLE).play(answer["move"])


def test_think_reads_standard_input_in_any_format(monkeypatch, capsys):
    data = (GAMES / "game2209801.tsgf").read_bytes()
    stdin_of(monkeypatch, data)
    assert main(["think", "-", "--format", "lg"]) == 0
    move = capsys.readouterr().out.strip()
    records.read(records.decode(data, "lg"), "lg").play(move)


def test_think_without_a_file_reads_a_transcript_from_standard_input(monkeypatch, capsys):
    stdin_of(monkeypatch, OPEN.encode())
    assert main(["think"]) == 0
    records.read(OPEN).play(capsys.readouterr().out.strip())


def test_think_on_a_finished_game_says_why_it_is_over(record, capsys):
    assert main(["think", record(WON)]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", "the game is over: alice (Red) wins by connection.\n")
    assert main(["think", str(GAMES / "sample.T1")]) == 1
    assert capsys.readouterr().err == "the game is over: Tom (Black) wins — Red resigned.\n"


def test_think_on_a_bad_record_names_the_line(record, tmp_path, capsys):
    assert main(["think", record(OPEN + "bob: E6\n")]) == 1
    assert capsys.readouterr().err == "line 8: E6 is already taken\n"
    assert main(["think", str(tmp_path / "missing.twixt")]) == 1
    assert capsys.readouterr().err.startswith("cannot read ")


@pytest.mark.parametrize(("options", "said"), [
    (["--level", "9"], "argument --level: '9' is not a level: choose 1 to 5"),
    (["--level", "x"], "argument --level: 'x' is not a level: choose 1 to 5"),
    (["--seconds", "0"], "argument --seconds: '0' is not a number of seconds from 0.01 to 3600"),
    (["--seconds", "nan"], "'nan' is not a number of seconds"),
    (["--seed", "-1"], "argument --seed: '-1' is not a seed from 0 to 4294967295"),
    (["--level", "2", "--seconds", "3"], "argument --seconds: not allowed with argument --level"),
])
def test_bad_options_get_one_clear_line(record, capsys, options, said):
    with pytest.raises(SystemExit) as exit_:
        main(["think", record(OPEN), *options])
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err.splitlines()[-1]


def test_analyze_draws_the_curve_and_prints_the_swings(record, tmp_path, capsys):
    out = tmp_path / "curve.png"
    assert main(["analyze", record(WON), "--out", str(out), "--level", "1"]) == 0
    printed = capsys.readouterr().out.splitlines()
    swings = printed[:-1]
    assert 1 <= len(swings) <= 3
    for number, line in enumerate(swings, 1):
        assert re.fullmatch(rf"{number}\. move \d+, (Red|Black) [^:]+: "
                            r"Red \d+% → \d+% \(engine: [^,]+, Red \d+%\)", line), line
    assert printed[-1].startswith(f"wrote {out} (")
    picture = Image.open(out)
    assert picture.format == "PNG" and picture.width == 800


def test_analyze_without_a_budget_is_the_bots_analysis(record, tmp_path, capsys):
    assert main(["analyze", record(WON), "--out", str(tmp_path / "c.png")]) == 0
    game = records.read(WON)
    bots = analyze_record(WON)
    assert bots == analyze_game(game, default_limit(game))
    lines = [unmarked(line) for line in swing_lines(bots, translation("en"))]
    assert capsys.readouterr().out.splitlines()[:-1] == lines


def test_analyze_json_is_one_object_of_the_start_every_move_and_the_swings(record, capsys,
                                                                          monkeypatch):
    # the swings' deeper look without its time cap, a bound for a busy machine that, where it
    # binds, makes the look depend on the load; its nodes alone decide here
    monkeypatch.setattr(analysis, "DEEP_SECONDS", 3600)
    assert main(["analyze", record(WON), "--json", "--level", "1"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert set(data) == {"start", "step", "moves", "swings"}
    assert 0.0 <= data["start"] <= 1.0 and data["step"] == 1
    game = records.read(WON)
    assert [m["played"] for m in data["moves"]] == [turn.text for turn in game.history]
    assert [m["number"] for m in data["moves"]] == list(range(1, 8))
    assert [m["colour"] for m in data["moves"]] == ["red", "black"] * 3 + ["red"]
    for move in data["moves"]:
        assert set(move) == {"number", "colour", "played", "red", "best", "red_best"}
        assert 0.0 <= move["red"] <= 1.0 and 0.0 <= move["red_best"] <= 1.0
        assert isinstance(move["best"], str)
    assert data["moves"][-1]["red"] == 1.0   # Red connected
    assert set(data["swings"]) <= set(range(1, 8))
    # the same game, budget and seed: the same analysis, swings and all
    assert main(["analyze", record(WON), "--json", "--level", "1"]) == 0
    assert capsys.readouterr().out == out


def test_analyze_json_and_the_picture_show_the_same_analysis(record, tmp_path, capsys):
    out = tmp_path / "c.png"
    assert main(["analyze", record(WON), "--json", "--out", str(out), "--level", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"]
    assert Image.open(out).format == "PNG"


def test_analyze_needs_a_picture_or_json(record, capsys):
    assert main(["analyze", record(WON)]) == 1
    assert capsys.readouterr().err.strip() == "twixt: analyze needs --out PATH.png, --json or both"


def test_a_long_analysis_tells_its_progress_on_standard_error(record, monkeypatch, capsys):
    monkeypatch.setattr(engine_commands, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(engine_commands, "PROGRESS_EVERY", 0.0)
    assert main(["analyze", record(WON), "--json", "--level", "1"]) == 0
    captured = capsys.readouterr()
    # how far the analysis is, in moves (the deeper look's searches after the last move count)
    told = captured.err.splitlines()
    assert told[-1] == "analysing: move 7 of 7"
    done = [int(line.removeprefix("analysing: move ").removesuffix(" of 7")) for line in told]
    assert done == sorted(set(done)) and len(done) >= 2
    json.loads(captured.out)   # the progress stays off standard output


def test_an_analysis_quicker_than_the_threshold_says_nothing_of_its_progress(
        record, monkeypatch, capsys):
    monkeypatch.setattr(engine_commands, "PROGRESS_AFTER", 3600.0)
    assert main(["analyze", record(WON), "--json", "--level", "1"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("text", [OPEN, DOUBLE, '[Board "8x8"]\n[Players "alice, bob"]\n'])
def test_analyze_takes_any_game_even_one_without_moves(record, tmp_path, capsys, text):
    assert main(["analyze", record(text), "-o", str(tmp_path / "c.png"), "--seed", "3"]) == 0
    assert Image.open(tmp_path / "c.png").width == 800


def test_analyze_reads_standard_input_and_a_time_budget(monkeypatch, tmp_path, capsys):
    stdin_of(monkeypatch, (GAMES / "sample.T1").read_bytes())
    out = tmp_path / "c.png"
    assert main(["analyze", "-", "--format", "t1", "--out", str(out), "--seconds", "1"]) == 0
    assert out.exists()


def test_analyze_in_german(record, tmp_path, capsys):
    assert main(["analyze", record(WON), "-o", str(tmp_path / "c.png"), "--locale", "de"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"1\. Zug \d+, (Rot|Schwarz) [^:]+: Rot \d+ % → \d+ % \(Engine: [^)]+\)",
                        lines[0]), lines[0]
    assert re.fullmatch(rf"{re.escape(str(tmp_path / 'c.png'))} geschrieben \(\d+ KB\)",
                        lines[-1]), lines[-1]
    assert main(["analyze", record(WON), "-o", str(tmp_path / "no" / "c.png"),
                 "--locale", "de"]) == 1
    # the last line: a slow analysis (a busy machine) tells its progress before it
    assert last_line(capsys.readouterr().err).startswith(
        f"twixt: {tmp_path / 'no' / 'c.png'} lässt sich nicht schreiben: ")


def test_analyze_in_spanish(record, tmp_path, capsys):
    assert main(["analyze", record(WON), "-o", str(tmp_path / "c.png"), "--locale", "es"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"1\. jugada \d+, (Rojo|Negro) [^:]+: Rojo \d+ % → \d+ % "
                        r"\(motor: [^)]+\)", lines[0]), lines[0]
    assert re.fullmatch(rf"{re.escape(str(tmp_path / 'c.png'))} escrito \(\d+ KB\)",
                        lines[-1]), lines[-1]


def test_analyze_says_why_it_cannot_write(record, tmp_path, capsys):
    assert main(["analyze", record(OPEN), "-o", str(tmp_path / "no" / "c.png")]) == 1
    assert last_line(capsys.readouterr().err).startswith(
        f"twixt: cannot write {tmp_path / 'no' / 'c.png'}")


def test_analyze_of_a_bad_record_names_the_line(record, tmp_path, capsys):
    assert main(["analyze", record("alice: D4\n"), "-o", str(tmp_path / "c.png")]) == 1
    assert capsys.readouterr().err.startswith("line 1: ")
    assert not (tmp_path / "c.png").exists()


def test_the_installed_command_reads_a_pipe(tmp_path: Path):
    done = subprocess.run([TWIXT, "think", "-", "--json", "--level", "1"], input=OPEN,
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["move"] == think(records.read(OPEN), level_limit(1)).move


@pytest.mark.parametrize("command", ["think", "analyze"])
def test_the_help_says_which_engine_core_runs(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert capsys.readouterr().out.rstrip().endswith(engine.DESCRIPTION)


def test_analyze_refuses_an_out_that_is_no_png_before_it_thinks(record, tmp_path, capsys,
                                                               monkeypatch):
    """`--out curve.jpg` would hold PNG bytes: refused in one line, before the engine's
    minutes (the analysis is never started)."""
    import twixt.engine.analysis as analysis  # run_analyze imports it when it runs

    def never(*_args, **_kwargs):
        raise AssertionError("the analysis ran")

    monkeypatch.setattr(analysis, "analyze_game", never)
    out = tmp_path / "curve.jpg"
    assert main(["analyze", record(WON), "--out", str(out), "--level", "1"]) == 1
    err = capsys.readouterr().err
    assert err == f"twixt: {out}: the picture is a PNG: name it {tmp_path / 'curve.png'}\n"
    assert not out.exists()

