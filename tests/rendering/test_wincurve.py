"""twixt/rendering/wincurve.py: the picture of Red's chance, decoded and looked at pixel by
pixel."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from twixt.rendering.themes import PaletteName, ThemeName, theme
from twixt.rendering.wincurve import (
    MARKER_RADIUS,
    MAX_SWINGS,
    WIDTH,
    CurveSwing,
    WinCurve,
    curve_layout,
    render_wincurve,
    tick_turns,
)
from twixt.rules import Colour

LIGHT = theme(ThemeName.LIGHT, PaletteName.NORMAL)
DARK = theme(ThemeName.DARK, PaletteName.NORMAL)
POINTS = ((0, 0.5), (1, 0.55), (2, 0.6), (3, 0.2), (4, 0.25), (5, 0.9), (6, 1.0))
SWINGS = (CurveSwing(5, 5, "Red", "E6 link C5", "D7", 0.25, 0.9, 0.25),
          CurveSwing(3, 3, "Black", "F3", "G4", 0.6, 0.2, 0.6))


def picture(curve: WinCurve, theme_name: ThemeName = ThemeName.LIGHT) -> Image.Image:
    return Image.open(io.BytesIO(render_wincurve(curve, theme_name))).convert("RGB")


def colours_near(image: Image.Image, x: float, y: float, reach: int) -> set[tuple[int, ...]]:
    return {image.getpixel((round(x) + dx, round(y) + dy))
            for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)}


def test_the_curve_is_drawn_in_reds_ink_through_its_points() -> None:
    curve = WinCurve(POINTS, red="alice", black="bob")
    image, lay = picture(curve), curve_layout(curve)
    red = LIGHT.ink[Colour.RED].fill
    for turn, chance in POINTS:
        assert red in colours_near(image, lay.x(turn), lay.y(chance), 2), turn


def test_reds_share_lies_under_the_curve_and_blacks_above() -> None:
    curve = WinCurve(((0, 0.5), (4, 0.5)))
    image, lay = picture(curve), curve_layout(curve)
    x = lay.x(2)
    assert image.getpixel((round(x), round(lay.y(0.3)))) == LIGHT.tint[Colour.RED]
    assert image.getpixel((round(x), round(lay.y(0.8)))) == LIGHT.tint[Colour.BLACK]


def test_each_swing_is_marked_at_its_move_in_the_accent() -> None:
    curve = WinCurve(POINTS, SWINGS)
    image, lay = picture(curve), curve_layout(curve)
    for swing in SWINGS:
        assert LIGHT.accent in colours_near(image, lay.x(swing.last_turn),
                                            lay.y(swing.red_after) - MARKER_RADIUS + 3, 1)
    # a move without a swing has no marker
    assert LIGHT.accent not in colours_near(image, lay.x(1), lay.y(0.55), MARKER_RADIUS)


def test_the_legend_has_a_numbered_line_per_swing() -> None:
    curve = WinCurve(POINTS, SWINGS)
    image, lay = picture(curve), curve_layout(curve)
    assert len(lay.legend_middles) == len(SWINGS)
    for middle in lay.legend_middles:
        row = {image.getpixel((x, middle)) for x in range(0, WIDTH // 2)}
        assert LIGHT.accent in row and LIGHT.text in row


def test_without_swings_the_picture_says_so_instead() -> None:
    assert picture(WinCurve(POINTS)).height < picture(WinCurve(POINTS, SWINGS)).height


def test_a_game_without_moves_is_one_dot_at_the_start() -> None:
    curve = WinCurve(((0, 0.5),))
    image, lay = picture(curve), curve_layout(curve)
    assert LIGHT.ink[Colour.RED].fill in colours_near(image, lay.x(0), lay.y(0.5), 2)


def test_the_dark_theme_draws_on_the_dark_plate() -> None:
    image = picture(WinCurve(POINTS, SWINGS), ThemeName.DARK)
    assert image.getpixel((2, 2)) == DARK.plate
    assert DARK.ink[Colour.RED].fill in {colour for _count, colour in image.getcolors(1 << 16)}


def test_long_names_and_moves_keep_the_width() -> None:
    long = "x" * 5000
    curve = WinCurve(POINTS, (CurveSwing(3, 3, long, long, long, 0.6, 0.2, 0.6),), long, long)
    assert picture(curve).width == WIDTH


def test_in_german_the_texts_change() -> None:
    english, german = WinCurve(POINTS, SWINGS), WinCurve(POINTS, SWINGS, locale="de")
    assert render_wincurve(english) != render_wincurve(german)


@pytest.mark.parametrize("curve", [
    WinCurve(()),
    WinCurve(((0, 0.5), (0, 0.6))),
    WinCurve(((0, 1.5),)),
    WinCurve(POINTS, SWINGS * MAX_SWINGS),
])
def test_impossible_curves_are_refused(curve: WinCurve) -> None:
    with pytest.raises(ValueError):
        render_wincurve(curve)


@pytest.mark.parametrize(("last", "ticks"), [
    (1, [0, 1]), (7, [0, 1, 2, 3, 4, 5, 6, 7]), (8, [0, 2, 4, 6, 8]),
    (60, [0, 10, 20, 30, 40, 50, 60]), (2300, [0, 500, 1000, 1500, 2000])])
def test_move_numbers_along_the_bottom_are_round(last: int, ticks: list[int]) -> None:
    assert tick_turns(last) == ticks


def test_how_the_game_ended_is_said_under_the_names() -> None:
    plain, ended = WinCurve(POINTS), WinCurve(POINTS, result="alice (Red) wins by connection.")
    assert curve_layout(ended).result_middle > curve_layout(plain).result_middle
    image, lay = picture(ended), curve_layout(ended)
    assert LIGHT.text in {image.getpixel((x, lay.result_middle)) for x in range(WIDTH // 2)}
