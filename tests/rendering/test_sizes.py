"""Every board size from 5 to 48 each way renders, holes where the layout puts them."""

from __future__ import annotations

import pytest

from tests.rendering.render_helpers import close, decode
from twixt.rendering import RenderOptions, render_png
from twixt.rendering.caption import caption_height
from twixt.rendering.layout import layout
from twixt.rules import Colour, Game, Hole

OPTIONS = RenderOptions(width=400)   # small pictures keep the 44+ renders quick
SIZES = [(n, n) for n in range(5, 49)] + [
    (5, 48), (48, 5), (24, 18), (18, 24), (30, 30), (7, 31), (31, 7), (13, 40), (40, 13)]


@pytest.mark.parametrize(("cols", "rows"), SIZES, ids=[f"{c}x{r}" for c, r in SIZES])
def test_every_size_renders(cols: int, rows: int):
    game = Game(("alice", "bob"), size=(cols, rows), swap=False)
    game.play("B2")
    game.play(str(Hole(cols - 2, rows - 2)))
    for side in Colour:
        options = RenderOptions(width=OPTIONS.width, side=side)
        image, lay = decode(render_png(game, options)), layout(cols, rows, options)
        assert image.size == (lay.width, lay.board_height + caption_height(False, options))
        assert lay.board_width <= options.width
        red, black = options.colours.ink[Colour.RED], options.colours.ink[Colour.BLACK]
        assert close(image.getpixel(lay.centre(Hole(1, 1))), red.fill)
        assert close(image.getpixel(lay.centre(Hole(cols - 2, rows - 2))), black.fill)


def test_a_24x18_handicap_board_is_wider_than_tall():
    game = Game(("alice", "bob"), size=24, handicap=6)
    lay = layout(24, 18, RenderOptions())
    image = decode(render_png(game))
    assert image.width == lay.width and lay.board_height < lay.board_width


def test_the_width_option_scales_the_picture():
    game = Game(("alice", "bob"))
    small, large = (decode(render_png(game, RenderOptions(width=w))) for w in (500, 1500))
    assert small.width <= 500 < 1400 <= large.width
