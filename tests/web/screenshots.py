"""`python -m tests.web.screenshots FOLDER`: the web board in headless Chromium at a phone's
and a desktop's size, light and dark, saved as PNG files to look at (not a test: a person
looks at them before a change of the page is called done)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from support.browser import (
    DESKTOP,
    PHONE,
    box_of,
    chromium,
    hole,
    label_of,
    link,
    named,
    press,
    table,
    tap,
    wait_for,
    web_server,
)

GAME = ("alice: challenge bob size 24 swap no", "bob: accept", "alice: J10", "bob: L11",
        "alice: K12 link J10", "bob: M9 link L11", "alice: L14 link K12", "bob: O10 link M9",
        "alice: N13 link L14", "bob: Q11 link O10")
#: a short game Red wins by connection, to step through
FINISHED = ("alice: challenge bob size 5 swap no", "bob: accept", "alice: C1", "bob: A2",
            "alice: D3 link C1", "bob: A4", "alice: C5 link D3")


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        database = Path(work) / "twixt.db"
        table(database, *GAME)
        with web_server(database) as (_server, base):
            url = link(database, "alice", base)
            for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
                for dark in (False, True):
                    for lang in ("en", "de"):
                        with chromium(size, dark=dark, lang=lang) as page:
                            page.get(url)
                            wait_for(lambda page=page: "J10" in label_of(page, "J10"), "the board")
                            press(lambda page=page: hole(page, "M15"), "M15")
                            wait_for(lambda page=page: page.find_elements(
                                By.CSS_SELECTOR, "#choice button"), "the choice")
                            _shoot(page, size, folder / f"{name}-{_look(dark)}-{lang}.png")
                            if not dark and lang == "en":
                                print(f"{name}: the board {_size(page, _board(page))} px, "
                                      f"a hole {_size(page, hole(page, 'M15'))} px")
            with chromium(PHONE) as page:  # a finger's first tap zooms in
                page.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                                     {"enabled": True, "maxTouchPoints": 5})
                page.get(url)
                wait_for(lambda: "red" in label_of(page, "J10"), "the board")
                print(f"phone, a hole before the first tap: {_size(page, hole(page, 'M12'))} px")
                tap(page, "M12")
                wait_for(lambda: "zoomed" in (page.find_element(By.ID, "board")
                                              .get_attribute("class") or ""), "the zoom")
                time.sleep(0.3)  # the zoom's few frames
                _shoot(page, PHONE, folder / "phone-zoomed-light-en.png")
                print(f"phone, a hole after it: {_size(page, hole(page, 'M12'))} px")
        finished = Path(work) / "finished.db"
        table(finished, *FINISHED)
        with web_server(finished) as (_server, base), chromium(PHONE, lang="de") as page:
            page.get(link(finished, "bob", base))
            wait_for(lambda: label_of(page, "C5"), "the board")
            _shoot(page, PHONE, folder / "phone-won-light-de.png")
            press(lambda: named(page, "Anfang"), "Anfang")
            press(lambda: named(page, "Vor"), "Vor")
            wait_for(lambda: "leer" in label_of(page, "A2"), "the first step")
            _shoot(page, PHONE, folder / "phone-finished-light-de.png")


def _board(page: WebDriver) -> WebElement:
    return page.find_element(By.ID, "board")


def _size(page: WebDriver, element: WebElement | None) -> str:
    assert element is not None
    box = box_of(page, element)
    return f"{box['width']:.0f}×{box['height']:.0f}"


def _look(dark: bool) -> str:
    return "dark" if dark else "light"


def _shoot(page: WebDriver, size: tuple[int, int], shot: Path) -> None:
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})
    page.save_screenshot(str(shot))
    print(shot)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots"))
