"""The rules of docs/rules.md, one behaviour per test."""

from __future__ import annotations

import pytest

from tests.rules.helpers import play_all, two_player
from twixt.rules import Colour, Game, Hole, IllegalMoveError, Reason, column_letters


def test_columns_are_spreadsheet_letters():
    assert [column_letters(i) for i in (0, 25, 26, 27, 47)] == ["A", "Z", "AA", "AB", "AV"]
    assert Hole.parse("ab12") == Hole(27, 11)
    assert str(Hole(27, 11)) == "AB12"


def test_boards_from_5_to_48_each_way_have_no_corner_holes():
    for cols, rows in [(5, 5), (48, 48), (24, 18), (5, 48)]:
        game = Game(("a", "b"), size=(cols, rows))
        red_holes = set(game.legal_placements())
        assert Hole(0, 0) not in red_holes and Hole(cols - 1, rows - 1) not in red_holes
        assert len(red_holes) == (cols - 2) * rows


def test_a_player_may_place_in_their_own_border_row():
    game = two_player()
    game.play("G1")
    game.play("A7")
    assert {str(p.hole) for p in game.pegs()} == {"G1", "A7"}


def test_classic_links_only_what_is_asked_for():
    game = play_all(two_player(), ["G6", "A2", "E7"])
    assert game.links() == []
    game.play("A4")
    turn = game.play("F9 link E7 G6-E7")
    assert {str(link) for link in turn.links_added} == {"E7-F9", "G6-E7"}
    assert turn.text == "F9 link E7 G6-E7"


def test_link_all_adds_every_legal_link_of_the_new_peg():
    game = play_all(two_player(), ["G6", "A2", "C8", "A4"])
    turn = game.play("e7 LINK ALL")
    assert turn.text == "E7 link G6 C8"


def test_pp_adds_every_legal_link_of_a_new_peg_and_older_pairs_are_already_there():
    game = play_all(two_player(rules="pp"), ["G6", "A2"])
    turn = game.play("E7")
    assert turn.text == "E7 link G6"
    game.play("A4")
    turn = game.play("K10 link G6-E7")
    assert turn.links_added == ()


def test_commands_tolerate_case_spaces_and_commas():
    game = play_all(two_player(), ["G6", "A2", "C8", "A4"])
    turn = game.play("  e7   link g6 ,  c8 ")
    assert turn.text == "E7 link G6 C8"


def test_link_may_be_repeated_before_each_target():
    game = play_all(two_player(), ["G6", "A2", "C8", "A4"])
    assert game.play("E7 link G6 link C8").text == "E7 link G6 C8"


def test_removing_a_peg_removes_its_links():
    game = play_all(two_player(), ["G6", "A2", "E7 link G6", "A4", "C8 link E7", "A6"])
    turn = game.play("remove E7; K10")
    assert {str(link) for link in turn.links_removed} == {"G6-E7", "E7-C8"}
    assert [str(p.hole) for p in turn.pegs_removed] == ["E7"]
    assert game.links() == []
    assert game.peg_at(Hole.parse("E7")) is None


def test_swap_keeps_the_peg_red_and_the_first_player_moves_next_as_black():
    game = two_player(swap=True)
    game.play("G6")
    assert game.can_swap()
    game.play("swap")
    assert game.peg_at(Hole.parse("G6")).colour is Colour.RED
    assert game.player_to_move == "alice"
    assert game.colour_to_move is Colour.BLACK
    assert game.players_of(Colour.RED) == ("bob",)
    game.play("K10")
    assert not game.can_swap()


def test_handicap_takes_rows_off_and_turns_swap_off():
    game = Game(("weaker", "stronger"), size=24, handicap=6)
    assert (game.options.cols, game.options.rows) == (24, 18)
    assert not game.options.swap
    assert game.player_to_move == "weaker" and game.colour_to_move is Colour.RED


def _connect_red_on_5x5() -> Game:
    return play_all(two_player(size=5), ["C1", "A3", "B3 link C1", "E3"])


def test_win_by_connection_at_the_completing_peg():
    game = _connect_red_on_5x5()
    assert not game.is_over
    game.play("C5 link B3")
    assert game.outcome.reason is Reason.CONNECTION
    assert game.outcome.winner is Colour.RED
    assert game.outcome.winners == ("alice",)
    holes, links = game.winning_chain()
    assert [str(h) for h in holes] == ["C1", "B3", "C5"]
    assert len(links) == 2


def test_resignation_at_any_time_by_either_player():
    game = play_all(two_player(), ["G6"])
    game.play("resign", by="alice")
    assert game.outcome.reason is Reason.RESIGNATION
    assert game.outcome.winners == ("bob",)
    assert game.player_to_move is None


def test_timeout_loses_for_the_player_to_move():
    game = play_all(two_player(), ["G6"])
    game.play("timeout", by="bob")
    assert game.outcome.reason is Reason.TIME
    assert game.outcome.winner is Colour.RED


def test_draw_by_agreement():
    game = play_all(two_player(), ["G6; offer draw"])
    assert game.draw_offered_by is Colour.RED
    game.play("accept draw", by="bob")
    assert game.outcome.reason is Reason.AGREEMENT
    assert game.outcome.winner is None and game.outcome.winners == ()


def test_a_draw_offer_lapses_when_the_next_peg_is_placed():
    game = play_all(two_player(), ["G6; offer draw", "K10"])
    assert game.draw_offered_by is None
    assert not game.is_over


def test_offering_a_draw_when_the_other_side_has_offered_agrees_to_it():
    game = play_all(two_player(), ["G6"])
    game.play("offer draw", by="alice")
    game.play("offer draw", by="bob")
    assert game.outcome.reason is Reason.AGREEMENT


def test_a_declined_offer_is_gone():
    game = play_all(two_player(), ["G6; offer draw"])
    game.play("decline draw", by="bob")
    assert game.draw_offered_by is None


def test_draw_when_the_player_to_move_has_no_hole():
    # 5x5: red fills its border rows and B3, D3; black fills the rest of the middle and A3.
    # Red's unlinked pegs C1-B3-C5 keep a path open, so it is no blockade.
    red = ["B1", "C1", "D1", "B5", "C5", "D5", "B3", "D3"]
    black = ["B2", "C2", "D2", "C3", "B4", "C4", "D4", "A3"]
    game = two_player(size=5)
    for red_move, black_move in zip(red, black, strict=True):
        game.play(red_move)
        game.play(black_move)
    assert game.outcome.reason is Reason.NO_MOVES
    assert game.outcome.winner is None


def test_copy_is_independent():
    game = play_all(two_player(), ["G6"])
    other = game.copy()
    other.play("K10")
    assert game.pegs_placed == 1 and other.pegs_placed == 2


@pytest.mark.parametrize("first", ["the copy", "the original"])
def test_a_copy_and_its_original_count_their_crossings_apart(first):
    # a copy shares its crossing counts until either changes one (`Position.copy`): each of
    # the two makes Red's link E7-G6, and each then knows it as the same game played afresh
    # does (the counts, and the steps they bar: a blockade's open paths, the engine's spread)
    game = play_all(two_player(), ["G6", "E8"])
    other = game.copy()
    afresh = play_all(two_player(), ["G6", "E8", "E7 link G6"]).position
    for linking in (other, game) if first == "the copy" else (game, other):
        linking.play("E7 link G6")
        with pytest.raises(IllegalMoveError, match="would cross Red's link G6-E7"):
            linking.play("F6 link E8")
        position = linking.position
        assert position.cross_count == afresh.cross_count and position.allow == afresh.allow


def test_undo_takes_back_a_removal_turn():
    game = play_all(two_player(), ["G6", "A2", "E7 link G6", "A4"])
    before = game.snapshot()
    game.play("remove G6; K10")
    game.undo()
    assert game.snapshot() == before
    assert {str(link) for link in game.links()} == {"G6-E7"}


def test_undo_after_the_end_reopens_the_game():
    game = _connect_red_on_5x5()
    game.play("C5 link B3")
    game.undo()
    assert not game.is_over
    assert game.player_to_move == "alice"
