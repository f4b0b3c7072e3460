"""One picture of a position, in palette mode throughout: a copy of the static board, the
pieces' tiles, the caption."""

from __future__ import annotations

from PIL import Image

from twixt.rendering.caption import caption_height, caption_lines, draw_caption
from twixt.rendering.encode import png_bytes
from twixt.rendering.layout import layout
from twixt.rendering.options import RenderOptions
from twixt.rendering.pieces import draw_pieces
from twixt.rendering.static import static_layer
from twixt.rendering.view import BoardView, game_at, view_of
from twixt.rules import Game


def board_image(view: BoardView, options: RenderOptions) -> Image.Image:
    """The picture of a position as a palette image ("P" mode), board above caption."""
    board = options.board_part
    lay = layout(view.cols, view.rows, board)
    # cropping past the board's bottom copies it with room for the caption, palette and all
    image = static_layer(view.cols, view.rows, board).crop(
        (0, 0, lay.width, lay.board_height + caption_height(view.is_double, options)))
    draw_pieces(image, lay, view, board)
    draw_caption(image, lay.board_height, caption_lines(view, options.locale), options)
    return image


def render_png(game: Game | BoardView, options: RenderOptions | None = None,
               turn: int | None = None) -> bytes:
    """PNG bytes of a game now, or after its first `turn` turns."""
    if isinstance(game, Game):
        game = view_of(game if turn is None else game_at(game, turn))
    return png_bytes(board_image(game, options or RenderOptions()))
