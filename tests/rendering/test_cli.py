"""`twixt render`: a record file in, a PNG or a GIF file out."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tests.rendering.render_helpers import blockade_game
from twixt.cli import main
from twixt.rendering import RenderOptions, game_at, render_png
from twixt.rules import Game
from twixt.rules.records import write


def _twixt(*argv: str) -> int:
    return main(["render", *argv])


def _record(tmp_path: Path) -> Path:
    path = tmp_path / "game.twixt"
    path.write_text(write(blockade_game()), encoding="utf-8")
    return path


def test_render_writes_the_final_position_as_png(tmp_path: Path):
    out = tmp_path / "board.png"
    assert _twixt(str(_record(tmp_path)), "-o", str(out), "--theme", "dark",
                  "--side", "black", "--colour-blind") == 0
    assert Image.open(out).format == "PNG"


def test_render_turn_n_differs_from_the_final_position(tmp_path: Path):
    record = _record(tmp_path)
    final, early = tmp_path / "final.png", tmp_path / "early.png"
    assert _twixt(str(record), "-o", str(final)) == 0
    assert _twixt(str(record), "--turn", "3", "-o", str(early)) == 0
    assert final.read_bytes() != early.read_bytes()


def test_render_gif_writes_a_replay(tmp_path: Path):
    out = tmp_path / "replay.gif"
    assert _twixt(str(_record(tmp_path)), "--gif", "--width", "300", "-o", str(out)) == 0
    assert Image.open(io.BytesIO(out.read_bytes())).n_frames == 20


def test_render_refuses_a_turn_the_game_does_not_have(tmp_path: Path, capsys):
    assert _twixt(str(_record(tmp_path)), "--turn", "99", "-o", str(tmp_path / "x.png")) == 1
    assert "0 to 20" in capsys.readouterr().err


def test_render_reports_a_missing_file(tmp_path: Path, capsys):
    assert _twixt(str(tmp_path / "nothing.twixt")) == 1
    assert "cannot read" in capsys.readouterr().err


def test_render_counts_turns_as_twixt_replay_does(tmp_path: Path):
    game = Game(("ann", "ben"), size=12)
    for move in ("G6", "swap", "H9", "E7"):
        game.play(move)
    record = tmp_path / "swap.twixt"
    record.write_text(write(game), encoding="utf-8")
    out = tmp_path / "one.png"
    assert _twixt(str(record), "--turn", "1", "-o", str(out)) == 0  # one peg: G6, and the swap
    assert out.read_bytes() == render_png(game_at(game, 2), RenderOptions())


@pytest.mark.parametrize("option", [["--turn", "-1"], ["--width", "0"], ["--width", "99999"]])
def test_render_refuses_impossible_numbers(tmp_path: Path, option, capsys):
    with pytest.raises(SystemExit) as exit_:
        _twixt(str(_record(tmp_path)), *option)
    assert exit_.value.code == 2
    assert "is not a" in capsys.readouterr().err


@pytest.mark.parametrize(("options", "out", "kind"), [
    ((), "board.jpg", "PNG"), ((), "board", "PNG"), (("--gif",), "replay.png", "GIF")])
def test_render_refuses_a_file_name_whose_ending_is_not_its_format(tmp_path: Path, capsys,
                                                                   options, out, kind):
    """The bytes are a PNG (a GIF with --gif): a name ending otherwise would be opened as
    what it is not."""
    assert _twixt(str(_record(tmp_path)), *options, "-o", str(tmp_path / out)) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"the picture is a {kind}: name it" in err
    assert not (tmp_path / out).exists()


def test_render_to_a_folder_that_does_not_exist_is_one_line(tmp_path: Path, capsys):
    out = tmp_path / "no" / "such" / "board.png"
    assert _twixt(str(_record(tmp_path)), "-o", str(out)) == 1
    err = capsys.readouterr().err
    assert err == f"cannot write {out}: No such file or directory\n"
