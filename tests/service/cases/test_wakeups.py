"""The clocks' stored wake-ups: a turn sets its game's next one, a tick reads only the games
that are due and sets each one's next, a change of the server's clock settings is felt at
once, and the dispatcher's sleep ends when a turn needs an earlier wake-up. A real service
over a real SQLite file, on a clock moved by hand; real asyncio tasks where things race."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from tests.service.helpers import start_game, tick
from tests.service.people import ALICE, BOB, CHANNEL, asking
from tests.typed import enter
from twixt.service import ButtonKind, TwixtService, build_options

H = timedelta(hours=1)


async def start_in(service: TwixtService, channel: int, time: str) -> None:
    await service.challenges.challenge(asking(ALICE, channel), BOB,
                                       build_options(time=time, swap="no"))
    await service.challenges.accept(asking(BOB, channel))


async def asleep(service: TwixtService) -> None:
    """Until the dispatcher has planned its wake-up (until then every commit rings it)."""
    for _ in range(1000):
        if service.desk.alarm.planned is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the dispatcher never went to sleep")


async def test_each_turn_and_each_tick_store_the_next_mark(service, storage, clock):
    start = clock.now
    await start_game(service, time="3d", swap="no", vacation="no")
    assert await storage.next_wake() == start  # a new clock is looked at at once
    assert await tick(service) == []
    assert await storage.next_wake() == start + 24 * H  # the first reminder
    clock.now += H
    await enter(service, asking(ALICE), "K10")
    assert await storage.next_wake() == start + 25 * H  # bob's first reminder
    clock.now = start + 25 * H
    [first] = await tick(service)
    assert first.plain.startswith("bob, it is your move")
    assert await storage.next_wake() == start + 49 * H  # bob's last reminder
    clock.now = start + 49 * H
    [final] = await tick(service)
    assert "(1d 0h left)" in final.plain
    assert await storage.next_wake() == start + 73 * H  # bob's deadline
    clock.now = start + 73 * H
    [notice] = await tick(service)
    assert notice.buttons[0].kind is ButtonKind.CLAIM
    assert await storage.next_wake() is None  # nothing more until a turn or a setting


async def test_a_tick_with_nothing_due_reads_no_game(storage, clock, monkeypatch):
    service = TwixtService(storage, clock=clock)
    for channel in range(100, 105):
        await start_in(service, channel, "3d")
    await tick(service)
    clock.now += 23 * H
    restarted = TwixtService(storage, clock=clock)  # nothing cached
    loaded: list[int] = []
    load_game = storage.load_game

    async def counted(game_id: int):
        loaded.append(game_id)
        return await load_game(game_id)

    monkeypatch.setattr(storage, "load_game", counted)
    assert await tick(restarted) == []
    assert loaded == []
    clock.now += H
    assert len(await tick(restarted)) == 5
    assert sorted(loaded) == [1, 2, 3, 4, 5]


async def test_forfeit_switched_on_after_the_deadline_takes_effect_at_the_next_tick(
        service, storage, clock):
    await start_game(service, time="12h", swap="no", vacation="no")
    clock.now += 12 * H
    [notice] = await tick(service)
    assert notice.buttons[0].kind is ButtonKind.CLAIM
    assert await tick(service) == []
    await service.preferences.server_settings(asking(BOB, server_manager=True),
                                              {"forfeit": "yes"})
    [forfeit] = await tick(service)
    assert "alice ran out of time." in forfeit.plain
    assert await storage.active_game(CHANNEL) is None
    assert await storage.next_wake() is None


async def test_a_shorter_reminder_setting_moves_the_first_reminder_at_once(
        service, storage, clock):
    start = clock.now
    await start_game(service, time="3d", swap="no")
    assert await tick(service) == []
    clock.now += H
    await service.preferences.server_settings(asking(BOB, server_manager=True),
                                              {"reminder": "12"})
    assert await tick(service) == []
    assert await storage.next_wake() == start + 12 * H
    clock.now = start + 12 * H
    [first] = await tick(service)
    assert first.plain == "alice, it is your move in game 1 (2d 12h left)."


async def test_a_tick_racing_turns_loses_no_reminder_and_doubles_none(storage, clock):
    service = TwixtService(storage, clock=clock)
    channels = range(100, 112)
    for channel in channels:
        await start_in(service, channel, "3d")
    await tick(service)
    start = clock.now
    clock.now = start + 25 * H  # every alice is due a first reminder
    moving = channels[::2]
    racing = await asyncio.gather(tick(service),
                                  *(enter(service, asking(ALICE, c), "K10") for c in moving))
    first = racing[0]
    assert len({reply.receipt for reply in first}) == len(first)
    reminded = {reply.channel_id for reply in first}
    assert reminded >= set(channels[1::2])  # nobody moved there: each is reminded
    assert await tick(service) == []  # and only once
    clock.now = start + 49 * H  # alice's last reminder, or bob's first after alice moved
    later = await tick(service)
    assert sorted(reply.channel_id for reply in later) == list(channels)
    for reply in later:
        mover = BOB if reply.channel_id in moving else ALICE
        assert reply.plain.startswith(f"{mover.name}, it is your move")


async def test_the_sleep_ends_when_a_turn_needs_an_earlier_wake_up(service, clock):
    await start_in(service, 100, "3d")
    await tick(service)  # the next wake-up: alice's first reminder, in 24 hours
    sleeping = asyncio.create_task(service.clocks.wait(longest=timedelta(days=1)))
    await asleep(service)
    assert service.desk.alarm.planned == clock.now + 24 * H
    clock.now += timedelta(minutes=10)
    await enter(service, asking(ALICE, 100), "K10")  # bob's in 24 hours: not earlier
    await start_in(service, 101, "1h")
    for _ in range(5):
        await asyncio.sleep(0)
    assert not sleeping.done()
    await enter(service, asking(ALICE, 101), "K10")  # bob's in 20 minutes: earlier
    await asyncio.wait_for(sleeping, timeout=10)


async def test_with_no_clock_running_the_sleep_lasts_as_long_as_asked(service):
    await start_game(service, swap="no")
    sleeping = asyncio.create_task(service.clocks.wait(longest=timedelta(hours=1)))
    # room for the wait's reads: a wait that returned at once would be done by then
    done, _ = await asyncio.wait({sleeping}, timeout=0.5)
    assert not done  # it sleeps, rather than returning at once
    sleeping.cancel()
    await asyncio.wait_for(service.clocks.wait(longest=timedelta(milliseconds=1)),
                           timeout=10)



async def test_the_sleep_ends_when_a_takeback_needs_an_earlier_wake_up(service, storage,
                                                                          clock):
    # a bank: alice spends most of hers on her first peg, and a takeback gives her the move
    # back with what is left, far sooner due than bob's fresh turn the dispatcher sleeps for
    await start_in(service, 100, "2d+1h")
    clock.now += 40 * H
    await enter(service, asking(ALICE, 100), "K10")
    bobs = await storage.next_wake()
    sleeping = asyncio.create_task(service.clocks.wait(longest=timedelta(days=3)))
    await asleep(service)
    assert service.desk.alarm.planned == bobs
    await enter(service, asking(ALICE, 100), "takeback")  # a request changes no clock
    for _ in range(5):
        await asyncio.sleep(0)
    assert not sleeping.done()
    await enter(service, asking(BOB, 100), "accept takeback")
    alices = await storage.next_wake()
    assert alices is not None and alices < bobs
    await asyncio.wait_for(sleeping, timeout=10)
