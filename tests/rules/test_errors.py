"""Every kind of refused command: `InvalidMoveError` for text that does not parse,
`IllegalMoveError` for a command the position forbids, a message a player understands, and the
game left exactly as it was."""

from __future__ import annotations

import pytest

from tests.refusals import refusal
from tests.rules.helpers import play_all, two_player
from twixt.rules import Game, IllegalMoveError, InvalidMoveError, TwixtError


def _refused(game: Game, command: str, message: str, by: str | None = None,
             error: type[TwixtError] = IllegalMoveError) -> None:
    before = game.snapshot()
    assert refusal(error, game.play, command, by) == message
    assert game.snapshot() == before


@pytest.fixture
def game() -> Game:
    # alice Red, bob Black; Red G6-E7 linked, Black F5 H5 unlinked; Red to move
    return play_all(two_player(), ["G6", "F5", "E7 link G6", "H5"])


def test_peg_in_the_opponents_border_row(game):
    _refused(game, "A6", "A6 is in Black's border row")
    game.play("K10")
    _refused(game, "G1", "G1 is in Red's border row")


@pytest.mark.parametrize(("command", "message", "by"), [
    pytest.param("X24", "X24 is a corner, and the board has no corner holes", None,
                 id="peg in a corner"),
    pytest.param("Z30", "Z30 is not on the board (24×24)", None, id="peg off the board"),
    pytest.param("F5", "F5 is already taken", None, id="peg on a taken hole"),
    pytest.param("G3 link F5", "F5 is not your peg", None, id="link to an opponents peg"),
    pytest.param("G3 link H4", "there is no peg on H4", None, id="link to an empty hole"),
    pytest.param("G8 link G6", "G8 and G6 are not a knight's move apart, so they cannot link", None,
                 id="link that is not a knights move"),
    pytest.param("K10 link G6-E7", "G6-E7 is already linked", None,
                 id="already linked pair in classic"),
    pytest.param("K10", "it is alice's turn", "bob", id="not your turn"),
    pytest.param("K10", "carol is not playing in this game", "carol", id="unknown player"),
    pytest.param("privilege", "privilege is only called in Double TwixT", None,
                 id="privilege in a two player game"),
    pytest.param("timeout", "only alice, whose turn it is, can run out of time", "bob",
                 id="timeout by a player who is not to move"),
])
def test_a_command_the_position_forbids(game, command, message, by):
    _refused(game, command, message, by=by)


def test_link_crossing_an_opponent_link():
    game = play_all(two_player(), ["K10", "F5", "G4", "H6 link F5"])
    _refused(game, "F6 link G4", "the link F6-G4 would cross Black's link F5-H6")


def test_link_crossing_your_own_link_in_classic():
    game = play_all(two_player(), ["F5", "A10", "H6 link F5", "A12", "G4", "A14"])
    _refused(game, "F6 link G4", "the link F6-G4 would cross Red's link F5-H6")


def test_own_links_may_cross_in_pp():
    game = play_all(two_player(rules="pp"), ["F5", "A10", "H6", "A12", "G4", "A14"])
    turn = game.play("F6")
    assert {str(link) for link in turn.links_added} == {"G4-F6"}
    assert turn.text == "F6 link G4"


def test_removing_an_opponents_link_or_peg(game):
    game.play("K10")
    game.play("G3 link F5")
    _refused(game, "remove F5-G3; K12", "F5-G3 is not your link")
    _refused(game, "remove F5; K12", "F5 is not your peg")
    _refused(game, "remove K9-L11; K12", "there is no link K9-L11")


def test_removal_in_pp_rules():
    game = play_all(two_player(rules="pp"), ["G6", "F5", "E7"])
    _refused(game, "remove G6; K10", "nothing can be removed in pp rules", by="bob")


def test_removal_without_a_placement(game):
    _refused(game, "remove G6-E7", "after removing, the turn must place a peg, like remove H4; G6",
             error=InvalidMoveError)


def test_removal_then_an_illegal_peg_undoes_the_removal(game):
    _refused(game, "remove G6-E7; F5", "F5 is already taken")
    assert {str(link) for link in game.links()} == {"G6-E7"}


def test_swap_after_the_second_move(game):
    _refused(game, "swap", "swap is off in this game")
    swap_game = play_all(two_player(swap=True), ["G6", "F5"])
    _refused(swap_game, "swap", "swap is only possible as the second move")


def test_swap_by_the_first_player():
    game = play_all(two_player(swap=True), ["G6"])
    _refused(game, "swap", "it is bob's turn", by="alice")


def test_draw_words_without_an_offer(game):
    _refused(game, "accept draw", "there is no draw offer to accept", by="bob")
    _refused(game, "decline draw", "there is no draw offer to decline", by="bob")


def test_accepting_your_own_draw_offer(game):
    game.play("offer draw", by="alice")
    _refused(game, "accept draw", "you cannot accept your own side's draw offer", by="alice")
    _refused(game, "offer draw", "your side has already offered a draw", by="alice")


def test_anything_after_the_end(game):
    game.play("resign", by="bob")
    _refused(game, "K10", "the game is over")
    _refused(game, "resign", "the game is over", by="alice")


@pytest.mark.parametrize(("command", "message"), [
    ("", "the command is empty: a move looks like G6, G6 link E5 or remove J9-K11; I11 link K10"),
    ("hello", "I don't understand “hello”: a move looks like G6, G6 link E5 or "
              "remove J9-K11; I11 link K10"),
    ("G6 E5", "after G6 write link and the pegs to link, like G6 link E5"),
    ("G6 link", "link to what? write G6 link E5"),
    ("G6 link E5-", "“e5-” is not a link: write two holes like J9-K11"),
    ("G6; H7", "a turn places only one peg"),
    ("G6; remove H4", "removals come first, before the peg is placed"),
    ("remove", "remove what? write remove J9-K11 or remove H4"),
    ("resign; offer draw", "resign and offer draw cannot be combined"),
    ("G6; resign", "resign cannot be combined with a move"),
    ("G6; swap", "swap cannot be combined with a move"),
    ("G6; privilege; privilege", "the same action is given twice"),
    ("G0", "“g0” is not a hole: write a column letter and a row, like G6"),
])
def test_commands_that_do_not_parse(game, command, message):
    _refused(game, command, message, error=InvalidMoveError)


def test_bad_game_options_are_refused_with_a_reason():
    with pytest.raises(TwixtError, match="a board is 5 to 48 holes each way, not 49"):
        Game(("a", "b"), size=49)
    with pytest.raises(TwixtError, match="swap is off in a handicap game"):
        Game(("a", "b"), handicap=6, swap=True)
    with pytest.raises(TwixtError, match="every player needs a different name"):
        Game(("a", "A"))
    with pytest.raises(TwixtError, match="a game has two players, or four for Double TwixT"):
        Game(("a", "b", "c"))
    with pytest.raises(TwixtError, match="“x” is not a rule set: choose classic or pp"):
        Game(("a", "b"), rules="x")
    with pytest.raises(TwixtError, match="cannot be a player name"):
        Game(("a:b", "c"))
