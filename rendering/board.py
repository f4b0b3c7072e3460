"""One picture of a position: the static board, the pieces, the caption, quantized."""

from __future__ import annotations

from PIL import Image

from rendering.caption import caption_height, caption_lines, draw_caption
from rendering.encode import png_bytes, quantize
from rendering.layout import layout
from rendering.options import RenderOptions
from rendering.pieces import draw_pieces
from rendering.static import static_layer
from rendering.view import BoardView, game_at, view_of
from rules import Game


def board_image(view: BoardView, options: RenderOptions) -> Image.Image:
    """The picture of a position as a palette image ("P" mode), board above caption."""
    lay = layout(view.cols, view.rows, options)
    image = Image.new("RGB", (lay.width, lay.board_height
                              + caption_height(view.is_double, options)))
    image.paste(static_layer(view.cols, view.rows, options))
    draw_pieces(image, lay, view, options.colours)
    draw_caption(image, lay.board_height, caption_lines(view), options)
    return quantize(image, options.theme, options.palette)


def render_png(game: Game | BoardView, options: RenderOptions | None = None,
               turn: int | None = None) -> bytes:
    """PNG bytes of a game now, or after its first `turn` turns."""
    if isinstance(game, Game):
        game = view_of(game if turn is None else game_at(game, turn))
    return png_bytes(board_image(game, options or RenderOptions()))
