"""`twixt run`: the settings, the database, the Discord bot over its service, and the web
board beside it when `TWIXT_WEB_PORT` asks for one — put together here, so that the bot
imports nothing of the storage or the web.

The bot lends its service a port (threads, posts, a server's language, the typing sign, its
shards) and is handed how to open the service over the storage opened here
(`discord_bot`). The web board beside it runs over the same service (its locks and cache),
announces a move made on the page in the game's channel through the bot's `post`, and gives
the bot its links for `/twixt board` (`TwixtBot.board`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
import sys
from collections.abc import Callable
from datetime import datetime

from twixt.app import freeze_start_up
from twixt.config import ConfigError, Settings
from twixt.discord import logs
from twixt.discord.app import TwixtBot, serve_client
from twixt.service import ENGINE_CORE, EnginePool, TwixtService, utc_now
from twixt.storage import DatabaseError, Storage, open_storage
from twixt.web import serve_beside

log = logging.getLogger(__name__)

NO_TOKEN = ("twixt: no Discord token. Set DISCORD_TOKEN in the environment or in a .env "
            "file in this folder (see .env.example).")


def discord_bot(settings: Settings, storage: Storage, *,
                clock: Callable[[], datetime] = utc_now) -> TwixtBot:
    """The Discord client over `storage`: its service keeps time by `clock` and thinks in
    `TWIXT_ENGINE_WORKERS` processes."""
    return TwixtBot(settings, functools.partial(
        TwixtService, storage, clock=clock, engine_pool=EnginePool(settings.engine_workers)))


def run(overrides: dict[str, str] | None = None) -> int:
    """Start the bot and serve until stopped; 2 when it cannot start (the reason printed).
    `overrides`: settings given on the command line (`--shard-count`), by variable name."""
    try:
        settings = Settings.from_environment(overrides=overrides)
    except ConfigError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    logs.configure(settings.log_level)
    # which search the engine's workers run: a slow Python fallback shows here at once
    log.info(ENGINE_CORE)
    # Until `serve` closes the client on a signal itself, `docker stop`'s SIGTERM stops the
    # start as Ctrl-C does.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        return asyncio.run(serve(settings))
    except KeyboardInterrupt:
        return 0


async def serve(settings: Settings) -> int:
    """Open the database, put the bot (and the web board beside it) together, log in, and
    run until the connection is closed."""
    assert settings.token
    try:
        storage = await open_storage(settings.database)
    except DatabaseError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2
    async with storage:
        client = discord_bot(settings, storage)
        if settings.web_port is not None:
            try:
                server = await serve_beside(client.service, settings.web_host,
                                            settings.web_port, client.post)
            except OSError as error:
                print(f"twixt: cannot serve the web board on {settings.web_host}:"
                      f"{settings.web_port}: {error.strerror}", file=sys.stderr)
                await client.close()
                return 2
            client.board = server
        freeze_start_up()
        return await serve_client(client, settings.token)
