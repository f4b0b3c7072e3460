"""twixt/engine/analysis.py: Red's chance position by position, the engine's preference, the swings.

The engine's search is another branch's work; these tests hold the analysis to `think`'s
interface: most use the engine as it is, some give `think` known answers (`scripted`) to
check how they become Red's chances and swings.
"""

from __future__ import annotations

import pytest

from tests.rules.helpers import count_history_reads
from twixt.engine import Limit, PlayResult
from twixt.engine import analysis as analysis_module
from twixt.engine.analysis import (
    DEEP,
    FULL_POSITIONS,
    MIN_NODES,
    MIN_SECONDS,
    analyze_game,
    budget,
    deep_limit,
    position_limit,
)
from twixt.engine.api import board_nodes, fixed_nodes
from twixt.rules import Colour, Game

LIMIT = Limit(nodes=50)
#: Red wins on a 6×6 board by connection with its fourth peg
RED_CONNECTS = ["C1", "A3", "D3", "F3", "C5", "A5", "E6"]


def played(game: Game, moves: list[str]) -> Game:
    for move in moves:
        game.play(move)
    return game


def scripted(monkeypatch: pytest.MonkeyPatch, wins: dict[int, float]) -> None:
    """`think` answers with `wins[moves made]` for the side to move, and a move named after
    the count, so each report can be told apart."""
    def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
        move = f"X{game.moves_made}"
        return PlayResult(move, wins.get(game.moves_made, 0.5), (move,), 1, 0.0)

    monkeypatch.setattr(analysis_module, "think", think)


def test_an_empty_game_has_one_position_and_no_swings() -> None:
    game = Game(("alice", "bob"), size=8)
    result = analyze_game(game, LIMIT)
    assert [report.turn for report in result.reports] == [0]
    assert result.reports[0].played == ""
    assert result.reports[0].preferred != ""   # the engine's first move
    assert result.swings == ()


def test_one_move_gives_the_start_and_the_position_after_it() -> None:
    game = played(Game(("alice", "bob"), size=8, swap=False), ["D4"])
    result = analyze_game(game, LIMIT)
    assert [(r.turn, r.played) for r in result.reports] == [(0, "D4"), (1, "")]
    assert all(0.0 <= r.red_win <= 1.0 for r in result.reports)


def test_the_game_is_left_as_it_was() -> None:
    game = played(Game(("alice", "bob"), size=6, rules="pp", swap=False), RED_CONNECTS)
    before = game.snapshot()
    analyze_game(game, LIMIT)
    assert game.snapshot() == before


def test_a_won_game_ends_at_the_winners_certainty_and_the_winning_move_swings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scripted(monkeypatch, {})   # an even game until the last move
    game = played(Game(("alice", "bob"), size=6, rules="pp", swap=False), RED_CONNECTS)
    result = analyze_game(game, LIMIT)
    last = result.reports[-1]
    assert (last.turn, last.red_win, last.preferred) == (7, 1.0, "")
    assert [report.red_win for report in result.reports[:-1]] == [0.5] * 7
    biggest = result.swings[0]
    assert (biggest.turn, biggest.played, biggest.mover) == (7, "E6 link C5", Colour.RED)
    assert biggest.red_after == 1.0


def test_the_chance_of_the_side_to_move_becomes_reds(monkeypatch: pytest.MonkeyPatch) -> None:
    scripted(monkeypatch, {0: 0.6, 1: 0.7})   # Red to move at 0, Black at 1
    game = played(Game(("alice", "bob"), size=8, swap=False), ["D4"])
    reds = [round(r.red_win, 6) for r in analyze_game(game, LIMIT).reports]
    assert reds == [0.6, 0.3]


def test_the_three_biggest_swings_biggest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # Red's chance by position (Red moves at even counts): .5 .5 .9 .8 .2 .25 .6
    scripted(monkeypatch, {0: 0.5, 1: 0.5, 2: 0.9, 3: 0.2, 4: 0.2, 5: 0.75, 6: 0.6})
    moves = ["B2", "G7", "C5", "F3", "D2", "E6"]
    game = played(Game(("alice", "bob"), size=8, swap=False), moves)
    result = analyze_game(game, LIMIT)
    assert [(s.turn, s.played, s.preferred) for s in result.swings] == [
        (4, "F3", "X3"), (2, "G7", "X1"), (6, "E6", "X5")]
    first = result.swings[0]
    assert (first.mover, round(first.red_before, 6), round(first.red_after, 6)) == (
        Colour.BLACK, 0.8, 0.2)


def test_no_change_is_no_swing(monkeypatch: pytest.MonkeyPatch) -> None:
    scripted(monkeypatch, {})
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    assert analyze_game(game, LIMIT).swings == ()


def test_a_swap_is_a_move_by_the_colour_it_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Black to move after D4 and (alice, now Black) after the swap: Red .7, then .2
    scripted(monkeypatch, {1: 0.3, 2: 0.8, 3: 0.2})
    game = played(Game(("alice", "bob"), size=8), ["D4", "swap", "E6"])
    result = analyze_game(game, LIMIT)
    assert [r.played for r in result.reports] == ["D4", "swap", "E6", ""]
    swing = result.swings[0]
    assert (swing.turn, swing.played, swing.mover) == (2, "swap", Colour.RED)
    assert round(swing.change, 6) == -0.5


def test_a_resigned_game_ends_with_the_engines_view_of_the_last_position() -> None:
    game = played(Game(("alice", "bob"), size=8, swap=False), ["D4", "E6", "resign"])
    result = analyze_game(game, LIMIT)
    assert [r.turn for r in result.reports] == [0, 1, 2]
    assert result.reports[-1].preferred != ""   # the board itself was not over


def test_draw_offers_are_not_positions() -> None:
    game = played(Game(("alice", "bob"), size=8, swap=False),
                  ["D4; offer draw", "decline draw", "E6"])
    result = analyze_game(game, LIMIT)
    assert [(r.turn, r.played) for r in result.reports] == [
        (0, "D4; offer draw"), (1, "E6"), (2, "")]


def test_double_twixt_is_analysed_for_the_team_to_move() -> None:
    game = played(Game(("a", "b", "c", "d"), size=8, rules="pp"), ["D4", "E6", "C3", "F2"])
    result = analyze_game(game, LIMIT)
    assert [r.turn for r in result.reports] == [0, 1, 2, 3, 4]


def test_a_long_game_is_sampled_and_a_report_covers_several_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_module, "MAX_POSITIONS", 3)
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5", "F3", "D2"])
    result = analyze_game(game, LIMIT)
    assert result.step == 3
    assert [(r.turn, r.played) for r in result.reports] == [
        (0, "B2, G7, C5"), (3, "F3, D2"), (5, "")]


def test_a_short_game_gives_each_position_the_whole_limit() -> None:
    assert position_limit(Limit(seconds=2.0, nodes=1000), 10) == Limit(seconds=2.0, nodes=1000)


def test_a_long_game_shares_the_budget_down_to_a_floor() -> None:
    shared = position_limit(Limit(seconds=2.0, nodes=1000), FULL_POSITIONS * 4)
    assert shared == Limit(seconds=0.5, nodes=250)
    floor = position_limit(Limit(seconds=0.001, nodes=1), 400)
    assert floor == Limit(seconds=MIN_SECONDS, nodes=MIN_NODES)
    assert position_limit(Limit(nodes=100), 400).seconds is None


@pytest.mark.parametrize("offers", [1, 300])
def test_the_analysis_goes_back_to_the_start_in_one_pass_over_the_log(monkeypatch, offers):
    # a long log of draw offers and refusals once took a read of the whole log per undo
    game = played(Game(("alice", "bob"), size=8, swap=False), ["D4", "E5"])
    for _ in range(offers):
        game.play("offer draw", by="alice")
        game.play("decline draw", by="bob")
    reads = count_history_reads(monkeypatch)
    result = analyze_game(game, LIMIT)
    assert [r.turn for r in result.reports] == [0, 1, 2]
    assert reads[0] <= 3  # the same few whatever the log's length


def test_the_biggest_swings_come_from_a_deeper_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The swings and the engine's move there come from a search at least as strong as
    level 4, not from the cheap one every position gets."""
    deep = deep_limit(LIMIT, Game(("alice", "bob"), size=8))
    least = board_nodes(fixed_nodes(budget().deep_level), Game(size=8))
    assert deep.nodes == max(LIMIT.nodes * DEEP, least)
    asked: list[tuple[int, int | None]] = []

    def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
        asked.append((game.moves_made, limit.nodes))
        # the cheap search sees a swing at move 2; the deep one a bigger one
        win = {2: 0.8, 3: 0.2}.get(game.moves_made, 0.5)
        if limit.nodes == deep.nodes and game.moves_made == 2:
            win = 0.9
        move = f"{'Y' if limit.nodes == deep.nodes else 'X'}{game.moves_made}"
        return PlayResult(move, win, (move,), 1, 0.0)

    monkeypatch.setattr(analysis_module, "think", think)
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    result = analyze_game(game, LIMIT)
    deep_positions = sorted(moves for moves, nodes in asked if nodes == deep.nodes)
    assert deep_positions == [1, 2]   # both ends of the only swing
    swing = result.swings[0]
    # Black moved at 1 (Red .5) into 2 (Red to move, .9 in the deep search)
    assert (swing.turn, swing.preferred, swing.red_before, swing.red_after) == (
        2, "Y1", 0.5, 0.9)
    assert swing.preferred_win == swing.red_before
