"""The cases of the seed texts: the Board Gamesbook sample game, its Examples A and B, and the
rec.games.abstract diagram, each played through the rules engine."""

from __future__ import annotations

import pytest

from tests.rules.helpers import two_player
from tests.rules.oracle import can_still_connect_by_bfs
from twixt.rules import Colour, Game, IllegalMoveError, Reason

# The Board Gamesbook sample game on 12x12, no swap, with the links its notes give.
SAMPLE_GAME = [
    ("alice", "G6"), ("bob", "G8"), ("alice", "C8"), ("bob", "G4"), ("alice", "C4"),
    ("bob", "B8"), ("alice", "E7 link G6 C8"), ("bob", "D9 link B8"), ("alice", "G10"),
    ("bob", "H6 link G4 G8"), ("alice", "F8 link G10 G6"), ("bob", "E4"),
    ("alice", "D6 link C4 C8"), ("bob", "C3 link E4"), ("alice", "B2 link C4"),
    ("bob", "resign"),
]


def test_board_gamesbook_sample_game_red_wins_after_black_resigns():
    game = two_player(size=12)
    for player, command in SAMPLE_GAME:
        game.play(command, by=player)
    assert game.outcome is not None
    assert game.outcome.reason is Reason.RESIGNATION
    assert game.outcome.winner is Colour.RED
    assert game.outcome.winners == ("alice",)
    assert game.pegs_placed == 15


def test_sample_game_red_chain_is_not_yet_complete_before_the_resignation():
    game = two_player(size=12)
    for player, command in SAMPLE_GAME[:-1]:
        game.play(command, by=player)
    assert not game.is_over
    assert game.player_to_move == "bob"


# Example B (Board Gamesbook): red (O) is to move; black (#) has two walls.
EXAMPLE_B_RED = ["I6", "J8 link I6", "K10 link J8", "J9", "K11 link J9", "J13 link K11"]
EXAMPLE_B_BLACK = ["G6", "I7 link G6", "H8 link G6", "I10 link H8", "J6", "L7 link J6",
                   "K8 link J6", "K9 link L7", "L11 link K9", "K13 link L11", "H11",
                   "I13 link H11"]
FILLERS_RED_24 = ["T20", "T22", "V20", "V22", "R20", "R22"]


def _example_b() -> Game:
    game = two_player(size=24)
    red = EXAMPLE_B_RED + FILLERS_RED_24
    for red_move, black_move in zip(red, EXAMPLE_B_BLACK, strict=True):
        game.play(red_move)
        game.play(black_move)
    return game


def test_example_b_double_link_is_blocked_by_reds_own_link():
    game = _example_b()
    with pytest.raises(IllegalMoveError, match="the link I11-K10 would cross Red's link J9-K11"):
        game.play("I11 link K10 J13")


def test_example_b_removing_j9_k11_makes_the_double_link_legal():
    game = _example_b()
    turn = game.play("remove J9-K11; I11 link K10 J13")
    assert {str(link) for link in turn.links_removed} == {"J9-K11"}
    assert {str(link) for link in turn.links_added} == {"K10-I11", "I11-J13"}
    assert turn.text == "remove J9-K11; I11 link K10 J13"


def _play_interleaved(game: Game, red: list[str], black: list[str]) -> None:
    for red_move, black_move in zip(red, black, strict=True):
        game.play(red_move)
        game.play(black_move)


# Example A on a 10x10 board: the diagram shifted three columns left and four rows up
# (E6 -> B2), with one black peg B3 linked to D2 (the diagram's G6) closing the left side so
# that the whole board is blocked, and red filler pegs in red's own border row.
EXAMPLE_A_RED = ["F2", "G4 link F2", "H6 link G4", "G5", "H7 link G5", "G9 link H7",
                 "B1", "C1", "D1", "E1", "G1", "H1", "I1"]
EXAMPLE_A_BLACK = ["D2", "F3 link D2", "E4 link D2", "F6 link E4", "G8 link F6", "E9 link G8",
                   "G2", "I3 link G2", "H4 link G2", "H5 link I3", "I7 link H5", "H9 link I7",
                   "B3 link D2"]


# The rec.games.abstract diagram on an 8x10 board, shifted so that H10 -> B2: red H10-I12-J14
# and J13-K15-J17, black I11 K11 M11 K12 L13(K11, M11) I15 I16 H17(I15); then black pegs on
# red's remaining open paths until none is left, and red fillers in red's border rows.
RGA_RED = ["B2", "C4 link B2", "D6 link C4", "D5", "E7 link D5", "D9 link E7",
           "B1", "C1", "D1", "E1", "F1", "G1", "B10", "C10", "E10", "F10"]
RGA_BLACK = ["C3", "E3", "G3", "E4", "F5 link E3 G3", "C7", "C8", "B9 link C7",
             "D7", "F7", "C6", "E6", "E8", "G6", "B4", "B6"]


@pytest.mark.parametrize(("size", "red", "black"), [
    pytest.param(10, EXAMPLE_A_RED, EXAMPLE_A_BLACK, id="example A"),
    pytest.param("8x10", RGA_RED, RGA_BLACK, id="the rec.games.abstract diagram"),
])
def test_a_blockade_is_a_draw_at_the_sealing_peg(size, red, black):
    game = two_player(size=size)
    _play_interleaved(game, red[:-1], black[:-1])
    game.play(red[-1])
    assert can_still_connect_by_bfs(game, Colour.RED)
    assert not game.is_over
    game.play(black[-1])
    assert not can_still_connect_by_bfs(game, Colour.RED)
    assert not can_still_connect_by_bfs(game, Colour.BLACK)
    assert game.outcome is not None
    assert game.outcome.reason is Reason.BLOCKADE
    assert game.outcome.winner is None
