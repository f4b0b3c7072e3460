"""`/twixt move`'s autocomplete: the legal holes now, best first (those that link to more of
the mover's pegs, then the nearer to the mover's newest), each with the links it makes, and
each suggestion a command the game takes. Its time on 48×48 is measured in
`benchmarks/move_suggestions_bench.py`, not here."""

from __future__ import annotations

import pytest

from tests.discord.helpers import interaction
from tests.discord.people import ALICE
from twixt.discord.move_suggestions import MAX_SUGGESTIONS, move_autocomplete, suggested_moves
from twixt.rules import Game, Hole


def played(*moves: str, size: int = 12, rules: str = "classic") -> Game:
    game = Game(("alice", "bob"), size=size, swap=False, rules=rules)
    for move in moves:
        game.play(move)
    return game


def test_holes_that_link_to_the_movers_pegs_come_first():
    game = played("F6", "C3", "H8", "C6")  # alice (red) to move, pegs at F6 and H8
    choices = suggested_moves(game, "")
    assert len(choices) == MAX_SUGGESTIONS
    first = choices[0]
    assert first.value.endswith("link all") and "links" in first.name
    linking = [c for c in choices if c.value.endswith("link all")]
    assert choices[:len(linking)] == linking  # every linking hole before any other


def test_each_suggestion_is_a_move_the_game_takes_and_names_its_links():
    game = played("F6", "C3")
    for choice in suggested_moves(game, ""):
        trial = game.copy()
        turn = trial.play(choice.value)
        ends = sorted(str(link.a if link.b == turn.placed else link.b)
                      for link in turn.links_added)
        assert (ends and all(end in choice.name for end in ends)) or "no link" in choice.name


def test_what_is_typed_narrows_them_to_holes_that_start_with_it():
    game = played("F6", "C3")
    assert {c.value.split()[0][0] for c in suggested_moves(game, "e")} == {"E"}
    [one] = suggested_moves(game, "e4")
    assert one.value.startswith("E4") and one.name.startswith("E4")
    assert suggested_moves(game, "F6") == []  # taken
    assert suggested_moves(game, "swap") == [] and suggested_moves(game, "3") == []


def test_in_pp_rules_the_links_are_made_anyway():
    game = played("F6", "C3", rules="pp")
    assert all(" " not in c.value for c in suggested_moves(game, ""))


def test_a_game_over_suggests_nothing():
    game = played("F6")
    game.play("resign")
    assert suggested_moves(game, "") == []


@pytest.mark.parametrize("size", [24, 48])
def test_a_big_board_gives_at_most_discords_25_near_the_middle_first(size):
    game = played(size=size)
    choices = suggested_moves(game, "")
    assert len(choices) == MAX_SUGGESTIONS
    middle = Hole(size // 2, size // 2)
    assert choices[0].value == str(middle)


async def test_a_channel_with_no_game_gets_no_suggestions_and_no_error(client):
    asked = interaction(client, ALICE)
    assert await move_autocomplete(client.service)(asked, "G") == []
