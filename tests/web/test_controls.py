"""Everything the service offers a player for the position, on the page and live: a takeback
request reaches the opponent's open page and is answered there, a draw is offered with a
move, a peg is removed in classic, and a note is kept — each through the controls of the
page's own view, in a real browser."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from support.browser import (
    chromium,
    export,
    have_browser,
    hole,
    label_of,
    link,
    named,
    press,
    table,
    wait_for,
    web_server,
)


@pytest.fixture(autouse=True)
def _browser_installed() -> None:
    assert have_browser(), ("the web tests need Debian's chromium and chromium-driver: "
                            "apt-get install chromium chromium-driver")


def status(page: WebDriver) -> str:
    return page.find_element(By.ID, "status").text


def said(page: WebDriver) -> str:
    return page.find_element(By.ID, "message").text


@contextmanager
def both_pages(database: Path, *lines: str) -> Iterator[tuple[WebDriver, WebDriver]]:
    """alice's and bob's pages of a 12×12 game played at the table as far as `lines`, once
    bob's shows alice's first peg."""
    table(database, "alice: challenge bob size 12 swap no", "bob: accept", "alice: G6", *lines)
    with web_server(database) as (_server, base), chromium() as alice, chromium() as bob:
        alice.get(link(database, "alice", base))
        bob.get(link(database, "bob", base))
        wait_for(lambda: "red" in label_of(bob, "G6"), "bob's board")
        yield alice, bob


def test_a_takeback_request_reaches_the_opponents_open_page_and_is_answered_there(
        tmp_path: Path):
    database = tmp_path / "twixt.db"
    with both_pages(database, "bob: E7") as (alice, bob):
        wait_for(lambda: "black" in label_of(bob, "E7"), "bob's board")
        wait_for(lambda: "Your move" in status(alice), "alice's board")
        bob.execute_script("window.notReloaded = true")
        # alice is to move: she has nothing to take back, and nobody asks her yet
        assert named(alice, "Ask to take back") is None and named(alice, "Accept") is None
        press(lambda: named(bob, "Ask to take back"), "bob asks to take E7 back")
        # alice's open page hears of it and answers it, bob's page sees the answer
        press(lambda: named(alice, "Accept takeback"), "the request on alice's page")
        wait_for(lambda: "empty" in label_of(bob, "E7"), "E7 taken back on bob's page")
        wait_for(lambda: "Your move" in status(bob), "bob to move again")
        assert bob.execute_script("return window.notReloaded") is True
        assert named(alice, "Accept takeback") is None
        assert "E7" not in export(database).split("takeback")[-1]


def test_a_declined_takeback_leaves_both_pages_as_they_were(tmp_path: Path):
    database = tmp_path / "twixt.db"
    with both_pages(database) as (alice, bob):
        press(lambda: named(alice, "Ask to take back"), "alice asks")
        wait_for(lambda: "asks to take back" in status(bob), "the request said on bob's page")
        press(lambda: named(bob, "Decline takeback"), "bob declines")
        wait_for(lambda: "asks to take back" not in status(alice), "the request gone")
        assert "red" in label_of(alice, "G6") and named(bob, "Accept takeback") is None


def test_a_draw_offered_with_a_move_reaches_the_opponent_live(tmp_path: Path):
    database = tmp_path / "twixt.db"
    with both_pages(database) as (alice, bob):
        press(lambda: hole(bob, "E7"), "E7")
        press(lambda: named(bob, "Place and offer draw"), "Place and offer draw")
        press(lambda: named(alice, "Accept draw"), "the offer on alice's page")
        wait_for(lambda: "Drawn (agreement)" in status(bob), "the draw on bob's page")
        assert export(database).splitlines()[-2:] == ["bob: E7; offer draw", "alice: accept draw"]


def test_a_peg_is_removed_in_classic_and_a_note_kept_from_the_page(tmp_path: Path):
    database = tmp_path / "twixt.db"
    table(database, "alice: challenge bob size 12 swap no rules classic", "bob: accept",
          "alice: G6", "bob: E7")
    with web_server(database) as (_server, base), chromium() as alice:
        alice.get(link(database, "alice", base))
        wait_for(lambda: "black" in label_of(alice, "E7"), "alice's board")
        field = wait_for(lambda: named(alice, "Remove"), "the removal")
        field.send_keys("remove G6; H8")  # type: ignore[attr-defined]
        press(lambda: alice.find_element(By.CSS_SELECTOR, "form[data-control=remove] button"),
              "Remove")
        wait_for(lambda: "red" in label_of(alice, "H8") and "empty" in label_of(alice, "G6"),
                 "G6 out, H8 in")
        note = wait_for(lambda: named(alice, "Keep a note"), "the note's field")
        note.send_keys("E7 blocks nothing yet")  # type: ignore[attr-defined]
        press(lambda: alice.find_element(By.CSS_SELECTOR, "form[data-control=note] button"),
              "Keep a note")
        wait_for(lambda: "Note 1 kept" in said(alice), "the note kept")
        press(lambda: named(alice, "Your notes"), "Your notes")
        wait_for(lambda: "E7 blocks nothing yet" in said(alice), "the note shown")
        assert "blocks" not in export(database)
