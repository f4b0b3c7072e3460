"""What a caller may choose about a picture, as one small frozen value (also a cache key)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from twixt.rendering.about import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH
from twixt.rendering.themes import PaletteName, Theme, ThemeName, theme
from twixt.rules import Colour


@dataclass(frozen=True)
class RenderOptions:
    """Theme and palette, the side whose borders face the viewer, the picture's width, and
    the language of the caption (`language.LOCALES`).

    `width` is the square box the board is fitted into; text sizes follow it, so a smaller
    width (as replays use) scales the whole picture.
    """

    theme: ThemeName = ThemeName.LIGHT
    palette: PaletteName = PaletteName.NORMAL
    side: Colour = Colour.RED
    width: int = DEFAULT_WIDTH
    locale: str = "en"

    def __post_init__(self) -> None:
        if not MIN_WIDTH <= self.width <= MAX_WIDTH:
            raise ValueError(f"width must be {MIN_WIDTH} to {MAX_WIDTH} px, not {self.width}")

    @property
    def colours(self) -> Theme:
        return theme(self.theme, self.palette)

    @property
    def scale(self) -> float:
        """Text and margins relative to the default width."""
        return self.width / DEFAULT_WIDTH

    @property
    def board_part(self) -> RenderOptions:
        """These options without the caption's language: the board above the caption is the
        same in every language, so its layout, static layer and tiles are cached once."""
        return replace(self, locale="en")
