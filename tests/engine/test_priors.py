"""The move priors learned from real games: the shipped weights say where they come from and
fit the features, and a hole's prior depends on the position only up to the board's
symmetries: a position, its mirror images and its colour-swapped transposition (the same
position for the other player) rank the corresponding holes alike. (That both cores compute
the same priors is tests/engine/test_core.py's: they are the root's priors there.)"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources

import pytest

from twixt.engine import patterns
from twixt.engine.board import Board
from twixt.engine.candidates import ranked
from twixt.engine.evaluate import side
from twixt.rules import Colour, Game

Mirror = Callable[[int, int], tuple[int, int]]


@pytest.fixture(params=["python"])
def engine_core(request: pytest.FixtureRequest) -> Iterator[str]:
    """The priors are the Python module's here (no search runs)."""
    yield str(request.param)


def test_the_shipped_priors_name_their_games_and_fit_the_features() -> None:
    data = json.loads(resources.files("twixt.engine").joinpath("data", patterns.DATA)
                      .read_text(encoding="utf-8"))
    provenance = data["provenance"]
    assert provenance["games"] == 728 and provenance["events"] > 15_000
    assert "without the 100 games of benchmarks/games" in provenance["corpus"]
    assert provenance["command"] == "python benchmarks/train_priors.py"
    table = patterns.weights()
    assert len(table) == patterns.TABLE_SIZE
    assert all(math.isfinite(value) for value in table)
    # a shape's weight is its mirror images' too
    ring = patterns.OFFSETS[0]
    for code in list(data["features"]["ring"])[:50]:
        weights = {table[ring + image] for image in patterns._images("ring", int(code))}
        assert len(weights) == 1


def _pegs(seed: int, cols: int, rows: int) -> list[tuple[int, int, Colour]]:
    """The pegs (column, row, colour) of a random classic game, in the order played."""
    rng = random.Random(seed)
    game = Game(("ann", "bob"), size=(cols, rows), rules="classic", swap=False)
    for _ in range(rng.randrange(6, 40)):
        hole = rng.choice(game.legal_placements())
        game.play(f"{hole} link all")
    return [(placed.col, placed.row, turn.colour) for turn in game.history
            if (placed := turn.placed) is not None]


def _priors(cols: int, rows: int, pegs: list[tuple[int, int, Colour]],
            colour: Colour) -> dict[tuple[int, int], float]:
    """Every free hole's prior for `colour` after `pegs` are placed in order (each with all its
    legal links), by its (column, row)."""
    game = Game(("ann", "bob"), size=(cols, rows), rules="classic", swap=False)
    board = Board(game)
    for col, row, owner in pegs:
        board.place(row * cols + col, owner)
    board.placed = tuple(row * cols + col for col, row, _owner in pegs)
    free = board.free(colour)
    holes, priors = ranked(board, colour, board.recent(colour), side(board.pos, colour),
                           side(board.pos, colour.opponent), free, free.bit_count(),
                           everywhere=True)
    return {(hole % cols, hole // cols): prior for hole, prior in zip(holes, priors, strict=True)}


@dataclass(frozen=True)
class Mirrored:
    """A position's mirror image: its board's size, its pegs, who moves, and the way back
    from one of its holes (column, row) to the original's."""

    cols: int
    rows: int
    pegs: list[tuple[int, int, Colour]]
    to_move: Colour
    back: Mirror


def mirrored(cols: int, rows: int, pegs: list[tuple[int, int, Colour]], to_move: Colour,
             mirror: str) -> Mirrored:
    """The position `pegs` on `cols` × `rows` with `to_move` to play, mirrored left-right,
    top-bottom, or transposed with the colours swapped (`colours`: the same position for the
    other player)."""
    if mirror == "colours":
        return Mirrored(rows, cols, [(row, col, owner.opponent) for col, row, owner in pegs],
                        to_move.opponent, lambda col, row: (row, col))

    def back(col: int, row: int) -> tuple[int, int]:
        return (cols - 1 - col, row) if mirror == "left-right" else (col, rows - 1 - row)
    return Mirrored(cols, rows, [(*back(col, row), owner) for col, row, owner in pegs],
                    to_move, back)


def position_and_image(seed: int, mirror: str) -> tuple[Mirrored, Mirrored]:
    """A random 14 × 11 classic position (its own way back: none) and its mirror image."""
    cols, rows = 14, 11
    pegs = _pegs(seed, cols, rows)
    to_move = Colour.RED if len(pegs) % 2 == 0 else Colour.BLACK
    return (Mirrored(cols, rows, pegs, to_move, lambda col, row: (col, row)),
            mirrored(cols, rows, pegs, to_move, mirror))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mirror", ["left-right", "top-bottom", "colours"])
def test_a_position_and_its_mirror_image_get_the_same_priors(seed: int, mirror: str) -> None:
    position, image = position_and_image(seed, mirror)
    seen = _priors(image.cols, image.rows, image.pegs, image.to_move)
    original = _priors(position.cols, position.rows, position.pegs, position.to_move)
    assert len(original) > 50
    assert {hole: pytest.approx(prior, rel=1e-9) for hole, prior in original.items()} == {
        image.back(*hole): prior for hole, prior in seen.items()}


def test_an_area_shape_weighs_alike_in_its_mirror_images() -> None:
    shipped = patterns.area_levels()
    data = json.loads(resources.files("twixt.engine").joinpath("data", patterns.DATA)
                      .read_text(encoding="utf-8"))
    assert 0 < len(data["features"]["area"]) <= patterns.AREAS
    for level, key in enumerate(data["features"]["area"], start=1):
        assert {shipped[image] for image in patterns.area_images(int(key))} == {level}


CUT, DENIES = (patterns.FEATURES.index((name, size)) for name, size in patterns.FEATURES
               if name in ("cut", "denies"))


def _links_levels(board: Board, colour: Colour, hole: int) -> tuple[int, int]:
    """The `cut` and `denies` levels of `hole` for `colour` to play."""
    pos = board.pos
    scene = patterns.scene(pos, board.rules, colour, board.recent(colour), side(pos, colour),
                           side(pos, colour.opponent), board.free(colour))
    found = next(patterns.levels_of(scene, [hole]))
    return found[CUT], found[DENIES]


def test_cut_counts_the_opponent_s_links_a_new_link_would_cross_and_denies_its_links() -> None:
    game = Game(("ann", "bob"), size=(12, 12), rules="classic", swap=False)
    board = Board(game)
    geo = board.geo
    red_peg, hole = 5 * 12 + 5, 7 * 12 + 6          # a knight's step apart: one link
    board.place(red_peg, Colour.RED)
    lid = geo.link_id(red_peg, hole)
    assert lid is not None
    crossing = geo.crossings[lid][0]
    ends = geo.link_ends[crossing]
    assert ends is not None
    black_peg, open_end = ends
    board.place(black_peg, Colour.BLACK)
    cut, denies = _links_levels(board, Colour.RED, hole)
    assert cut == 1
    assert denies == (geo.link_id(black_peg, hole) is not None)
    # Black's view of the same hole: the Red peg a knight's step away is one it denies
    assert _links_levels(board, Colour.BLACK, hole)[1] == 1
    board.place(open_end, Colour.RED)                 # the open end taken: no link to cut
    assert _links_levels(board, Colour.RED, hole)[0] == 0
