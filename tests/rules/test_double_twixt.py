"""Double TwixT: seats, turn order, Privilege, and swap with four players."""

from __future__ import annotations

import pytest

from twixt.rules import Colour, Game, IllegalMoveError, Reason


@pytest.fixture
def game() -> Game:
    # seats: alice Red, bob Black, carol Red (alice's partner), dave Black (bob's partner)
    return Game(("alice", "bob", "carol", "dave"), swap=False)


def _movers(game: Game, count: int) -> list[str]:
    movers = []
    holes = iter(["K10", "K14", "M10", "M14", "O10", "O14", "Q10", "Q14", "S10", "S14"])
    for _ in range(count):
        movers.append(game.player_to_move)
        game.play(next(holes))
    return movers


def test_turn_order_goes_round_the_table(game):
    assert _movers(game, 5) == ["alice", "bob", "carol", "dave", "alice"]
    assert game.colour_of_seat(2) is Colour.RED and game.colour_of_seat(3) is Colour.BLACK


def test_privilege_inline_gives_the_callers_partner_the_next_move(game):
    game.play("G6; privilege", by="alice")
    assert _movers(game, 4) == ["carol", "dave", "alice", "bob"]
    assert not game.privilege_available(Colour.RED)
    assert game.privilege_available(Colour.BLACK)


def test_privilege_on_its_own_before_the_next_player_moves(game):
    game.play("G6", by="alice")
    game.play("privilege", by="alice")
    assert game.player_to_move == "carol"


@pytest.mark.parametrize(("before", "caller", "message"), [
    pytest.param([("G6; privilege", "alice"), ("K10", "carol")], "carol",
                 "your team has already used its privilege", id="a second by the same team"),
    pytest.param([("G6", "alice")], "carol", "only alice, who has just moved, can call privilege",
                 id="by the partner of the player who moved"),
    pytest.param([("G6", "alice")], "bob", "only alice, who has just moved, can call privilege",
                 id="by the next player"),
    pytest.param([("G6", "alice"), ("K14", "bob")], "alice", "only bob, who has just moved",
                 id="lapsed once the next player has moved"),
])
def test_privilege_out_of_its_moment_is_refused(game, before, caller, message):
    for text, by in before:
        game.play(text, by=by)
    with pytest.raises(IllegalMoveError, match=message):
        game.play("privilege", by=caller)


def test_the_other_team_may_answer_with_its_own_privilege(game):
    game.play("G6; privilege", by="alice")
    game.play("G10", by="carol")
    game.play("G14; privilege", by="dave")
    assert _movers(game, 4) == ["bob", "carol", "dave", "alice"]


def test_partners_may_link_each_others_pegs(game):
    game.play("G6", by="alice")
    game.play("A10", by="bob")
    turn = game.play("E7 link G6", by="carol")
    assert [str(link) for link in turn.links_added] == ["G6-E7"]
    assert {p.seat for p in game.pegs() if p.colour is Colour.RED} == {0, 2}


def test_one_partner_resigns_for_the_team(game):
    game.play("resign", by="dave")
    assert game.outcome.reason is Reason.RESIGNATION
    assert game.outcome.winners == ("alice", "carol")


def test_swap_with_four_players_exchanges_the_teams_colours():
    game = Game(("alice", "bob", "carol", "dave"))
    game.play("G6", by="alice")
    game.play("swap", by="bob")
    assert game.player_to_move == "carol"
    assert game.colour_to_move is Colour.BLACK
    assert game.players_of(Colour.RED) == ("bob", "dave")
    [peg] = game.pegs()
    assert peg.colour is Colour.RED and peg.seat == 0


def test_a_partner_cannot_swap_the_first_peg_after_a_privilege_call():
    game = Game(("alice", "bob", "carol", "dave"), size=12, swap=True)
    game.play("G6; privilege", by="alice")  # carol, alice's partner, moves second
    assert game.player_to_move == "carol" and not game.can_swap()
    with pytest.raises(IllegalMoveError, match="only the other side may swap the first peg"):
        game.play("swap", by="carol")
