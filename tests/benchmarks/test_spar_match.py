"""The sparring benchmark's referee and its one line when T1j cannot play (benchmarks/
spar_match.py). None of this needs T1j: a scripted partner stands in for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_match import ANSWER_TIMEOUT, EngineProcess, Setup, Version
from spar_match import (
    ENGINE,
    PARTNER,
    PARTNER_TIMEOUT,
    VOID,
    SparResult,
    Sparring,
    Tally,
    load_client,
    main,
    opening_kind,
    play_game,
)

from twixt.rules import Colour, Game, Hole

ROOT = Path(__file__).resolve().parents[2]


class ScriptedPartner:
    """T1j's interface: swaps whenever it may, else the free hole of its own nearest the
    board's middle column, the topmost first, from the pegs it is given. It keeps every
    request, to be checked."""

    def __init__(self) -> None:
        self.requests: list[tuple[list[tuple[str, str]], str, bool]] = []

    def think(self, cols: int, rows: int, level: str, pegs: list[tuple[str, str]],
              to_move: str, pie: bool = True, swap_ok: bool = False,
              timeout: float = 120) -> tuple[str | None, int, int]:
        self.requests.append((list(pegs), to_move, swap_ok))
        if swap_ok:
            return "swap", 0, 0
        geo = Game(size=f"{cols}x{rows}", rules="classic").geometry
        taken = {Hole.parse(hole) for hole, _ in pegs}
        free = [Hole(col, row) for row in range(rows) for col in range(cols)
                if (geo.placeable[Colour(to_move)] >> (row * cols + col)) & 1
                and Hole(col, row) not in taken]
        best = min(free, key=lambda hole: (abs(hole.col - cols // 2), hole.row))
        return str(best), 0, 0

    def close(self) -> None:
        pass


def test_without_the_sparring_folder_it_says_so_in_one_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--sparring", str(tmp_path / "nowhere"), "--games", "2"])
    message = str(stop.value)
    assert message.startswith("T1j not available: no ") and "nowhere" in message
    assert "\n" not in message
    assert capsys.readouterr().out == ""   # nothing was played


def test_without_java_it_says_so_in_one_line(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t1j.py").write_text("raise AssertionError('never imported without java')\n")
    monkeypatch.setenv("PATH", str(tmp_path))   # no java, no javac
    with pytest.raises(SystemExit) as stop:
        main(["--sparring", str(tmp_path), "--games", "2"])
    assert str(stop.value) == ("T1j not available: no java/javac on PATH (a JDK 11 or later "
                               "is needed)")


def test_the_client_is_imported_from_where_it_lies(tmp_path: Path) -> None:
    (tmp_path / "t1j.py").write_text("WHERE = __file__\n")
    if load_client.__globals__["shutil"].which("java") is None:
        pytest.skip("no java here: the client is not even looked at")
    assert Path(load_client(tmp_path).WHERE) == tmp_path / "t1j.py"


@pytest.mark.parametrize("number", [0, 1])
def test_the_referee_plays_a_game_by_the_projects_rules_in_both_seats(number: int) -> None:
    """The engine (this tree, a few nodes a move) against the scripted partner on 12×12:
    every move the referee took replays legally; the partner's pegs carry every legal link
    (T1j's automatic links); the partner always got the pegs in the order placed with their
    colours, and the first peg stays Red's after a swap."""
    sparring = Sparring(Setup("12", "classic", True, 1.0, seed=2), nodes=30)
    partner = ScriptedPartner()
    engine = EngineProcess(Version("this tree", ROOT))
    try:
        result = play_game(sparring, number, engine, partner)
    finally:
        engine.close()
    seats = (ENGINE, PARTNER) if number == 0 else (PARTNER, ENGINE)
    game = Game(seats, size=12, rules="classic", swap=True)
    for move in result.moves:
        game.play(move)
    assert result.winner in (ENGINE, PARTNER, "draw")
    assert result.reason in ("connection", "resignation", "blockade", "move cap")
    assert result.engine_colour is game.colour_of_seat(game.seat_of(ENGINE))
    assert result.swapped == game.swapped
    if number == 0:   # the partner was offered the engine's first peg and swapped it
        assert partner.requests[0][2] and game.swapped
        assert result.engine_colour is Colour.BLACK
    partner_colour = game.colour_of_seat(game.seat_of(PARTNER))
    for peg in game.pegs():
        if peg.colour is partner_colour:
            assert game.legal_links(peg.hole) == []
    last_pegs, _, _ = partner.requests[-1]
    placed = [str(turn.placed) for turn in game.history if turn.placed is not None]
    assert [hole for hole, _ in last_pegs] == placed[:len(last_pegs)]
    assert last_pegs[0][1] == "red"
    line = result.line()
    assert f"game {number + 1:3}: engine {'first' if number == 0 else 'second'} seat" in line


@pytest.mark.parametrize(("first", "kind"), [
    ("E3", "near its border row"), ("F22", "near its border row"), ("V9", "beside a side column"),
    ("B15", "beside a side column"), ("L12", "inside"), ("D4", "inside")])
def test_the_opening_is_told_by_where_the_first_peg_stands(first: str, kind: str) -> None:
    game = Game(("t1j", "engine"), size=24, swap=True)
    assert opening_kind(game) == ""
    game.play(first)
    game.play("swap")
    assert opening_kind(game) == kind


def test_the_second_seat_is_told_by_opening_and_swap() -> None:
    tally = Tally()
    tally.add(SparResult(1, ENGINE, "connection", ["E3"], Colour.BLACK, False,
                         opening="near its border row"))
    tally.add(SparResult(3, PARTNER, "connection", ["E3", "swap"], Colour.RED, True,
                         opening="near its border row"))
    tally.add(SparResult(5, ENGINE, "connection", ["F3"], Colour.BLACK, False,
                         opening="near its border row"))
    tally.add(SparResult(0, PARTNER, "connection", ["L7", "swap"], Colour.BLACK, True,
                         opening="inside"))
    lines = tally.lines()
    assert lines[-2] == ("  engine second, T1j opened near its border row, kept: "
                         "100.0% [34.2%, 100.0%] (2/2)")
    assert lines[-1].startswith("  engine second, T1j opened near its border row, swapped: "
                                "  0.0%")
    assert not any("inside" in line for line in lines)   # the engine's own opening


def test_the_tally_splits_by_seat_and_colour() -> None:
    tally = Tally()
    tally.add(SparResult(0, ENGINE, "connection", ["F3"], Colour.RED, False))
    tally.add(SparResult(1, PARTNER, "connection", ["F3", "swap"], Colour.RED, True))
    tally.add(SparResult(2, "draw", "move cap", ["F3"], Colour.BLACK, True))
    lines = tally.lines()
    assert lines[0].startswith("engine wins 1, loses 1, draws 1; score  50.0%")
    assert "first player:   75.0%" in lines[1] and "(1.5/2)" in lines[1]
    assert "second player:   0.0%" in lines[2]
    assert "as Red:         50.0%" in lines[3] and "as Black:       50.0%" in lines[4]
    assert "swaps: engine 1, T1j 1" in lines[5]


class SilentPartner(ScriptedPartner):
    """T1j searching past the referee's patience: no answer, after its opening peg."""

    def think(self, cols: int, rows: int, level: str, pegs: list[tuple[str, str]],
              to_move: str, pie: bool = True, swap_ok: bool = False,
              timeout: float = 120) -> tuple[str | None, int, int]:
        self.requests.append((list(pegs), to_move, swap_ok))
        return (None, 0, 0) if pegs else ("F6", 0, 0)


def test_a_game_t1j_never_answers_is_void_not_the_engines_win() -> None:
    """T1j's fixed depth has no clock: a game in which it falls silent is left out of the
    score rather than counted to the engine (as one was at 7 plies under load), and T1j is
    given `PARTNER_TIMEOUT` a move, far more than the engine's answer time."""
    sparring = Sparring(Setup("12", "classic", True, 1.0, seed=2), nodes=30)
    engine = EngineProcess(Version("this tree", ROOT))
    try:
        result = play_game(sparring, 1, engine, SilentPartner())
    finally:
        engine.close()
    assert result.winner == VOID and "silence" in result.reason
    tally = Tally()
    tally.add(result)
    tally.add(SparResult(0, ENGINE, "connection", ["F3"], Colour.RED, False))
    lines = tally.lines()
    assert lines[0].startswith("engine wins 1, loses 0, draws 0; score 100.0%")
    assert lines[0].endswith("(1/1); void (not scored) 1")
    assert "second player:   0.0%" in lines[2] and "(0/0)" in lines[2]
    assert PARTNER_TIMEOUT >= 10 * ANSWER_TIMEOUT
