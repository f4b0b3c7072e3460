"""Pieces around one hole, composited once into a palette sprite: a tile.

Pictures are drawn in palette mode, where a paste cannot blend an anti-aliased edge with what
lies under it. So the pieces at a hole are composited in RGB, over the board they lie on, and
mapped onto the theme's palette once; drawing them is then a plain copy through a two-level
mask, one C call. A tile holds a peg together with the near half of its links (up to the
link's midpoint, parted on the pixel row or column through it, so the two ends' tiles meet
exactly), so the edge where a link meets its peg is blended with the link, not the board.

Tiles are cached: positions repeat the same few. A tile's pixels depend on the board under
it, which is the same for every hole at least three holes from the picture's edges, and the
same along each edge row: a tile paints at most a link's length (2.3 holes) from its hole,
and the border rows and lines lie within 0.7 of a hole from the edge holes.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from PIL import Image, ImageChops

from twixt.rendering.encode import quantize
from twixt.rendering.layout import layout
from twixt.rendering.options import RenderOptions
from twixt.rendering.sprites import SQUARE_CORNER, SQUARE_SIDE, Sprite, bar, disc, ring
from twixt.rendering.static import static_rgb
from twixt.rendering.themes import RGB

if TYPE_CHECKING:
    # Pillow's core image type, reached at run time as `Image.core.ImagingCore`; its stub is
    # the private `_imaging`, because mypy cannot follow `Image.core` (a guarded import)
    from PIL._imaging import ImagingCore

#: Holes this close to an edge of the picture may have border rows or lines under their tile.
_EDGE_HOLES = 3

#: Pixels a shape covers less than 16/255 of look like the board once mapped onto the
#: palette; leaving them out of the mask keeps a tile from nicking a passing neighbour's edge.
_MASK_LUT = [0] * 16 + [255] * 240

Placed = tuple[Image.Image, tuple[int, int]]


def _centred(sprite: Sprite) -> Placed:
    return sprite.image, (-sprite.anchor[0], -sprite.anchor[1])


class Disc(NamedTuple):
    """A peg or a glow centred on the hole: the arguments of `sprites.disc`."""

    radius: float
    fill: RGB
    rim: RGB | None = None
    rim_width: float = 0.0
    square: bool = False
    mark: RGB | None = None

    def placed(self) -> Placed:
        """The RGBA sprite and where its top-left pixel lies from the hole's centre."""
        return _centred(disc(*self))

    @property
    def reach(self) -> float:
        """How far from the centre it is drawn (a square's is to its rounded corners)."""
        if not self.square:
            return self.radius
        return self.radius * ((SQUARE_SIDE - SQUARE_CORNER) * math.sqrt(2) + SQUARE_CORNER)


class Ring(NamedTuple):
    """The ring around the last peg placed: the arguments of `sprites.ring`."""

    radius: float
    width: float
    colour: RGB

    def placed(self) -> Placed:
        return _centred(ring(*self))

    @property
    def reach(self) -> float:
        return self.radius


class Away(NamedTuple):
    """A peg, glow or ring of the hole `at` pixels away that reaches one of the tile's
    shapes, drawn only for the blend where they meet."""

    at: tuple[int, int]
    shape: Disc | Ring

    def placed(self) -> Placed:
        image, (x, y) = self.shape.placed()
        return image, (x + self.at[0], y + self.at[1])


class Bar(NamedTuple):
    """A whole link from `at` to `at + to` pixels from the hole: one of two links that cross,
    or a link passing by a peg that reaches it."""

    at: tuple[int, int]
    to: tuple[int, int]
    width: float
    fill: RGB
    rim: RGB | None = None
    rim_width: float = 0.0

    def placed(self) -> Placed:
        return _bar(self)


class Half(NamedTuple):
    """The near half of a link from the hole (whose `bar` is drawn from (0, 0))."""

    bar: Bar

    def placed(self) -> Placed:
        return _half(self.bar)


def _upper_end(at: tuple[int, int], to: tuple[int, int]) -> tuple[int, int, int, int]:
    """A link from `at` by `to` as drawn: from its upper end (x, y) by (dx, dy), dy > 0.

    Every tile that holds a link, whole or half, draws it so and gets the very same pixels."""
    (x, y), (dx, dy) = at, to
    return (x, y, dx, dy) if dy > 0 else (x + dx, y + dy, -dx, -dy)


@lru_cache(maxsize=1024)
def _bar(shape: Bar) -> Placed:
    x, y, dx, dy = _upper_end(shape.at, shape.to)
    sprite = bar(dx, dy, *shape[2:])
    return sprite.image, (x - sprite.anchor[0], y - sprite.anchor[1])


@lru_cache(maxsize=512)
def _half(whole: Bar) -> Placed:
    """The near half of a bar from (0, 0), parted from the far half on the row (the column,
    for a flat link) through the midpoint, counted from the upper end as the far end counts
    it too."""
    image, (left, top) = _bar(whole)
    x, y, dx, dy = _upper_end((0, 0), whole.to)
    axis = 1 if dy > abs(dx) else 0             # part across the link's long axis
    corner = (left, top)[axis]
    cut = (x, y)[axis] + (dx, dy)[axis] // 2    # the midpoint, from this hole
    box = [0, 0, *image.size]
    if cut > 0:   # the midpoint lies after this hole: keep what comes before it
        box[axis + 2] = cut - corner
    else:
        box[axis] = cut - corner
    return image.crop((box[0], box[1], box[2], box[3])), (left + box[0], top + box[1])


Shape = Disc | Ring | Half | Bar | Away

#: What a shape is in a tile: drawn only to blend the edges that meet it (another tile paints
#: it), painted under every hole's pegs and links, or painted over them; or one of two links
#: that cross, of which the tile paints (over all else) only where both are drawn.
CONTEXT, UNDER, OVER, CROSSING, CROSSED = range(5)


class Tile(NamedTuple):
    """Pieces in palette colours with their top-left from the hole's centre, and two masks:
    what lies under every hole's pegs and links (halos, removed pieces), and the rest.

    The image and masks are kept as Pillow's core images: `paste` is called a hundred times a
    picture, and `Image.paste` would spend more on its checks than the copy takes.
    """

    image: ImagingCore
    under: ImagingCore | None
    over: ImagingCore | None
    box: tuple[int, int, int, int]

    def paste(self, target: ImagingCore, centre: tuple[int, int],
              over: bool) -> None:
        """Copy the under or over part onto a palette picture's core, around `centre`."""
        mask = self.over if over else self.under
        if mask is not None:
            x, y = centre
            left, top, right, bottom = self.box
            target.paste(self.image, (x + left, y + top, x + right, y + bottom), mask)


class BoardTiles:
    """A board size drawn with one set of options, as tiles are cut for it.

    Made once per size and options by `board`; hashed by identity, so that a tile lookup (a
    hundred a picture) does not hash the options each time.
    """

    def __init__(self, cols: int, rows: int, options: RenderOptions) -> None:
        self.cols, self.rows, self.options = cols, rows, options
        self.layout = lay = layout(cols, rows, options)
        #: per (column, row): the hole's centre in pixels, and which stretch of the board it
        #: is in for the board under its tile (the three holes nearest each edge of the
        #: picture have one each, the rest share one); looked up, as a picture needs hundreds
        self.centres: dict[tuple[int, int], tuple[int, int]] = {}
        self.bands: dict[tuple[int, int], tuple[int, int]] = {}
        for col in range(cols):
            for row in range(rows):
                across, down = lay.view_cell(col, row)
                self.centres[col, row] = lay.cell_centre(across, down)
                self.bands[col, row] = (_band(across, lay.view_cols), _band(down, lay.view_rows))


@lru_cache(maxsize=64)
def board(cols: int, rows: int, options: RenderOptions) -> BoardTiles:
    return BoardTiles(cols, rows, options)


def _band(index: int, count: int) -> int:
    return index - count if index >= count - _EDGE_HOLES else min(index, _EDGE_HOLES)


def _band_index(band: int, count: int) -> int:
    """A hole in the stretch `band`: any one will do, the board is the same around them all."""
    return band + count if band < 0 else band


@lru_cache(maxsize=4096)
def tile(on: BoardTiles, band: tuple[int, int], shapes: tuple[tuple[Shape, int], ...]) -> Tile:
    """The tile of `shapes`, each with what it is (CONTEXT, UNDER, OVER, CROSSING or CROSSED),
    drawn back to front at a hole in `band` of a board."""
    lay, options = on.layout, on.options
    placed = [(*shape.placed(), part) for shape, part in shapes]
    x0 = min(x for _image, (x, _y), _part in placed)
    y0 = min(y for _image, (_x, y), _part in placed)
    x1 = max(x + image.width for image, (x, _y), _part in placed)
    y1 = max(y + image.height for image, (_x, y), _part in placed)
    cx, cy = lay.cell_centre(_band_index(band[0], lay.view_cols),
                             _band_index(band[1], lay.view_rows))
    picture = static_rgb(on.cols, on.rows, options).crop((cx + x0, cy + y0, cx + x1, cy + y1))
    alpha = {part: Image.new("L", picture.size) for _image, _at, part in placed
             if part != CONTEXT}
    for image, (x, y), part in placed:
        picture.paste(image, (x - x0, y - y0), image)   # an RGBA sprite over opaque RGB
        if part != CONTEXT:
            alpha[part].paste(255, (x - x0, y - y0), image)
    if CROSSING in alpha:
        alpha[OVER] = ImageChops.darker(alpha.pop(CROSSING), alpha.pop(CROSSED))
    masks = {part: mask.point(_MASK_LUT, "1") for part, mask in alpha.items()}
    # keep only the box the masks paint: context reaches further, and pastes cost by area
    boxes = [box for mask in masks.values() if (box := mask.getbbox())]
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
           max(b[2] for b in boxes), max(b[3] for b in boxes)) if boxes else (0, 0, 1, 1)
    under, over = (masks[part].crop(box).im if part in masks else None for part in (UNDER, OVER))
    return Tile(quantize(picture.crop(box), options.theme, options.palette).im, under, over,
                (x0 + box[0], y0 + box[1], x0 + box[2], y0 + box[3]))
