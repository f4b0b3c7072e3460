"""Running the web board: alone (`twixt web`), beside the bot (`twixt run` with a web port),
and the links to a seat (`twixt link`, `/twixt board`)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

from aiohttp import web

from twixt.service import Port, Reply, TwixtService
from twixt.storage import (
    Database,
    DatabaseError,
    Storage,
    missing_file,
    open_storage,
)
from twixt.web.activity import DISCORD_API, ActivityAuth
from twixt.web.connections import GuardedSite
from twixt.web.limits import TRUSTED_PROXIES_VARIABLE, Network, trusted_proxies
from twixt.web.links import (
    EPHEMERAL_SECRET,
    SecretError,
    Signer,
    seat_link,
    signer_from_environment,
)
from twixt.web.server import Announce, WebBoard, add_security_headers

log = logging.getLogger(__name__)

#: the longest `twixt web` waits for requests in flight when it is stopped
SHUTDOWN_SECONDS = 2.0


def activity_from_environment(env: dict[str, str] | None = None) -> ActivityAuth | None:
    """The Activity's credentials: DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and the bot's
    DISCORD_TOKEN (to read an Activity's instance); None unless all three are set."""
    env = dict(os.environ) if env is None else env
    client_id = env.get("DISCORD_CLIENT_ID", "")
    secret = env.get("DISCORD_CLIENT_SECRET", "")
    token = env.get("DISCORD_TOKEN", "")
    if not (client_id and secret and token):
        return None
    return ActivityAuth(client_id, secret, token, env.get("TWIXT_DISCORD_API") or DISCORD_API)


def trusted_from_environment(env: dict[str, str] | None = None) -> tuple[Network, ...]:
    """The proxies of `TWIXT_WEB_TRUSTED_PROXIES` (none unless set); an entry that is no
    address or network is said and left out (trusting less, never more)."""
    text = (os.environ if env is None else env).get(TRUSTED_PROXIES_VARIABLE, "")
    networks, wrong = trusted_proxies(text)
    for entry in wrong:
        log.warning("%s: %r is no address or network; left out", TRUSTED_PROXIES_VARIABLE,
                    entry)
    return networks


class WebServer:
    """The web board served on `host`:`port` until `stop`."""

    def __init__(self, board: WebBoard, host: str, port: int) -> None:
        self.board = board
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(self.board.app(), handle_signals=False,
                                     shutdown_timeout=SHUTDOWN_SECONDS, access_log=None)
        await self._runner.setup()
        site = GuardedSite(self._runner, self.host, self.port, backlog=512,
                           secure=add_security_headers)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.board.activity is not None:
            await self.board.activity.close()


def standalone_board(storage: Storage, signer: Signer) -> WebBoard:
    """A web board with a service of its own (no Discord): the bot's moves in this process
    reach the games' live pages as they are posted."""
    board: list[WebBoard] = []

    async def posted(reply: Reply) -> None:
        if board and reply.channel_id is not None:
            await board[0].channel_changed(reply.channel_id)

    service = TwixtService(storage, Port(post=posted, pictures=False))
    board.append(WebBoard(service, storage, signer, activity=activity_from_environment(),
                          trusted_proxies=trusted_from_environment()))
    return board[0]


async def serve(db: Database, host: str, port: int) -> int:
    """`twixt web`: serve until SIGTERM or SIGINT; 2 when it cannot start."""
    try:
        signer, from_env = signer_from_environment()
    except SecretError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2
    if not from_env:
        print(f"twixt: {EPHEMERAL_SECRET}", file=sys.stderr)
    try:
        storage = await open_storage(db)
    except DatabaseError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2
    async with storage:
        board = standalone_board(storage, signer)
        server = WebServer(board, host, port)
        try:
            await server.start()
        except OSError as error:
            print(f"twixt: cannot serve on {host}:{port}: {error.strerror}", file=sys.stderr)
            await board.service.close()
            return 2
        print(f"twixt web: serving on http://{host}:{server.port}/", flush=True)
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, stopping.set)
        await stopping.wait()
        await server.stop()
        await board.service.close()
    return 0


async def print_link(db: Database, channel_id: int, user_id: int, base_url: str,
                     hours: float) -> int:
    """`twixt link`: print the link, or say in one line why there is none."""
    signer, from_env = signer_from_environment()
    if not from_env:
        print("twixt: set TWIXT_WEB_SECRET (the same as the web server's) to sign links",
              file=sys.stderr)
        return 2
    if missing_file(db) is not None:
        print(f"twixt: {db} does not exist (link only reads a database)", file=sys.stderr)
        return 2
    try:
        async with await open_storage(db) as storage:
            found = await seat_link(storage, signer, channel_id, user_id, base_url, hours)
    except DatabaseError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2
    if found is None:
        print("twixt: this channel has no games", file=sys.stderr)
        return 1
    url, stored = found
    if stored.seat_of(user_id) is None:
        print("twixt: not a player of this game: the link only watches it", file=sys.stderr)
    print(url)
    return 0


async def serve_beside(service: TwixtService, storage: Storage, host: str, port: int,
                       announce: Announce) -> WebServer:
    """The web board inside `twixt run`: over the bot's own service (its locks and cache),
    a move made on the page announced in the game's channel (`announce`) as if typed."""
    signer, from_env = signer_from_environment()
    if not from_env:
        log.warning(EPHEMERAL_SECRET)
    board = WebBoard(service, storage, signer, activity=activity_from_environment(),
                     announce=announce, trusted_proxies=trusted_from_environment())
    server = WebServer(board, host, port)
    await server.start()
    log.info("web board served", extra={"host": host, "port": server.port})
    return server
