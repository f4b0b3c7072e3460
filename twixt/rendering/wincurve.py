"""A game's win-probability curve as a picture: the move number across, Red's chance to win
(0 to 100 %) up, the biggest swings marked with numbers and told in lines under the curve
(the move played, Red's chance before and after, what the engine preferred).

Drawn from plain data (`WinCurve`: the caller turns an engine's analysis into it, since
rendering knows no engine), in the board's colours and fonts: the page is the board's
plate, Red's share of the plot is tinted like Red's border rows and Black's like Black's,
the curve is Red's ink and the swings wear the last move's accent. 800 px wide with text at
26 px, so that on a phone, shown 400 px wide, the text is 13 px and the curve 2.5 px thick.

The plot's shapes are drawn three times as big and scaled down, so slopes are smooth; then
the picture goes onto the theme's fixed palette like every board. Bounded work: at most
`MAX_POINTS` points and `MAX_SWINGS` swings (ValueError beyond), names and moves cut to a
bounded number of characters before they are measured.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from twixt.language import Translation, translation
from twixt.rendering.encode import png_bytes, quantize
from twixt.rendering.limits import check_count
from twixt.rendering.text import bounded, cut_to_width, put_text, text_length
from twixt.rendering.themes import RGB, PaletteName, Theme, ThemeName, faded
from twixt.rendering.themes import theme as colours_of
from twixt.rules import Colour

WIDTH = 800
TEXT_SIZE = 26
TITLE_SIZE = 30
#: the distance between two lines of text
LINE = round(TEXT_SIZE * 1.45)
PLOT_HEIGHT = 330
MARGIN = 24
#: the plot's shapes are drawn this many times as big, then scaled down (smooth slopes)
SUPERSAMPLE = 3
#: the curve's width and a swing's marker radius, in pixels of the picture
CURVE_WIDTH = 5
SWING_WIDTH = 9
MARKER_RADIUS = 15
#: points drawn as dots too when there are this few (a short game's moves stay visible)
DOTS_UP_TO = 40
#: the most points and swings a picture holds, and characters of a name or move measured
MAX_POINTS = 5000
MAX_SWINGS = 3
MAX_TEXT_CHARS = 80
#: the most labelled moves along the bottom
MAX_TICKS = 8
_STEPS = (1, 2, 5)


@dataclass(frozen=True)
class CurveSwing:
    """A swing: moves `turn` to `last_turn` (usually one move) by `mover` ("Red" or "Black"
    as the caller says it), `played` (move-language text), changed Red's chance from
    `red_before` to `red_after`; the engine preferred `preferred`, with which Red's chance
    was `preferred_win`."""

    turn: int
    last_turn: int
    mover: str
    played: str
    preferred: str
    red_before: float
    red_after: float
    preferred_win: float


@dataclass(frozen=True)
class WinCurve:
    """What the picture shows: `points` (moves made, Red's chance 0–1) in order of moves,
    the swings biggest first, the players of each colour as shown, how the game ended (a
    sentence, or ""), and the language."""

    points: tuple[tuple[int, float], ...]
    swings: tuple[CurveSwing, ...] = ()
    red: str = ""
    black: str = ""
    result: str = ""
    locale: str = "en"


@dataclass(frozen=True)
class CurveLayout:
    """Where things go: the plot's box (left, top, right, bottom), the last move number on
    the axis, and the middles of the text lines."""

    width: int
    height: int
    plot: tuple[int, int, int, int]
    last_turn: int
    title_middle: int
    names_middle: int
    result_middle: int
    ticks_middle: int
    legend_middles: tuple[int, ...]

    def x(self, turn: float) -> float:
        left, _top, right, _bottom = self.plot
        return left + (right - left) * turn / self.last_turn

    def y(self, red: float) -> float:
        _left, top, _right, bottom = self.plot
        return bottom - (bottom - top) * min(1.0, max(0.0, red))


def _check(curve: WinCurve) -> None:
    check_count("a win curve", curve.points, "point", MAX_POINTS, needed=True)
    check_count("a win curve", curve.swings, "swing", MAX_SWINGS)
    turns = [turn for turn, _red in curve.points]
    if turns != sorted(set(turns)) or turns[0] < 0:
        raise ValueError("a win curve's points go forward, one per move number")
    if any(not 0.0 <= red <= 1.0 for _turn, red in curve.points):
        raise ValueError("a chance lies between 0 and 1")


def _bounded(text: str) -> str:
    return bounded(text, MAX_TEXT_CHARS)


def curve_layout(curve: WinCurve) -> CurveLayout:
    """The geometry of the picture of `curve` (ValueError beyond the bounds)."""
    _check(curve)
    tr = translation(curve.locale)
    labels = text_length(_percent(100, tr), TEXT_SIZE)
    line = LINE
    title_middle = MARGIN + TITLE_SIZE // 2
    names_middle = title_middle + round(line * 1.1)
    result_middle = names_middle + (line if curve.result else 0)
    top = result_middle + line
    left = MARGIN + math.ceil(labels) + TEXT_SIZE // 2
    right = WIDTH - MARGIN - MARKER_RADIUS
    bottom = top + PLOT_HEIGHT
    ticks_middle = bottom + round(TEXT_SIZE * 1.1)
    first_legend = ticks_middle + round(line * 2.2)
    legend = tuple(first_legend + round(line * 2.4) * index
                   for index in range(max(1, len(curve.swings))))
    height = legend[-1] + (line if curve.swings else 0) + line // 2 + MARGIN
    return CurveLayout(WIDTH, height, (left, top, right, bottom),
                       max(1, curve.points[-1][0]), title_middle, names_middle, result_middle,
                       ticks_middle, legend)


def _percent(value: float, tr: Translation) -> str:
    # TRANSLATORS: a chance in per cent, like 80%; German writes a space before the sign
    return tr("{n}%", n=round(value))


def _move_word(tr: Translation) -> str:
    # TRANSLATORS: the label of the win curve's axis of move numbers
    return tr("move")


def tick_turns(last_turn: int) -> list[int]:
    """The move numbers labelled along the bottom: 0 and multiples of a round step (1, 2,
    5, 10, 20, …), at most `MAX_TICKS` of them."""
    scale = 1
    while True:
        for step in _STEPS:
            if last_turn // (step * scale) + 1 <= MAX_TICKS:
                return list(range(0, last_turn + 1, step * scale))
        scale *= 10


# --- drawing -----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Colours:
    page: RGB
    red_share: RGB
    black_share: RGB
    grid: RGB
    middle: RGB
    curve: RGB
    swing: RGB
    text: RGB
    muted: RGB
    label: RGB

    @classmethod
    def of(cls, colours: Theme) -> _Colours:
        return cls(page=colours.plate, red_share=colours.tint[Colour.RED],
                   black_share=colours.tint[Colour.BLACK],
                   grid=faded(colours.hole, colours.plate, 0.5), middle=colours.hole,
                   curve=colours.ink[Colour.RED].fill, swing=colours.accent,
                   text=colours.text, muted=colours.muted, label=colours.label)


def render_wincurve(curve: WinCurve, theme: ThemeName = ThemeName.LIGHT) -> bytes:
    """PNG bytes of the picture, in the board's theme (ValueError beyond the bounds)."""
    return png_bytes(wincurve_image(curve, theme))


def wincurve_image(curve: WinCurve, theme_name: ThemeName = ThemeName.LIGHT) -> Image.Image:
    """The picture on the theme's palette, as the boards are."""
    lay = curve_layout(curve)
    colours = _Colours.of(colours_of(theme_name, PaletteName.NORMAL))
    tr = translation(curve.locale)
    image = Image.new("RGB", (lay.width, lay.height), colours.page)
    _draw_plot(image, lay, curve, colours)
    left, _top, right, _bottom = lay.plot
    room = right - MARGIN
    put_text(image, cut_to_width(tr("Red's chance to win"), room, TITLE_SIZE, 1.0), MARGIN,
             lay.title_middle, TITLE_SIZE, colours.text, 1.0)
    names = tr("Red: {red} · Black: {black}", red=_bounded(curve.red),
               black=_bounded(curve.black))
    put_text(image, cut_to_width(names, room, TEXT_SIZE), MARGIN, lay.names_middle,
             TEXT_SIZE, colours.muted)
    if curve.result:
        put_text(image, cut_to_width(_bounded(curve.result), room, TEXT_SIZE), MARGIN,
                 lay.result_middle, TEXT_SIZE, colours.text)
    for value in (100, 50, 0):
        put_text(image, _percent(value, tr), left - TEXT_SIZE // 2,
                 round(lay.y(value / 100)), TEXT_SIZE, colours.label, align="right")
    for turn in tick_turns(lay.last_turn):
        put_text(image, str(turn), lay.x(turn), lay.ticks_middle, TEXT_SIZE, colours.label,
                 align="centre")
    put_text(image, _move_word(tr), (left + right) / 2, lay.ticks_middle + LINE,
             TEXT_SIZE, colours.muted, align="centre")
    for number, swing in enumerate(curve.swings, start=1):
        put_text(image, str(number), lay.x(swing.last_turn), round(lay.y(swing.red_after)),
                 TEXT_SIZE - 6, colours.page, 0.6, align="centre")
        _legend_line(image, lay, number, swing, tr, colours)
    if not curve.swings:
        put_text(image, tr("No swings: Red's chance hardly changed."), MARGIN,
                 lay.legend_middles[0], TEXT_SIZE, colours.muted)
    return quantize(image, theme_name, PaletteName.NORMAL)


def _draw_plot(image: Image.Image, lay: CurveLayout, curve: WinCurve,
               colours: _Colours) -> None:
    """The shapes of the plot, drawn big and scaled down into place: the two colours'
    shares, the grid, the curve and the swings' markers."""
    left, top, right, bottom = lay.plot
    pad = MARKER_RADIUS + 2
    box = (left - pad, top - pad, right + pad, bottom + pad)
    scale = SUPERSAMPLE
    big = Image.new("RGB", ((box[2] - box[0]) * scale, (box[3] - box[1]) * scale),
                    colours.page)
    draw = ImageDraw.Draw(big)

    def at(x: float, y: float) -> tuple[float, float]:
        return (x - box[0]) * scale, (y - box[1]) * scale

    points = [at(lay.x(turn), lay.y(red)) for turn, red in curve.points]
    draw.rectangle((*at(left, top), *at(right, bottom)), fill=colours.black_share)
    if len(points) > 1:
        draw.polygon([at(lay.x(curve.points[0][0]), bottom), *points,
                      at(lay.x(curve.points[-1][0]), bottom)], fill=colours.red_share)
    for value in (0.25, 0.75):
        _rule(draw, at(left, lay.y(value)), at(right, lay.y(value)), scale, colours.grid)
    _rule(draw, at(left, lay.y(0.5)), at(right, lay.y(0.5)), 2 * scale, colours.middle)
    for edge in (0.0, 1.0):
        _rule(draw, at(left, lay.y(edge)), at(right, lay.y(edge)), scale, colours.middle)
    for turn in tick_turns(lay.last_turn):
        x = lay.x(turn)
        _rule(draw, at(x, bottom), at(x, bottom + 6), scale, colours.middle)
    _polyline(draw, points, CURVE_WIDTH * scale, colours.curve)
    if len(points) <= DOTS_UP_TO:
        for x, y in points:
            _disc(draw, x, y, CURVE_WIDTH * 0.9 * scale, colours.curve)
    for swing in curve.swings:
        ends = [at(lay.x(swing.turn - 1), lay.y(swing.red_before)),
                at(lay.x(swing.last_turn), lay.y(swing.red_after))]
        _polyline(draw, ends, SWING_WIDTH * scale, colours.swing)
    for swing in curve.swings:
        x, y = at(lay.x(swing.last_turn), lay.y(swing.red_after))
        _disc(draw, x, y, (MARKER_RADIUS + 2) * scale, colours.page)
        _disc(draw, x, y, MARKER_RADIUS * scale, colours.swing)
    small = big.resize((box[2] - box[0], box[3] - box[1]), Image.Resampling.LANCZOS)
    image.paste(small, box[:2])


def _rule(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float],
          width: float, colour: RGB) -> None:
    draw.line((start, end), fill=colour, width=max(1, round(width)))


def _polyline(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], width: int,
              colour: RGB) -> None:
    """A thick line through the points with round joints and ends."""
    if len(points) > 1:
        draw.line(list(points), fill=colour, width=width, joint="curve")
    for x, y in (points[0], points[-1]):
        _disc(draw, x, y, width / 2, colour)


def _disc(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float, colour: RGB) -> None:
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)


def _legend_line(image: Image.Image, lay: CurveLayout, number: int, swing: CurveSwing,
                 tr: Translation, colours: _Colours) -> None:
    """Two lines: `(1) move 12 · Black F3`, and under it, muted, `Red 80% → 20% · engine:
    G5`; each cut to the picture's width."""
    middle = lay.legend_middles[number - 1]
    draw = ImageDraw.Draw(image)
    x = MARGIN + MARKER_RADIUS
    draw.ellipse((x - MARKER_RADIUS, middle - MARKER_RADIUS, x + MARKER_RADIUS,
                  middle + MARKER_RADIUS), fill=colours.swing)
    put_text(image, str(number), x, middle, TEXT_SIZE - 6, colours.page, 0.6, align="centre")
    moves = (tr("move {turn}", turn=swing.turn) if swing.turn == swing.last_turn
             else tr("moves {first}–{last}", first=swing.turn, last=swing.last_turn))
    played = tr("{moves} · {mover} {played}", moves=moves, mover=swing.mover,
                played=_bounded(swing.played))
    change = tr("Red {before} → {after}", before=_percent(swing.red_before * 100, tr),
                after=_percent(swing.red_after * 100, tr))
    if swing.preferred:
        change = tr("{change} · engine: {move} ({chance})", change=change,
                    move=_bounded(swing.preferred),
                    chance=_percent(swing.preferred_win * 100, tr))
    start = x + MARKER_RADIUS + TEXT_SIZE // 2
    room = WIDTH - MARGIN - start
    put_text(image, cut_to_width(played, room, TEXT_SIZE, 0.6), start, middle, TEXT_SIZE,
             colours.text, 0.6)
    put_text(image, cut_to_width(change, room, TEXT_SIZE), start, middle + LINE, TEXT_SIZE,
             colours.muted)
