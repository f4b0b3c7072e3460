"""One small picture compared with a stored reference, with a small tolerance: a change that
moves, recolours or drops anything shows, a different zlib or font hinting does not.

After an intended change of the look, rewrite it with:
    RENDER_REFERENCE=write pytest tests/rendering/test_reference.py
and look at tests/rendering/data/reference_8x8.png before committing it. It is drawn with
Pillow's libraqm layout (HarfBuzz kerning), which needs FriBiDi; where that is missing, the
text is kerned differently and only the board above the caption is compared.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import ImageChops, features

from tests.rendering.render_helpers import decode, removal_game
from twixt.rendering import RenderOptions, render_png
from twixt.rendering.layout import layout

REFERENCE = Path(__file__).parent / "data" / "reference_8x8.png"


def test_picture_matches_the_reference():
    png = render_png(removal_game(), RenderOptions(width=320))
    if os.environ.get("RENDER_REFERENCE") == "write":
        REFERENCE.write_bytes(png)
    picture, reference = decode(png), decode(REFERENCE.read_bytes())
    assert picture.size == reference.size
    if not features.check("raqm"):
        board = (0, 0, picture.width, layout(8, 8, RenderOptions(width=320)).board_height)
        picture, reference = picture.crop(board), reference.crop(board)
    difference = ImageChops.difference(picture, reference).convert("L")
    histogram = difference.histogram()
    pixels = picture.width * picture.height
    assert sum(histogram[24:]) / pixels < 0.005, "more than 0.5% of the pixels changed"
    assert sum(level * count for level, count in enumerate(histogram)) / pixels < 1.0
