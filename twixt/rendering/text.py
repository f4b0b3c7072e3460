"""Text set in the font stack: how wide it is, its pixels, and a name cut to a width.

A run of text is split into pieces each set in one face (`fonts.pieces`); the pieces sit on
one baseline, that of the main face, so a Greek or Japanese word lines up with the Latin
around it. Emoji come as colour bitmaps at one size and are scaled to the text.

Setting text is the caption's main cost and holds the GIL, so widths and pixels are kept
per (text, size, stroke): names, "to move" and the common move numbers come back turn after
turn.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from twixt.rendering.fonts import Face, clusters, font, pieces
from twixt.rendering.themes import RGB

#: An emoji's height in ems of the text around it (its bitmap is about 1.2 em tall at 1.0).
EMOJI_EMS = 0.95

ELLIPSIS = "…"


def _emoji_scale(face: Face, size: int) -> float:
    """How much a bitmap face's pixels are scaled to sit in text of `size` pixels."""
    assert face.strike is not None
    return size * EMOJI_EMS / face.strike


@lru_cache(maxsize=8192)
def _piece_length(face: Face, text: str, size: int) -> float:
    if face.strike:
        return face.font(size).getlength(text) * _emoji_scale(face, size)
    return face.font(size).getlength(text)


@lru_cache(maxsize=8192)
def text_length(text: str, size: int) -> float:
    """The advance of `text` at `size` pixels, without a stroke."""
    return sum(_piece_length(face, piece, size) for face, piece in pieces(text))


@dataclass(frozen=True)
class Inked:
    """The pixels of a run of text: `mask` is the ink of the ordinary glyphs (white on black,
    to be filled with the text's colour), `colour` the colour glyphs (emoji) in their own
    colours, to go over it; both have the same size. `offset` is where their top-left lies
    from the left end of the text's middle line (Pillow's anchor "lm" for the main face)."""

    mask: Image.Image
    colour: Image.Image | None
    offset: tuple[int, int]

    @property
    def empty(self) -> bool:
        return self.mask.width == 0 or self.mask.height == 0


@lru_cache(maxsize=256)
def _colour_glyphs(face: Face, text: str) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """Colour glyphs drawn at the face's own size, and their box from the baseline's left."""
    assert face.strike is not None
    own = face.font(face.strike)
    left, top, right, bottom = (round(edge) for edge in own.getbbox(text, anchor="ls"))
    image = Image.new("RGBA", (right - left, bottom - top))
    ImageDraw.Draw(image).text((-left, -top), text, font=own, anchor="ls", embedded_color=True)
    return image, (left, top, right, bottom)


@lru_cache(maxsize=1024)
def set_text(text: str, size: int, stroke: float = 0.0) -> Inked:
    """The pixels of `text` at `size` pixels, bold by a `stroke` (not the emoji)."""
    ascent, descent = font(size).getmetrics()
    baseline = (ascent - descent) / 2      # below the middle line
    placed: list[tuple[Face, str, float, tuple[int, int, int, int]]] = []
    x = 0.0
    for face, piece in pieces(text):
        if piece.strip():
            if face.strike:
                scale = _emoji_scale(face, size)
                _image, ink = _colour_glyphs(face, piece)
                box = (math.floor(x + ink[0] * scale), math.floor(baseline + ink[1] * scale),
                       math.ceil(x + ink[2] * scale), math.ceil(baseline + ink[3] * scale))
            else:
                edges = face.font(size).getbbox(piece, anchor="ls", stroke_width=stroke)
                box = (math.floor(x + edges[0]), math.floor(baseline + edges[1]),
                       math.ceil(x + edges[2]), math.ceil(baseline + edges[3]))
            placed.append((face, piece, x, box))
        x += _piece_length(face, piece, size)
    if not placed:
        return Inked(Image.new("L", (0, 0)), None, (0, 0))
    left = min(box[0] for *_, box in placed)
    top = min(box[1] for *_, box in placed)
    width = max(box[2] for *_, box in placed) - left
    height = max(box[3] for *_, box in placed) - top
    mask = Image.new("L", (width, height))
    draw = ImageDraw.Draw(mask)
    colour: Image.Image | None = None
    for face, piece, start, box in placed:
        if face.strike:
            colour = colour or Image.new("RGBA", mask.size)
            glyphs = _colour_glyphs(face, piece)[0].resize(
                (max(1, box[2] - box[0]), max(1, box[3] - box[1])), Image.Resampling.LANCZOS)
            colour.alpha_composite(glyphs, (box[0] - left, box[1] - top))
        else:
            draw.text((start - left, baseline - top), piece, fill=255, font=face.font(size),
                      anchor="ls", stroke_width=stroke)
    return Inked(mask, colour, (left, top))


def bounded(text: str, limit: int) -> str:
    """At most `limit` characters (whole clusters) of a user's text, "…" where
    cut: what is measured or set of a text of any length."""
    if len(text) <= limit:
        return text
    kept = clusters(text[:limit * 4])[:limit]
    return "".join(kept) + "…"


def _longest_cut(cut: Callable[[int], str], most: int, width: int, size: int,
                 extra: float) -> str:
    """`cut(n)` for the largest `n` up to `most` that fits `width` pixels at `size` (`extra`
    more for a bold stroke), or `cut(0)` when none does: a cut's width grows with `n`, so
    halving finds it in a few measurements."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if text_length(cut(middle), size) + extra <= width:
            low = middle
        else:
            high = middle - 1
    return cut(low)


@lru_cache(maxsize=1024)
def cut_to_width(text: str, width: int, size: int, stroke: float = 0.0) -> str:
    """`text` if it is at most `width` pixels wide at `size` (bold by `stroke`); else its
    longest start of whole characters (`fonts.clusters`) that fits with "…" after it, spaces
    before the "…" dropped; "…" alone when not even one character fits."""
    extra = 2 * stroke
    if text_length(text, size) + extra <= width:
        return text
    characters = clusters(text)

    def cut(count: int) -> str:
        return "".join(characters[:count]).rstrip() + ELLIPSIS

    return _longest_cut(cut, len(characters) - 1, width, size, extra)


def cut_in_middle(text: str, width: int, size: int, stroke: float = 0.0) -> str:
    """`text` if it fits `width` pixels at `size`; else its start and its end around "…",
    as long as fits, the end kept whole first when short (`bot (l…) 2`): for names that a cut
    at the end would make alike (`bot (level 1) 2` and `bot (level 1) 3`)."""
    extra = 2 * stroke
    if text_length(text, size) + extra <= width:
        return text
    characters = clusters(text)

    def cut(count: int) -> str:
        tail = (count + 1) // 2
        return ("".join(characters[:count - tail]).rstrip() + ELLIPSIS
                + "".join(characters[len(characters) - tail:]).lstrip())

    return _longest_cut(cut, len(characters) - 1, width, size, extra)


def reads_as(shown: str, name: str) -> bool:
    """Whether a reader could take `shown` for `name`: it is the name, or a cut of it (a start
    of it, "…", an end of it; either may be empty)."""
    if ELLIPSIS not in shown:
        return shown == name
    head, tail = shown.split(ELLIPSIS, 1)
    head, tail = head.rstrip(), tail.lstrip()
    return (len(head) + len(tail) < len(name) and name.startswith(head)
            and name.endswith(tail))


def put_text(image: Image.Image, text: str, x: float, middle: int, size: int, colour: RGB,
             stroke: float = 0.0, align: str = "left") -> None:
    """Set `text` on `image` in `colour` with its middle line at `middle`, its left end at
    `x` (or its centre, or right end, by `align`), bold by `stroke`."""
    if not text.strip():
        return
    inked = set_text(text, size, stroke)
    if inked.empty:
        return
    length = text_length(text, size) + 2 * stroke
    start = x - (length / 2 if align == "centre" else length if align == "right" else 0)
    where = (round(start) + inked.offset[0], middle + inked.offset[1])
    image.paste(colour, where, inked.mask)
    if inked.colour is not None:
        image.paste(inked.colour, where, inked.colour)
