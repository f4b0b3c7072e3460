"""The web board's connections as they ship (`WebServer`, on a real port): a closed live page
frees its place at once and logs no traceback; what aiohttp cannot parse is refused with the
security headers and without an echo; headers sent too slowly, or by too many connections at
once, are cut off."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from support.processes import HANG
from twixt.storage import SqliteStorage
from twixt.terminal import name_id
from twixt.web import WebBoard, connections, server
from twixt.web import live as live_pages
from twixt.web.serving import WebServer

BOB = 1


@pytest.fixture
async def served(board: WebBoard) -> AsyncIterator[WebServer]:
    web = WebServer(board, "127.0.0.1", 0)
    await web.start()
    yield web
    await web.stop()


async def seat_token(board: WebBoard, storage: SqliteStorage, seat: int | None) -> str:
    stored = await storage.active_game(name_id("den"))
    assert stored is not None
    return board.signer.token(stored.id, seat)


async def freed(board: WebBoard) -> bool:
    """Whether the board's live pages are all gone within a second (polled, bounded)."""
    for _ in range(100):
        if board.hub.pages == 0:
            return True
        await asyncio.sleep(0.01)
    return board.hub.pages == 0


def quiet_about_leaving(records: list[logging.LogRecord], pages: int) -> None:
    """No traceback and nothing at WARNING or above; at most one line a closed page."""
    assert not [r for r in records if r.exc_info or r.levelno >= logging.WARNING], [
        r.getMessage() for r in records]
    assert len([r for r in records if r.name.startswith("twixt")]) <= pages


async def test_a_closed_live_page_frees_its_place_at_once_and_logs_no_traceback(
        served: WebServer, board: WebBoard, storage: SqliteStorage,
        caplog: pytest.LogCaptureFixture):
    """A seat's link reloaded more times than a player may hold pages: each closed page's
    place is free again within a second (not at its heartbeat, 15 s on), so every reload
    gets its live page."""
    caplog.set_level(logging.DEBUG)
    token = await seat_token(board, storage, BOB)
    reloads = live_pages.MAX_PER_KEY + 2
    async with aiohttp.ClientSession() as session:
        for _ in range(reloads):
            page = await session.get(f"http://127.0.0.1:{served.port}/api/g/{token}/live")
            assert page.status == 200
            assert (await page.content.readline()).startswith(b"data: {")
            page.close()
            assert await freed(board)
    quiet_about_leaving(caplog.records, reloads)


async def test_a_page_gone_before_its_heartbeat_logs_one_quiet_line(
        http: TestClient, board: WebBoard, storage: SqliteStorage,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture):
    """Where the disconnect is not told (aiohttp's test server), the next write finds it:
    one line below WARNING, no traceback, and the place freed."""
    caplog.set_level(logging.DEBUG)
    monkeypatch.setattr(server, "HEARTBEAT", 0.05)
    page = await http.get(f"/api/g/{await seat_token(board, storage, BOB)}/live")
    assert (await page.content.readline()).startswith(b"data: {")
    page.close()
    assert await freed(board)
    quiet_about_leaving(caplog.records, 1)


async def answer_to(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """What the server answers to raw bytes: its status, headers and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), HANG)
    finally:
        writer.close()
    head, _blank, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


@pytest.mark.parametrize("request_bytes", [
    b"GET /g/\xff<script>alert(1)</script> HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nBad<script> Header\r\n\r\n",
    b"POST /api/activity/token HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"<script>alert(1)</script>\r\n\r\n",
])
async def test_what_aiohttp_cannot_parse_is_refused_with_the_headers_and_no_echo(
        served: WebServer, request_bytes: bytes):
    status, headers, body = await answer_to(served.port, request_bytes)
    assert 400 <= status < 500
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert b"script" not in body.lower() and b"Header" not in body and b"Transfer" not in body


async def test_headers_sent_too_slowly_are_cut_off(served: WebServer,
                                                   monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(connections, "HEADER_SECONDS", 0.2)
    reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
    try:
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), HANG) == b""  # closed, unanswered
    finally:
        writer.close()


async def test_connections_sending_headers_are_capped(served: WebServer,
                                                      monkeypatch: pytest.MonkeyPatch):
    """Beyond the cap a new connection is closed as it comes; those within it are answered
    once their headers end, and a connection after them is served."""
    monkeypatch.setattr(connections, "MAX_HALF_OPEN", 3)
    opened = [await asyncio.open_connection("127.0.0.1", served.port) for _ in range(3)]
    for _reader, writer in opened:
        writer.write(b"GET /api/words HTTP/1.1\r\nHost: x\r\n")
        await writer.drain()
    reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
    assert await asyncio.wait_for(reader.read(), HANG) == b""
    writer.close()
    for reader, writer in opened:
        writer.write(b"Connection: close\r\n\r\n")
        await writer.drain()
        assert (await asyncio.wait_for(reader.read(), HANG)).startswith(b"HTTP/1.1 200")
        writer.close()
    status, _headers, _body = await answer_to(
        served.port, b"GET /api/words HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status == 200


async def test_a_body_sent_too_slowly_is_refused(served: WebServer, board: WebBoard,
                                                 storage: SqliteStorage,
                                                 monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(server, "BODY_SECONDS", 0.2)
    token = await seat_token(board, storage, BOB)
    status, headers, body = await answer_to(served.port, (
        f"POST /api/g/{token}/act HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 100\r\nConnection: close\r\n\r\n").encode() + b'{"action": ')
    assert status == 408 and b"too long" in body
    assert headers["X-Content-Type-Options"] == "nosniff"


async def test_long_headers_sent_in_pieces_are_answered(served: WebServer,
                                                        monkeypatch: pytest.MonkeyPatch):
    """The end of the headers is found wherever it falls: across two reads, or past the
    first kilobytes of one."""
    monkeypatch.setattr(connections, "HEADER_SECONDS", 0.5)
    reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
    try:
        writer.write(b"GET /api/words HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 6000 + b"\r\n\r")
        await writer.drain()
        await asyncio.sleep(0.05)  # a second read for the last byte
        writer.write(b"\n")
        await writer.drain()
        first = await asyncio.wait_for(reader.readline(), HANG)
        assert first.startswith(b"HTTP/1.1 200")
        await asyncio.sleep(0.6)  # past the header time: the connection is not cut
        writer.write(b"GET /api/words HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await writer.drain()
        rest = await asyncio.wait_for(reader.read(), HANG)
        assert rest.count(b"HTTP/1.1 200") == 1
    finally:
        writer.close()
