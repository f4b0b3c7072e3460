"""The one typeface of the pictures: Pillow's built-in scalable font, so nothing is shipped."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The built-in FreeType font at `size` pixels (bold is drawn with a thin stroke)."""
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
    return loaded
