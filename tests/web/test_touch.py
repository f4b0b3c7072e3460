"""A target for every finger: on a phone (390×844, a touch screen) every tap that chooses a
hole lands on a target at least 44 CSS px across (Apple's and WCAG's size), on a 24×24 and a
48×48 board. A first tap on holes too small for a finger zooms in on that part of the board;
a tap there chooses the hole; "Whole board" zooms out. Measured in Chromium with
`getBoundingClientRect`, holes found by their accessible names."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

from support.browser import (
    PHONE,
    box_of,
    chromium,
    hole,
    label_of,
    link,
    named,
    table,
    tap,
    wait_for,
    web_server,
)

#: the least a touch target measures, in CSS px
TARGET = 44


pytestmark = pytest.mark.usefixtures("browser_installed")


def _box(page: WebDriver, name: str) -> dict[str, float]:
    """Hole `name`'s box, read again where a live update redrew the board between finding
    the hole and measuring it."""
    def now() -> dict[str, float] | None:
        found = hole(page, name)
        return box_of(page, found) if found is not None else None
    return wait_for(now, f"{name}'s box")  # type: ignore[return-value]


def _shown(page: WebDriver, selector: str) -> str:
    """The text of the element `selector` when it is shown, else ""."""
    return page.execute_script(  # type: ignore[no-any-return]
        "const found = document.querySelector(arguments[0]);"
        "return found && !found.hidden ? found.textContent : '';", selector)


def _visible_holes(page: WebDriver) -> list[dict[str, float]]:
    """The boxes of the holes wholly or partly on the board's part shown now."""
    return page.execute_script("""
        const board = document.getElementById("board").getBoundingClientRect();
        return [...document.querySelectorAll("[data-hole]")].map((h) => h.getBoundingClientRect())
          .filter((r) => r.right > board.left && r.left < board.right
                         && r.bottom > board.top && r.top < board.bottom)
          .map((r) => ({width: r.width, height: r.height}));""")  # type: ignore[no-any-return]


@pytest.mark.parametrize("size", [24, 48])
def test_every_tap_that_chooses_a_hole_lands_on_a_target_44_px_across(tmp_path: Path, size: int):
    database = tmp_path / "twixt.db"
    table(database, f"alice: challenge bob size {size} swap no", "bob: accept", "alice: J10",
          "bob: L11")
    with web_server(database) as (_server, base), chromium(PHONE) as page:
        page.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                             {"enabled": True, "maxTouchPoints": 5})
        page.get(link(database, "alice", base))
        wait_for(lambda: "red" in label_of(page, "J10"), "the board")
        small = _box(page, "M15")
        assert small["width"] < TARGET  # the whole board on a phone: holes under a finger
        hint = wait_for(lambda: _shown(page, ".zoom-hint"), "the line that says a tap zooms in")
        assert hint == "Tap the board to zoom in, then tap a hole."
        # the first tap zooms in on that part of the board and chooses nothing
        tap(page, "M15")
        wait_for(lambda: _box(page, "M15")["width"] >= TARGET, "the board zoomed in")
        assert named(page, "Place") is None
        wait_for(lambda: not _shown(page, ".zoom-hint"), "the line gone once zoomed in")
        holes = _visible_holes(page)
        assert len(holes) >= 25
        assert min(min(box["width"], box["height"]) for box in holes) >= TARGET
        # the second tap chooses the hole under the finger, a target 44 px across or more
        tapped = tap(page, "M15")
        assert min(tapped["width"], tapped["height"]) >= TARGET
        place = wait_for(lambda: named(page, "Place M15"), "Place M15")
        assert place.size["height"] >= TARGET  # type: ignore[attr-defined]
        # and the whole board is a tap away
        whole = named(page, "Whole board")
        assert whole is not None and whole.size["height"] >= TARGET
        whole.click()
        wait_for(lambda: _box(page, "M15")["width"] < TARGET, "the whole board again")
        assert named(page, "Place M15") is not None  # the choice stays
