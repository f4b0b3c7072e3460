"""The fake Discord answers as Discord's documentation says, where the bot's design rests on
it: a "thinking" defer filled in by the first follow-up, per-route rate limits with their
headers and 429 with `Retry-After`, a command sync checked against the app's install
types, the limits on components' text and on content. Requests are made as raw HTTP (what
Discord receives), and through discord.py's own HTTP client where its handling matters."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import discord.http
import pytest

from support.fake_discord import BOT_ID, FakeDiscord, Interaction

ALICE = 101
BOT = {"Authorization": "Bot token"}


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    fake.add_user(ALICE, "alice")
    yield fake
    await fake.stop()


@pytest.fixture
async def http(server: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(server.url + "/api/v10/", headers=BOT) as session:
        yield session


def pending(server: FakeDiscord) -> Interaction:
    """An interaction sent to the bot in Alice's DM with it, not yet answered."""
    channel = server.bot_dm(ALICE)
    record = Interaction(1, "token-1", channel, 1, server.now(), user_id=ALICE,
                         installer=ALICE)
    server.interactions[record.id] = record
    return record


async def status(http: aiohttp.ClientSession, method: str, path: str,
                 body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with http.request(method, path, json=body) as response:
        return response.status, (await response.json() if response.status != 204 else {})


async def test_the_first_followup_after_thinking_fills_in_the_deferred_message(server, http):
    asked = pending(server)
    assert (await status(http, "POST", "interactions/1/token-1/callback",
                         {"type": 5, "data": {"flags": 0}}))[0] == 200
    # asked for privately, the answer takes the public "thinking" message's place
    answered, _ = await status(http, "POST", f"webhooks/{BOT_ID}/token-1",
                               {"content": "private?", "flags": 64})
    assert answered == 200
    [filled] = asked.answers
    assert (filled.via, filled.ephemeral) == ("thinking", False)
    # the next follow-up is a message of its own, as asked
    await status(http, "POST", f"webhooks/{BOT_ID}/token-1", {"content": "2", "flags": 64})
    assert [(a.via, a.ephemeral) for a in asked.answers[1:]] == [("followup", True)]


async def test_editing_the_original_response_fills_in_the_thinking_message(server, http):
    asked = pending(server)
    await status(http, "POST", "interactions/1/token-1/callback", {"type": 5, "data": {}})
    edited, body = await status(http, "PATCH",
                                f"webhooks/{BOT_ID}/token-1/messages/@original",
                                {"content": "the board"})
    assert edited == 200 and body["content"] == "the board"
    assert [(a.via, a.ephemeral) for a in asked.answers] == [("thinking", False)]
    assert asked.followups == 0  # an edit is not a follow-up


async def test_a_deleted_thinking_message_leaves_the_followup_its_own_flags(server, http):
    asked = pending(server)
    await status(http, "POST", "interactions/1/token-1/callback", {"type": 5, "data": {}})
    deleted, _ = await status(http, "DELETE", f"webhooks/{BOT_ID}/token-1/messages/@original",
                              {})
    assert deleted == 204
    await status(http, "POST", f"webhooks/{BOT_ID}/token-1", {"content": "x", "flags": 64})
    assert [(a.via, a.ephemeral) for a in asked.answers] == [("followup", True)]


async def test_a_burst_is_answered_429_with_retry_after(server, http):
    channel = server.bot_dm(ALICE)
    limit, _window = server.pace
    answers = []
    for _ in range(limit + 1):
        async with http.post(f"channels/{channel}/messages", json={"content": "hi"}) as got:
            answers.append((got.status, got.headers.get("X-RateLimit-Remaining"),
                            got.headers.get("Retry-After"), await got.json()))
    assert [a[0] for a in answers] == [200] * limit + [429]
    assert [a[1] for a in answers[:limit]] == [str(n) for n in range(limit - 1, -1, -1)]
    refused = answers[-1]
    assert refused[2] is not None and float(refused[2]) > 0
    assert refused[3]["retry_after"] > 0 and refused[3]["global"] is False
    assert (429, 0, "POST", f"/api/v10/channels/{channel}/messages") in server.invalid


async def test_discord_py_reads_the_headers_and_never_meets_a_429(server, monkeypatch):
    monkeypatch.setattr(discord.http.Route, "BASE", server.url + "/api/v10")
    channel = server.bot_dm(ALICE)
    client = discord.http.HTTPClient(discord.utils.MISSING)
    await client.static_login("token")
    try:
        limit, _window = server.pace
        for n in range(2 * limit + 1):
            with discord.http.handle_message_parameters(content=str(n)) as params:
                await client.send_message(channel, params=params)
    finally:
        await client.close()
    assert len(server.direct_messages(ALICE)) == 2 * limit + 1
    assert server.invalid == []


@pytest.mark.parametrize("types, answered", [([0], 200), ([0, 1], 400)])
async def test_a_sync_naming_an_install_type_not_enabled_is_refused(server, http, types,
                                                                    answered):
    server.install_types = {0}  # the portal's User Install left unticked
    payload = [{**server.commands[0], "integration_types": [0]},
               {"name": "twixt", "description": "TwixT", "integration_types": types,
                "contexts": [0]}]
    code, body = await status(http, "PUT", f"applications/{BOT_ID}/commands", payload)
    assert code == answered
    if answered == 400:
        assert body["code"] == 50035 and "install types" in body["message"]


def _button(label: str) -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 2, "style": 1, "label": label,
                                       "custom_id": "b"}]}


def _select(placeholder: str = "", label: str = "x") -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 3, "custom_id": "s",
                                       "placeholder": placeholder,
                                       "options": [{"label": label, "value": "v"}]}]}


@pytest.mark.parametrize("data, fits", [
    ({"content": "x" * 2000}, True), ({"content": "x" * 2001}, False),
    ({"content": "b", "components": [_button("x" * 80)]}, True),
    ({"content": "b", "components": [_button("x" * 81)]}, False),
    ({"content": "s", "components": [_select(placeholder="x" * 150)]}, True),
    ({"content": "s", "components": [_select(placeholder="x" * 151)]}, False),
    ({"content": "s", "components": [_select(label="x" * 100)]}, True),
    ({"content": "s", "components": [_select(label="x" * 101)]}, False),
], ids=["content", "content+1", "label", "label+1", "placeholder", "placeholder+1",
        "option", "option+1"])
async def test_discords_limits_on_text(server, http, data, fits):
    pending(server)
    code, body = await status(http, "POST", "interactions/1/token-1/callback",
                              {"type": 4, "data": data})
    assert (code, body.get("code")) == ((200, None) if fits else (400, 50035))
