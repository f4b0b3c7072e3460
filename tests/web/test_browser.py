"""The web board in a real browser: a move tapped lands in storage, the opponent's move typed
at the table appears without a reload, a changed link shows no board, and a phone does not
scroll sideways and plays by keyboard (whole games from two pages, in English and German:
`test_controls.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.browser import (
    PHONE,
    chromium,
    export,
    hole,
    label_of,
    link,
    named,
    press,
    scrolls_sideways,
    table,
    wait_for,
    web_server,
)

START = ("alice: challenge bob size 12 swap no", "bob: accept", "alice: G6")


pytestmark = pytest.mark.usefixtures("browser_installed")


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "twixt.db"
    table(path, *START)
    return path


def test_a_tapped_hole_and_place_put_the_move_in_storage(database: Path):
    with web_server(database) as (_server, base), chromium() as page:
        page.get(link(database, "bob", base))
        assert "red" in wait_for(lambda: label_of(page, "G6"), "the board")  # type: ignore[operator]
        assert "black" not in label_of(page, "E7")
        press(lambda: hole(page, "E7"), "E7")
        wait_for(lambda: named(page, "Place"), "the Place button")
        assert "bob: E7" not in export(database)  # nothing is played before Place
        press(lambda: named(page, "Place"), "Place")
        wait_for(lambda: "black" in label_of(page, "E7"), "bob's peg at E7")
        assert export(database).splitlines()[-1] == "bob: E7"


def test_the_opponents_move_at_the_table_appears_without_a_reload(database: Path):
    with web_server(database) as (_server, base), chromium() as page:
        page.get(link(database, "alice", base))
        wait_for(lambda: "red" in label_of(page, "G6"), "the board")
        page.execute_script("window.notReloaded = true")
        table(database, "bob: E7")
        wait_for(lambda: "black" in label_of(page, "E7"), "bob's move on alice's page")
        assert page.execute_script("return window.notReloaded") is True
        assert "Your move" in page.find_element(By.ID, "status").text


def test_a_move_out_of_turn_is_refused_on_the_page_and_stores_nothing(database: Path):
    with web_server(database) as (_server, base), chromium() as page:
        page.get(link(database, "alice", base))
        wait_for(lambda: "red" in label_of(page, "G6"), "the board")
        before = export(database)
        press(lambda: hole(page, "J9"), "J9")
        said = wait_for(lambda: page.find_element(By.ID, "message").text, "the refusal")
        assert said == "it is bob's turn"
        assert named(page, "Place") is None
        assert export(database) == before


def test_a_changed_or_foreign_link_shows_no_board(database: Path):
    with web_server(database) as (_server, base), chromium() as page:
        good = link(database, "bob", base)
        changed = good[:-1] + ("A" if good[-1] != "A" else "B")
        for bad in (changed, good.replace(".1.", ".0.", 1),
                    link(database, "bob", base, secret="another-secret-0123456789abcdef")):
            page.get(bad)
            assert "not valid" in page.find_element(By.ID, "message").text
            assert page.find_elements(By.CSS_SELECTOR, "[data-hole]") == []


def test_a_phone_does_not_scroll_sideways_and_the_board_plays_by_keyboard(database: Path):
    with web_server(database) as (_server, base), chromium(PHONE) as page:
        page.get(link(database, "bob", base))
        wait_for(lambda: "red" in label_of(page, "G6"), "the board")
        assert not scrolls_sideways(page)
        # the keyboard alone: into the board, along to the hole, Enter, then Place
        body = page.find_element(By.TAG_NAME, "body")
        for _ in range(12):
            body.send_keys(Keys.TAB)
            focused = page.switch_to.active_element
            if (focused.get_attribute("aria-label") or "").startswith("B1,"):
                break
        assert page.switch_to.active_element.get_attribute("aria-label").startswith("B1,")
        keys = [Keys.ARROW_DOWN] * 6 + [Keys.ARROW_RIGHT] * 3  # B1 → B7 → E7
        for key in keys:
            page.switch_to.active_element.send_keys(key)
        assert page.switch_to.active_element.get_attribute("aria-label").startswith("E7,")
        page.switch_to.active_element.send_keys(Keys.ENTER)
        wait_for(lambda: (page.switch_to.active_element.text or "").startswith("Place"),
                 "Place, focused")
        assert not scrolls_sideways(page)
        page.switch_to.active_element.send_keys(Keys.ENTER)
        wait_for(lambda: "black" in label_of(page, "E7"), "bob's peg at E7")
        assert export(database).splitlines()[-1] == "bob: E7"


def test_the_page_speaks_the_browsers_language(database: Path):
    """Latin America's Spanish, on a phone: the page speaks the browser's first language
    it knows (German, at a phone's size too: `test_controls.py`)."""
    with web_server(database) as (_server, base), chromium(PHONE, lang="es-419") as page:
        page.get(link(database, "bob", base))
        wait_for(lambda: "clavija roja" in label_of(page, "G6"), "the board in Spanish")
        assert "Te toca" in page.find_element(By.ID, "status").text
