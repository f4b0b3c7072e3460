"""`twixt web` (the web board alone, over the bot's database) and `twixt link` (a signed
link to a seat)."""

from __future__ import annotations

from twixt.storage import Database
from twixt.terminal import name_id
from twixt.web.links import MAX_HOURS
from twixt.web.serving import print_link, serve

__all__ = ["MAX_HOURS", "print_seat_link", "serve_web"]


async def serve_web(db: Database, host: str, port: int) -> int:
    """`twixt web`: serve until SIGTERM or SIGINT; 2 when it cannot start."""
    return await serve(db, host, port)


async def print_seat_link(db: Database, channel: str, player: str, base_url: str,
                          hours: float) -> int:
    """`twixt link`: print the link to `player`'s seat in `channel`'s game (both named as
    at the terminal table), or say in one line why there is none."""
    return await print_link(db, name_id(channel), name_id(player), base_url, hours)
