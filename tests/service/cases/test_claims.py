"""A forfeit on time is announced once, even when the process that made it dies: its
announcement is claimed before the forfeit is committed and marked once delivered, like a
reminder, and sent again a few minutes later if it was not. A real service over a real SQLite
file, on a clock moved by hand."""

from __future__ import annotations

from tests.service.cases.test_wakeups import H
from tests.service.helpers import start_game, tick
from tests.service.people import ALICE, BOB, CHANNEL, asking
from tests.typed import enter
from twixt.service.cases.clocks import FORFEIT, RESEND_AFTER
from twixt.service.model import Receipt


async def forfeit_game(service, clock) -> None:
    await start_game(service, time="12h", swap="no", vacation="no")
    await service.preferences.server_settings(asking(BOB, server_manager=True),
                                              {"forfeit": "yes"})
    await tick(service)
    clock.now += 12 * H


async def test_a_forfeit_not_delivered_is_announced_again_once(service, storage, clock):
    await forfeit_game(service, clock)
    [forfeit] = await service.tick()  # posted, but the process died before noting it
    assert "alice ran out of time." in forfeit.plain
    assert forfeit.receipt == Receipt(1, 0, FORFEIT)
    assert forfeit.buttons and forfeit.mentions == (ALICE.id, BOB.id)
    assert await storage.active_game(CHANNEL) is None
    clock.now += RESEND_AFTER / 2
    assert await service.tick() == []  # it may still be on its way
    clock.now += RESEND_AFTER
    [again] = await tick(service)
    assert again.plain == forfeit.plain and again.receipt == forfeit.receipt
    assert again.channel_id == CHANNEL and again.image
    clock.now += 2 * RESEND_AFTER
    assert await tick(service) == []


async def test_a_forfeit_claimed_but_never_committed_still_happens_once(service, storage,
                                                                        clock):
    await forfeit_game(service, clock)
    # a process claimed the announcement and died before the forfeit
    assert await storage.claim_reminder(1, 0, FORFEIT, now=clock.now)
    assert await storage.set_wake(1, 0, clock.now + RESEND_AFTER)  # its lease
    clock.now += 2 * RESEND_AFTER
    [forfeit] = await tick(service)
    assert "alice ran out of time." in forfeit.plain
    assert forfeit.receipt == Receipt(1, 0, FORFEIT)
    assert await storage.active_game(CHANNEL) is None
    clock.now += 2 * RESEND_AFTER
    assert await tick(service) == []


async def test_a_forfeit_that_lost_to_a_move_is_not_announced(service, storage, clock):
    await forfeit_game(service, clock)
    stale = await storage.active_game(CHANNEL)
    await enter(service, asking(ALICE), "K10")  # just in time, in another process
    # the tick had read the game before the move: the version check refuses the forfeit
    assert await service.clocks._expired(
        stale, await storage.guild_settings(1), await service.desk.turn_clock(stale),
        clock.now, asking(BOB).tr) is None
    clock.now += 2 * RESEND_AFTER
    assert await tick(service) == []  # the claimed announcement is let go
    assert (await storage.active_game(CHANNEL)).version == 1
