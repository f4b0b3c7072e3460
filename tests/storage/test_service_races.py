"""The service's own races, on both back ends: presses that arrive together in real asyncio
tasks, each awaiting its storage calls, must still do what one press does."""

import asyncio
import random

from bot.service import TwixtService
from tests.bot_service.helpers import ALICE, BOB, CHANNEL, asking, start_game
from tests.fakes import Clock


async def test_rematch_pressed_by_both_players_at_once_makes_one_challenge(store):
    service = TwixtService(store, clock=Clock(), rng=random.Random(1))
    await start_game(service, swap="no")
    await service.play.resign(asking(BOB), confirmed=True)
    answers = await asyncio.gather(service.challenges.rematch(asking(ALICE), 1),
                                   service.challenges.rematch(asking(BOB), 1))
    # one press challenges, the other accepts that challenge: one new game, nothing waiting
    assert sorted(answer.text.startswith("Game 2 on") for answer in answers) == [False, True]
    assert await store.pending_challenges(channel_id=CHANNEL) == ()
    assert (await store.active_game(CHANNEL)) is not None
