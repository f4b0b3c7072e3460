"""Everything the service offers a player for the position, on the page and live, in a real
browser: a whole game won by connection and stepped through, a game from two pages with a
takeback request answered live, a draw offered with a move, a refusal gone once the position
moves on, a removal in classic, a note typed through a live change, the player's other
games, and a Double TwixT game with Privilege — alice at a desktop in English (1280×800),
her opponent on a phone in German (390×844).

One `twixt web` and the two browsers serve the whole module (each test plays in a channel
of its own): starting them is most of a browser test's cost.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from support.browser import (
    DESKTOP,
    PHONE,
    chromium,
    export,
    fill,
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

pytestmark = pytest.mark.usefixtures("browser_installed")


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("controls") / "twixt.db"
    table(path, "alice: help")  # the database made before the server opens it
    return path


@pytest.fixture(scope="module")
def base(database: Path) -> Iterator[str]:
    with web_server(database) as (_server, url):
        yield url


@pytest.fixture(scope="module")
def desktop() -> Iterator[WebDriver]:
    with chromium(DESKTOP, lang="en") as page:
        yield page


@pytest.fixture(scope="module")
def phone() -> Iterator[WebDriver]:
    with chromium(PHONE, lang="de") as page:
        yield page


def status(page: WebDriver) -> str:
    return page.find_element(By.ID, "status").text


def said(page: WebDriver) -> str:
    return page.find_element(By.ID, "message").text


def opened(page: WebDriver, database: Path, base: str, player: str, channel: str) -> None:
    """`player`'s page of the channel's game, once its board is drawn."""
    page.get(link(database, player, base, channel=channel))
    wait_for(lambda: page.find_elements(By.CSS_SELECTOR, "[data-hole]"), f"{player}'s board")


def place(page: WebDriver, at: str, confirm: str) -> None:
    """Tap the hole `at`, then the control whose name begins with `confirm`."""
    press(lambda: hole(page, at), at)
    press(lambda: named(page, confirm), confirm)


def test_a_whole_game_won_by_connection_and_stepped_through(database: Path, base: str,
                                                           desktop: WebDriver,
                                                           phone: WebDriver):
    table(database, "alice: challenge bob size 5 swap no", "bob: accept", channel="whole")
    opened(desktop, database, base, "alice", "whole")
    opened(phone, database, base, "bob", "whole")
    for page, move, colour, yours in ((desktop, "C1", "rot", "Your move"),
                                      (phone, "A2", "black", "Du bist am Zug"),
                                      (desktop, "D3", "rot", "Your move"),
                                      (phone, "A4", "black", "Du bist am Zug"),
                                      (desktop, "C5", "rot", "Your move")):
        wait_for(lambda page=page, yours=yours: yours in status(page), f"{move}'s turn")
        place(page, move, "Place" if page is desktop else "Setzen")
        other = phone if page is desktop else desktop
        wait_for(lambda other=other, move=move, colour=colour: colour in label_of(other, move),
                 f"{move} on the other page")
    wait_for(lambda: "Red wins (connection)" in status(desktop), "the result")
    wait_for(lambda: "Rot gewinnt" in status(phone), "the result in German")
    record = export(database, "whole")
    assert "alice: D3 link C1" in record and "alice: C5 link D3" in record
    # a finished game, stepped through: the start, then the first peg
    press(lambda: named(desktop, "First"), "First")
    wait_for(lambda: "empty" in label_of(desktop, "C1"), "the empty board")
    press(lambda: named(desktop, "Forward"), "Forward")
    wait_for(lambda: "red" in label_of(desktop, "C1") and "empty" in label_of(desktop, "A2"),
             "the first peg alone")


def test_a_game_from_two_pages_with_a_takeback_answered_live(database: Path, base: str,
                                                             desktop: WebDriver,
                                                             phone: WebDriver):
    table(database, "alice: challenge bob size 12 swap no", "bob: accept", "alice: G6",
          channel="takeback")
    opened(desktop, database, base, "alice", "takeback")
    opened(phone, database, base, "bob", "takeback")
    assert "rot" in label_of(phone, "G6") and not scrolls_sideways(phone)
    place(phone, "E7", "Setzen")
    wait_for(lambda: "black" in label_of(desktop, "E7"), "bob's peg on alice's page")
    # Escape cancels a chosen peg with the focus on Place
    press(lambda: hole(desktop, "J9"), "J9")
    fill(lambda: named(desktop, "Place J9"), Keys.ESCAPE, "Escape on Place")
    wait_for(lambda: named(desktop, "Place") is None, "the choice cancelled")
    phone.execute_script("window.notReloaded = true")
    assert named(desktop, "Ask to take back") is None  # alice to move: nothing to take back
    press(lambda: named(phone, "Zurücknahme erbitten"), "bob asks to take E7 back")
    wait_for(lambda: "bob asks to take back" in status(desktop), "the request on alice's page")
    press(lambda: named(desktop, "Accept takeback"), "alice accepts")
    wait_for(lambda: "schwarz" not in label_of(phone, "E7"), "E7 taken back on bob's page")
    wait_for(lambda: "Du bist am Zug" in status(phone), "bob to move again")
    assert phone.execute_script("return window.notReloaded") is True
    place(phone, "F8", "Setzen")
    wait_for(lambda: "Your move" in status(desktop), "alice to move")
    press(lambda: named(desktop, "Resign"), "Resign")
    press(lambda: named(desktop, "Resign"), "Resign, confirmed")
    wait_for(lambda: "Black wins (resignation)" in status(desktop), "the end on alice's page")
    wait_for(lambda: "Schwarz gewinnt (Aufgabe)" in status(phone), "the end on bob's page")
    assert "Zuletzt: alice: gibt auf" in status(phone)  # move text in German too
    # the record holds the game as played after the takeback
    assert export(database, "takeback").splitlines()[-3:] == [
        "alice: G6", "bob: F8", "alice: resign"]


def test_a_draw_offered_with_a_move_and_a_refusal_gone_once_the_position_moves(
        database: Path, base: str, desktop: WebDriver, phone: WebDriver):
    table(database, "alice: challenge bob size 12 swap no", "bob: accept", "alice: G6",
          channel="draw")
    opened(desktop, database, base, "alice", "draw")
    opened(phone, database, base, "bob", "draw")
    press(lambda: hole(desktop, "J9"), "J9 out of turn")
    wait_for(lambda: said(desktop) == "it is bob's turn", "the refusal")
    place(phone, "E7", "Setzen und Remis anbieten")
    wait_for(lambda: said(desktop) == "", "the refusal gone with bob's move")
    wait_for(lambda: "Black offers a draw" in status(desktop), "the offer on alice's page")
    assert "Zuletzt: bob: E7; bietet Remis an" in status(phone)
    press(lambda: named(desktop, "Accept draw"), "alice accepts")
    wait_for(lambda: "Remis (Einigung)" in status(phone), "the draw on bob's page")
    assert export(database, "draw").splitlines()[-2:] == ["bob: E7; offer draw",
                                                          "alice: accept draw"]


def test_a_removal_in_classic_a_note_and_the_players_other_games(
        database: Path, base: str, desktop: WebDriver):
    table(database, "carol: challenge alice size 12", "alice: accept", channel="elsewhere")
    table(database, "alice: challenge bob size 12 swap no rules classic", "bob: accept",
          "alice: G6", "bob: E7", channel="classic")
    opened(desktop, database, base, "alice", "classic")
    # the empty field shows what a removal looks like
    assert wait_for(lambda: named(desktop, "Remove").get_attribute("placeholder"),  # type: ignore[union-attr]
                    "the removal's field") == "remove G6; H8"
    fill(lambda: named(desktop, "Remove"), "remove G6; H8", "the removal")
    press(lambda: desktop.find_element(By.CSS_SELECTOR, "form[data-control=remove] button"),
          "Remove")
    wait_for(lambda: "red" in label_of(desktop, "H8") and "empty" in label_of(desktop, "G6"),
             "G6 out, H8 in")
    fill(lambda: named(desktop, "Keep a note"), "E7 blocks nothing yet", "the note's field")
    # bob moves at the table meanwhile: the page is redrawn, and keeps what alice typed
    table(database, "bob: J3", channel="classic")
    wait_for(lambda: "black" in label_of(desktop, "J3"), "bob's move on alice's page")
    press(lambda: desktop.find_element(By.CSS_SELECTOR, "form[data-control=note] button"),
          "Keep a note")
    wait_for(lambda: "Note 1 kept" in said(desktop), "the note kept")
    press(lambda: named(desktop, "Your notes"), "Your notes")
    wait_for(lambda: "E7 blocks nothing yet" in said(desktop), "the note shown")
    assert "blocks" not in export(database, "classic")
    # the game with carol, listed with a link of its own, opens alice's seat in it
    press(lambda: desktop.find_element(By.PARTIAL_LINK_TEXT, "vs carol"), "the other game")
    wait_for(lambda: "carol to move" in status(desktop), "the game with carol")


def test_double_twixt_with_privilege_from_the_pages(database: Path, base: str,
                                                    desktop: WebDriver, phone: WebDriver):
    table(database, "carol: team dave vs erin frank size 12", "dave: accept", "erin: accept",
          "frank: accept", channel="double")
    opened(desktop, database, base, "carol", "double")
    opened(phone, database, base, "dave", "double")
    players = desktop.find_element(By.ID, "players").text
    assert all(name in players for name in ("carol", "dave", "erin", "frank"))
    place(desktop, "G6", "Place")
    press(lambda: named(desktop, "Privilege"), "carol calls Privilege")
    # her partner moves next, on his page, and sees her peg in their colour
    wait_for(lambda: "Du bist am Zug" in status(phone), "dave to move")
    assert "rot" in label_of(phone, "G6")
    place(phone, "F9", "Setzen")
    wait_for(lambda: "red" in label_of(desktop, "F9"), "dave's peg on carol's page")
    assert export(database, "double").splitlines()[-3:] == [
        "carol: G6", "carol: privilege", "dave: F9"]
