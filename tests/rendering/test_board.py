"""The picture shows what the position holds, where the layout says: decoded pixel checks."""

from __future__ import annotations

import math

from PIL import Image

from tests.rendering.render_helpers import close, decode, double_game, play, removal_game, won_game
from twixt.rendering import PaletteName, RenderOptions, ThemeName, render_png
from twixt.rendering.layout import layout
from twixt.rendering.static import border_line_box
from twixt.rendering.themes import GHOST, faded
from twixt.rules import Colour, Game, Hole, Link

LIGHT = RenderOptions()


def _midpoint(image_layout, link: Link) -> tuple[int, int]:
    (ax, ay), (bx, by) = image_layout.centre(link.a), image_layout.centre(link.b)
    return (ax + bx) // 2, (ay + by) // 2


def _picture(game: Game, options: RenderOptions = LIGHT) -> Image.Image:
    return decode(render_png(game, options))


def test_pegs_are_drawn_in_their_players_colours():
    image, lay = _picture(removal_game()), layout(8, 8, LIGHT)
    for peg in removal_game().pegs():
        assert close(image.getpixel(lay.centre(peg.hole)), LIGHT.colours.ink[peg.colour].fill)


def test_links_are_bars_in_their_owners_colour():
    image, lay = _picture(removal_game()), layout(8, 8, LIGHT)
    (link,) = removal_game().links()
    assert link.colour is Colour.BLACK
    assert close(image.getpixel(_midpoint(lay, link)), LIGHT.colours.ink[Colour.BLACK].fill)


def test_empty_holes_are_drawn_and_corners_are_not():
    image, lay = _picture(removal_game()), layout(8, 8, LIGHT)
    assert close(image.getpixel(lay.centre(Hole(1, 5))), LIGHT.colours.hole)
    for corner in (Hole(0, 0), Hole(7, 0), Hole(0, 7), Hole(7, 7)):
        assert close(image.getpixel(lay.centre(corner)), LIGHT.colours.plate)


def test_border_lines_are_in_the_owners_colour_between_border_row_and_field():
    image, lay = _picture(removal_game()), layout(8, 8, LIGHT)
    for colour in Colour:
        for index in (0, 1):
            x1, y1, x2, y2 = border_line_box(lay, colour, index)
            centre = ((x1 + x2) // 2, (y1 + y2) // 2)
            assert close(image.getpixel(centre), LIGHT.colours.ink[colour].fill)
    x1, y1, x2, y2 = border_line_box(lay, Colour.RED, 0)
    row_1, row_2 = lay.centre(Hole(3, 0))[1], lay.centre(Hole(3, 1))[1]
    assert row_1 < y1 <= y2 < row_2


def test_the_last_peg_is_ringed():
    image, lay = _picture(removal_game()), layout(8, 8, LIGHT)
    x, y = lay.centre(Hole(4, 5))   # E6, the last peg
    on_ring = (x + round(lay.ring_radius - lay.ring_width / 2), y)
    assert close(image.getpixel(on_ring), LIGHT.colours.accent)
    x, y = lay.centre(Hole(6, 5))   # G6 is not the last peg
    assert not close(image.getpixel((x + round(lay.ring_radius - lay.ring_width / 2), y)),
                     LIGHT.colours.accent)


def test_the_last_moves_new_links_are_emphasised():
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4", "D4 link C2")
    image, lay = _picture(game), layout(8, 8, LIGHT)
    (link,) = game.links()
    x, y = _midpoint(lay, link)
    # C2-D4 runs one across, two down: its sides lie left and right of the midpoint; across
    # it, a strip of bare board, then the halo (measured across, not square to the link)
    across = math.sqrt(5) / 2
    gap = round((lay.link_width / 2 + lay.halo_gap / 2) * across)
    band = round((lay.gap_width + lay.halo_band) / 2 * across)
    assert close(image.getpixel((x - gap, y)), LIGHT.colours.plate)
    assert close(image.getpixel((x - band, y)), LIGHT.colours.accent)
    assert close(image.getpixel((x, y)), LIGHT.colours.ink[Colour.RED].fill)


def test_a_final_board_rings_no_peg_and_haloes_no_link():
    """After a resignation (a loss on time, a draw) the last peg is not the last turn's, and
    the result is the news: nothing is marked as just played."""
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4", "D4 link C2")
    game.play("resign", by="bob")
    image, lay = _picture(game), layout(8, 8, LIGHT)
    x, y = lay.centre(Hole(3, 3))   # D4, the last peg placed
    assert close(image.getpixel((x + round(lay.ring_radius - lay.ring_width / 2), y)),
                 LIGHT.colours.plate)
    (link,) = game.links()
    x, y = _midpoint(lay, link)
    band = round((lay.gap_width + lay.halo_band) / 2 * math.sqrt(5) / 2)
    assert close(image.getpixel((x - band, y)), LIGHT.colours.plate)
    assert close(image.getpixel((x, y)), LIGHT.colours.ink[Colour.RED].fill)


def test_what_the_last_move_removed_is_shown_faintly():
    image, lay = _picture(removal_game()), layout(8, 8, LIGHT)
    red, plate = LIGHT.colours.ink[Colour.RED], LIGHT.colours.plate
    assert close(image.getpixel(lay.centre(Hole(3, 3))), faded(red.fill, plate, GHOST))
    ghost_link = Link(Hole(2, 1), Hole(3, 3), Colour.RED)
    assert close(image.getpixel(_midpoint(lay, ghost_link)), faded(red.fill, plate, GHOST))


def test_the_winning_chain_is_highlighted():
    image, lay = _picture(won_game()), layout(5, 5, LIGHT)
    holes, links = won_game().winning_chain()
    assert len(holes) == 3 and len(links) == 2
    # C5, the winning peg, glows like the rest (a final board rings no peg); look away
    # from the links, to the side
    for hole, side in ((Hole(2, 0), -1), (Hole(3, 2), 1), (Hole(2, 4), -1)):
        x, y = lay.centre(hole)
        glow = (x + side * round(lay.chain_radius - lay.halo_band / 2), y)
        assert close(image.getpixel(glow), LIGHT.colours.chain)
        gap = (x + side * round(lay.peg_radius + lay.halo_gap / 2), y)
        assert close(image.getpixel(gap), LIGHT.colours.plate)
    black_peg = lay.centre(Hole(0, 1))
    assert close(image.getpixel(black_peg), LIGHT.colours.ink[Colour.BLACK].fill)


def test_the_side_view_turns_blacks_borders_to_the_top_and_bottom():
    game = play(Game(("alice", "bob"), size="24x18", swap=False), "G6", "B3")
    options = RenderOptions(side=Colour.BLACK)
    image, lay = _picture(game, options), layout(24, 18, options)
    assert image.height > image.width          # 18 holes across, 24 down
    assert lay.centre(Hole(0, 5))[1] < lay.centre(Hole(23, 5))[1]   # column A on top
    assert lay.centre(Hole(5, 0))[0] > lay.centre(Hole(5, 17))[0]   # row 1 on the right
    assert close(image.getpixel(lay.centre(Hole(6, 5))), options.colours.ink[Colour.RED].fill)
    assert close(image.getpixel(lay.centre(Hole(1, 2))), options.colours.ink[Colour.BLACK].fill)
    x1, y1, x2, y2 = border_line_box(lay, Colour.BLACK, 0)
    assert x2 - x1 > y2 - y1                     # Black's line runs across the picture
    assert close(image.getpixel(((x1 + x2) // 2, (y1 + y2) // 2)),
                 options.colours.ink[Colour.BLACK].fill)


def test_partners_pegs_are_told_apart_in_double_twixt():
    image, lay = _picture(double_game()), layout(12, 12, LIGHT)
    red = LIGHT.colours.ink[Colour.RED].fill
    assert close(image.getpixel(lay.centre(Hole(2, 2))), red)                     # alice
    assert close(image.getpixel(lay.centre(Hole(3, 4))), LIGHT.colours.mark)      # carol
    x, y = lay.centre(Hole(3, 4))
    assert close(image.getpixel((x + round(lay.peg_radius * 0.6), y)), red)


def test_dark_theme_and_colour_blind_palette_use_their_own_colours():
    for options in (RenderOptions(theme=ThemeName.DARK),
                    RenderOptions(palette=PaletteName.COLOUR_BLIND),
                    RenderOptions(theme=ThemeName.DARK, palette=PaletteName.COLOUR_BLIND)):
        image, lay = _picture(removal_game(), options), layout(8, 8, options)
        colours = options.colours
        assert close(image.getpixel((2, 2)), colours.plate)
        assert close(image.getpixel(lay.centre(Hole(4, 5))), colours.ink[Colour.RED].fill)
        assert close(image.getpixel(lay.centre(Hole(5, 3))), colours.ink[Colour.BLACK].fill)


def test_colour_blind_black_pegs_are_square():
    game = play(Game(("alice", "bob"), size=8, swap=False), "C2", "F4")
    options = RenderOptions(palette=PaletteName.COLOUR_BLIND)
    image, lay = _picture(game, options), layout(8, 8, options)
    inset = round(lay.peg_radius * 0.75)
    for hole, colour, square in ((Hole(5, 3), Colour.BLACK, True), (Hole(2, 1), Colour.RED, False)):
        x, y = lay.centre(hole)
        corner = image.getpixel((x + inset, y + inset))
        assert close(corner, options.colours.ink[colour].fill, 40) is square


def test_turn_n_draws_the_position_after_n_turns():
    image, lay = decode(render_png(removal_game(), LIGHT, turn=3)), layout(8, 8, LIGHT)
    red = LIGHT.colours.ink[Colour.RED].fill
    assert close(image.getpixel(lay.centre(Hole(3, 3))), red)        # D4 still there
    assert close(image.getpixel(lay.centre(Hole(4, 5))), LIGHT.colours.hole)   # no E6 yet
    assert removal_game().pegs_placed == 5                               # the game is untouched
