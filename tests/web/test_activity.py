"""The board as a Discord Activity, against the Discord-shaped fake server: the OAuth2 code
exchanged at our server, and every request checked against Discord (the access token's
user) and the Activity instance's participants before it may read or move; then the same
inside a real `twixt run` process, whose command sync keeps the Activity's entry point."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from support.browser import table
from support.fake_discord import BOT_ID, CLIENT_SECRET, ENTRY_POINT, FakeDiscord
from support.processes import HANG, TWIXT, environment, until
from tests.web.conftest import SECRET
from twixt.storage import SqliteStorage
from twixt.terminal import TerminalTable, name_id
from twixt.web import Signer, WebBoard
from twixt.web import activity as activity_module
from twixt.web.activity import REFUSALS, ActivityAuth
from twixt.web.limits import client_address, trusted_proxies

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
    assert (state["you"], state["pegs"]) == (1, [["G6", "red", 0]])
    moved = await http.post(f"/api/a/{INSTANCE}/act", headers=auth,
                            json={"control": "move", "text": "E7"})
    assert moved.status == 200
    again = await http.post(f"/api/a/{INSTANCE}/act", headers=auth,
                            json={"control": "move", "text": "E9"})
    # bob's Discord speaks German: so does the refusal
    assert (again.status, (await again.json())["error"]) == (409, "alice ist am Zug")
    assert await moves(storage) == ["G6", "E7"]


@pytest.mark.parametrize(("locale", "refusal"), [
    ("es-419", "es el turno de bob"), ("fr", "c'est au tour de bob"),
    ("nl", "bob is aan zet"), ("pt-BR", "it is bob's turn")])
async def test_the_activity_answers_in_the_language_of_the_players_discord(
        http: TestClient, fake_discord: FakeDiscord, locale: str, refusal: str):
    running_in_den(fake_discord, "alice", "bob")
    token = await signed_in(http, fake_discord, person("alice", locale))
    refused = await http.post(f"/api/a/{INSTANCE}/act", headers={
        "Authorization": f"Bearer {token}"}, json={"control": "move", "text": "E9"})
    assert (refused.status, (await refused.json())["error"]) == (409, refusal)


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
                                   json={"control": "resign"})):
        assert answer.status == 403
        assert "pegs" not in await answer.text()
    assert await moves(storage) == ["G6"]


class Clock:
    """Time as the server's budget and caches see it, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def clocked(table: TerminalTable, storage: SqliteStorage, fake_discord: FakeDiscord,
                  clock: Clock) -> AsyncIterator[TestClient]:
    """The web board whose Discord budget and caches run on `clock`."""
    activity = ActivityAuth(BOT_ID, CLIENT_SECRET, "token", api=fake_discord.url + "/api/v10",
                            clock=clock)
    board = WebBoard(table.service, Signer(SECRET), activity=activity)
    app = board.app()
    app[BOARD] = board
    # no cap on the client's connections: a burst is all in flight at once
    async with TestClient(TestServer(app),
                          connector=aiohttp.TCPConnector(limit=0)) as client:
        yield client
    await activity.close()


BURST, PER_SECOND = REFUSALS[1], REFUSALS[0]
BOARD = web.AppKey("board", WebBoard)


async def statuses(http: TestClient, asks: list[tuple[str, dict[str, str]]]) -> list[int]:
    """The statuses of `GET /api/a/INSTANCE/state` asked all at once (instance, headers)."""
    async def ask(instance: str, headers: dict[str, str]) -> int:
        async with http.get(f"/api/a/{instance}/state", headers=headers) as answer:
            return answer.status

    return list(await asyncio.gather(*(ask(*one) for one in asks)))


def made_up_tokens(count: int, start: int = 0) -> list[tuple[str, dict[str, str]]]:
    return [(INSTANCE, {"Authorization": f"Bearer made-up-{n}"})
            for n in range(start, start + count)]


def made_up_instances(bob: dict[str, str], count: int, start: int = 0
                      ) -> list[tuple[str, dict[str, str]]]:
    return [(f"i-made-up-{n}", bob) for n in range(start, start + count)]


async def signed_in_bob(http: TestClient, fake: FakeDiscord) -> dict[str, str]:
    running_in_den(fake, "alice", "bob")
    fake.latency = 0.05  # as from here to Discord: what is asked is in flight a while
    bob = {"Authorization": f"Bearer {await signed_in(http, fake, person('bob'))}"}
    assert (await http.get(f"/api/a/{INSTANCE}/state", headers=bob)).status == 200
    return bob


@pytest.mark.parametrize("made_up", ["tokens", "instance ids"])
async def test_a_burst_costs_discord_at_most_the_budget_while_bob_plays(
        clocked: TestClient, fake_discord: FakeDiscord, clock: Clock, storage: SqliteStorage,
        made_up: str):
    """All at once, every request in flight: each call to Discord takes from the budget
    before it leaves. Bob, signed in, reads in the middle of it (her instance's answer
    stale, so asked again) and moves after it."""
    bob = await signed_in_bob(clocked, fake_discord)
    refused_before = fake_discord.activity_refusals
    clock.now += 6  # bob's instance is asked again
    flood = (made_up_tokens(400) if made_up == "tokens"
             else made_up_instances(bob, 300))
    answers = await statuses(clocked, [*flood[:200], (INSTANCE, bob), *flood[200:]])
    print(f"\n{made_up}: {len(flood)} at once, "
          f"{fake_discord.activity_refusals - refused_before} refused calls to Discord")
    assert answers[200] == 200
    assert set(answers[:200] + answers[201:]) == {403}
    assert fake_discord.activity_refusals - refused_before <= BURST
    assert not fake_discord.restricted
    moved = await clocked.post(f"/api/a/{INSTANCE}/act", headers=bob,
                               json={"control": "move", "text": "E7"})
    assert moved.status == 200
    assert await moves(storage) == ["G6", "E7"]


async def test_a_sustained_flood_stays_within_the_budget_while_bob_plays(
        clocked: TestClient, fake_discord: FakeDiscord, clock: Clock, storage: SqliteStorage):
    """Six minutes of made-up tokens and instance ids, 120 a round every six seconds (past
    bob's instance's five seconds, his token's minute, and the five minutes Discord's word
    on them stands without asking): Discord hears at most the budget's burst and its
    refill, and bob, asked about again every round, reads through every one."""
    bob = await signed_in_bob(clocked, fake_discord)
    refused_before = fake_discord.activity_refusals
    rounds, seconds = 60, 6.0
    for number in range(rounds):
        clock.now += seconds
        flood = [*made_up_tokens(100, 100 * number), *made_up_instances(bob, 20, 20 * number)]
        answers = await statuses(clocked, [*flood[:60], (INSTANCE, bob), *flood[60:]])
        assert answers[60] == 200, f"bob refused in round {number}"
    refused = fake_discord.activity_refusals - refused_before
    budget = BURST + PER_SECOND * rounds * seconds
    print(f"\nsustained: {rounds * 120} made-up requests in {rounds * seconds:.0f} s, "
          f"{refused} refused calls to Discord (budget {budget:.0f})")
    assert refused <= budget
    moved = await clocked.post(f"/api/a/{INSTANCE}/act", headers=bob,
                               json={"control": "move", "text": "E7"})
    assert moved.status == 200


async def test_discords_429_is_waited_out_not_held_against_the_token(
        http: TestClient, fake_discord: FakeDiscord):
    """Discord's 429 says when to ask again (`Retry-After`): the server waits that long and
    asks once more, instead of refusing the token for five minutes."""
    running_in_den(fake_discord, "alice", "bob")
    bob = {"Authorization": f"Bearer {await signed_in(http, fake_discord, person('bob'))}"}
    fake_discord.pace_limited = 1
    calls = fake_discord.activity_calls
    assert (await http.get(f"/api/a/{INSTANCE}/state", headers=bob)).status == 200
    assert fake_discord.activity_calls - calls == 3  # the 429, the token again, the instance
    assert (await http.get(f"/api/a/{INSTANCE}/state", headers=bob)).status == 200


async def test_a_known_player_does_not_wait_out_discords_429(
        clocked: TestClient, fake_discord: FakeDiscord, clock: Clock):
    """Asked again about bob's instance, Discord says to wait five seconds: bob's request
    is answered from what Discord said a moment ago, not after the wait, and the instance
    is not asked again meanwhile."""
    bob = await signed_in_bob(clocked, fake_discord)
    fake_discord.pace_limited, fake_discord.retry_after = 1, 5.0
    clock.now += 6
    calls = fake_discord.activity_calls
    assert (await clocked.get(f"/api/a/{INSTANCE}/state", headers=bob)).status == 200
    assert fake_discord.activity_calls - calls == 1


@pytest.mark.parametrize("failure", ["502", "timeout"])
async def test_discord_failing_counts_against_the_budget_and_bob_plays_on(
        clocked: TestClient, fake_discord: FakeDiscord, clock: Clock,
        monkeypatch: pytest.MonkeyPatch, failure: str):
    """Discord's 5xx and its silence cost its patience as refusals do: a burst of made-up
    tokens while it fails asks it at most the budget; bob, known, plays on meanwhile."""
    bob = await signed_in_bob(clocked, fake_discord)
    if failure == "502":
        fake_discord.failing = True
    else:  # answers come after the wait for them is over
        monkeypatch.setattr(activity_module, "TIMEOUT", aiohttp.ClientTimeout(total=0.05))
        await activity_of(clocked).close()  # its next session waits that little
        fake_discord.latency = 0.5
    clock.now += 6
    calls = fake_discord.activity_calls
    answers = await statuses(clocked, [(INSTANCE, bob), *made_up_tokens(300)])
    assert answers[0] == 200 and set(answers[1:]) == {403}
    assert fake_discord.activity_calls - calls <= BURST


def activity_of(http: TestClient) -> ActivityAuth:
    board = http.app[BOARD]
    assert board.activity is not None
    return board.activity


async def test_a_participant_without_a_seat_watches(http: TestClient,
                                                   fake_discord: FakeDiscord,
                                                   storage: SqliteStorage):
    running_in_den(fake_discord, "alice", "bob", "carol")
    carol = {"Authorization": f"Bearer {await signed_in(http, fake_discord, person('carol'))}"}
    state = await (await http.get(f"/api/a/{INSTANCE}/state", headers=carol)).json()
    assert state["you"] is None
    refused = await http.post(f"/api/a/{INSTANCE}/act", headers=carol,
                              json={"control": "move", "text": "E7"})
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
                                json={"control": "move", "text": "E7"}) as moved:
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


@pytest.mark.parametrize(("peer", "forwarded", "client"), [
    ("127.0.0.1", "203.0.113.5", "203.0.113.5"),
    ("127.0.0.1", "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # the left one the client wrote
    ("127.0.0.1", "203.0.113.5, 127.0.0.1", "203.0.113.5"),  # through two trusted proxies
    ("127.0.0.1", "not an address", "127.0.0.1"),
    ("127.0.0.1", None, "127.0.0.1"),
    ("198.51.100.1", "203.0.113.5", "198.51.100.1"),  # an untrusted peer says what it likes
])
def test_the_client_address_is_read_from_a_trusted_proxy_only(
        peer: str, forwarded: str | None, client: str):
    trusted, wrong = trusted_proxies("127.0.0.1/32, ::1 nonsense")
    assert wrong == ["nonsense"]
    assert client_address(peer, forwarded, trusted) == client


async def test_behind_a_trusted_proxy_each_client_has_its_own_sign_in_bucket(
        table: TerminalTable, storage: SqliteStorage, fake_discord: FakeDiscord):
    """Ten junk codes from one address behind the proxy spend that address's sign-ins,
    not everyone's; without the proxy trusted, `X-Forwarded-For` buys nothing."""
    activity = ActivityAuth(BOT_ID, CLIENT_SECRET, "token", api=fake_discord.url + "/api/v10")
    for trusted, other_client in ((trusted_proxies("127.0.0.1")[0], 200), ((), 429)):
        board = WebBoard(table.service, Signer(SECRET), activity=activity,
                         trusted_proxies=trusted)
        async with TestClient(TestServer(board.app())) as http:
            junk = [(await http.post("/api/activity/token", json={"code": f"junk-{n}"},
                                     headers={"X-Forwarded-For": "203.0.113.5"})).status
                    for n in range(board.writes.burst + 1)]
            assert junk == [403] * board.writes.burst + [429]
            fake_discord.codes["good"] = person("bob")
            other = await http.post("/api/activity/token", json={"code": "good"},
                                    headers={"X-Forwarded-For": "198.51.100.7"})
            assert other.status == other_client
    await activity.close()
