"""The Activity's page in headless Chromium, inside a fake Discord client: the Embedded App
SDK's handshake, the OAuth2 code sent to our server and exchanged at the fake Discord, the
access token checked against Discord and the Activity instance's participants, and then a
move tapped on the board lands in storage.

The fake client (`discord_client/`) is served at http://localhost:3333, the origin of
Discord's local development client, which the SDK accepts as its parent."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from aiohttp import web
from selenium.webdriver.common.by import By

from support.browser import (
    chromium,
    export,
    hole,
    label_of,
    named,
    press,
    table,
    wait_for,
    web_server,
)
from support.fake_discord import BOT_ID, CLIENT_SECRET, FakeDiscord
from support.processes import HANG
from tests.web.test_activity import INSTANCE, person, running_in_den

CLIENT = Path(__file__).with_name("discord_client")
#: the development client's port, which the SDK accepts as Discord's
CLIENT_PORT = 3333


@pytest.fixture
async def discord_client() -> AsyncIterator[str]:
    async def page(request: web.Request) -> web.FileResponse:
        return web.FileResponse(CLIENT / "client.html")

    async def script(request: web.Request) -> web.FileResponse:
        return web.FileResponse(CLIENT / "client.js")

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/client.js", script)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", CLIENT_PORT).start()
    yield f"http://localhost:{CLIENT_PORT}/"
    await runner.cleanup()


async def test_the_activity_signs_in_through_the_sdk_and_plays(
        tmp_path: Path, fake_discord: FakeDiscord, discord_client: str):
    database = tmp_path / "twixt.db"
    await asyncio.to_thread(table, database, "alice: challenge bob size 12 swap no",
                            "bob: accept", "alice: G6")
    running_in_den(fake_discord, "alice", "bob")
    bob = person("bob")
    fake_discord.codes["code-bob"] = bob
    env = {"DISCORD_CLIENT_ID": BOT_ID, "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
           "DISCORD_TOKEN": "token", "TWIXT_DISCORD_API": fake_discord.url + "/api/v10"}
    with web_server(database, **env) as (_server, base):
        board = base + "/?" + urlencode({"frame_id": "f-1", "instance_id": INSTANCE,
                                         "platform": "desktop", "channel_id": "1"})
        url = discord_client + "?" + urlencode({
            "board": board, "code": "code-bob", "user": "bob", "user_id": bob["id"],
            "client_id": BOT_ID})

        def play() -> list[str]:
            with chromium() as page:
                page.get(url)
                page.switch_to.frame(page.find_element(By.ID, "activity"))
                wait_for(lambda: "red" in label_of(page, "G6"), "the board in the Activity")
                assert "Your move" in page.find_element(By.ID, "status").text
                press(lambda: hole(page, "E7"), "E7")
                press(lambda: named(page, "Place"), "Place")
                wait_for(lambda: "black" in label_of(page, "E7"), "bob's peg at E7")
                page.switch_to.default_content()
                said: list[str] = page.execute_script("return window.saidBySdk")
                return said

        said = await asyncio.wait_for(asyncio.to_thread(play), HANG)
    assert said[:3] == ["HANDSHAKE", "AUTHORIZE", "AUTHENTICATE"]
    assert fake_discord.codes == {}  # the code was exchanged, once
    assert (await asyncio.to_thread(export, database)).splitlines()[-1] == "bob: E7"
