"""The web board from Discord: `/twixt board` gives the asker their own link (a seat's, or a
watcher's) with the button that launches the Activity, and the button answers with
LAUNCH_ACTIVITY (interaction response type 12) over the fake Discord's HTTP API."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from support.fake_discord import BOT_ID, CLIENT_SECRET, FakeDiscord
from tests.discord.helpers import Commands, run, start_game
from tests.discord.people import ALICE, CAROL, CHANNEL, GUILD
from twixt.discord.activity import LAUNCH_ID, launch
from twixt.discord.app import TwixtBot
from twixt.web import Signer, WebBoard, WebServer
from twixt.web.activity import ActivityAuth

SECRET = b"a-secret-for-the-tests-only-0123456789"


@pytest.fixture
def with_web(client: TwixtBot, fake_discord: FakeDiscord) -> WebBoard:
    """The client serving a web board with the Activity (not listening: links only)."""
    board = WebBoard(client.service, Signer(SECRET),
                     activity=ActivityAuth(BOT_ID, CLIENT_SECRET, "token",
                                           api=fake_discord.url + "/api/v10"))
    client.board = WebServer(board, "127.0.0.1", 0)
    return board


def followup(mock: Any) -> dict[str, Any]:
    [call] = mock.followup.send.await_args_list
    return {"text": call.args[0], **call.kwargs}


async def test_twixt_board_gives_a_seat_link_and_the_launch_button(
        client: TwixtBot, slash: Commands, with_web: WebBoard):
    await start_game(client, slash)
    sent = followup(await run(client, slash, "board", ALICE))
    assert sent["ephemeral"] is True
    opening, launching = sent["view"].children
    granted = with_web.signer.check(opening.url.rsplit("/g/", 1)[1])
    assert granted is not None and granted.seat == 0
    assert launching.custom_id == LAUNCH_ID


async def test_an_onlooker_gets_a_link_to_watch(client: TwixtBot, slash: Commands,
                                               with_web: WebBoard):
    await start_game(client, slash)
    sent = followup(await run(client, slash, "board", CAROL))
    granted = with_web.signer.check(sent["view"].children[0].url.rsplit("/g/", 1)[1])
    assert granted is not None and granted.seat is None


async def test_without_a_web_board_no_link_follows(client: TwixtBot, slash: Commands):
    await start_game(client, slash)
    mock = await run(client, slash, "board", ALICE)
    assert mock.followup.send.await_count == 0


async def test_the_launch_button_answers_launch_activity(
        client: TwixtBot, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch):
    """A real interaction, answered through discord.py's HTTP client at the fake Discord."""
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.url + "/api/v10")
    me = await client.http.static_login("token")
    client._connection.user = discord.ClientUser(state=client._connection, data=me)
    try:
        interaction = discord.Interaction(data={
            "id": "1", "application_id": BOT_ID, "type": 3, "token": "interaction-token",
            "version": 1, "channel_id": str(CHANNEL), "guild_id": str(GUILD),
            "locale": "en-US", "app_permissions": "0", "entitlements": [],
            "authorizing_integration_owners": {}, "attachment_size_limit": 1,
            "user": {"id": str(ALICE.id), "username": "alice", "discriminator": "0",
                     "avatar": None},
            "data": {"custom_id": LAUNCH_ID, "component_type": 2}},
            state=client._connection)
        await launch(interaction)
    finally:
        await client.http.close()
    assert fake_discord.callbacks == [12]


async def test_the_global_sync_keeps_the_entry_point_that_a_plain_overwrite_loses(
        client: TwixtBot, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch):
    # what discord.py's tree.sync sends (the tree's commands alone) is refused
    async with aiohttp.ClientSession() as session, session.put(
            f"{fake_discord.url}/api/v10/applications/{BOT_ID}/commands",
            json=[{"name": "twixt", "description": "TwixT", "type": 1}]) as refused:
        assert refused.status == 400 and (await refused.json())["code"] == 50240
    # the client's own sync at its start keeps it
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.url + "/api/v10")
    await client.http.static_login("token")
    client._connection.application_id = int(BOT_ID)
    try:
        await client.setup_hook()
    finally:
        client.scheduler.stop()
        await client.http.close()
    kinds = {command["name"]: command["type"] for command in fake_discord.commands}
    assert kinds.pop("launch") == 4
    assert "twixt" in kinds and set(kinds.values()) <= {1, 2, 3}
    assert fake_discord.refused_overwrites == 1  # the one above
