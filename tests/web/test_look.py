"""The board on the page looks as the bot's pictures do, and a desktop shows it whole: in
Chromium at 1280×800 the board is at least 600 px tall without scrolling, the panel beside it
with the move list in sight; its pegs, border rows and last move are drawn in the rendering
themes' colours, in the player's palette (colour-blind: Black's pegs square)."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from support.browser import (
    DESKTOP,
    chromium,
    label_of,
    link,
    table,
    wait_for,
    web_server,
)
from twixt.rendering.themes import PaletteName, ThemeName, theme
from twixt.rules import Colour

GAME = ("alice: challenge bob size 24 swap no", "bob: accept", "bob: settings palette colour-blind",
        "alice: J10", "bob: L11", "alice: K12 link J10", "bob: M9 link L11")


pytestmark = pytest.mark.usefixtures("browser_installed")


def _rgb(colour: tuple[int, int, int]) -> str:
    return "rgb({}, {}, {})".format(*colour)


def _painted(page: WebDriver, selector: str, what: str = "fill") -> str:
    return page.execute_script(  # type: ignore[no-any-return]
        f"return getComputedStyle(document.querySelector(arguments[0])).{what};", selector)


def _box(page: WebDriver, selector: str) -> dict[str, float]:
    return page.execute_script(  # type: ignore[no-any-return]
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height};",
        selector)


@pytest.mark.parametrize(("player", "dark", "palette"), [
    ("alice", False, PaletteName.NORMAL), ("bob", True, PaletteName.COLOUR_BLIND)])
def test_a_desktop_shows_the_board_whole_and_in_the_pictures_colours(
        tmp_path: Path, player: str, dark: bool, palette: PaletteName):
    database = tmp_path / "twixt.db"
    table(database, *GAME)
    colours = theme(ThemeName.DARK if dark else ThemeName.LIGHT, palette)
    with web_server(database) as (_server, base), chromium(DESKTOP, dark=dark) as page:
        page.get(link(database, player, base))
        wait_for(lambda: "black" in label_of(page, "M9"), "the board")
        board, moves = _box(page, "#board"), _box(page, "#moves ol")
        assert board["height"] >= 600 and board["top"] >= 0 and board["bottom"] <= DESKTOP[1]
        assert page.execute_script("return document.scrollingElement.scrollHeight"
                                   " <= window.innerHeight")
        assert moves["left"] >= board["right"] and moves["bottom"] <= DESKTOP[1]  # beside it
        assert page.execute_script("return document.querySelectorAll('#moves li').length") == 4
        assert _painted(page, "#board .plate") == _rgb(colours.plate)
        assert _painted(page, "#board .tint.red") == _rgb(colours.tint[Colour.RED])
        assert _painted(page, "#board .peg.red circle") == _rgb(colours.ink[Colour.RED].fill)
        assert _painted(page, "#board .peg.black > :first-child", "stroke") == _rgb(
            colours.ink[Colour.BLACK].rim)
        assert _painted(page, "#board .ring", "stroke") == _rgb(colours.accent)
        square = page.execute_script(
            "return document.querySelector('#board .peg.black > :first-child').tagName")
        assert square == ("rect" if palette is PaletteName.COLOUR_BLIND else "circle")
