"""The clocks' tick and running tournaments: a tournament is read only when a write has owed it
a look (its start, a game's end, a score, a withdrawal), its pairings only then, so a tick with
nothing due costs the same however many tournaments run; and a step a crash cut short is still
made by the next tick, found by the look the write owed."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.service.cases.tournaments.helpers import PLAYERS, lose, open_games
from tests.service.cases.tournaments.test_crashes import Dying, process
from tests.service.cases.tournaments.test_seasons_and_rounds import MANAGER, create, sign_up
from tests.typed import enter
from twixt.service import TwixtService
from twixt.service.cases.tournaments import organising
from twixt.storage import Storage, TournamentStatus


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


class Failing(Counting):
    """Reading one tournament's pairings fails, as a broken row would; `tries` counts how
    often it was tried."""

    def __init__(self, storage: Storage, broken: int) -> None:
        super().__init__(storage)
        self.broken, self.tries = broken, 0

    def __getattr__(self, name: str) -> Any:
        real = super().__getattr__(name)
        if name != "tournament_games":
            return real

        async def failing(tournament_id: int, *args: Any, **kwargs: Any) -> Any:
            if tournament_id == self.broken:
                self.tries += 1
                raise RuntimeError("a broken row")
            return await real(tournament_id, *args, **kwargs)
        return failing


async def running_tournaments(service: TwixtService, count: int) -> list[int]:
    """`count` Swiss tournaments started, each with four players (two games under way)."""
    started = []
    for _ in range(count):
        tournament_id = await create(service, "format swiss rounds 3 size 8 rules pp")
        await sign_up(service, tournament_id, PLAYERS[:4])
        await enter(service, MANAGER, f"tournament start {tournament_id}")
        started.append(tournament_id)
    return started


async def end_first_game(service: TwixtService, storage: Storage, tournament_id: int) -> None:
    """The first open game of a tournament ends: the player who signed up later loses."""
    (game, _other) = await open_games(storage, tournament_id)
    assert game.black is not None
    await lose(service, PLAYERS[max(game.red, game.black) - 201], game)


async def test_a_tick_with_running_tournaments_and_nothing_due_reads_no_pairings(
        service, storage, clock, threads):
    tournament_ids = await running_tournaments(service, 3)
    await end_first_game(service, storage, tournament_ids[0])
    counting = Counting(storage)
    ticking = process(counting, clock, threads)
    # the starts and the game's end owe looks: the first tick takes them, each tournament once
    assert await ticking.tick() == []
    assert counting.calls["tournament_games"] == len(tournament_ids)
    assert {e.id: e.looks for e in await storage.due_tournaments(clock.now)} == {}
    counting.calls.clear()
    assert await ticking.tick() == []
    assert counting.calls["tournament_games"] == counting.calls["get_game"] == 0
    assert counting.calls["due_tournaments"] == 1


async def test_a_round_end_cut_short_after_the_games_end_is_found_by_its_look(
        service, storage, clock, threads):
    (tournament_id,) = await running_tournaments(service, 1)
    assert await process(storage, clock, threads).tick() == []  # the start's look taken
    # the process dies after each game's end is stored, before it is scored: the hook's
    # failure is logged, the games' ends stand with the looks they owe
    dying = process(Dying(storage, "score_tournament_game"), clock, threads)
    for game in await open_games(storage, tournament_id):
        assert game.black is not None
        await lose(dying, PLAYERS[max(game.red, game.black) - 201], game)
    assert (await storage.get_tournament(tournament_id)).round == 1
    [owed] = await storage.due_tournaments(clock.now)
    assert owed.id == tournament_id and owed.looks == 2
    said = await process(storage, clock, threads).tick()
    assert any("Round 2." in r.plain for r in said)
    assert (await storage.get_tournament(tournament_id)).round == 2
    assert len(await open_games(storage, tournament_id)) == 2
    # the restart's own scores owed one more look, which finds nothing more to do
    assert await process(storage, clock, threads).tick() == []
    assert await storage.due_tournaments(clock.now) == ()
    assert (await storage.get_tournament(tournament_id)).status is TournamentStatus.RUNNING


async def test_an_tournament_that_fails_at_a_tick_keeps_its_look_and_the_others_go_on(
        service, storage, clock, threads):
    tournament_ids = await running_tournaments(service, 2)
    for tournament_id in tournament_ids:
        await end_first_game(service, storage, tournament_id)
    first = min(tournament_ids)

    assert await process(Failing(storage, first), clock, threads).tick() == []
    owed = {tournament.id for tournament in await storage.due_tournaments(clock.now)}
    assert owed == {first}  # the other tournament was looked at and cleared


async def test_a_tournament_that_always_fails_is_left_after_a_few_ticks_and_keeps_no_place(
        service, storage, clock, threads, monkeypatch):
    tournament_ids = await running_tournaments(service, 2)
    for tournament_id in tournament_ids:
        await end_first_game(service, storage, tournament_id)
    broken = min(tournament_ids)
    # a batch of one: the broken tournament, due first, would hold the only place forever
    monkeypatch.setattr(organising, "BATCH", 1)
    failing = Failing(storage, broken)
    one_process = process(failing, clock, threads)
    for _ in range(10):
        await one_process.tick()
    assert failing.tries == organising.MAX_FAILED_LOOKS
    owed = {tournament.id for tournament in await storage.due_tournaments(clock.now)}
    assert owed == {broken}  # the other one got the batch's place and was looked at


async def test_a_games_end_reads_the_games_that_ended_not_every_open_one(
        service, storage, clock, threads):
    tournament_id = await create(service, "format roundrobin size 8 rules pp")
    await sign_up(service, tournament_id, PLAYERS[:6])
    await enter(service, MANAGER, "tournament start")
    game = (await open_games(storage, tournament_id))[0]
    assert game.black is not None
    counting = Counting(storage)
    await lose(process(counting, clock, threads), PLAYERS[max(game.red, game.black) - 201],
               game)
    assert counting.calls["score_tournament_game"] == 1
    # 15 games are open: the end of one reads its own, not the other 14
    assert counting.calls["get_game"] < 5, counting.calls["get_game"]
