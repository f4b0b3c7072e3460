"""The line for PostgreSQL's connections, alone: places handed out in the order asked, and
never lost to a waiter cancelled at any moment (the storage's own tests race it on a real
server)."""

import asyncio

from twixt.storage.backends.postgres_line import Line


async def test_places_go_in_the_order_they_were_asked_for():
    line = Line(2)
    served: list[int] = []
    release = asyncio.Event()

    async def user(number: int) -> None:
        async with line.place():
            served.append(number)
            await release.wait()

    tasks = [asyncio.create_task(user(number)) for number in range(6)]
    await asyncio.sleep(0)
    assert served == [0, 1]
    release.set()
    await asyncio.gather(*tasks)
    assert served == [0, 1, 2, 3, 4, 5]


async def test_a_waiter_cancelled_in_line_is_passed_over():
    line = Line(1)
    held = line.ask()
    await line.wait(held)
    leaving = asyncio.create_task(line.wait(line.ask()))
    staying = line.ask()
    await asyncio.sleep(0)
    leaving.cancel()
    await asyncio.sleep(0)
    line.give_back()
    assert staying.done()


async def test_a_place_handed_to_a_waiter_cancelled_before_it_ran_is_handed_on():
    line = Line(1)
    first = line.ask()
    await line.wait(first)
    second = line.ask()
    waiting = asyncio.create_task(line.wait(second))
    third = line.ask()
    await asyncio.sleep(0)
    line.give_back()  # the place goes to the second waiter, which is cancelled before it runs
    assert second.done()
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    assert third.done()  # handed on, not lost
