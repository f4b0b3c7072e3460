"""Conditional moves as the rules read them: the line's grammar, the checks on a copy of the
game, merging, and which branch an opponent's move calls for."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import twixt.rules.conditionals
from tests.refusals import refusal
from twixt.rules import Game, IllegalMoveError, InvalidMoveError
from twixt.rules.conditionals import (
    MAX_DEPTH,
    MAX_REPLIES,
    MAX_TEXT,
    answer,
    check_plan,
    check_plan_size,
    count_replies,
    lines,
    merge,
    parse_conditionals,
)


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(twixt.rules.conditionals).failed == 0


def written(text: str) -> list[str]:
    return lines(parse_conditionals(text))


def test_a_semicolon_before_if_starts_another_alternative():
    assert written("if H9 then G6; if J10 then K8") == ["if H9 then G6", "if J10 then K8"]


def test_an_if_without_a_semicolon_continues_the_sequence():
    assert written("if H9 then G6 if J10 then K8") == ["if H9 then G6", "  if J10 then K8"]


def test_a_semicolon_inside_a_reply_stays_part_of_the_move():
    assert written("if H9 then remove J9-K11; I11 link K10 if L12 then M14") == [
        "if H9 then remove J9-K11; I11 link K10", "  if L12 then M14"]


def test_the_leading_if_may_be_left_out_and_case_does_not_matter():
    assert written("h9 THEN g6 link e5; IF swap Then C3") == [
        "if H9 then G6 link E5", "if swap then C3"]


def test_a_hole_whose_letters_spell_if_is_a_hole():
    assert written("if IF12 then G6") == ["if IF12 then G6"]


@pytest.mark.parametrize("text, said", [
    ("if H9", "write conditional moves like"),
    ("if H9 then", "“if H9 then”: the command is empty"),
    ("then G6", "write conditional moves like"),
    ("if H9 if J10 then K8", "write conditional moves like"),
    ("if H9 then G6 then K8", "write conditional moves like"),
    ("if H9; then G6", "write conditional moves like"),
    ("if H9 lnk E5 then G6", "“if H9 lnk E5 then G6”: after H9 write link"),
    ("if resign then G6", "the opponent's move after if is a peg or swap"),
    ("if H9; offer draw then G6", "the opponent's move after if is a peg or swap"),
    ("if H9 then offer draw", "the reply after then is a peg or swap"),
])
def test_a_line_that_is_not_conditional_moves_says_why(text, said):
    assert said in refusal(InvalidMoveError, parse_conditionals, text)


def test_a_line_is_bounded_in_length_depth_and_replies():
    with pytest.raises(InvalidMoveError, match="at most"):
        parse_conditionals("if H9 then G6" + " " * MAX_TEXT)
    deep = " ".join(f"if A{n} then B{n}" for n in range(2, MAX_DEPTH + 3))
    with pytest.raises(InvalidMoveError, match="deep"):
        parse_conditionals(deep)
    wide = "; ".join(f"if C{n} then D{n}" for n in range(2, MAX_REPLIES + 3))
    with pytest.raises(InvalidMoveError, match="at most"):
        parse_conditionals(wide)


def test_a_stored_plan_is_bounded_too():
    plan = ()
    for n in range(MAX_REPLIES + 1):
        plan = merge(plan, parse_conditionals(f"if C{n + 2} then D{n + 2}"))
    with pytest.raises(InvalidMoveError, match="if clear"):
        check_plan_size(plan)


def game_after(*moves: str) -> Game:
    game = Game(("alice", "bob"), size=12, swap=False)
    for move in moves:
        game.play(move)
    return game


def test_checking_plays_every_level_on_a_copy():
    game = game_after("F5", "E5")
    before = game.snapshot()
    plan = check_plan(game, parse_conditionals("if H9 then G6 link E5 if J10 then K8"), "bob")
    assert count_replies(plan) == 2 and game.snapshot() == before


@pytest.mark.parametrize("text, said", [
    ("if A5 then G6", "“if A5 then G6”: A5 is in Black's border row"),
    ("if H9 then F5", "“if H9 then F5”: F5 is already taken"),
    ("if H9 then G6 if G6 then K8", "“if G6 then K8”: G6 is already taken"),
    ("if H9 then G6 link F5", "F5 is not your peg"),
    ("if H9 link F5 then G6", "H9 and F5 are not a knight's move apart"),
    ("if swap then G6", "swap is off in this game"),
])
def test_a_branch_that_cannot_be_played_is_named(text, said):
    plan = parse_conditionals(text)
    assert said in refusal(IllegalMoveError, check_plan, game_after("F5", "E5"), plan, "bob")


def test_only_the_player_not_to_move_stores_and_only_in_two_player_games():
    with pytest.raises(IllegalMoveError, match="it is your turn"):
        check_plan(game_after("F5"), parse_conditionals("if H9 then G6"), "bob")
    double = Game(("alice", "bob", "carol", "dave"), size=12)
    with pytest.raises(IllegalMoveError, match="two-player games"):
        check_plan(double, parse_conditionals("if H9 then G6"), "bob")


def test_a_trigger_with_links_is_kept_as_the_game_writes_it():
    game = game_after("F5", "E5")
    [branch] = check_plan(game, parse_conditionals("if G7 link all then C3"), "bob")
    assert str(branch.trigger) == "G7 link F5"


def test_a_bare_hole_answers_any_move_there_and_links_must_match_exactly():
    plan = parse_conditionals("if G7 then C3; if G7 link F5 then C4")
    exact, bare = game_after("F5", "E5", "G7 link F5"), game_after("F5", "E5", "G7")
    assert str(answer(plan, exact).reply) == "C4"
    assert str(answer(plan, bare).reply) == "C3"
    assert answer(parse_conditionals("if G7 link F5 then C4"), bare) is None


def test_swap_answers_a_swap_and_another_move_answers_nothing():
    game = Game(("alice", "bob"), size=12)
    game.play("F5")
    game.play("swap")
    assert str(answer(parse_conditionals("if swap then C3"), game).reply) == "C3"
    assert answer(parse_conditionals("if F6 then C3"), game) is None


def test_merging_adds_alternatives_and_a_known_trigger_replaces_its_branch():
    plan = merge(parse_conditionals("if H9 then G6"), parse_conditionals("if J10 then K8"))
    assert lines(plan) == ["if H9 then G6", "if J10 then K8"]
    assert lines(merge(plan, parse_conditionals("if J10 then K9"))) == [
        "if H9 then G6", "if J10 then K9"]


@given(st.text(alphabet=st.sampled_from(list("ifthenIFTHEN ;-,AGHJ0159swaplk\n")),
               max_size=80))
def test_any_line_is_a_bounded_plan_or_one_clear_refusal(text):
    try:
        plan = parse_conditionals(text)
    except InvalidMoveError as refused:
        assert "\n" not in str(refused)  # one line, whatever was typed
        return
    assert 1 <= count_replies(plan) <= MAX_REPLIES
