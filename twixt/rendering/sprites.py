"""Small anti-aliased pictures of pegs, rings and link bars, drawn once and used many times.

Pillow draws without anti-aliasing, so each sprite is drawn four times larger and reduced.
Every link is a knight's move, so a board needs only eight bar shapes per style; the caches
make the pieces' tiles (see `tiles`) cheap to compose, and the caption's swatches to paste.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from twixt.rendering.themes import RGB

_SUPER = 4

#: A square peg's half side and corner radius, as parts of a round peg's radius: a square
#: looks bigger than a disc of the same width.
SQUARE_SIDE = 0.9
SQUARE_CORNER = 0.25


@dataclass(frozen=True)
class Sprite:
    """An RGBA picture and where its anchor (a hole's centre) lies inside it."""

    image: Image.Image
    anchor: tuple[int, int]

    def paste(self, target: Image.Image, at: tuple[int, int]) -> None:
        """Blend onto `target` with the anchor on pixel `at`."""
        x, y = at[0] - self.anchor[0], at[1] - self.anchor[1]
        target.paste(self.image, (x, y), self.image)


def _canvas(half: int, outer: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw, float]:
    """A transparent square of side 2*half+1 pixels, drawn at _SUPER times; centre in big px.

    Its transparent pixels have the colour of the sprite's outer edge: reducing averages
    colour and alpha separately, so a transparent black would darken every edge.
    """
    side = (2 * half + 1) * _SUPER
    image = Image.new("RGBA", (side, side), (*outer, 0))
    return image, ImageDraw.Draw(image), side / 2


def _finish(image: Image.Image, half: int) -> Sprite:
    return Sprite(image.reduce(_SUPER), (half, half))


@lru_cache(maxsize=512)
def disc(radius: float, fill: RGB, rim: RGB | None = None, rim_width: float = 0.0,
         square: bool = False, mark: RGB | None = None) -> Sprite:
    """A peg: round, or square for Black in the colour-blind palette, with an optional rim
    and a centre dot (the second partner's mark in Double TwixT)."""
    half = math.ceil(radius) + 1
    image, draw, c = _canvas(half, rim or fill)
    r = radius * _SUPER
    corner = r * SQUARE_CORNER
    if square:
        r *= SQUARE_SIDE

    def shape(size: float, colour: RGB) -> None:
        box = (c - size, c - size, c + size, c + size)
        if square:
            draw.rounded_rectangle(box, radius=corner, fill=colour)
        else:
            draw.ellipse(box, fill=colour)

    if rim is not None:
        shape(r, rim)
        r -= rim_width * _SUPER
    shape(r, fill)
    if mark is not None:
        m = radius * 0.3 * _SUPER
        draw.ellipse((c - m, c - m, c + m, c + m), fill=mark)
    return _finish(image, half)


@lru_cache(maxsize=64)
def ring(radius: float, width: float, colour: RGB) -> Sprite:
    """A ring around a hole, as the last move's peg is marked."""
    half = math.ceil(radius) + 1
    image, draw, c = _canvas(half, colour)
    r = radius * _SUPER
    draw.ellipse((c - r, c - r, c + r, c + r), outline=colour, width=round(width * _SUPER))
    return _finish(image, half)


def _bar_corners(dx: float, dy: float, half_width: float, c: float) -> list[tuple[float, float]]:
    length = math.hypot(dx, dy)
    nx, ny = -dy / length * half_width, dx / length * half_width
    return [(c + nx, c + ny), (c + dx + nx, c + dy + ny),
            (c + dx - nx, c + dy - ny), (c - nx, c - ny)]


@lru_cache(maxsize=512)
def bar(dx: int, dy: int, width: float, fill: RGB, rim: RGB | None = None,
        rim_width: float = 0.0) -> Sprite:
    """A link from a hole's centre to the hole (dx, dy) pixels away, anchored at the first."""
    half = max(abs(dx), abs(dy)) + math.ceil(width) + 1
    image, draw, c = _canvas(half, rim or fill)
    bx, by = dx * _SUPER, dy * _SUPER
    w = width / 2 * _SUPER
    if rim is not None:
        draw.polygon(_bar_corners(bx, by, w, c), fill=rim)
        w -= rim_width * _SUPER
    draw.polygon(_bar_corners(bx, by, w, c), fill=fill)
    sprite = _finish(image, half)
    # crop the empty quarter-planes the bar does not reach, so pastes touch fewer pixels
    box = sprite.image.getbbox() or (0, 0, 1, 1)
    return Sprite(sprite.image.crop(box), (half - box[0], half - box[1]))
