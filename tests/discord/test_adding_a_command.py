"""Adding a command is its subject's command module (its value, words, help, listing and the
control a game's page offers), its handler, and catalogue lines (docs/architecture.md, "Where
to add a command"): a command declared so in this module is a slash command within Discord's
limits, is read when typed, is in the help, and is a control of the game's page, drawn and
used in a real browser — with nothing written anywhere else."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from support.browser import chromium, named, press, wait_for
from tests.discord import tree
from tests.discord.helpers import Commands, run, start_game
from tests.discord.people import ALICE, BOB, CHANNEL
from tests.discord.reading import only, words
from twixt.discord.slash import slash_groups
from twixt.language import message
from twixt.service import Reply, Request
from twixt.service import service as the_service
from twixt.service.commands import ForGame, handles, router
from twixt.service.commands.controls import Offered, playing
from twixt.service.commands.listing import PLAY, Kind, Listing, Option
from twixt.service.commands.words import People, ServiceCommand, Topic, Vocabulary, Words
from twixt.web import Signer, WebBoard

# --- the subject's command module -------------------------------------------------------

WORDS = Words(PLAY)


@dataclass(frozen=True)
class Shout(ServiceCommand):
    """Say something loud in the game's channel."""

    text: str


@WORDS.reads("shout", topic=Topic(message("Say it loud"), "shout TEXT", "shout well played"),
             listing=Listing(Shout, (Option("text", message("what to shout"), required=True,
                                            least=1, most=100),), controls=(
                 # on a game's page while it is played: a field for the text, and its button
                 Offered("shout", message("Shout"), playing,
                         lambda text, game_id: ForGame(game_id, Shout(text)),
                         takes_text=True),)))
def _shout(words: list[str], people: People) -> Shout:
    return Shout(" ".join(words))


# --- its handler ------------------------------------------------------------------------

class Shouting:
    """The subject's use case."""

    @handles(Shout)
    async def shout(self, request: Request, text: str) -> Reply:
        return Reply(f"{text.upper()}!", ephemeral=True)


@pytest.fixture
def shouting(client, monkeypatch):
    """The service and its vocabulary with the subject in them, as the router's `SUBJECTS`,
    the service's subjects and its table of who handles what (`HANDLED_BY`) would hold it."""
    monkeypatch.setattr(router, "VOCABULARY", Vocabulary(*router.SUBJECTS, WORDS))
    monkeypatch.setattr(client.service, "shouting", Shouting(), raising=False)
    monkeypatch.setitem(the_service.HANDLED_BY, "Shout", "shouting")


async def test_it_is_a_slash_command_within_discords_limits(client, monkeypatch, shouting):
    payload = await tree.synced(client, monkeypatch)
    twixt = next(group for group in payload if group["name"] == "twixt")
    shout = next(command for command in twixt["options"] if command["name"] == "shout")
    assert shout["description"] == "Say it loud"
    [text] = shout["options"]
    assert {key: text[key] for key in ("name", "description", "type", "required",
                                       "min_length", "max_length")} == {
        "name": "text", "description": "what to shout", "type": 3, "required": True,
        "min_length": 1, "max_length": 100}
    assert not shout.get("name_localizations")  # German, once the catalogue has its lines
    tree.assert_within_limits(payload)


async def test_it_answers_as_a_slash_command_and_when_typed(client, shouting):
    slash = Commands(slash_groups(client.service))
    assert words(only(await run(client, slash, "shout", ALICE, text="well played"))) == (
        "WELL PLAYED!")
    assert router.read_command("shout well played") == Shout("well played")


async def test_it_is_in_the_help(client, shouting):
    slash = Commands(slash_groups(client.service))
    helping = words(only(await run(client, slash, "help", ALICE, command="shout")))
    assert helping.startswith("**shout** — Say it loud.")
    assert "In Discord: `/twixt shout`" in helping and "`shout well played`" in helping
    overview = words(only(await run(client, slash, "help", ALICE)))
    assert "shout" in overview.split("**", 4)[-1]


def test_it_is_listed_with_its_options_and_its_control(shouting):
    [listed] = [command for command in router.VOCABULARY.listed if command.name == "shout"]
    assert listed.path == "/twixt shout" and listed.word == "shout"
    assert [(option.name, option.kind, option.required) for option in listed.options] == [
        ("text", Kind.TEXT, True)]
    assert listed.build(text="gg") == Shout("gg")
    assert router.VOCABULARY.controls["shout"].build("gg", 7) == ForGame(7, Shout("gg"))


def holds(page: WebDriver, text: str) -> bool:
    """Whether the page's shout field holds `text`: typed into it where it does not (the
    page may redraw its controls as its live view comes in)."""
    field = named(page, "Shout")
    if field is None or field.get_attribute("value") == text:
        return field is not None
    field.clear()
    field.send_keys(text)
    return False


async def test_it_is_a_control_of_the_games_page_drawn_and_used_in_a_browser(
        client, slash, shouting):
    await start_game(client, slash)
    game_id, seat = await client.service.seat_in_channel(CHANNEL, BOB.id)
    board = WebBoard(client.service, Signer(b"a-secret-for-the-tests-only-0123456789"))
    token = board.signer.token(game_id, seat)
    async with TestClient(TestServer(board.app())) as http:
        state = await (await http.get(f"/api/g/{token}/state")).json()
        assert {"name": "shout", "label": "Shout", "text": True,
                "example": ""} in state["controls"]

        def shout_on_the_page() -> str:
            with chromium() as page:
                page.get(str(http.make_url(f"/g/{token}")))
                wait_for(lambda: holds(page, "well played"), "the control's field, filled")
                press(lambda: page.find_element(By.CSS_SELECTOR,
                                                "form[data-control=shout] button"), "Shout")
                return str(wait_for(lambda: "WELL" in page.find_element(By.ID, "message").text
                                    and page.find_element(By.ID, "message").text,
                                    "what the handler said"))

        assert await asyncio.to_thread(shout_on_the_page) == "WELL PLAYED!"
