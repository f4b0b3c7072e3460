"""The service's own races, on both back ends: presses that arrive together in real asyncio
tasks, each awaiting its storage calls, must still do what one press does."""

import asyncio
import random

from tests.fakes import Clock
from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CHANNEL, asking
from twixt.service import TwixtService

#: races run one after another (how the tasks interleave depends on the back end's timing)
ROUNDS = 4


async def test_rematch_pressed_by_both_players_at_once_makes_one_challenge(store):
    service = TwixtService(store, clock=Clock(), rng=random.Random(1))
    await start_game(service, swap="no")
    for game_id in range(1, ROUNDS + 1):
        await service.turns.resign(asking(BOB), confirmed=True)
        answers = await asyncio.gather(service.challenges.rematch(asking(ALICE), game_id),
                                       service.challenges.rematch(asking(BOB), game_id))
        # one press challenges, the other accepts that challenge: one new game, nothing waiting
        started = [answer.text.startswith(f"Game {game_id + 1} on") for answer in answers]
        assert sorted(started) == [False, True]
        assert await store.pending_challenges(channel_id=CHANNEL) == ()
