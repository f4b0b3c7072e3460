"""The clocks' tick and running events: an event is read only when a write has owed it a look
(its start, a game's end, a score, a withdrawal), its pairings only then, so a tick with
nothing due costs the same however many events run; and a step a crash cut short is still
made by the next tick, found by the look the write owed."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.service.cases.tournaments.helpers import PLAYERS, lose, open_games
from tests.service.cases.tournaments.test_crashes import Dying, process
from tests.service.cases.tournaments.test_seasons_and_rounds import MANAGER, create, sign_up
from twixt.service import TwixtService
from twixt.storage import EventStatus, Storage


class Counting:
    """A storage that counts the calls of each of its methods."""

    def __init__(self, storage: Storage) -> None:
        self._storage, self.calls = storage, Counter[str]()

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._storage, name)
        if not callable(real):
            return real

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return await real(*args, **kwargs)
        return counted


async def running_events(service: TwixtService, count: int) -> list[int]:
    """`count` Swiss events started, each with four players (two games under way)."""
    started = []
    for _ in range(count):
        event_id = await create(service, "format swiss rounds 3 size 8 rules pp")
        await sign_up(service, event_id, PLAYERS[:4])
        await service.run(MANAGER, f"tournament start {event_id}")
        started.append(event_id)
    return started


async def end_first_game(service: TwixtService, storage: Storage, event_id: int) -> None:
    """The first open game of an event ends: the player who signed up later loses."""
    (game, _other) = await open_games(storage, event_id)
    assert game.black is not None
    await lose(service, PLAYERS[max(game.red, game.black) - 201], game)


async def test_a_tick_with_running_events_and_nothing_due_reads_no_pairings(
        service, storage, clock, threads):
    event_ids = await running_events(service, 3)
    await end_first_game(service, storage, event_ids[0])
    counting = Counting(storage)
    ticking = process(counting, clock, threads)
    # the starts and the game's end owe looks: the first tick takes them, each event once
    assert await ticking.tick() == []
    assert counting.calls["event_games"] == len(event_ids)
    assert {e.id: e.looks for e in await storage.due_events(clock.now)} == {}
    counting.calls.clear()
    assert await ticking.tick() == []
    assert counting.calls["event_games"] == counting.calls["get_game"] == 0
    assert counting.calls["due_events"] == 1


async def test_a_round_end_cut_short_after_the_games_end_is_found_by_its_look(
        service, storage, clock, threads):
    (event_id,) = await running_events(service, 1)
    assert await process(storage, clock, threads).tick() == []  # the start's look taken
    # the process dies after each game's end is stored, before it is scored: the hook's
    # failure is logged, the games' ends stand with the looks they owe
    dying = process(Dying(storage, "score_event_game"), clock, threads)
    for game in await open_games(storage, event_id):
        assert game.black is not None
        await lose(dying, PLAYERS[max(game.red, game.black) - 201], game)
    assert (await storage.get_event(event_id)).round == 1
    [owed] = await storage.due_events(clock.now)
    assert owed.id == event_id and owed.looks == 2
    said = await process(storage, clock, threads).tick()
    assert any("Round 2." in r.plain for r in said)
    assert (await storage.get_event(event_id)).round == 2
    assert len(await open_games(storage, event_id)) == 2
    # the restart's own scores owed one more look, which finds nothing more to do
    assert await process(storage, clock, threads).tick() == []
    assert await storage.due_events(clock.now) == ()
    assert (await storage.get_event(event_id)).status is EventStatus.RUNNING


async def test_an_event_that_fails_at_a_tick_keeps_its_look_and_the_others_go_on(
        service, storage, clock, threads):
    event_ids = await running_events(service, 2)
    for event_id in event_ids:
        await end_first_game(service, storage, event_id)
    first = min(event_ids)

    class FailingFirst(Counting):
        """Reading the first event's pairings fails, as a broken row would."""

        def __getattr__(self, name: str) -> Any:
            real = super().__getattr__(name)
            if name != "event_games":
                return real

            async def failing(event_id: int, *args: Any, **kwargs: Any) -> Any:
                if event_id == first:
                    raise RuntimeError("a broken row")
                return await real(event_id, *args, **kwargs)
            return failing

    assert await process(FailingFirst(storage), clock, threads).tick() == []
    owed = {event.id for event in await storage.due_events(clock.now)}
    assert owed == {first}  # the other event was looked at and cleared


async def test_a_games_end_reads_the_games_that_ended_not_every_open_one(
        service, storage, clock, threads):
    event_id = await create(service, "format roundrobin size 8 rules pp")
    await sign_up(service, event_id, PLAYERS[:6])
    await service.run(MANAGER, "tournament start")
    game = (await open_games(storage, event_id))[0]
    assert game.black is not None
    counting = Counting(storage)
    await lose(process(counting, clock, threads), PLAYERS[max(game.red, game.black) - 201],
               game)
    assert counting.calls["score_event_game"] == 1
    # 15 games are open: the end of one reads its own, not the other 14
    assert counting.calls["get_game"] < 5, counting.calls["get_game"]
