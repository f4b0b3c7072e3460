"""The web board's API as hostile requests meet it: links changed or expired, moves out of
seat or turn, bodies too large, too many requests, and what every answer's headers say.
A refusal is one line and changes nothing; no answer holds a traceback or sets a cookie."""

from __future__ import annotations

import asyncio
import base64
import gzip
import hashlib
import hmac
import io
import json
import re
import time
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from tests.web.conftest import SECRET
from twixt.app.table import open_table
from twixt.service import REFUSAL_KINDS, EnginePool
from twixt.storage import SqliteStorage
from twixt.terminal import TerminalTable, name_id
from twixt.web import WebBoard
from twixt.web import live as live_pages
from twixt.web.links import Signer
from twixt.web.server import MAX_BODY, REFUSAL_STATUS, STATIC

BOB = 1  # bob's seat (Black)
#: the longest a step that should be at once may take
HANG = 5.0


async def log_of(storage: SqliteStorage) -> list[str]:
    stored = await storage.active_game(name_id("den"))
    assert stored is not None
    return [turn.command for turn in (await storage.load_game(stored.id)).turns]


def controls(state: dict[str, Any]) -> list[str]:
    """The kinds of the controls a view offers its page's player."""
    return [control["name"] for control in state["controls"]]


async def game_id(storage: SqliteStorage) -> int:
    stored = await storage.active_game(name_id("den"))
    assert stored is not None
    return stored.id


async def test_a_seat_link_reads_the_game_and_moves_in_turn(http: TestClient, board: WebBoard,
                                                           storage: SqliteStorage):
    token = board.signer.token(await game_id(storage), BOB)
    state = await (await http.get(f"/api/g/{token}/state")).json()
    assert (state["you"], state["to_move"], state["pegs"]) == (BOB, BOB, [["G6", "red", 0]])
    assert (state["last"], state["last_seat"], state["last_text"]) == (["G6"], 0, "alice: G6")
    preview = await (await http.get(f"/api/g/{token}/preview?hole=E5")).json()
    assert preview == {"links": []} and state["rules"] == "classic"
    moved = await http.post(f"/api/g/{token}/act", json={"control": "move", "text": "E7"})
    assert moved.status == 200
    assert await log_of(storage) == ["G6", "E7"]
    again = await http.post(f"/api/g/{token}/act", json={"control": "move", "text": "E9"})
    assert (again.status, await again.json()) == (409, {"error": "it is alice's turn"})
    assert await log_of(storage) == ["G6", "E7"]


@pytest.mark.parametrize("change", ["last letter", "game", "seat", "expiry", "other secret",
                                    "expired"])
async def test_a_changed_or_expired_link_is_refused(http: TestClient, board: WebBoard,
                                                   storage: SqliteStorage, change: str):
    game = await game_id(storage)
    token = board.signer.token(game, BOB)
    version, _game, _seat, expiry, signature = token.split(".")
    bad = {
        "last letter": token[:-1] + ("A" if token[-1] != "A" else "B"),
        "game": ".".join([version, "2", "1", expiry, signature]),
        "seat": ".".join([version, str(game), "0", expiry, signature]),
        "expiry": ".".join([version, str(game), "1", str(int(expiry) + 1), signature]),
        "other secret": Signer(b"another-secret-0123456789abcdef").token(game, BOB),
        "expired": board.signer.token(game, BOB, hours=1, now=time.time() - 7200),
    }[change]
    page = await http.get(f"/g/{bad}")
    refusal = await page.text()
    assert page.status == 403 and "data-hole" not in refusal
    # where to get a new link, in Discord and at the command line
    assert "/twixt board" in refusal and "twixt link" in refusal
    for path in ("state", "preview?hole=E7"):
        refused = await http.get(f"/api/g/{bad}/{path}")
        assert refused.status == 404
        assert await refused.json() == {"error": "this link is not valid or has expired"}
    moved = await http.post(f"/api/g/{bad}/act", json={"control": "move", "text": "E7"})
    assert moved.status == 404
    assert await log_of(storage) == ["G6"]


async def test_a_watchers_link_reads_but_never_moves(http: TestClient, board: WebBoard,
                                                    storage: SqliteStorage):
    token = board.signer.token(await game_id(storage), None)
    state = await (await http.get(f"/api/g/{token}/state")).json()
    assert state["you"] is None and state["pegs"] == [["G6", "red", 0]]
    for action in ({"control": "move", "text": "E7"}, {"control": "resign"}):
        refused = await http.post(f"/api/g/{token}/act", json=action)
        assert (refused.status, await refused.json()) == (
            403, {"error": "you watch this game: only its players move"})
    assert await log_of(storage) == ["G6"]


@pytest.mark.parametrize("body", [
    b"not json", b"[]", b'{"control": "challenge"}', b'{"action": "swap"}',
    b'{"control": "move", "text": ["E7"]}', b'{"control": "swap", "text": "E7"}',
])
async def test_a_malformed_action_is_refused_in_one_line(http: TestClient, board: WebBoard,
                                                        storage: SqliteStorage, body: bytes):
    token = board.signer.token(await game_id(storage), BOB)
    refused = await http.post(f"/api/g/{token}/act", data=body,
                              headers={"Content-Type": "application/json"})
    assert (refused.status, await refused.json()) == (
        400, {"error": "the page asked for something it cannot do"})
    assert await log_of(storage) == ["G6"]


@pytest.mark.parametrize(("text", "says"), [
    ("G", "I don't understand “g”"), ("E7; resign", "resign cannot be combined with a move"),
])
async def test_a_move_the_move_language_cannot_read_is_refused_with_why(
        http: TestClient, board: WebBoard, storage: SqliteStorage, text: str, says: str):
    token = board.signer.token(await game_id(storage), BOB)
    refused = await http.post(f"/api/g/{token}/act", json={"control": "move", "text": text})
    assert refused.status == 400 and (await refused.json())["error"].startswith(says)
    assert await log_of(storage) == ["G6"]


async def test_a_body_too_large_is_refused_unread(http: TestClient, board: WebBoard,
                                                 storage: SqliteStorage):
    token = board.signer.token(await game_id(storage), BOB)
    big = b'{"control": "move", "text": "E7", "pad": "' + b"x" * MAX_BODY + b'"}'
    refused = await http.post(f"/api/g/{token}/act", data=big,
                              headers={"Content-Type": "application/json"})
    assert refused.status == 413
    assert "Traceback" not in await refused.text()
    assert await log_of(storage) == ["G6"]


async def test_too_many_moves_are_refused_per_player(http: TestClient, board: WebBoard,
                                                    storage: SqliteStorage):
    token = board.signer.token(await game_id(storage), BOB)
    statuses = [(await http.post(f"/api/g/{token}/act", json={"control": "swap"})).status
                for _ in range(board.writes.burst + 3)]
    assert statuses[: board.writes.burst] == [409] * board.writes.burst  # swap is off
    assert statuses[board.writes.burst:] == [429] * 3
    # alice's seat has a bucket of its own
    alice = board.signer.token(await game_id(storage), 0)
    assert (await http.post(f"/api/g/{alice}/act", json={"control": "swap"})).status == 409


async def test_a_failure_inside_is_one_line_without_a_traceback(
        http: TestClient, board: WebBoard, storage: SqliteStorage,
        monkeypatch: pytest.MonkeyPatch):
    async def broken(game_id: int, **viewer: object) -> None:
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(board.service, "game_view", broken)
    token = board.signer.token(await game_id(storage), BOB)
    failed = await http.get(f"/api/g/{token}/state")
    text = await failed.text()
    assert failed.status == 500
    assert "Traceback" not in text and "fire" not in text
    assert (await failed.json())["error"].startswith("something went wrong")


async def test_every_answer_has_the_security_headers_and_no_cookie(
        http: TestClient, board: WebBoard, storage: SqliteStorage):
    token = board.signer.token(await game_id(storage), BOB)
    for path in (f"/g/{token}", "/g/nonsense", f"/api/g/{token}/state", "/api/g/x/state",
                 "/static/board.js", "/", "/nowhere"):
        answer = await http.get(path)
        csp = answer.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert "Set-Cookie" not in answer.headers, path
    page = await http.get(f"/g/{token}")
    assert page.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    html = await page.text()
    assert "<script>" not in html and "<script " in html  # its scripts are files only
    assert SECRET_TEXT not in html


SECRET_TEXT = "a-secret-for-the-tests-only"


async def test_the_page_and_its_scripts_weigh_under_300_kb_compressed(http: TestClient):
    total = len(gzip.compress((await (await http.get("/")).text()).encode()))
    for name in STATIC:
        answer = await http.get(f"/static/{name}", headers={"Accept-Encoding": "gzip"},
                                auto_decompress=False)
        assert answer.headers["Content-Encoding"] == "gzip"
        total += len(await answer.read())
    assert total <= 300_000


async def test_watchers_pages_are_bounded_per_game_and_never_keep_its_players_out(
        http: TestClient, board: WebBoard, storage: SqliteStorage,
        monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(live_pages, "MAX_PER_GAME", 2)
    game = await game_id(storage)
    watching = board.signer.token(game, None)
    first = await http.get(f"/api/g/{watching}/live")
    second = await http.get(f"/api/g/{watching}/live")
    assert first.status == second.status == 200
    assert (await first.content.readline()).startswith(b"data: {")
    third = await http.get(f"/api/g/{watching}/live")
    assert third.status == 503
    players = [await http.get(f"/api/g/{board.signer.token(game, seat)}/live")
               for seat in (0, BOB)]
    assert [page.status for page in players] == [200, 200]
    for page in (first, second, *players):
        page.close()


async def test_one_player_cannot_take_a_games_live_pages_from_the_others(
        http: TestClient, board: WebBoard, storage: SqliteStorage):
    """A watcher's link opening pages without end gets four; the players still get theirs."""
    game = await game_id(storage)
    watching = board.signer.token(game, None)
    opened = [await http.get(f"/api/g/{watching}/live") for _ in range(live_pages.MAX_PER_KEY)]
    assert [page.status for page in opened] == [200] * live_pages.MAX_PER_KEY
    assert (await http.get(f"/api/g/{watching}/live")).status == 503
    player = await http.get(f"/api/g/{board.signer.token(game, BOB)}/live")
    assert player.status == 200
    assert (await player.content.readline()).startswith(b"data: {")
    for page in (*opened, player):
        page.close()


async def test_a_move_at_the_table_reaches_a_live_page(http: TestClient, board: WebBoard,
                                                      storage: SqliteStorage,
                                                      table: TerminalTable):
    token = board.signer.token(await game_id(storage), 0)
    live = await http.get(f"/api/g/{token}/live")
    assert b'"version": 1' in await live.content.readline()
    await live.content.readline()  # the blank line that ends an event
    assert await table.play_line("bob: E7")
    changed = await live.content.readline()  # the watcher reads the version within a second
    assert b'"version": 2' in changed and b'["E7", "black", 1]' in changed
    live.close()


async def test_a_change_makes_each_seat_and_language_its_view_once_for_all_its_pages(
        http: TestClient, board: WebBoard, storage: SqliteStorage,
        monkeypatch: pytest.MonkeyPatch):
    game = await game_id(storage)
    made: list[list[tuple[int | None, str]]] = []
    views = board.service.game_views

    async def counted(game_id: int, seen_by: list[tuple[int | None, str]],
                      live_version: int | None = None) -> list[Any]:
        made.append(sorted(seen_by, key=str))
        return await views(game_id, seen_by, live_version)

    monkeypatch.setattr(board.service, "game_views", counted)
    watching, bob = board.signer.token(game, None), board.signer.token(game, BOB)
    pages = [await http.get(f"/api/g/{watching}/live{lang}") for lang in ("", "", "?lang=de")]
    pages.append(await http.get(f"/api/g/{bob}/live"))
    for page in pages:
        await page.content.readuntil(b"\n\n")  # the view it opened with
    moved = await http.post(f"/api/g/{bob}/act", json={"control": "move", "text": "E7"})
    assert moved.status == 200
    told = [await page.content.readuntil(b"\n\n") for page in pages]
    assert all(b'"version": 2' in event and b'["E7", "black", 1]' in event for event in told)
    assert told[0] == told[1] and b'"you": 1' in told[3]
    assert made == [[(1, "en"), (None, "de"), (None, "en")]]
    for page in pages:
        page.close()


async def test_a_page_that_cannot_keep_up_misses_versions_never_the_latest():
    page = live_pages.Page((None, "en"), 0)
    page.put(b"data: 1\n\n")
    page.put(b"data: 2\n\n")
    await asyncio.wait_for(page.wait(), HANG)
    assert page.take() == [b"data: 2\n\n"] and page.take() == []
    waiting = asyncio.ensure_future(page.wait())
    await asyncio.sleep(0.01)
    assert not waiting.done()  # nothing to send: it waits
    page.wake()  # what ends a page (its connection gone, the server closing) wakes it
    await asyncio.wait_for(waiting, HANG)
    assert page.take() == []
    page.put(None)  # the game is gone
    await asyncio.wait_for(page.wait(), HANG)
    assert page.take() == [None]


async def test_each_live_page_is_told_the_view_its_state_gives(http: TestClient,
                                                               board: WebBoard,
                                                               storage: SqliteStorage):
    """The pages of one language share the part of their event that is alike: each is still
    told its own view in full, as its `/state` gives it (its seat, controls and palette)."""
    game = await game_id(storage)
    asking = [(board.signer.token(game, seat), lang)
              for seat, lang in ((0, "en"), (0, "de"), (BOB, "en"), (None, "de"), (None, "en"))]
    pages = [await http.get(f"/api/g/{token}/live?lang={lang}") for token, lang in asking]
    for page in pages:
        await page.content.readuntil(b"\n\n")  # the view it opened with
    bob = board.signer.token(game, BOB)
    moved = await http.post(f"/api/g/{bob}/act", json={"control": "move",
                                                       "text": "E7; offer draw"})
    assert moved.status == 200
    told = [json.loads((await page.content.readuntil(b"\n\n")).removeprefix(b"data: "))
            for page in pages]
    for (token, lang), view in zip(asking, told, strict=True):
        assert view == await (await http.get(f"/api/g/{token}/state?lang={lang}")).json()
    assert told[1]["history"] == ["alice: G6", "bob: E7; bietet Remis an"]
    assert "draw-accept" in controls(told[0]) and controls(told[3]) == []
    for page in pages:
        page.close()


async def test_the_words_come_in_german(http: TestClient):
    words = await (await http.get("/api/words?lang=de")).json()
    assert words["place"] == "Setzen {hole}" and words["red"] == "rot"
    english = await (await http.get("/api/words", headers={"Accept-Language": "en-GB"})).json()
    assert english["place"] == "Place {hole}"
    # `/` outside Discord says where a link is got: in Discord, or at the command line
    assert "/twixt board" in english["not_in_discord"]
    assert "twixt link" in english["not_in_discord"]


async def test_the_move_text_comes_in_the_pages_language(http: TestClient, board: WebBoard,
                                                        storage: SqliteStorage,
                                                        table: TerminalTable):
    assert await table.play_line("bob: E7; offer draw")
    token = board.signer.token(await game_id(storage), 0)
    german = await (await http.get(f"/api/g/{token}/state?lang=de")).json()
    assert german["last_text"] == "bob: E7; bietet Remis an"
    assert german["history"] == ["alice: G6", "bob: E7; bietet Remis an"]
    english = await (await http.get(f"/api/g/{token}/state?lang=en")).json()
    assert english["last_text"] == "bob: E7; offer draw"


async def test_a_players_link_lists_their_other_games_each_with_its_own_link(
        http: TestClient, board: WebBoard, storage: SqliteStorage, tmp_path):
    hall = open_table(storage, "hall", tmp_path / "hall", out=io.StringIO())
    try:
        assert await hall.run(("bob: challenge alice size 12", "alice: accept")) == 0
    finally:
        await hall.close()
    den = await game_id(storage)
    listed = await (await http.get(f"/api/g/{board.signer.token(den, 0)}/games")).json()
    [other] = listed["games"]
    assert other["summary"].endswith("vs bob — bob to move") and other["yours"] is False
    opened = await (await http.get(other["link"].replace("/g/", "/api/g/") + "/state")).json()
    assert opened["game"] != den and opened["you"] == 1 and opened["seats"][1]["name"] == "alice"
    watcher = await http.get(f"/api/g/{board.signer.token(den, None)}/games")
    assert watcher.status == 403


async def test_each_players_bank_is_in_the_view_in_the_pages_language(
        http: TestClient, board: WebBoard, storage: SqliteStorage, tmp_path):
    hall = open_table(storage, "hall", tmp_path / "hall", out=io.StringIO())
    try:
        assert await hall.run(("bob: challenge alice size 12 time 2d+12h",
                               "alice: accept")) == 0
        stored = await storage.active_game(name_id("hall"))
        assert stored is not None
    finally:
        await hall.close()
    token = board.signer.token(stored.id, 0)
    state = await (await http.get(f"/api/g/{token}/state")).json()
    said = [line.replace("\u2068", "").replace("\u2069", "") for line in state["seat_clocks"]]
    assert [re.sub(r"\d+", "N", line) for line in said] == ["bob: Nd Nh in the bank",
                                                          "alice: Nd Nh in the bank"]
    german = await (await http.get(f"/api/g/{token}/state?lang=de")).json()
    assert len(german["seat_clocks"]) == 2 and "bob" in german["seat_clocks"][0]
    assert german["seat_clocks"] != state["seat_clocks"]
    den = await (await http.get(f"/api/g/{board.signer.token(await game_id(storage), 0)}"
                                "/state")).json()
    assert den["seat_clocks"] == []


async def test_the_favicon_is_a_small_icon_kept_a_day(http: TestClient):
    icon = await http.get("/favicon.ico")
    assert icon.status == 200 and icon.headers["Content-Type"] == "image/x-icon"
    assert icon.headers["Cache-Control"] == "public, max-age=86400"
    with Image.open(io.BytesIO(await icon.read())) as decoded:
        assert decoded.format == "ICO" and decoded.size == (32, 32)
    for page in ("/", "/g/no-link"):  # the Activity's page, and a link's refusal
        assert '<link rel="icon" href="/favicon.ico">' in await (await http.get(page)).text()


@pytest.mark.parametrize(("query", "accept_language", "place"), [
    ("?lang=fr", "en-GB", "Placer {hole}"),  # the link's language before the browser's
    ("", "fr-CH, fr;q=0.9, en;q=0.8", "Placer {hole}"),
    ("", "es-419", "Colocar {hole}"),  # Latin America's Spanish is Spain's
    ("", "es-ES,es;q=0.9", "Colocar {hole}"),
    ("", "pt-BR, nl;q=0.7, en;q=0.5", "{hole} plaatsen"),  # the first the page speaks
    ("", "ja, en;q=0.9, nl;q=0.8", "Place {hole}"),  # English before Dutch
    ("", "nl;q=0, fr;q=oops", "Place {hole}"),  # not wanted, unreadable
])
async def test_the_words_come_in_the_browsers_first_language_the_page_speaks(
        http: TestClient, query: str, accept_language: str, place: str):
    words = await (await http.get(f"/api/words{query}",
                                  headers={"Accept-Language": accept_language})).json()
    assert words["place"] == place


async def test_the_page_says_its_language(http: TestClient):
    page = await (await http.get("/", headers={"Accept-Language": "nl-BE"})).text()
    assert '<html lang="nl">' in page


async def test_privilege_is_offered_to_the_player_who_has_just_moved(
        http: TestClient, board: WebBoard, storage: SqliteStorage, table: TerminalTable):
    assert await table.play_line("alice: resign yes")
    for line in ("carol: team dave vs erin frank size 12", "dave: accept", "erin: accept",
                 "frank: accept", "carol: G6"):
        assert await table.play_line(line), line
    game = await game_id(storage)
    carol, dave = board.signer.token(game, 0), board.signer.token(game, 1)
    state = await (await http.get(f"/api/g/{carol}/state")).json()
    assert state["to_move"] == 1 and "privilege" in controls(state)
    assert "privilege" not in controls(await (await http.get(f"/api/g/{dave}/state")).json())
    refused = await http.post(f"/api/g/{dave}/act", json={"control": "privilege"})
    assert refused.status == 409
    called = await http.post(f"/api/g/{carol}/act", json={"control": "privilege"})
    assert called.status == 200
    state = await (await http.get(f"/api/g/{carol}/state")).json()
    assert state["to_move"] == 2 and "privilege" not in controls(state)


async def test_the_bot_answers_a_move_made_on_the_page(storage: SqliteStorage, tmp_path):
    # the web board hands its moves to the service like any front end: the bot hears of
    # the turn as it is played (`Desk.turn_played`) and answers it
    table = open_table(storage, "bots", tmp_path / "boards", out=io.StringIO(),
                          engine_pool=EnginePool(1))
    try:
        assert await table.run(["alice: challenge bot level 1 size 6 rules pp swap no"]) == 0
        stored = await storage.active_game(name_id("bots"))
        assert stored is not None
        web = WebBoard(table.service, Signer(SECRET))
        async with TestClient(TestServer(web.app())) as client:
            token = web.signer.token(stored.id, 0)
            moved = await client.post(f"/api/g/{token}/act",
                                      json={"control": "move", "text": "B2"})
            assert moved.status == 200, await moved.text()
        await table.service.idle()
        turns = (await storage.load_game(stored.id)).turns
        assert [turn.actor_id for turn in turns] == [stored.seats[0].user_id,
                                                     stored.seats[1].user_id]
    finally:
        await table.close()


def signed(body: str) -> str:
    """A token over `body` signed with the tests' secret, as a link is
    (`v1.GAME.SEAT.EXPIRY.SIGNATURE`): what a forger holding the secret could write."""
    digest = hmac.new(SECRET, body.encode(), hashlib.sha256).digest()
    return f"{body}.{base64.urlsafe_b64encode(digest).decode().rstrip('=')}"


@pytest.mark.parametrize("fields", [
    "{game}.x", "{game}.-1", "{game}.2", "{game}.１", "{game}.01x", "9" * 40 + ".1",
    "١.1", "{game}.1.extra", "{game}.²"])
async def test_only_a_valid_link_opens_a_board(http: TestClient, storage: SqliteStorage,
                                              fields: str):
    """Signed, yet no link: a seat that is not a number or not one of the game's (-1 is not
    the last seat), a game id past any database's integers, digits that are not ASCII."""
    expiry = int(time.time()) + 3600
    token = signed(f"v1.{fields.format(game=await game_id(storage))}.{expiry}")
    page = await http.get(f"/g/{token}")
    assert page.status == 403 and "data-hole" not in await page.text()
    for answer in (await http.get(f"/api/g/{token}/state"),
                   await http.post(f"/api/g/{token}/act", json={"control": "resign"})):
        assert (answer.status, await answer.json()) == (
            404, {"error": "this link is not valid or has expired"})
    assert await log_of(storage) == ["G6"]


async def test_a_signed_link_of_our_own_making_still_opens_its_seat(
        http: TestClient, storage: SqliteStorage):
    token = signed(f"v1.{await game_id(storage)}.1.{int(time.time()) + 3600}")
    assert (await (await http.get(f"/api/g/{token}/state")).json())["you"] == BOB


@pytest.mark.parametrize("step", ["%C2%B2", "%D9%A3", "-1", "1e3", "12345", ""])
async def test_a_step_that_is_no_ascii_number_is_refused(http: TestClient, board: WebBoard,
                                                        storage: SqliteStorage, step: str):
    token = board.signer.token(await game_id(storage), BOB)
    refused = await http.get(f"/api/g/{token}/state?step={step}")
    assert (refused.status, await refused.json()) == (400, {"error": "a step is a number of turns"})


async def test_a_body_nested_beyond_reading_is_refused_in_one_line(
        http: TestClient, board: WebBoard, storage: SqliteStorage):
    token = board.signer.token(await game_id(storage), BOB)
    deep = b"[" * 2000 + b"]" * 2000
    assert len(deep) <= MAX_BODY
    for path in (f"/api/g/{token}/act", "/api/activity/token"):
        refused = await http.post(path, data=deep, headers={"Content-Type": "application/json"})
        assert refused.status == 400, path
        assert "error" in await refused.json()
    assert await log_of(storage) == ["G6"]


def test_every_kind_of_refusal_has_its_status():
    assert set(REFUSAL_STATUS) == set(REFUSAL_KINDS)
    assert all(400 <= status < 600 for status in REFUSAL_STATUS.values())


async def test_a_refusal_is_answered_with_the_status_of_its_kind(
        http: TestClient, board: WebBoard, storage: SqliteStorage):
    game = await game_id(storage)
    alice, bob = board.signer.token(game, 0), board.signer.token(game, BOB)
    out_of_turn = await http.post(f"/api/g/{alice}/act", json={"control": "move", "text": "J9"})
    taken = await http.post(f"/api/g/{bob}/act", json={"control": "move", "text": "G6"})
    too_long = await http.post(f"/api/g/{bob}/act",
                               json={"control": "note", "text": "x" * 1001})
    nothing_to_take_back = await http.post(f"/api/g/{bob}/act", json={"control": "takeback"})
    assert [out_of_turn.status, taken.status, too_long.status,
            nothing_to_take_back.status] == [409, 409, 422, 403]
    assert (await out_of_turn.json())["error"] == "it is bob's turn"
    assert await log_of(storage) == ["G6"]
