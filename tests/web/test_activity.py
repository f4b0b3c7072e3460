"""The board as a Discord Activity, against the Discord-shaped fake server: the OAuth2 code
exchanged at our server, and every request checked against Discord (the access token's
user) and the Activity instance's participants before it may read or move; then the same
inside a real `twixt run` process, whose command sync keeps the Activity's entry point."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from support.fake_discord import BOT_ID, CLIENT_SECRET, ENTRY_POINT, FakeDiscord
from support.processes import HANG, TWIXT, environment, until
from tests.web.browser import table
from twixt.storage import SqliteStorage
from twixt.terminal import name_id

INSTANCE = "i-1234"


def person(name: str, locale: str = "en-US") -> dict[str, Any]:
    return {"id": str(name_id(name)), "username": name, "discriminator": "0",
            "global_name": None, "avatar": None, "locale": locale}


def running_in_den(fake: FakeDiscord, *names: str) -> None:
    """An Activity instance in channel `den` (the terminal's name for it), with `names` in."""
    fake.instances[INSTANCE] = {"users": [str(name_id(n)) for n in names], "location": {
        "id": "gc-1", "kind": "gc", "channel_id": str(name_id("den")), "guild_id": "1"}}


async def signed_in(http: TestClient, fake: FakeDiscord, user: dict[str, Any]) -> str:
    fake.codes["code-" + user["username"]] = user
    answer = await http.post("/api/activity/token", json={"code": "code-" + user["username"]})
    assert answer.status == 200
    token: str = (await answer.json())["access_token"]
    return token


async def moves(storage: SqliteStorage) -> list[str]:
    stored = await storage.active_game(name_id("den"))
    assert stored is not None
    return [turn.command for turn in (await storage.load_game(stored.id)).turns]


async def test_a_participant_signs_in_reads_and_moves_in_their_seat(
        http: TestClient, fake_discord: FakeDiscord, storage: SqliteStorage):
    running_in_den(fake_discord, "alice", "bob")
    token = await signed_in(http, fake_discord, person("bob", "de"))
    auth = {"Authorization": f"Bearer {token}"}
    state = await (await http.get(f"/api/a/{INSTANCE}/state", headers=auth)).json()
    assert (state["you"], state["pegs"]) == (1, [["G6", "red"]])
    moved = await http.post(f"/api/a/{INSTANCE}/act", headers=auth,
                            json={"action": "place", "hole": "E7"})
    assert moved.status == 200
    again = await http.post(f"/api/a/{INSTANCE}/act", headers=auth,
                            json={"action": "place", "hole": "E9"})
    # bob's Discord speaks German: so does the refusal
    assert (again.status, (await again.json())["error"]) == (409, "alice ist am Zug")
    assert await moves(storage) == ["G6", "E7"]


async def test_a_code_is_exchanged_once_and_a_wrong_one_not_at_all(
        http: TestClient, fake_discord: FakeDiscord):
    fake_discord.codes["good"] = person("bob")
    assert (await http.post("/api/activity/token", json={"code": "good"})).status == 200
    for body in ({"code": "good"}, {"code": "made-up"}, {"code": ""}, {}, "code"):
        refused = await http.post("/api/activity/token", json=body)
        assert refused.status in (400, 403)
        assert "access_token" not in await refused.text()


@pytest.mark.parametrize("who", ["no token", "unknown token", "not in the instance",
                                 "unknown instance", "a bot token"])
async def test_who_discord_does_not_vouch_for_is_refused(
        http: TestClient, fake_discord: FakeDiscord, storage: SqliteStorage, who: str):
    running_in_den(fake_discord, "alice")  # bob is not in it
    bob = await signed_in(http, fake_discord, person("bob"))
    alice = await signed_in(http, fake_discord, person("alice"))
    headers, instance = {
        "no token": ({}, INSTANCE),
        "unknown token": ({"Authorization": "Bearer made-up"}, INSTANCE),
        "not in the instance": ({"Authorization": f"Bearer {bob}"}, INSTANCE),
        "unknown instance": ({"Authorization": f"Bearer {alice}"}, "i-9999"),
        "a bot token": ({"Authorization": "Bot token"}, INSTANCE),
    }[who]
    for answer in (await http.get(f"/api/a/{instance}/state", headers=headers),
                   await http.post(f"/api/a/{instance}/act", headers=headers,
                                   json={"action": "resign"})):
        assert answer.status == 403
        assert "pegs" not in await answer.text()
    assert await moves(storage) == ["G6"]


async def test_made_up_tokens_cannot_spend_discords_patience_with_the_bot(
        http: TestClient, fake_discord: FakeDiscord):
    """Discord restricts an address after too many invalid requests (the fake holds its
    limit, lowered here to 150): a flood of 400 made-up tokens and instance ids costs Discord
    at most the server's budget of refusals, a token refused is not sent again, and who
    signed in before plays on."""
    fake_discord.invalid_limit = 150
    running_in_den(fake_discord, "alice")
    alice = {"Authorization": f"Bearer {await signed_in(http, fake_discord, person('alice'))}"}
    assert (await http.get(f"/api/a/{INSTANCE}/state", headers=alice)).status == 200
    for number in range(400):
        made_up = {"Authorization": f"Bearer made-up-{number % 300}"}
        answer = await http.get(f"/api/a/{INSTANCE}/state", headers=made_up)
        assert answer.status == 403
    for instance in ("..%2F..%2Fusers%2F@me", "i-1%3Fx=1", "i-" + "9" * 120):
        assert (await http.get(f"/api/a/{instance}/state", headers=alice)).status in (403, 404)
    assert not fake_discord.restricted
    assert len(fake_discord.invalid_answers) <= 100
    assert (await http.get(f"/api/a/{INSTANCE}/state", headers=alice)).status == 200


async def test_a_participant_without_a_seat_watches(http: TestClient,
                                                   fake_discord: FakeDiscord,
                                                   storage: SqliteStorage):
    running_in_den(fake_discord, "alice", "bob", "carol")
    carol = {"Authorization": f"Bearer {await signed_in(http, fake_discord, person('carol'))}"}
    state = await (await http.get(f"/api/a/{INSTANCE}/state", headers=carol)).json()
    assert state["you"] is None
    refused = await http.post(f"/api/a/{INSTANCE}/act", headers=carol,
                              json={"action": "place", "hole": "E7"})
    assert refused.status == 403
    assert await moves(storage) == ["G6"]


async def test_the_activity_page_loads_the_sdk_bundle_and_may_be_framed_by_discord(
        http: TestClient):
    page = await http.get("/")
    html = await page.text()
    assert '<script src="/static/activity.js"' in html and f'data-client-id="{BOT_ID}"' in html
    assert "https://discord.com" in page.headers["Content-Security-Policy"]
    assert CLIENT_SECRET not in html


async def test_twixt_run_serves_the_activity_and_keeps_the_entry_point(tmp_path: Path):
    """The real bot process against the fake Discord: its global sync keeps the entry
    point (a plain overwrite would be refused), its web board exchanges an Activity's code
    and lets the participant move, and SIGTERM stops both."""
    database = tmp_path / "twixt.db"
    table(database, "alice: challenge bob size 12 swap no", "bob: accept", "alice: G6")
    fake = FakeDiscord()
    await fake.start()
    env = {**environment(database), "TWIXT_WEB_PORT": "0", "DISCORD_CLIENT_ID": BOT_ID,
           "DISCORD_CLIENT_SECRET": CLIENT_SECRET, "TWIXT_DISCORD_API": fake.url + "/api/v10",
           "TWIXT_WEB_SECRET": "a-secret-for-the-tests-only-0123456789"}
    bot = subprocess.Popen(fake.bot_command(), cwd=tmp_path, env=env, text=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        await until(fake.ready_sent.is_set, "the bot to be ready")
        names = {command["name"]: command.get("type") for command in fake.commands}
        assert names["launch"] == ENTRY_POINT["type"] and "twixt" in names
        assert fake.refused_overwrites == 0
        port = await _web_port(bot)
        running_in_den(fake, "alice", "bob")
        fake.codes["code"] = person("bob")
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as web:
            async with web.post("/api/activity/token", json={"code": "code"}) as answer:
                token = (await answer.json())["access_token"]
            auth = {"Authorization": f"Bearer {token}"}
            async with web.post(f"/api/a/{INSTANCE}/act", headers=auth,
                                json={"action": "place", "hole": "E7"}) as moved:
                assert moved.status == 200
        bot.send_signal(signal.SIGTERM)
        await until(lambda: bot.poll() is not None, "the bot to stop")
        assert bot.returncode == 0
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        await fake.stop()
    assert subprocess.run([TWIXT, "export", "--db", str(database), "--channel", "den"],
                          capture_output=True, text=True).stdout.splitlines()[-1] == "bob: E7"


async def _web_port(bot: subprocess.Popen[str]) -> int:
    """The web board's port, from the bot's log line `web board served … port=N` (read in
    a thread: the fake Discord shares this event loop)."""
    assert bot.stderr is not None

    async def read() -> int:
        while True:
            line = await asyncio.to_thread(bot.stderr.readline)  # type: ignore[union-attr]
            assert line, "the bot stopped before it served the web board"
            match = re.search(r"web board served.* port=(\d+)", line)
            if match:
                return int(match.group(1))

    return await asyncio.wait_for(read(), HANG)
