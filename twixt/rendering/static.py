"""The part of a picture that never changes in a game: plate, border rows, holes, labels.

Each border row is a faintly tinted lane framed by two lines in its owner's colour, one on
the field's side and one on the margin's, so that it shows at a phone's 400 px too.

Drawn once per (size, theme, palette, side, width), mapped onto the theme's palette once, and
copied for every turn; the copy is what makes a late position cheap. The RGB drawing is kept
too: pieces are blended over it when their tiles are made, as mapping a colour onto the
palette twice can drift it to a neighbouring entry.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from twixt.rendering.encode import quantize
from twixt.rendering.fonts import font
from twixt.rendering.layout import Layout, labels, layout
from twixt.rendering.options import RenderOptions
from twixt.rendering.sprites import disc
from twixt.rendering.themes import RGB
from twixt.rules import Colour, Hole


def cell_box(lay: Layout, first: Hole, last: Hole) -> tuple[int, int, int, int]:
    """The pixel box covering the cells of the holes from `first` to `last` (a row or column)."""
    (x1, y1), (x2, y2) = lay.centre(first), lay.centre(last)
    half = lay.pitch // 2
    return min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half


def border_rows(cols: int, rows: int) -> dict[Colour, list[tuple[Hole, Hole]]]:
    """Each side's two border rows as (first hole, last hole), corners left out."""
    last_col, last_row = cols - 1, rows - 1
    return {
        Colour.RED: [(Hole(1, 0), Hole(last_col - 1, 0)),
                     (Hole(1, last_row), Hole(last_col - 1, last_row))],
        Colour.BLACK: [(Hole(0, 1), Hole(0, last_row - 1)),
                       (Hole(last_col, 1), Hole(last_col, last_row - 1))],
    }


def border_line_box(lay: Layout, colour: Colour, index: int,
                    outer: bool = False) -> tuple[int, int, int, int]:
    """The box of a border line: between border row `index` (0 or 1) and the playing field,
    as long as the playing field, so the four lines meet in a rectangle as on a real board;
    or, `outer`, along the row's outer edge, framing the row with the first."""
    first, last = border_rows(lay.cols, lay.rows)[colour][index]
    x1, y1, x2, y2 = cell_box(lay, first, last)
    (rx, ry), (fx, fy) = lay.centre(first), lay.centre(_inward(first, colour, index))
    thick = lay.border_line
    if outer:   # as far out from the row as the inner line is in
        fx, fy = 2 * rx - fx, 2 * ry - fy
    if ry == fy:   # the row runs down the picture: the line is upright
        x = (rx + fx) // 2 - thick // 2
        return x, y1, x + thick - 1, y2
    y = (ry + fy) // 2 - thick // 2
    return x1, y, x2, y + thick - 1


def _inward(hole: Hole, colour: Colour, index: int) -> Hole:
    step = 1 if index == 0 else -1
    if colour is Colour.RED:
        return Hole(hole.col, hole.row + step)
    return Hole(hole.col + step, hole.row)


def _labels(lay: Layout) -> tuple[list[str], list[str]]:
    """The labels across the picture (left to right) and down it (top to bottom), "" where
    a row or column goes without (see `Layout.labelled`)."""
    letters, numbers = labels(lay.cols, lay.rows)
    across, down = (letters, numbers) if lay.side is Colour.RED else (numbers[::-1], letters)
    return ([text if lay.labelled(i, True) else "" for i, text in enumerate(across)],
            [text if lay.labelled(i, False) else "" for i, text in enumerate(down)])


@lru_cache(maxsize=64)
def static_layer(cols: int, rows: int, options: RenderOptions) -> Image.Image:
    """The empty board in palette mode; treat it as read-only and draw on a copy."""
    return quantize(static_rgb(cols, rows, options), options.theme, options.palette)


@lru_cache(maxsize=64)
def static_rgb(cols: int, rows: int, options: RenderOptions) -> Image.Image:
    """The empty board in RGB; read-only."""
    lay, colours = layout(cols, rows, options), options.colours
    image = Image.new("RGB", (lay.width, lay.board_height), colours.plate)
    draw = ImageDraw.Draw(image)
    for colour, pair in border_rows(cols, rows).items():
        for index, (first, last) in enumerate(pair):
            draw.rectangle(cell_box(lay, first, last), fill=colours.tint[colour])
            for outer in (False, True):
                draw.rectangle(border_line_box(lay, colour, index, outer),
                               fill=colours.ink[colour].fill)
    hole = disc(lay.hole_radius, colours.hole)
    corners = {(0, 0), (cols - 1, 0), (0, rows - 1), (cols - 1, rows - 1)}
    for col in range(cols):
        for row in range(rows):
            if (col, row) not in corners:
                hole.paste(image, lay.centre(Hole(col, row)))
    across, down = _labels(lay)
    label_font = font(lay.label_size)
    bold = 1 if lay.label_size >= 20 else 0   # a stroke that still reads scaled down
    middle = (lay.band - lay.border_line // 2) // 2   # of the margin outside the border lines
    top, bottom = middle, lay.board_height - middle
    left, right = lay.left + middle, lay.left + lay.board_width - middle
    for i, text in enumerate(across):
        x = lay.cell_centre(i, 0)[0]
        wide = label_font.getlength(text) + 2 * bold
        for y in (top, bottom):
            if wide > lay.label_room:
                _condensed(image, (x, y), text, label_font, bold, colours.label,
                           lay.label_room / wide)
            else:
                draw.text((x, y), text, fill=colours.label, font=label_font, anchor="mm",
                          stroke_width=bold, stroke_fill=colours.label)
    for i, text in enumerate(down):
        y = lay.cell_centre(0, i)[1]
        for x in (left, right):
            draw.text((x, y), text, fill=colours.label, font=label_font, anchor="mm",
                      stroke_width=bold, stroke_fill=colours.label)
    return image


def _condensed(image: Image.Image, centre: tuple[int, int], text: str,
               face: ImageFont.FreeTypeFont, bold: int, colour: RGB, squeeze: float) -> None:
    """A label set `squeeze` times its width, centred on `centre`: drawn as a mask at full
    size and narrowed with a good filter, so its strokes stay even."""
    left, top, right, bottom = (round(v) for v in
                                face.getbbox(text, anchor="mm", stroke_width=bold))
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=face, anchor="mm",
                              stroke_width=bold, stroke_fill=255)
    narrow = mask.resize((max(1, round(mask.width * squeeze)), mask.height),
                         Image.Resampling.LANCZOS)
    image.paste(colour, (centre[0] - narrow.width // 2, centre[1] + top), narrow)
