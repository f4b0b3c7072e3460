"""The engine answers every position the rules allow with a legal move, deterministically,
within its budget, and sees the one-move tactics: a winning peg, a threat to block, swap."""

from __future__ import annotations

import random
import time

import pytest

from twixt.engine import LEVELS, Limit, api, level_limit, pegs_to_connect, think
from twixt.engine.api import LevelLimit, _calls_privilege, level_nodes
from twixt.engine.board import Board
from twixt.engine.opening import FAIR_MARGIN, first_player_score
from twixt.rules import Colour, Game, Hole, TwixtError

#: (players, size, rules, swap, handicap): every kind of game the rules allow
VARIANTS = [
    (2, (5, 5), "pp", False, 0),
    (2, (5, 5), "classic", True, 0),
    (2, (12, 7), "classic", False, 0),
    (2, (7, 12), "pp", True, 0),
    (2, (12, 12), "pp", True, 0),
    (2, (12, 12), "classic", True, 0),
    (2, (24, 24), "classic", False, 4),
    (2, (30, 9), "pp", False, 0),
    (2, (48, 48), "pp", True, 0),
    (4, (10, 10), "classic", True, 0),
    (4, (12, 9), "pp", False, 0),
]
SMALL = Limit(nodes=25)


def _new(players: int, size: tuple[int, int], rules: str, swap: bool, handicap: int) -> Game:
    names = ("ann", "bob", "cid", "dee")[:players]
    return Game(names, size=size, rules=rules, swap=swap, handicap=handicap)


def _random_turn(game: Game, rng: random.Random) -> None:
    """A random legal turn: a peg, linked at random in classic, sometimes a swap or a
    privilege call (so the engine meets those windows too)."""
    if game.can_swap() and rng.random() < 0.5:
        game.play("swap")
        return
    hole = rng.choice(game.legal_placements())
    text = f"{hole} link all" if rng.random() < 0.7 else str(hole)
    if game.is_double and rng.random() < 0.1 and game.privilege_available(game.colour_to_move):
        text += "; privilege"
    game.play(text)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v[0]}p-{v[1]}-{v[2]}-{v[4]}")
def test_the_move_is_legal_in_random_positions(variant):
    rng = random.Random(hash(variant[1]) & 0xFFFF)
    for trial in range(4):
        game = _new(*variant)
        for _ in range(rng.choice((0, 1, 2, 5, 15, 40))):
            if game.is_over:
                break
            _random_turn(game, rng)
        if game.is_over:
            continue
        before = game.snapshot()
        result = think(game, SMALL, seed=trial)
        assert game.snapshot() == before, "think leaves the game as it was"
        game.copy().play(result.move)
        assert result.pv[0] == result.move
        assert 0.0 <= result.win <= 1.0
        assert 1 <= result.nodes <= SMALL.nodes


def test_engine_plays_whole_games_legally_against_itself():
    for rules in ("pp", "classic"):
        game = Game(("ann", "bob", "cid", "dee"), size=9, rules=rules)
        while not game.is_over and game.pegs_placed < 60:
            game.play(think(game, Limit(nodes=15), seed=game.pegs_placed).move)
        assert game.is_over


def test_same_position_limit_and_seed_give_the_same_result():
    game = Game(("ann", "bob"), size=12, rules="classic", swap=False)
    for text in ("F5", "G7", "E7 link F5"):
        game.play(text)
    first = think(game, Limit(nodes=200), seed=3)
    second = think(game, Limit(nodes=200), seed=3)
    assert (first.move, first.pv, first.win, first.nodes) == (
        second.move, second.pv, second.win, second.nodes)


def test_a_time_budget_on_the_biggest_board_still_gives_a_legal_move():
    game = Game(("ann", "bob"), size=48, rules="classic", swap=False)
    for text in ("X20", "W26", "Y30"):
        game.play(text)
    result = think(game, Limit(seconds=0.05), seed=1)
    game.copy().play(result.move)


def _linked(rules: str, moves: tuple[str, ...]) -> Game:
    """A 12x12 game of `moves`, every peg linked as far as it may be (as pp does itself)."""
    game = Game(("ann", "bob"), size=12, rules=rules, swap=False)
    for text in moves:
        game.play(f"{text} link all")
    return game


@pytest.mark.parametrize("rules", ["pp", "classic"])
def test_it_takes_an_immediate_win(rules):
    # Red has C1-D3-E5 and G9-H11-J12 linked on a 12x12: F7 joins them
    game = _linked(rules, ("C1", "A5", "D3", "A7", "E5", "A9", "G9", "L2", "H11", "L4", "J12",
                           "L6"))
    result = think(game, Limit(nodes=50), seed=0)
    assert game.copy().play(result.move) and _wins(game, result.move)
    assert result.win == 1.0


@pytest.mark.parametrize("rules", ["pp", "classic"])
def test_it_blocks_a_one_move_threat(rules):
    # Black (to move) must stop Red's F7, which would join two linked chains
    game = _linked(rules, ("C1", "B6", "D3", "B8", "E5", "B10", "G9", "K3", "H11", "K5", "J12"))
    idle = game.copy()
    idle.play("K7")
    assert _wins(idle, "F7 link all")
    result = think(game, Limit(nodes=50), seed=0)
    after = game.copy()
    after.play(result.move)
    assert not any(_wins(after, f"{hole} link all") for hole in after.legal_placements())


def _wins(game: Game, move: str) -> bool:
    trial = game.copy()
    trial.play(move)
    return trial.outcome is not None and trial.outcome.winner is not None


def test_a_finished_game_is_refused():
    game = Game(("ann", "bob"), size=12)
    game.play("resign")
    with pytest.raises(TwixtError):
        think(game, SMALL)


def test_swap_takes_a_central_first_peg_and_leaves_one_near_the_side():
    central = Game(("ann", "bob"), size=24)
    central.play("L12")
    assert think(central, SMALL).move == "swap"
    near_side = Game(("ann", "bob"), size=24)
    near_side.play("B3")
    assert think(near_side, SMALL).move != "swap"


@pytest.mark.parametrize(("hole", "swapped"), [
    ("F3", False), ("T3", False), ("U22", False),  # near-corner openings, as T1j plays them
    ("E12", True), ("C15", True), ("V10", True),   # six rows or more into the board
])
def test_swap_follows_the_self_play_fit_of_first_pegs(hole: str, swapped: bool) -> None:
    """twixtbot's fit of first pegs to results: the row decides, not the column (the earlier
    rule here swapped T1j's near-corner openings and kept the pegs beside a side column)."""
    game = Game(("ann", "bob"), size=24)
    game.play(hole)
    assert (think(game, SMALL).move == "swap") is swapped


@pytest.mark.parametrize("size", [5, 12, 24, 48])
def test_the_first_peg_is_about_even_by_the_fit_and_not_swapped(size: int) -> None:
    for seed in range(5):
        game = Game(("ann", "bob"), size=size)
        hole = Hole.parse(think(game, SMALL, seed=seed).move.split()[0])
        score = first_player_score(size, size, hole.col, hole.row)
        assert score <= 0.5
        if size >= 12:   # a tiny board may have no hole that close to even
            assert score >= 0.5 - FAIR_MARGIN
        game.play(str(hole))
        assert think(game, SMALL).move != "swap"


def test_the_first_peg_with_swap_on_is_not_central():
    game = Game(("ann", "bob"), size=24)
    move = think(game, SMALL, seed=5).move
    game.play(move)
    assert think(game, SMALL).move != "swap"


def test_levels_are_node_bounded_with_a_time_cap():
    limits = [level_limit(level) for level in LEVELS]
    assert all(limit.nodes and limit.seconds for limit in limits)
    assert [limit.nodes for limit in limits] == sorted(limit.nodes or 0 for limit in limits)
    assert limits[-1].seconds == 10.0
    game = Game(("ann", "bob"), size=9, swap=False)
    game.play("E5")
    first, second = (think(game, level_limit(2), seed=4) for _ in range(2))
    assert (first.move, first.pv, first.win, first.nodes) == (
        second.move, second.pv, second.win, second.nodes)
    with pytest.raises(TwixtError):
        level_limit(6)


def test_a_slow_start_does_not_cut_a_levels_nodes(monkeypatch):
    """A level's time cap is a bound for safety, counted from its search: a first search on a
    loaded machine (the root's network and the tables slow to come) still searches the
    level's nodes, so the level gives its usual move."""
    game = Game(("ann", "bob"), size=12, swap=False)
    game.play("F6")
    usual = think(game, level_limit(1), seed=3)
    network = api.root_scores

    def slow_network(*args, **kwargs):
        time.sleep(0.3)
        return network(*args, **kwargs)

    monkeypatch.setattr(api, "root_scores", slow_network)
    slow = think(game, LevelLimit(seconds=0.2, nodes=level_limit(1).nodes, level=1), seed=3)
    assert (slow.move, slow.nodes) == (usual.move, usual.nodes) and usual.nodes > 1
    cut = think(game, Limit(seconds=0.2, nodes=level_limit(1).nodes), seed=3)
    assert cut.nodes == 1  # a time asked for counts from the call, the network's time in it


def test_in_double_twixt_it_calls_privilege_to_win_with_the_partners_move():
    # Red's team needs two pegs (F7, then J12 or F12); privilege makes them consecutive
    game = Game(("ann", "bob", "cid", "dee"), size=12, rules="pp", swap=False)
    for text in ("C1", "B6", "D3", "B8", "E5", "B10", "G9", "K3", "H11", "K5"):
        game.play(text)
    assert game.player_to_move == "cid"
    result = think(game, Limit(nodes=100), seed=0)
    assert result.move.endswith("; privilege")
    game.play(result.move)
    assert game.player_to_move == "ann"
    game.play(think(game, Limit(nodes=20), seed=0).move)
    assert game.outcome is not None and game.outcome.winners == ("ann", "cid")


def test_the_expected_line_is_playable():
    game = Game(("ann", "bob"), size=10, rules="classic", swap=False)
    for text in ("E4", "F6"):
        game.play(text)
    result = think(game, Limit(nodes=300), seed=2)
    assert len(result.pv) > 1
    trial = game.copy()
    for move in result.pv:
        trial.play(move)


def test_a_level_searches_fewer_nodes_on_a_bigger_board():
    """A level's nodes are counted for 12x12 and shrink with the board's side, so that the
    standard 24x24 board stays inside the level's time cap (and its moves reproducible)."""
    searched = {}
    for size in (12, 24):
        game = Game(("ann", "bob"), size=size, swap=False)
        for move in ("F6", "G8"):
            game.play(move)
        searched[size] = think(game, level_limit(2), seed=1).nodes
    budget = level_limit(2).nodes
    assert budget is not None
    assert searched[12] <= budget and searched[24] <= budget // 2 < searched[12]


@pytest.mark.parametrize(("seats", "rules", "seed"), [
    (("three", "one"), "pp", 0), (("one", "three"), "pp", 1), (("one", "three"), "classic", 2)])
def test_level_3_beats_level_1_on_12x12_every_time(seats, rules, seed):
    """Level 3 wins every game against level 1 (it once lost one in ten moves). Levels are
    node bounded, so each of these games is the same on every machine; level 3 moves first
    and second."""
    game = Game(seats, size=12, rules=rules)
    while not game.is_over:
        level = 3 if game.player_to_move == "three" else 1
        game.play(think(game, level_limit(level), seed=seed * 1000 + game.pegs_placed).move)
    assert game.outcome is not None and game.outcome.winners == ("three",)


@pytest.mark.parametrize("level", LEVELS)
def test_level_nodes_is_what_a_level_searches_for_the_board(level):
    """`level_nodes` (the analysis's floor for its deeper searches) is a level's own budget:
    all of it on 12×12, half on 24×24 (the side doubled), and a level's search keeps to it."""
    small, big = Game(("a", "b"), size=12), Game(("a", "b"), size=24)
    assert level_nodes(level, small) == level_limit(level).nodes
    assert level_nodes(level, big) == round(level_nodes(level, small) / 2)
    if level <= 2:
        big.play("L12")
        assert think(big, level_limit(level), seed=0).nodes <= level_nodes(level, big)


def _newcomers_game(moves: list[str]) -> Game:
    """A 12×12 classic game of a newcomer (Red) against the bot (Black), every link made."""
    game = Game(("newcomer", "bot"), size=12, rules="classic", swap=False)
    for move in moves:
        game.play(f"{move} link all")
    return game


def test_a_low_level_blocks_a_chain_nearly_through_as_the_book_does() -> None:
    """Red's chain F2–G8 is three pegs from through: level 1 then plays the engine's own
    answer at its nodes, without the level's noise and temperature (F10 with the priors of
    d0cfdb5), whatever its seed, as a beginner blocks what they can see coming; it played all
    over the board before (fifteen holes in twenty seeds)."""
    game = _newcomers_game(["F2", "B6", "G4", "B9", "F6", "K5", "G8"])
    assert pegs_to_connect(game, Colour.RED) == 3
    book = think(game, Limit(nodes=level_limit(1).nodes)).move
    assert {think(game, level_limit(1), seed=seed).move for seed in range(10)} == {book}


def test_a_low_level_still_plays_loosely_while_nothing_presses() -> None:
    game = _newcomers_game(["E1", "B6", "F3", "B9", "E5"])
    assert pegs_to_connect(game, Colour.RED) == 4
    assert len({think(game, level_limit(1), seed=seed).move for seed in range(10)}) >= 3


def test_privilege_is_not_called_when_the_partners_move_cannot_stop_the_opponent() -> None:
    """After Black's A2 in this Double TwixT game Red wins whatever Black's partner plays: a
    privilege there is wasted (it was called). After C3 the partner's peg saves the game."""
    game = Game(("a", "b", "c", "d"), size=8, rules="pp", swap=False)
    for move in ["B5", "D5", "D1", "A4", "G6", "C6", "F5", "E4", "C7", "A5", "E8", "F3", "G7"]:
        game.play(move)
    board = Board(game)
    calls = {hole: _calls_privilege(game, board, board.geo.index(Hole.parse(hole)),
                                    Colour.BLACK) for hole in ("A2", "C3")}
    assert calls == {"A2": False, "C3": True}
