"""Pieces drawn as palette tiles look as if every sprite were blended onto the board one by one
in drawing order, as pictures used to be drawn: checked against that plain RGB composite, on
positions with crossing links, removed pieces, halos, a won chain, partner marks and square
pegs, from both sides and at two widths."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from PIL import Image, ImageChops

from tests.rendering.render_helpers import double_game, play, removal_game, won_game
from twixt.rendering import PaletteName, RenderOptions, ThemeName, board_image, view_of
from twixt.rendering.encode import quantize
from twixt.rendering.layout import layout
from twixt.rendering.pieces import _plain_tiles
from twixt.rendering.sprites import bar, disc, ring
from twixt.rendering.static import static_rgb
from twixt.rendering.themes import GHOST, faded
from twixt.rendering.tiles import tile
from twixt.rendering.view import BoardView
from twixt.rules import Colour, Game, Link, Peg
from twixt.rules.geometry import segments_cross


def crossing_game(seed: int = 3, placements: int = 90) -> Game:
    """A 14×14 pp game of random placements: auto-linking makes own links cross."""
    rng = random.Random(seed)
    game = Game(("alice", "bob"), size=14, rules="pp", swap=False)
    while game.pegs_placed < placements:
        game.play(str(rng.choice(game.legal_placements())))
        if game.is_over:
            game.undo()
            break
    return game


def _composite(view: BoardView, options: RenderOptions) -> Image.Image:
    """The board with every piece blended on in drawing order, in RGB, then mapped onto the
    palette: the picture the tiles must reproduce."""
    lay, colours = layout(view.cols, view.rows, options), options.colours
    image = static_rgb(view.cols, view.rows, options).copy()

    def link(item: Link, width: float, fill, rim=None) -> None:
        (ax, ay), (bx, by) = lay.centre(item.a), lay.centre(item.b)
        rim_width = max(1.0, lay.pitch * 0.035) if rim else 0.0
        bar(bx - ax, by - ay, width, fill, rim, rim_width).paste(image, (ax, ay))

    def peg(item: Peg, fill, rim) -> None:
        mark = colours.mark if view.is_marked_seat(item.seat) else None
        square = colours.square_black and item.colour is Colour.BLACK
        disc(lay.peg_radius, fill, rim, max(1.0, lay.pitch * 0.045), square, mark).paste(
            image, lay.centre(item.hole))

    marked = view.marked
    for item in marked.links_removed if marked else ():
        link(item, lay.link_width, faded(colours.ink[item.colour].fill, colours.plate, GHOST))
    for item in marked.pegs_removed if marked else ():
        ink = colours.ink[item.colour]
        peg(item, faded(ink.fill, colours.plate, GHOST), faded(ink.rim, colours.plate, GHOST))
    for item in view.chain_links:
        link(item, lay.halo_width, colours.chain)
    for hole in view.chain_holes:
        disc(lay.chain_radius, colours.chain).paste(image, lay.centre(hole))
    accented = [item for item in (marked.links_added if marked else ())
                if item not in view.chain_links]
    for item in accented:
        link(item, lay.halo_width, colours.accent)
    for item in [*view.chain_links, *accented]:   # bare board between halo and pieces
        link(item, lay.gap_width, colours.plate)
    for hole in view.chain_holes:
        disc(lay.chain_gap_radius, colours.plate).paste(image, lay.centre(hole))
    for item in view.links:
        link(item, lay.link_width, colours.ink[item.colour].fill, colours.ink[item.colour].rim)
    for item in view.pegs:
        peg(item, colours.ink[item.colour].fill, colours.ink[item.colour].rim)
    if view.last_peg is not None:
        ring(lay.ring_radius, lay.ring_width, colours.accent).paste(
            image, lay.centre(view.last_peg))
    return quantize(image, options.theme, options.palette).convert("RGB")


GAMES = {
    "crossing": crossing_game,
    "removal": removal_game,
    "won": won_game,
    "double": double_game,
    "new links": lambda: play(Game(("alice", "bob"), size=8, swap=False), "C2", "E3",
                              "D4 link C2", "F5 link E3", "E6 link D4"),
}
OPTIONS = {
    "light": RenderOptions(),
    "dark black side": RenderOptions(theme=ThemeName.DARK, side=Colour.BLACK),
    "colour-blind": RenderOptions(palette=PaletteName.COLOUR_BLIND),
    "small": RenderOptions(width=400),
}


@pytest.mark.parametrize("options", OPTIONS.values(), ids=OPTIONS.keys())
@pytest.mark.parametrize("make", GAMES.values(), ids=GAMES.keys())
def test_tiles_draw_what_blending_each_sprite_in_turn_draws(make, options):
    view = view_of(make())
    lay = layout(view.cols, view.rows, options)
    board = (0, 0, lay.width, lay.board_height)
    drawn = board_image(view, options).convert("RGB").crop(board)
    difference = ImageChops.difference(drawn, _composite(view, options).crop(board)).convert("L")
    histogram = difference.histogram()
    pixels = drawn.width * drawn.height
    # a few anti-aliased pixels where a passing piece barely touches another may differ
    assert sum(histogram[24:]) / pixels < 0.0005
    assert sum(level * count for level, count in enumerate(histogram)) / pixels < 0.05


def test_the_crossing_game_has_crossings_and_its_position_reuses_tiles():
    game = crossing_game()
    ends = [((link.a.col, link.a.row), (link.b.col, link.b.row)) for link in game.links()]
    assert sum(segments_cross(*p, *q) for p, q in combinations(ends, 2)) >= 5
    tile.cache_clear()
    _plain_tiles.cache_clear()
    board_image(view_of(game), RenderOptions())
    # pegs with the same links share tiles, found by their look or composed alike
    assert tile.cache_info().hits + _plain_tiles.cache_info().hits > 0
