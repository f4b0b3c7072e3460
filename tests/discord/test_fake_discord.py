"""The fake Discord answers as Discord's documentation says, where the bot's design rests on
it: a "thinking" defer filled in by the first follow-up, per-route rate limits with their
headers and 429 with `Retry-After`, a command sync checked against the app's install
types, the limits on components' text and on content. Requests are made as raw HTTP (what
Discord receives), and through discord.py's own HTTP client where its handling matters."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import discord.http
import pytest

from support.fake_discord import BOT_ID, FakeDiscord, Interaction

ALICE, BOB_ID = 101, 102
BOT = {"Authorization": "Bot token"}


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    fake.add_user(ALICE, "alice")
    fake.add_user(BOB_ID, "bob")
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


V2 = 1 << 15


def _board(text: str = "alice to move", *, rows: int = 1, accent: int = 0xD0262C,
           picture: str = "attachment://board.png") -> dict[str, Any]:
    """A Components V2 board: one container of text, picture and `rows` rows of a button."""
    return {"type": 17, "accent_color": accent, "components": [
        {"type": 10, "content": text},
        {"type": 12, "items": [{"media": {"url": picture}}]},
        *(_button(f"b{n}") | {"components": [{"type": 2, "style": 1, "label": "b",
                                               "custom_id": f"b{n}"}]}
          for n in range(rows))]}


async def multipart(http: aiohttp.ClientSession, method: str, path: str, body: dict[str, Any],
                    files: dict[str, bytes]) -> tuple[int, dict[str, Any]]:
    """A request with files, as discord.py sends one (`payload_json` and the files)."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    for at, (name, data) in enumerate(files.items()):
        form.add_field(f"files[{at}]", data, filename=name)
    async with http.request(method, path, data=form) as response:
        return response.status, await response.json()


@pytest.mark.parametrize("data, fits", [
    ({"flags": V2, "components": [_board()]}, True),
    ({"flags": V2, "content": "hi", "components": [_board()]}, False),
    ({"flags": V2, "embeds": [{"title": "x"}], "components": [_board()]}, False),
    ({"components": [_board()]}, False),  # a container needs the flag
    # a container, its text, its gallery and rows of one button: 3 + 2 × 18 = 39, then 41
    ({"flags": V2, "components": [_board(rows=18)]}, True),
    ({"flags": V2, "components": [_board(rows=19)]}, False),
    ({"flags": V2, "components": [_board("x" * 4000)]}, True),
    ({"flags": V2, "components": [_board("x" * 4001)]}, False),
    ({"flags": V2, "components": [_board(picture="attachment://other.png")]}, False),
    ({"flags": V2, "components": [_board(accent=0x1000000)]}, False),
    ({"flags": V2, "components": [{"type": 17, "components": [_board()]}]}, False),
], ids=["board", "content", "embeds", "no-flag", "39", "41", "text", "text+1",
        "unknown-file", "accent", "nested-container"])
async def test_discords_rules_for_components_v2(server, http, data, fits):
    pending(server)
    code, body = await multipart(http, "POST", "interactions/1/token-1/callback",
                                 {"type": 4, "data": data}, {"board.png": b"png"})
    assert (code, body.get("code")) == ((200, None) if fits else (400, 50035)), body


async def test_update_message_edits_the_message_pressed_and_keeps_its_flag(server, http):
    channel = server.bot_dm(ALICE)
    posted, board = await multipart(http, "POST", f"channels/{channel}/messages", {
        "flags": V2, "components": [_board(f"<@{ALICE}> your move")],
        "allowed_mentions": {"users": [str(ALICE)]}}, {"board.png": b"png"})
    assert posted == 200
    [sent] = server.direct_messages(ALICE)
    assert sent.notified == [ALICE] and sent.components_v2
    pressed = Interaction(1, "token-1", channel, 1, server.now(), user_id=ALICE,
                          installer=ALICE, payload={"message": board})
    server.interactions[1] = pressed
    # a classic message cannot take a Components V2 message's place: the flag stays
    refused, body = await status(http, "POST", "interactions/1/token-1/callback",
                                 {"type": 7, "data": {"content": "plain", "flags": 0}})
    assert (refused, body["code"]) == (400, 50035) and sent.edits == 0
    pressed.answered = False
    updated, body = await status(http, "POST", "interactions/1/token-1/callback", {
        "type": 7, "data": {"components": [_board("bob moved")], "attachments": [
            {"id": sent.data["attachments"][0]["id"]}]}})
    assert updated == 200 and body["resource"]["message"]["id"] == board["id"]
    assert server.direct_messages(ALICE) == [sent]  # no new message
    assert (sent.edits, sent.content, sent.components_v2) == (1, "bob moved", True)
    assert sent.notified == [ALICE]  # told once, when it was sent: an edit tells no one
    assert pressed.answers == [sent]


async def test_a_token_edits_its_own_messages_for_15_minutes(server, http):
    asked = pending(server)
    await multipart(http, "POST", "interactions/1/token-1/callback",
                    {"type": 4, "data": {"flags": V2, "components": [_board()]}},
                    {"board.png": b"png"})
    [board] = asked.answers
    path = f"webhooks/{BOT_ID}/token-1/messages/{board.id}"
    edited, _ = await multipart(http, "PATCH", path, {"components": [_board("later")]},
                                {"board.png": b"png2"})
    assert edited == 200 and (board.content, board.files["board.png"]) == ("later", b"png2")
    unknown, body = await status(http, "PATCH", f"webhooks/{BOT_ID}/token-1/messages/5",
                                 {"components": []})
    assert (unknown, body["code"]) == (404, 10008)
    server.later(15 * 60 + 1)
    expired, body = await status(http, "PATCH", path, {"components": [_board("too late")]})
    assert (expired, body["code"]) == (401, 50027) and board.content == "later"


async def test_the_bot_edits_its_posts_only_where_it_may_post(server, http):
    dm = server.bot_dm(ALICE)
    await status(http, "POST", f"channels/{dm}/messages", {"content": "first"})
    [posted] = server.direct_messages(ALICE)
    edited, _ = await status(http, "PATCH", f"channels/{dm}/messages/{posted.id}",
                             {"content": "second"})
    assert edited == 200 and (posted.content, posted.edits) == ("second", 1)
    group = server.group_dm(ALICE, BOB_ID)
    refused, body = await status(http, "PATCH", f"channels/{group}/messages/{posted.id}",
                                 {"content": "third"})
    assert (refused, body["code"]) == (403, 50001) and posted.content == "second"


@pytest.mark.parametrize("how", ["edit", "followup"])
async def test_a_board_fills_in_the_thinking_message_with_its_flag(server, http, how):
    asked = pending(server)
    await status(http, "POST", "interactions/1/token-1/callback", {"type": 5, "data": {}})
    method, path = (("PATCH", f"webhooks/{BOT_ID}/token-1/messages/@original") if how == "edit"
                    else ("POST", f"webhooks/{BOT_ID}/token-1"))
    code, _ = await multipart(http, method, path, {"flags": V2, "components": [_board()]},
                              {"board.png": b"png"})
    [filled] = asked.answers
    assert code == 200 and (filled.via, filled.components_v2) == ("thinking", True)
