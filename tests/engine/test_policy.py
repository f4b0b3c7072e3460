"""The root's policy network: the shipped weights say where they come from, the board is read
from the side to move (Black's transposed), a position and its mirror images (and its
colour-swapped transposition) get the same policy, and the search ranks its root's moves by
it on both cores. (That the numpy network is the trained one is
tests/benchmarks/test_train_policy.py's.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.engine.test_priors import _pegs, position_and_image
from twixt.engine import Limit, api, core, policy, think
from twixt.engine.board import Board
from twixt.engine.evaluate import side
from twixt.engine.search import ROOT_WIDTH
from twixt.rules import Colour, Game, Hole


def test_the_shipped_network_names_its_games_and_reads_the_planes() -> None:
    provenance = policy.provenance()
    assert provenance["games"] == 728 and provenance["pegs"] > 15_000
    assert "without the 100 games of benchmarks/games" in provenance["corpus"]
    assert provenance["command"] == "python benchmarks/train_policy.py"
    assert provenance["planes"] == list(policy.PLANES)
    net = policy.network()
    assert len(net.blocks) == provenance["blocks"]
    assert net.stem[0].shape == (provenance["channels"], len(policy.PLANES), 5, 5)


def _board(cols: int, rows: int, pegs: list[tuple[int, int, Colour]]) -> Board:
    """A classic board after `pegs` (column, row, colour), each with all its legal links."""
    board = Board(Game(("ann", "bob"), size=(cols, rows), rules="classic", swap=False))
    for col, row, owner in pegs:
        board.place(row * cols + col, owner)
    board.placed = tuple(row * cols + col for col, row, _owner in reversed(pegs))
    return board


@pytest.mark.parametrize("k", [1, 3, 5])
def test_a_convolution_is_each_hole_s_window_times_the_weights(k: int) -> None:
    """The network's convolution against its sum written out, hole by hole (zero beyond the
    edges), on a board that is not square."""
    rng = np.random.default_rng(k)
    x = rng.standard_normal((2, 3, 5, 7)).astype(np.float32)
    weight = rng.standard_normal((4, 3, k, k)).astype(np.float32)
    bias = rng.standard_normal(4).astype(np.float32)
    pad = k // 2
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    expected = np.empty((2, 4, 5, 7))
    for image in range(2):
        for out in range(4):
            for row in range(5):
                for column in range(7):
                    window = padded[image, :, row:row + k, column:column + k]
                    expected[image, out, row, column] = (window * weight[out]).sum() + bias[out]
    found = policy._convolved(x, weight, bias)
    assert found.shape == expected.shape
    assert np.allclose(found, expected, atol=1e-4)


def test_black_reads_the_board_transposed_and_a_link_by_its_direction() -> None:
    cols, rows = 9, 7
    # Red's pegs at C3 and D5 (columns 2, 3; rows 2, 4): a steep rising link for Red
    board = _board(cols, rows, [(2, 2, Colour.RED), (3, 4, Colour.RED)])
    for colour, own in ((Colour.RED, True), (Colour.BLACK, False)):
        x = policy.planes(board, colour, side(board.pos, colour),
                          side(board.pos, colour.opponent))
        peg, link = (0, 2) if own else (1, 6)
        if colour is Colour.RED:
            assert x.shape == (len(policy.PLANES), rows, cols)
            holes = {(2, 2), (4, 3)}                     # (row, column)
        else:
            assert x.shape == (len(policy.PLANES), cols, rows)
            holes = {(2, 2), (3, 4)}                     # transposed: (column, row)
            link += 2                                    # steep for Red is flat for Black
        assert {tuple(map(int, at)) for at in zip(*x[peg].nonzero(), strict=True)} == holes
        assert {tuple(map(int, at)) for at in zip(*x[link].nonzero(), strict=True)} == holes
        assert x[policy.PLANES.index("own border row")].sum() == 2 * (x.shape[2] - 2)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("mirror", ["left-right", "top-bottom", "colours"])
def test_a_position_and_its_mirror_image_get_the_same_policy(seed: int, mirror: str) -> None:
    position, image = position_and_image(seed, mirror)
    original = policy.root_scores(_board(position.cols, position.rows, position.pegs),
                                  position.to_move)
    seen = policy.root_scores(_board(image.cols, image.rows, image.pegs), image.to_move)
    cols = position.cols
    playable = {(hole % cols, hole // cols): score for hole, score in enumerate(original)
                if score > policy.UNPLAYABLE}
    assert len(playable) > 50
    assert playable == {image.back(hole % image.cols, hole // image.cols):
                        pytest.approx(score, abs=1e-5)
                        for hole, score in enumerate(seen) if score > policy.UNPLAYABLE}


def test_only_the_free_holes_of_the_side_to_move_are_playable() -> None:
    cols, rows = 12, 12
    pegs = _pegs(7, cols, rows)
    board = _board(cols, rows, pegs)
    for colour in (Colour.RED, Colour.BLACK):
        scores = policy.root_scores(board, colour)
        free = board.free(colour)
        assert len(scores) == cols * rows
        for hole, score in enumerate(scores):
            assert (score > policy.UNPLAYABLE) == bool((free >> hole) & 1)
        # the mean over the mirror images of log-probabilities: a total chance near 1
        chances = sum(math.exp(score) for score in scores if score > policy.UNPLAYABLE)
        assert 0.5 < chances <= 1.0 + 1e-9


def test_the_search_lists_the_root_s_moves_by_the_policy() -> None:
    """On both cores (tests/engine/conftest.py runs each engine test on each)."""
    game = Game(("ann", "bob"), size=24, rules="classic", swap=False)
    for move in ("K12", "M10", "N13", "L9 link all", "P12", "H11"):
        game.play(move)
    board, colour = Board(game), game.colour_to_move
    scores = policy.root_scores(board, colour)
    found = core.search(board, colour, 50, None, noise=0.0, rng_values=[],
                        root_scores=scores)
    best = sorted(range(len(scores)), key=lambda hole: (-scores[hole], hole))[:ROOT_WIDTH]
    assert list(found.moves) == best
    top = scores[best[0]]
    odds = [math.exp(scores[hole] - top) for hole in best]
    assert list(found.priors) == pytest.approx([odd / sum(odds) for odd in odds])


def test_think_ranks_its_root_by_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A policy that wants one unlikely hole (B2, by the corner) above all gets it played after
    two nodes, whatever the patterns think of it."""
    game = Game(("ann", "bob"), size=12, rules="classic", swap=False)
    for move in ("F6", "G8", "H5"):
        game.play(move)
    wanted = game.geometry.index(Hole(1, 1))
    found = policy.root_scores(Board(game), game.colour_to_move)
    assert found[wanted] < max(found)         # not what the network itself wants most
    monkeypatch.setattr(api, "root_scores", lambda board, colour: [
        0.0 if hole == wanted else -20.0 for hole in range(board.geo.cols * board.geo.rows)])
    assert think(game, Limit(nodes=2)).move.split()[0] == "B2"
