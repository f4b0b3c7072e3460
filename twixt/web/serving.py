"""Serving the web board over a service: its server, and what it reads of the environment
(the links' secret, the Activity's credentials, the trusted proxies). The composition root
(`twixt.app`) opens the storage and the service, and serves it alone (`twixt web`) or beside
the bot (`twixt run` with a web port)."""

from __future__ import annotations

import logging
import os

from aiohttp import web

from twixt.service import TwixtService
from twixt.web.activity import DISCORD_API, ActivityAuth
from twixt.web.connections import GuardedSite
from twixt.web.limits import TRUSTED_PROXIES_VARIABLE, Network, trusted_proxies
from twixt.web.links import EPHEMERAL_SECRET, Signer, signer_from_environment
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

    @property
    def runs_activity(self) -> bool:
        """Whether the board runs as the Discord Activity too."""
        return self.board.runs_activity

    async def seat_link(self, channel_id: int, user_id: int, base_url: str) -> str | None:
        """The link to a user's seat in the channel's game (`WebBoard.seat_link`)."""
        return await self.board.seat_link(channel_id, user_id, base_url)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.board.activity is not None:
            await self.board.activity.close()


def board_from_environment(service: TwixtService, signer: Signer,
                           announce: Announce | None = None) -> WebBoard:
    """The web board over `service`, signing links with `signer`, with the Activity and the
    trusted proxies the environment names; `announce` says a move made on the page in its
    game's channel (beside the bot)."""
    return WebBoard(service, signer, activity=activity_from_environment(), announce=announce,
                    trusted_proxies=trusted_from_environment())


async def serve_beside(service: TwixtService, host: str, port: int,
                       announce: Announce) -> WebServer:
    """The web board inside `twixt run`: over the bot's own service (its locks and cache),
    a move made on the page announced in the game's channel (`announce`) as if typed."""
    signer, from_env = signer_from_environment()
    if not from_env:
        log.warning(EPHEMERAL_SECRET)
    server = WebServer(board_from_environment(service, signer, announce), host, port)
    await server.start()
    log.info("web board served", extra={"host": host, "port": server.port})
    return server
