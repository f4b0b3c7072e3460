"""A service whose bot thinks in a real engine pool, and what the bot says, collected."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tests.fakes import Clock, FakeThreads
from tests.service.people import CHANNEL
from twixt.service import Port, Reply, TwixtService
from twixt.service.cases.engine_player import Think
from twixt.service.desk.engine_pool import EnginePool
from twixt.service.port import Thinking, no_sign
from twixt.storage import Storage


class Said:
    """What the bot delivered, in order."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []

    async def __call__(self, reply: Reply) -> None:
        self.replies.append(reply)

    def texts(self, channel_id: int | None = CHANNEL) -> list[str]:
        return [r.plain for r in self.replies if channel_id in (None, r.channel_id)]


@asynccontextmanager
async def engine_service(storage: Storage, think: Think | None = None, *,
                      pool: EnginePool | None = None, clock: Clock | None = None,
                      thinking: Thinking = no_sign
                      ) -> AsyncIterator[tuple[TwixtService, Said]]:
    """A service (one process of the bot) with its own engine pool of one worker; `think`
    replaces the engine's search, `thinking` is the front end's sign of it."""
    said = Said()
    service = TwixtService(storage, Port(threads=FakeThreads(), post=said, thinking=thinking),
                           clock=clock or Clock(), rng=random.Random(1),
                           engine_pool=pool or EnginePool(1))
    if think is not None:
        service.engine_player.think = think
    try:
        yield service, said
    finally:
        await service.close()
