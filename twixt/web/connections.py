"""The web board's connections, before and around its requests.

aiohttp answers by itself what it cannot parse (a malformed header, a path that is not
UTF-8, a `Content-Length` beside a `Transfer-Encoding`): here that answer is a bare status
line with the same security headers as every other answer, and never echoes the request.
A connection has `HEADER_SECONDS` to send its first request's headers (aiohttp's keep-alive
timeout, `KEEPALIVE_SECONDS`, bounds the later ones), and at most `MAX_HALF_OPEN`
connections may be sending their headers at once: a connection beyond that is closed as
it comes. A connection that closes is told at once (`gone`), so that a live page waiting
on it frees its place then, not at its next heartbeat.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

#: the longest a new connection may take to send its request's headers
HEADER_SECONDS = 10.0
#: the most connections sending their headers at once
MAX_HALF_OPEN = 1000
#: the longest an idle connection is kept between two requests (and a later request's
#: headers may take)
KEEPALIVE_SECONDS = 15.0
#: what ends a request's headers
_END_OF_HEADERS = b"\r\n\r\n"

Secure = Callable[[web.StreamResponse], None]


class _HalfOpen:
    """How many connections are sending their first request's headers."""

    def __init__(self) -> None:
        self.count = 0


class GuardedConnection(web.RequestHandler):
    """aiohttp's connection, with the bounds above and its own answer to what it cannot
    parse (`secure` adds the security headers)."""

    def __init__(self, manager: web.Server, *, half_open: _HalfOpen, secure: Secure,
                 **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self.gone = asyncio.Event()
        self._half_open = half_open
        self._secure = secure
        self._tail = b""
        self._sending_headers = False
        self._late: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if self._half_open.count >= MAX_HALF_OPEN:
            log.debug("a connection closed: too many are sending their headers")
            transport.close()
            return
        self._half_open.count += 1
        self._sending_headers = True
        self._late = asyncio.get_running_loop().call_later(HEADER_SECONDS, self._too_late,
                                                           transport)

    def data_received(self, data: bytes) -> None:
        if self._sending_headers:
            seen = self._tail + data  # the end may straddle two reads
            if _END_OF_HEADERS in seen:
                self._headers_done()
            else:
                self._tail = seen[-(len(_END_OF_HEADERS) - 1):]
        super().data_received(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        self._headers_done()
        self.gone.set()
        super().connection_lost(exc)

    def handle_error(self, request: web.BaseRequest, status: int = 500,
                     exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        """A status line of aiohttp's refusal, never the request it could not read."""
        log.debug("a request refused unread: %s %s", status, type(exc).__name__)
        if request.writer.output_size > 0:
            raise ConnectionError("an answer was begun: no other can be sent")
        try:
            known = HTTPStatus(status)
        except ValueError:
            known = HTTPStatus.BAD_REQUEST
        answer = web.Response(status=known.value, text=f"{known.value} {known.phrase}\n")
        self._secure(answer)
        answer.force_close()
        return answer

    def _headers_done(self) -> None:
        if self._sending_headers:
            self._sending_headers = False
            self._half_open.count -= 1
            self._tail = b""
        if self._late is not None:
            self._late.cancel()
            self._late = None

    def _too_late(self, transport: asyncio.BaseTransport) -> None:
        self._late = None
        if self._sending_headers:
            log.debug("a connection closed: its headers took too long")
            transport.close()


def gone(request: web.BaseRequest) -> asyncio.Event:
    """Set when the request's connection closes (never, on a connection not guarded here,
    as under aiohttp's test server)."""
    protocol = request.protocol
    return protocol.gone if isinstance(protocol, GuardedConnection) else asyncio.Event()


class GuardedSite(web.BaseSite):
    """A TCP site whose connections are `GuardedConnection`s."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, *, secure: Secure,
                 backlog: int = 128) -> None:
        super().__init__(runner, backlog=backlog)
        self._host = host
        self._port = port
        self._secure = secure

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        server = self._runner.server
        assert server is not None
        half_open = _HalfOpen()

        def connection() -> GuardedConnection:
            return GuardedConnection(server, loop=loop, half_open=half_open,
                                     secure=self._secure, access_log=None,
                                     keepalive_timeout=KEEPALIVE_SECONDS)

        self._server = await loop.create_server(connection, self._host, self._port,
                                                backlog=self._backlog)
