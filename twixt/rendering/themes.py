"""The colours of a picture: a theme (light or dark page) and a palette (normal or colour-blind).

Every colour a picture may contain is named here, so the encoder can build one fixed
256-colour palette per theme: pictures then quantize fast and identically, and every frame
of a replay shares one global GIF palette.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from twixt.rules import Colour

RGB = tuple[int, int, int]


class ThemeName(enum.Enum):
    """The page the board is drawn on: Discord's light or dark mode."""

    LIGHT = "light"
    DARK = "dark"


class PaletteName(enum.Enum):
    """`colour-blind` swaps red for an orange that differs from black in lightness for every
    kind of colour vision, and gives Black square pegs, so shape tells the sides apart too.

    In every theme and palette the pegs, links and border lines stand 3:1 (WCAG contrast) or
    more off the plate, and the winning chain's violet halo is told apart from both sides'
    inks, also by protanopes and deuteranopes."""

    NORMAL = "normal"
    COLOUR_BLIND = "colour-blind"


@dataclass(frozen=True)
class Ink:
    """How one side's pegs and links look: a fill, and a rim that sets them off the board;
    `rows`, when given, is what the side's border rows are faintly tinted towards instead
    of the rim."""

    fill: RGB
    rim: RGB
    rows: RGB | None = None


@dataclass(frozen=True)
class Theme:
    """All colours of one (theme, palette) pair."""

    plate: RGB          # the board and the margins with the labels
    caption: RGB        # the strip with the caption text
    hole: RGB
    label: RGB
    text: RGB
    muted: RGB          # secondary caption text
    tint: dict[Colour, RGB]   # the border rows, faintly in their owner's colour
    ink: dict[Colour, Ink]
    accent: RGB         # the last move's ring and link halo
    chain: RGB          # the winning chain's halo, 3:1 off the plate; never next to an ink:
                        # a strip of bare plate lies between (see `Layout.halo_gap`)
    mark: RGB           # the dot on the second partner's pegs in Double TwixT
    square_black: bool  # Black's pegs drawn square (colour-blind palette)

    @property
    def inks(self) -> tuple[RGB, ...]:
        """Colours drawn on top of the grounds, anti-aliased against them (the plate too: the
    caption's swatches sit on a chip of it)."""
        sides = [c for ink in self.ink.values() for c in (ink.fill, ink.rim)]
        return (*sides, self.hole, self.label, self.text, self.muted, self.accent, self.chain,
                self.mark, self.plate)

    @property
    def grounds(self) -> tuple[RGB, ...]:
        """Colours that inks are drawn on."""
        return (self.plate, self.caption, *self.tint.values())


_LIGHT = dict(plate=(243, 234, 214), caption=(232, 222, 200), hole=(166, 150, 124),
              label=(100, 86, 66), text=(34, 30, 26), muted=(96, 86, 72),
              accent=(21, 101, 192), chain=(120, 50, 190), mark=(255, 255, 255))
#: The dark plate is a mid slate: black pegs need it light enough (3:1 for a peg as a whole,
#: seen 400 px wide, where its edge blends into the plate), the red pegs are light enough
#: over it (a light coral: a saturated red is never 3:1 lighter than a plate that black
#: stands out on).
_DARK = dict(plate=(100, 105, 114), caption=(30, 31, 34), hole=(140, 146, 156),
             label=(222, 225, 231), text=(236, 238, 241), muted=(170, 175, 184),
             accent=(156, 234, 255), chain=(216, 190, 255), mark=(255, 255, 255))
#: Black's ink on each plate, the same in both palettes (the colour-blind palette tells
#: Black apart by its square pegs, and turns only Red, to orange). On the dark plate its rim
#: is dark too (a light one, about a quarter of a small peg's area, made the whole peg about
#: as light as the plate when shown small: 1.5:1), and its border rows are tinted towards a
#: light grey, away from its fill.
_BLACK_INKS = {ThemeName.LIGHT: Ink((32, 32, 34), (0, 0, 0)),
               ThemeName.DARK: Ink((2, 2, 4), (16, 17, 20), rows=(176, 182, 192))}
_RED_INKS = {
    (ThemeName.LIGHT, PaletteName.NORMAL): Ink((208, 38, 44), (132, 18, 22)),
    (ThemeName.DARK, PaletteName.NORMAL): Ink((255, 182, 172), (176, 44, 40)),
    (ThemeName.LIGHT, PaletteName.COLOUR_BLIND): Ink((196, 82, 0), (120, 46, 0)),
    (ThemeName.DARK, PaletteName.COLOUR_BLIND): Ink((255, 192, 96), (150, 88, 0)),
}


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


@cache
def theme(name: ThemeName, palette: PaletteName) -> Theme:
    """The colours of a theme and palette; the border tints are the rims (or `Ink.rows`)
    faded into the plate.

    A tint is faint (a tenth to a fifth of the way), so pegs stand out from the border rows
    about as well as from the plate; on the dark plate Black's rows lean lighter, away from
    its dark pegs, and Red's darker, away from its light ones."""
    base = _LIGHT if name is ThemeName.LIGHT else _DARK
    ink = {Colour.RED: _RED_INKS[name, palette], Colour.BLACK: _BLACK_INKS[name]}
    fade = 0.12 if name is ThemeName.LIGHT else 0.2
    plate = base["plate"]
    red, black = ink[Colour.RED], ink[Colour.BLACK]
    tint = {Colour.RED: _mix(plate, red.rows or red.rim, fade),
            Colour.BLACK: _mix(plate, black.rows or black.rim, fade / 2)}
    return Theme(tint=tint, ink=ink, square_black=palette is PaletteName.COLOUR_BLIND, **base)


def board_colours() -> dict[str, dict[str, dict[str, str]]]:
    """Every theme's and palette's board colours as CSS hex (`#f3ead6`), by theme, palette and
    name, for a front end that draws the board itself (the web page) in the pictures' own
    colours: `plate`, `hole`, `label`, `text`, `muted`, `accent`, `chain`, `mark`, each side's
    `red-fill`, `red-rim`, `red-tint` (its border rows; `black-…` likewise) and `black-shape`
    (`square` when Black's pegs are square)."""
    return {name.value: {palette.value: _css(theme(name, palette)) for palette in PaletteName}
            for name in ThemeName}


def _css(colours: Theme) -> dict[str, str]:
    def hex_of(rgb: RGB) -> str:
        return "#{:02x}{:02x}{:02x}".format(*rgb)

    found = {name: hex_of(getattr(colours, name)) for name in
             ("plate", "caption", "hole", "label", "text", "muted", "accent", "chain", "mark")}
    for side, ink in colours.ink.items():
        found |= {f"{side.value}-fill": hex_of(ink.fill), f"{side.value}-rim": hex_of(ink.rim),
                  f"{side.value}-tint": hex_of(colours.tint[side])}
    found["black-shape"] = "square" if colours.square_black else "round"
    return found


def faded(colour: RGB, ground: RGB, strength: float) -> RGB:
    """A colour shown faintly on a ground, as removed pegs and links are."""
    return _mix(ground, colour, strength)


#: How strongly removed pegs and links show through.
GHOST = 0.35


#: The main inks of colour emoji (Noto Color Emoji's yellows, oranges, greens, blues, purples,
#: pinks, browns and greys), so that emoji in players' names keep their hues on the palette.
EMOJI_COLOURS: tuple[RGB, ...] = (
    (252, 194, 27), (243, 154, 12), (237, 108, 48), (183, 208, 25), (124, 179, 66),
    (56, 142, 60), (27, 94, 32), (94, 187, 173), (66, 165, 245), (44, 128, 171),
    (41, 80, 138), (171, 71, 188), (103, 58, 183), (236, 64, 122), (248, 187, 208),
    (121, 85, 72), (219, 121, 68), (224, 187, 149), (158, 158, 158), (224, 224, 224),
    (89, 82, 80))


@cache
def palette_colours(name: ThemeName, palette: PaletteName) -> tuple[RGB, ...]:
    """At most 256 colours: every named colour, ghosts, blends of inks over grounds, and the
    emoji colours.

    The blends are what anti-aliased edges and text quantize to, so edges stay smooth.
    """
    colours = theme(name, palette)
    found: dict[RGB, None] = {}
    for ground in colours.grounds:
        found[ground] = None
        for ink in colours.inks:
            for t in (0.25, 0.5, 0.75, 1.0):
                found[_mix(ground, ink, t)] = None
        for side in colours.ink.values():
            found[faded(side.fill, ground, GHOST)] = None
            found[faded(side.rim, ground, GHOST)] = None
    for a, b in combinations(colours.inks, 2):
        found[_mix(a, b, 0.5)] = None
    for colour in EMOJI_COLOURS:
        found[colour] = None
    assert len(found) <= 256, len(found)
    return tuple(found)
