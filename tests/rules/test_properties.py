"""Property tests against the brute-force oracle of tests/rules/oracle.py."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.oracle import (
    can_still_connect_by_bfs,
    connected_by_bfs,
    links_cross,
    segments_intersect,
)
from twixt.rules import Colour, Game, Peg, RuleSet
from twixt.rules.geometry import KNIGHT_STEPS, geometry
from twixt.rules.records import read, write


def _all_link_ids(cols: int, rows: int) -> list[int]:
    geo = geometry(cols, rows)
    return [lid for lid, ends in enumerate(geo.link_ends) if ends is not None]


def _as_points(cols: int, lid: int, geo) -> tuple[tuple[int, int], tuple[int, int]]:
    a, b = geo.link_ends[lid]
    return (a % cols, a // cols), (b % cols, b // cols)


def test_crossing_table_equals_segment_intersection_for_every_pair_on_a_9x9_board():
    geo = geometry(9, 9)
    lids = _all_link_ids(9, 9)
    for first, second in itertools.combinations(lids, 2):
        expected = segments_intersect(*_as_points(9, first, geo), *_as_points(9, second, geo))
        assert (second in geo.crossings[first]) == expected, (first, second)


@settings(max_examples=300, deadline=None)
@given(cols=st.integers(5, 48), rows=st.integers(5, 48), data=st.data())
def test_crossing_table_equals_segment_intersection_on_any_board(cols, rows, data):
    geo = geometry(cols, rows)
    lids = _all_link_ids(cols, rows)
    first = data.draw(st.sampled_from(lids))
    # a nearby link: most far-away pairs trivially do not cross
    a, _b = geo.link_ends[first]
    col, row = a % cols, a // cols
    dc, dr = data.draw(st.integers(-3, 3)), data.draw(st.integers(-3, 3))
    step = data.draw(st.sampled_from(KNIGHT_STEPS))
    start, end = (col + dc, row + dr), (col + dc + step[0], row + dr + step[1])
    if not all(0 <= c < cols and 0 <= r < rows for c, r in (start, end)):
        return
    second = geo.link_id(start[1] * cols + start[0], end[1] * cols + end[0])
    if second is None:
        return  # a corner hole
    expected = segments_intersect(*_as_points(cols, first, geo), start, end)
    assert (second in geo.crossings[first]) == expected


def test_every_link_away_from_the_edges_has_exactly_nine_crossing_positions():
    geo = geometry(24, 24)
    for lid in _all_link_ids(24, 24):
        a, b = geo.link_ends[lid]
        cols = [a % 24, b % 24]
        rows = [a // 24, b // 24]
        if min(cols) >= 3 and max(cols) <= 20 and min(rows) >= 3 and max(rows) <= 20:
            assert len(geo.crossings[lid]) == 9


def _random_game(seed: int, rules: str, size: int, turns: int) -> Game:
    """Random legal play: pegs at random, linking all or a random subset, some removals."""
    rng = random.Random(seed)
    game = Game(("alice", "bob"), size=size, rules=rules, swap=False)
    for _ in range(turns):
        if game.is_over:
            break
        hole = rng.choice(game.legal_placements())
        own = [p.hole for p in game.pegs() if p.colour is game.colour_to_move]
        removal = ""
        if rules == "classic" and own and rng.random() < 0.05:
            removal = f"remove {rng.choice(own)}; "
        linking = " link all" if rng.random() < 0.7 else ""
        game.play(f"{removal}{hole}{linking}")
    return game


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["classic", "pp"]),
       size=st.integers(5, 14))
def test_in_random_games_links_never_cross_except_own_links_in_pp(seed, rules, size):
    game = _random_game(seed, rules, size, turns=size * size)
    links = game.links()
    for first, second in itertools.combinations(links, 2):
        if links_cross(first, second):
            assert game.rules is RuleSet.PP and first.colour is second.colour


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["classic", "pp"]),
       size=st.integers(5, 12))
def test_connection_and_blockade_agree_with_bfs_after_every_turn(seed, rules, size):
    rng = random.Random(seed)
    game = Game(("alice", "bob"), size=size, rules=rules, swap=False)
    while not game.is_over:
        game.play(f"{rng.choice(game.legal_placements())} link all")
        for colour in Colour:
            assert game.position.connected(colour) == connected_by_bfs(game, colour)
            assert game.position.can_still_connect(colour) == can_still_connect_by_bfs(
                game, colour)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["classic", "pp"]),
       turns=st.integers(0, 60), undone=st.integers(0, 3))
def test_the_pegs_are_those_of_the_occupied_holes_in_hole_order(seed, rules, turns, undone):
    """`Game.pegs` walks the occupied holes' bits: the same pegs, in the same order, as a
    look at every hole, also after undos take pegs out."""
    game = _random_game(seed, rules, 9, turns)
    for _ in range(min(undone, len(game.history))):
        game.undo()
    position, holes = game.position, game.geometry.holes
    assert game.pegs() == [Peg(holes[index], colour, position.peg_seat[index])
                           for index, colour in enumerate(position.peg_colour) if colour]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["classic", "pp"]),
       turns=st.integers(1, 60))
def test_undo_restores_the_exact_state(seed, rules, turns):
    game = _random_game(seed, rules, 9, turns)
    if not game.history:
        return
    before = game.copy()
    last = game.history[-1]
    game.undo()
    replayed = Game(("alice", "bob"), size=9, rules=rules, swap=False)
    for turn in game.history:
        replayed.play(turn.text, by=turn.player)
    assert game.snapshot() == replayed.snapshot()
    game.play(last.text, by=last.player)
    assert game.snapshot() == before.snapshot()
    assert sorted(map(str, game.links())) == sorted(map(str, before.links()))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["classic", "pp"]),
       turns=st.integers(0, 80))
def test_transcript_write_then_read_gives_the_same_game(seed, rules, turns):
    game = _random_game(seed, rules, 11, turns)
    again = read(write(game))
    assert again.snapshot() == game.snapshot()
    assert write(again) == write(game)
