"""The drawing's short cuts paint what the long way paints, pixel for pixel: the caption
mapped onto the palette box by box, and a hole's tiles looked up by its look."""

from __future__ import annotations

import pytest

from tests.rendering.render_helpers import double_game, removal_game, won_game
from twixt.rendering import RenderOptions, caption_lines, view_of
from twixt.rendering.board import board_image
from twixt.rendering.caption import caption_height, caption_strip
from twixt.rendering.encode import quantize
from twixt.rendering.pieces import _plain_tiles
from twixt.rendering.themes import PaletteName, ThemeName
from twixt.rendering.tiles import tile
from twixt.rendering.view import game_at
from twixt.rules import Game


def busy_game() -> Game:
    """12×12 pp: each side links a ladder of knight's moves, some links crossing."""
    game = Game(("alice", "bob"), size=12, rules="pp", swap=False)
    for move in ("C3", "D3", "D5", "E5", "E7", "F7", "F9", "G9", "B5", "C7", "C4", "H5",
                 "E3", "F4", "G4", "H6"):
        game.play(move)
    return game


@pytest.mark.parametrize("game", [busy_game(), removal_game(), won_game(), double_game()],
                         ids=["busy", "removal", "won", "double"])
@pytest.mark.parametrize("options", [RenderOptions(), RenderOptions(
    theme=ThemeName.DARK, palette=PaletteName.COLOUR_BLIND, width=400, locale="de")],
    ids=["light", "dark-colourblind-400-de"])
def test_the_caption_maps_as_the_whole_strip_would(game, options):
    view = view_of(game)
    picture = board_image(view, options)
    height = caption_height(view.is_double, options)
    strip, _boxes = caption_strip((picture.width, height), caption_lines(view, options.locale),
                                  options)
    whole = quantize(strip, options.theme, options.palette)
    shown = picture.crop((0, picture.height - height, picture.width, picture.height))
    assert shown.tobytes() == whole.tobytes()


def test_tiles_looked_up_by_a_hole_s_look_are_the_tiles_made_for_it():
    """Every position of a game drawn after the others (the look-ups warm) is the position
    drawn with nothing kept: a look that left out something drawn would reuse a wrong tile."""
    game, options = busy_game(), RenderOptions(width=480)
    positions = [view_of(game_at(game, turn)) for turn in range(len(game.history) + 1)]
    warm = [board_image(view, options).tobytes() for view in positions]
    for index, view in enumerate(positions):
        _plain_tiles.cache_clear()
        tile.cache_clear()
        assert board_image(view, options).tobytes() == warm[index], f"turn {index}"
