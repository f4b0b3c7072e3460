"""`twixt web` (the web board alone, over the bot's database) and `twixt link` (a signed
link to a seat): the storage opened here, the board over a service of its own."""

from __future__ import annotations

import asyncio
import signal
import sys

from twixt.app import freeze_start_up
from twixt.service import Port, ServiceError, TwixtService
from twixt.storage import Database, DatabaseError, missing_file, open_storage
from twixt.web import (
    EPHEMERAL_SECRET,
    MAX_HOURS,
    SecretError,
    WebServer,
    board_from_environment,
    link_to,
    signer_from_environment,
)

__all__ = ["MAX_HOURS", "print_seat_link", "serve_web"]


async def serve_web(db: Database, host: str, port: int) -> int:
    """`twixt web`: serve until SIGTERM or SIGINT; 2 when it cannot start. The board has a
    service of its own (no Discord): a page hears of the bot's moves in this process, and
    of what other processes do over the same database, through the service's live
    versions."""
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
        service = TwixtService(storage, Port(pictures=False, announces=False))
        server = WebServer(board_from_environment(service, signer), host, port)
        try:
            await server.start()
        except OSError as error:
            print(f"twixt: cannot serve on {host}:{port}: {error.strerror}", file=sys.stderr)
            await service.close()
            return 2
        freeze_start_up()
        print(f"twixt web: serving on http://{host}:{server.port}/", flush=True)
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, stopping.set)
        await stopping.wait()
        await server.stop()
        await service.close()
    return 0


async def print_seat_link(db: Database, channel: str, player: str, base_url: str,
                          hours: float) -> int:
    """`twixt link`: print the link to `player`'s seat in `channel`'s game in progress (else
    its last one; both named as at the terminal table), or say in one line why there is
    none."""
    from twixt.terminal import name_id  # the table's names: `twixt web` needs none of it

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
            service = TwixtService(storage)
            try:
                game_id, seat = await service.seat_in_channel(name_id(channel), name_id(player))
            finally:
                await service.close()
    except DatabaseError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2
    except ServiceError:
        print("twixt: this channel has no games", file=sys.stderr)
        return 1
    if seat is None:
        print("twixt: not a player of this game: the link only watches it", file=sys.stderr)
    print(link_to(signer, base_url, game_id, seat, hours))
    return 0
