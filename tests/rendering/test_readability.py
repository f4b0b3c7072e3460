"""Boards that read at 400 pixels: Discord shows an attached board about 400 px wide on a phone.

Real PNGs of a 24×24 board (and a 48×48 one for the labels), in every theme and palette, are
decoded and scaled to 400 px wide with Pillow's LANCZOS filter (a good-quality downscale, as a
browser or Discord's media proxy gives; a plain box average would blur thin lines a little
more), then measured on those pixels. Contrast is WCAG's ratio of relative luminances; 3:1 is
its threshold for graphical objects. Checked: labels at least 10 px tall, at every hole of a
24×24 board from either side; the caption's words at least 11 px; pegs (black ones also as a
whole), links, border lines, the last move's ring and the winning chain's halo at least 3:1
against what they lie on; the chain's pieces set off from their halo; the halo's colour told
apart from both sides' inks (also by protanopes and deuteranopes in the colour-blind
palette); and the winning move's own link highlighted like the rest of the chain.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from tests.rendering.render_helpers import decode, play
from twixt.rendering import (
    BoardView,
    PaletteName,
    RenderOptions,
    ThemeName,
    caption_lines,
    game_at,
    render_png,
    view_of,
)
from twixt.rendering.caption import TextRun, caption_layout
from twixt.rendering.layout import layout
from twixt.rendering.sprites import SQUARE_SIDE
from twixt.rendering.static import border_rows
from twixt.rendering.text import text_length
from twixt.rules import Colour, Game, Hole, Link

SHOWN = 400         # px: the width Discord shows an attachment at on a phone
MIN_LABEL = 10      # px tall at that width
MIN_CAPTION = 11    # px tall at that width: a capital of the caption's words
MIN_CONTRAST = 3.0

COMBOS = [RenderOptions(theme=t, palette=p) for t in ThemeName for p in PaletteName]
IDS = [f"{o.theme.value}-{o.palette.value}" for o in COMBOS]

RGB = tuple[int, int, int]


# --- the games ---------------------------------------------------------------------------

#: Red's chain down the middle, K1 to N24; the last move N24 link L23 wins.
RED_CHAIN = [Hole(10 + i % 2, 2 * i) for i in range(12)] + [Hole(13, 23)]
BLACK_MOVES = ["B10", "D11 link B10", "F12 link D11", "H13 link F12", "T4", "V5 link T4",
               "X6 link V5", "R3 link T4", "P18", "R17 link P18", "T16 link R17",
               "V15 link T16"]
#: Turns in the mid-game position: Red has just played L15 link K13.
MIDGAME_TURNS = 15


@cache
def won_24() -> Game:
    """24×24 classic: Black builds two walls at the sides, Red walks down the middle and wins."""
    game = Game(("alice", "bob"), size=24, swap=False)
    previous = None
    for index, hole in enumerate(RED_CHAIN):
        game.play(str(hole) + (f" link {previous}" if previous else ""))
        previous = hole
        if index < len(BLACK_MOVES):
            game.play(BLACK_MOVES[index])
    assert game.outcome is not None and game.outcome.winner is Colour.RED
    return game


@cache
def midgame() -> Game:
    return game_at(won_24(), MIDGAME_TURNS)


def game_48() -> Game:
    return play(Game(("alice", "bob"), size=48, swap=False),
                "K10", "AK20", "L12 link K10", "AI21 link AK20")


# --- pixels ------------------------------------------------------------------------------

def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple[int, ...]) -> float:
    r, g, b = (_linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


class Shown:
    """A picture scaled to 400 px wide, read at the places the layout names at full size."""

    def __init__(self, png: bytes) -> None:
        full = decode(png)
        self.factor = SHOWN / full.width
        self.image = full.resize((SHOWN, round(full.height * self.factor)),
                                 Image.Resampling.LANCZOS)

    def at(self, x: float, y: float) -> RGB:
        """The shown pixel over the full-size point (x, y) (a pixel's centre maps to a centre)."""
        f = self.factor
        return self.image.getpixel((round((x + 0.5) * f - 0.5), round((y + 0.5) * f - 0.5)))


@cache
def shown(options: RenderOptions, what: str) -> Shown:
    if what == "won":
        return Shown(render_png(won_24(), options))
    if what == "mid":
        return Shown(render_png(won_24(), options, turn=MIDGAME_TURNS))
    return Shown(render_png(game_48(), options))


def _midpoint(lay, link: Link) -> tuple[float, float]:
    (ax, ay), (bx, by) = lay.centre(link.a), lay.centre(link.b)
    return (ax + bx) / 2, (ay + by) / 2


# --- labels ------------------------------------------------------------------------------

def _label_heights(picture: Shown, options: RenderOptions, size: int) -> list[int]:
    """The height in shown pixels of each label in the top and left margins: the rows holding
    a pixel of ink, one whose contrast with the plate is at least half the label colour's (half
    on the ratio's log scale, as lightness is seen)."""
    lay, colours = layout(size, size, options), options.colours
    half = math.sqrt(contrast(colours.label, colours.plate))
    f, image = picture.factor, picture.image

    def inked(x: int, y: int) -> bool:
        return contrast(image.getpixel((x, y)), colours.plate) >= half

    def span(start: float, stop: float) -> range:
        return range(round(start * f) + 1, round(stop * f) - 1)

    band = span(0, lay.band)
    heights = []
    for i in range(lay.view_cols):          # the labels above the board
        if lay.labelled(i, True):
            x, _y = lay.cell_centre(i, 0)
            reach = lay.pitch * lay.label_step[0] / 2
            rows = [y for y in band if any(inked(c, y) for c in span(x - reach, x + reach))]
            heights.append(rows[-1] - rows[0] + 1 if rows else 0)
    for i in range(lay.view_rows):          # the labels left of it
        if lay.labelled(i, False):
            _x, y = lay.cell_centre(0, i)
            reach = lay.pitch * lay.label_step[1] / 2
            rows = [r for r in span(y - reach, y + reach)
                    if any(inked(c, r) for c in span(lay.left, lay.left + lay.band))]
            heights.append(rows[-1] - rows[0] + 1 if rows else 0)
    return heights


SIDES = [replace(o, side=side) for o in COMBOS for side in Colour]
SIDE_IDS = [f"{i}-{side.value}" for i in IDS for side in Colour]


@pytest.mark.parametrize("options", SIDES, ids=SIDE_IDS)
@pytest.mark.parametrize("size", [24, 48])
def test_labels_are_at_least_10_px_tall_at_400_px(options, size):
    """Every label drawn is at least 10 px tall; a 24×24 board labels every row and column
    seen from either side (Black's puts the row numbers across, condensed where they are
    wider than a hole), a 48×48 board may skip rows and columns, but labels at least every
    third."""
    picture = shown(options, "mid" if size == 24 else "48")
    heights = _label_heights(picture, options, size)
    assert len(heights) == 2 * size if size == 24 else len(heights) >= 2 * size / 3
    assert min(heights) >= MIN_LABEL, heights


# --- the caption -------------------------------------------------------------------------

#: runs of the mid-game caption, one of each line and style, with no descender: their ink
#: is as tall as a capital (or an ascender)
CAPTION_RUNS = ("Move 15", "bob", "alice")


def caption_heights(picture: Shown, options: RenderOptions, view: BoardView,
                    wanted: tuple[str, ...] = CAPTION_RUNS) -> dict[str, int]:
    """The height in shown pixels of the ink of each `wanted` run the caption sets (the first
    of each text), measured as `_label_heights` measures labels, against the caption's
    ground in the run's own colour."""
    colours = options.colours
    board = layout(view.cols, view.rows, options.board_part)
    f, image, heights = picture.factor, picture.image, {}
    for line in caption_layout(board.width, caption_lines(view, options.locale), options):
        top = board.board_height + line.middle - line.height / 2
        for run, start in zip(line.runs, line.starts, strict=True):
            if not isinstance(run, TextRun) or run.text not in wanted or run.text in heights:
                continue
            ink = colours.muted if run.muted else colours.text
            half = math.sqrt(contrast(ink, colours.caption))
            columns = range(round(start * f), round((start + text_length(run.text, line.size))
                                                    * f))
            rows = [y for y in range(round(top * f), round((top + line.height) * f))
                    if any(contrast(image.getpixel((x, y)), colours.caption) >= half
                           for x in columns)]
            heights[run.text] = rows[-1] - rows[0] + 1 if rows else 0
    return heights


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_the_captions_words_are_at_least_11_px_tall_at_400_px(options):
    """The caption's words, bold, plain and muted, are at least 11 px tall (a capital or an
    ascender; at 8 px "alice" read "allce")."""
    heights = caption_heights(shown(options, "mid"), options, view_of(midgame()))
    assert set(heights) == set(CAPTION_RUNS)
    assert min(heights.values()) >= MIN_CAPTION, heights


# --- pegs, links, border lines, the last move --------------------------------------------

@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_pegs_stand_out_from_the_plate(options):
    picture, lay = shown(options, "mid"), layout(24, 24, options)
    plate = picture.at(3, 3)
    for colour in Colour:
        ratios = [contrast(picture.at(*lay.centre(peg.hole)), plate)
                  for peg in midgame().pegs() if peg.colour is colour]
        assert ratios and min(ratios) >= MIN_CONTRAST, (colour, min(ratios))


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_black_pegs_seen_whole_stand_out_from_the_plate(options):
    """Shown small, a peg is seen as a whole: the mean relative luminance of the shown pixels
    it covers (its rim, and its edge blended into the plate, included) stands 3:1 off the
    plate. A light rim on the dark plate once made black pegs about as light as it (1.5:1)."""
    picture, lay = shown(options, "mid"), layout(24, 24, options)
    plate, f = luminance(picture.at(3, 3)), picture.factor
    reach = lay.peg_radius * (SQUARE_SIDE if options.colours.square_black else 1)
    ratios = []
    for peg in midgame().pegs():
        if peg.colour is Colour.BLACK:
            x, y = lay.centre(peg.hole)
            covered = [picture.image.getpixel((px, py))
                       for px in range(math.floor((x - reach) * f), math.ceil((x + reach) * f))
                       for py in range(math.floor((y - reach) * f), math.ceil((y + reach) * f))
                       if _covers(options, ((px + 0.5) / f - x, (py + 0.5) / f - y), reach)]
            seen = statistics.fmean(luminance(p) for p in covered)
            ratios.append((max(seen, plate) + 0.05) / (min(seen, plate) + 0.05))
    assert ratios and min(ratios) >= MIN_CONTRAST, min(ratios)


def _covers(options: RenderOptions, offset: tuple[float, float], reach: float) -> bool:
    """Whether a point at `offset` from a black peg's centre lies on it: in its disc, or in
    its square in the colour-blind palette."""
    dx, dy = offset
    if options.colours.square_black:
        return max(abs(dx), abs(dy)) <= reach
    return math.hypot(dx, dy) <= reach


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_links_stand_out_from_the_plate(options):
    picture, lay = shown(options, "mid"), layout(24, 24, options)
    plate = picture.at(3, 3)
    for colour in Colour:   # the last move's link too: it lies on bare board inside its halo
        ratios = [contrast(picture.at(*_midpoint(lay, link)), plate)
                  for link in midgame().links() if link.colour is colour]
        assert ratios and min(ratios) >= MIN_CONTRAST, (colour, min(ratios))


def _across(picture: Shown, at: tuple[float, float], direction: tuple[int, int], start: float,
            stop: float) -> list[RGB]:
    """Shown pixels from `start` to `stop` full-size pixels from `at` in `direction`, every
    half shown pixel."""
    (x, y), (dx, dy), step = at, direction, 0.5 / picture.factor
    return [picture.at(x + dx * (start + step * i), y + dy * (start + step * i))
            for i in range(round((stop - start) / step))]


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_border_rows_are_framed_by_lines_that_stand_out(options):
    """Each border row, seen across it from the field out to the margin, lies between two
    lines in its owner's colour that stand out from the plate and from the row itself."""
    picture, lay = shown(options, "mid"), layout(24, 24, options)
    plate = picture.at(3, 3)
    for colour, rows in border_rows(24, 24).items():
        along = (1, 0) if colour is Colour.RED else (0, 1)
        for index, (first, _last) in enumerate(rows):
            # between the row's 6th and 7th holes: no hole, no piece
            (ax, ay), (bx, by) = (lay.centre(Hole(first.col + along[0] * n,
                                                  first.row + along[1] * n)) for n in (5, 6))
            x, y = (ax + bx) / 2, (ay + by) / 2
            out = -1 if index == 0 else 1            # towards the picture's edge
            dx, dy = (0, out) if colour is Colour.RED else (out, 0)
            row = picture.at(x, y)
            inner = _across(picture, (x, y), (dx, dy), -lay.pitch, 0)   # field to row middle
            outer = _across(picture, (x, y), (dx, dy), 0, lay.pitch)    # row middle to margin
            for side, pixels in (("inner", inner), ("outer", outer)):
                assert any(contrast(p, plate) >= MIN_CONTRAST and contrast(p, row) >= MIN_CONTRAST
                           for p in pixels), (colour, index, side, row, pixels)


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_the_last_pegs_ring_is_at_least_2_px_thick(options):
    picture, lay = shown(options, "mid"), layout(24, 24, options)
    plate = picture.at(3, 3)
    x, y = lay.centre(RED_CHAIN[7])   # L15, the last peg
    f = picture.factor
    cx, cy = round((x + 0.5) * f - 0.5), round((y + 0.5) * f - 0.5)
    beyond_peg = math.ceil(lay.peg_radius * f)
    reach = round(lay.pitch * 0.7 * f)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        run = [picture.image.getpixel((cx + dx * d, cy + dy * d))
               for d in range(beyond_peg, reach)]
        ring = [p for p in run if contrast(p, plate) >= MIN_CONTRAST
                and _distance(p, options.colours.accent) < 60]
        assert len(ring) >= 2, (dx, dy, run)


# --- the winning chain -------------------------------------------------------------------

def _profile(picture: Shown, lay, link: Link) -> list[RGB]:
    """Shown pixels from a link's middle outwards, across it, every half shown pixel."""
    (ax, ay), (bx, by) = lay.centre(link.a), lay.centre(link.b)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length, (bx - ax) / length
    x, y = _midpoint(lay, link)
    step = 0.5 / picture.factor
    return [picture.at(x + nx * step * i, y + ny * step * i)
            for i in range(round(lay.pitch * 0.9 / step))]


def _lab(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour given as 0-255 channels (floats allowed)."""
    r, g, b = (_linear(c) for c in rgb)
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           0.0193 * r + 0.1192 * g + 0.9505 * b)
    white = (0.9505, 1.0, 1.089)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, white, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


Matrix = tuple[tuple[float, float, float], ...]

#: Viénot, Brettel and Mollon (1999): what protanopes and deuteranopes see, in linear RGB.
DICHROMATS: dict[str, Matrix] = {
    "protan": ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0)),
    "deutan": ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0)),
}


def _seen(rgb: RGB, matrix: Matrix) -> tuple[float, ...]:
    lin = [_linear(c) for c in rgb]
    out = []
    for row in matrix:
        v = min(1.0, max(0.0, sum(m * c for m, c in zip(row, lin, strict=True))))
        s = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
        out.append(s * 255)
    return tuple(out)


def _delta_e(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return math.dist(_lab(a), _lab(b))


def _distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return math.dist(a[:3], b[:3])


def _halo(profile: list[RGB], plate: RGB) -> tuple[int, RGB]:
    """The halo in a profile across a chain link: the pixel, out beyond the link's middle,
    that stands out most from the plate."""
    index = max(range(len(profile) // 4, len(profile)), key=lambda i: contrast(profile[i], plate))
    return index, profile[index]


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_the_winning_chains_halo_stands_out_and_sets_its_pieces_off(options):
    picture, lay = shown(options, "won"), layout(24, 24, options)
    plate = picture.at(3, 3)
    _holes, links = won_24().winning_chain()
    for link in links:
        profile = _profile(picture, lay, link)
        ink = profile[0]
        index, halo = _halo(profile, plate)
        assert contrast(halo, plate) >= MIN_CONTRAST, (str(link.a), str(link.b), halo)
        # between the link and its halo lies something that sets each off from the other
        between = profile[:index]
        assert any(contrast(p, ink) >= MIN_CONTRAST and contrast(p, halo) >= MIN_CONTRAST
                   for p in between), (str(link.a), str(link.b), between)


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_the_winning_chains_halo_is_told_apart_from_both_sides(options):
    picture, lay = shown(options, "won"), layout(24, 24, options)
    plate = picture.at(3, 3)
    _holes, links = won_24().winning_chain()
    _index, halo = _halo(_profile(picture, lay, links[0]), plate)
    inks = {colour: picture.at(*lay.centre(hole)) for colour, hole in
            ((Colour.RED, RED_CHAIN[3]), (Colour.BLACK, Hole(1, 9)))}
    visions: dict[str, Matrix | None] = {"normal": None}
    if options.palette is PaletteName.COLOUR_BLIND:
        visions |= DICHROMATS
    for vision, matrix in visions.items():
        for colour, ink in inks.items():
            a, b = (halo, ink) if matrix is None else (_seen(halo, matrix), _seen(ink, matrix))
            assert _delta_e(a, b) >= 40, (vision, colour, halo, ink)


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_the_winning_moves_link_is_highlighted_like_the_rest_of_the_chain(options):
    picture, lay = shown(options, "won"), layout(24, 24, options)
    plate = picture.at(3, 3)
    _holes, links = won_24().winning_chain()
    last = Link(RED_CHAIN[-2], RED_CHAIN[-1], Colour.RED)
    assert last in links
    halos = [_halo(_profile(picture, lay, link), plate)[1] for link in links if link != last]
    typical = tuple(statistics.median(h[i] for h in halos) for i in range(3))
    _index, halo = _halo(_profile(picture, lay, last), plate)
    assert _distance(halo, typical) < 40, (halo, typical)
    accent = options.colours.accent
    assert not any(_distance(p, accent) < 40 for p in _profile(picture, lay, last))
