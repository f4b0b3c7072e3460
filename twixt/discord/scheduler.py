"""The clocks' dispatcher: the service's `tick()` reminds, announces the end of a player's
time or forfeits the game, and the outbox delivers what it says; then it sleeps until the
earliest stored wake-up (`clocks.wait`, at most a minute), or until a turn sets an earlier
one. A tick reads only the games that are due, so it costs nearly nothing when none is.

Each reminder is claimed in storage before `tick()` returns it and marked delivered once it
went out, so after a restart the loop simply runs again: nothing is sent twice, and one that
did not go out (Discord refused it, the bot stopped in between) is sent again a few minutes
later. Nothing that goes wrong in one round — the service failing,
Discord refusing a message — stops the next delivery or the next round. What the clocks say
is in the language of the game's server (`TwixtBot.language_of`, lent to the service in
its port).
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import tasks

from twixt.discord import outbox
from twixt.service import LONGEST_SLEEP, TwixtService

log = logging.getLogger(__name__)


class ClockScheduler:
    """Runs `round()` whenever a clock is due (and at least once a minute) once the client is
    ready; `start` and `stop` it with the client."""

    def __init__(self, client: discord.Client, service: TwixtService) -> None:
        self._client = client
        self._service = service

    def start(self) -> None:
        self.dispatch.start()

    def stop(self) -> None:
        # Cancelled, not stopped: a graceful stop would first sleep out the wait.
        self.dispatch.cancel()

    @tasks.loop(seconds=0)  # the pause is the wait for the next wake-up
    async def dispatch(self) -> None:
        await self.round()
        await self.sleep()

    @dispatch.before_loop
    async def _until_ready(self) -> None:
        # Channels come from the cache once the client is ready, not one fetch each.
        await self._client.wait_until_ready()

    async def sleep(self) -> None:
        """Until the next wake-up, a turn that needs an earlier one, or a minute at most."""
        try:
            await self._service.wait()
        except Exception:  # say the database failed: the next round tries again
            log.exception("clock wait failed")
            await asyncio.sleep(LONGEST_SLEEP.total_seconds())

    async def round(self) -> None:
        """One tick of the clocks, and every reply it makes delivered."""
        try:
            replies = await self._service.tick()
        except Exception:
            log.exception("clock tick failed")
            return
        for reply in replies:
            try:
                if await outbox.post(self._client, reply) and reply.receipt is not None:
                    await self._service.delivered(reply.receipt)
            except Exception:
                log.exception("clock reply not delivered", extra={
                    "channel_id": reply.channel_id, "dm_user_id": reply.dm_user_id})
