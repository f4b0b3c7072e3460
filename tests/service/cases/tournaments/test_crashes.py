"""Tournaments cut short by a crash at their worst moments: the process dies (here: storage
raises) between two steps of a start, a round's end or a game's opening, and a restarted
service finishes the step, once, over the same SQLite file."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from tests.service.cases.tournaments.helpers import PLAYERS, open_games, play_out
from tests.service.cases.tournaments.test_seasons_and_rounds import MANAGER, create, sign_up
from tests.service.people import asking
from tests.typed import enter
from twixt.service import ConflictError, Port, TwixtService
from twixt.storage import Storage, TournamentStatus


class Crash(Exception):
    """The process dying at this point."""


class Dying:
    """The storage of a process that dies in `method`: `after` True, just after it has run
    (its work is stored), else before."""

    def __init__(self, storage: Storage, method: str, *, after: bool = False) -> None:
        self._storage, self._method, self._after = storage, method, after

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._storage, name)
        if name != self._method:
            return real

        async def dies(*args: Any, **kwargs: Any) -> Any:
            if self._after:
                await real(*args, **kwargs)
            raise Crash(name)
        return dies


def process(storage: Any, clock, threads) -> TwixtService:
    return TwixtService(storage, Port(threads=threads), clock=clock, rng=random.Random(3))


async def test_a_start_cut_short_before_its_pairings_is_paired_at_the_next_tick(
        service, storage, clock, threads):
    tournament_id = await create(service, "format swiss rounds 3 size 8 rules pp signup 1d")
    await sign_up(service, tournament_id, PLAYERS[:4])
    dying = process(Dying(storage, "pair_round"), clock, threads)
    clock.now += timedelta(days=1, minutes=1)
    assert await dying.tick() == []  # the failure is logged; the tournament keeps its look
    assert (await storage.get_tournament(tournament_id)).status is TournamentStatus.RUNNING
    assert await storage.tournament_games(tournament_id, 100) == ()
    # sign-up is closed: nobody joins the tournament that is being paired
    with pytest.raises(ConflictError, match="sign-up is closed"):
        await enter(service, asking(PLAYERS[5]), f"tournament join {tournament_id}")
    said = await process(storage, clock, threads).tick()
    assert any("2 games opened" in r.plain for r in said)
    assert len(await open_games(storage, tournament_id)) == 2
    assert (await storage.get_tournament(tournament_id)).round == 1


async def test_a_swiss_round_cut_short_is_paired_at_the_next_tick(service, storage, clock,
                                                                  threads):
    tournament_id = await create(service, "format swiss rounds 3 size 8 rules pp")
    await sign_up(service, tournament_id, PLAYERS[:4])
    await enter(service, MANAGER, "tournament start")
    first = await open_games(storage, tournament_id)
    dying = process(Dying(storage, "pair_round"), clock, threads)
    (loser, game), (last_loser, last) = [(PLAYERS[max(g.red, g.black) - 201], g)
                                         for g in first]
    await play_out_one(service, loser, game)
    # the last game of round 1 ends, and the process dies pairing round 2 (the hook's
    # failure is logged: the game's end stands)
    await play_out_one(dying, last_loser, last)
    assert (await storage.get_tournament(tournament_id)).round == 1
    assert await open_games(storage, tournament_id) == []
    said = await process(storage, clock, threads).tick()
    assert any("Round 2." in r.plain for r in said)
    assert (await storage.get_tournament(tournament_id)).round == 2
    assert len(await open_games(storage, tournament_id)) == 2
    assert await process(storage, clock, threads).tick() == []  # done once


async def test_a_game_stored_just_before_a_crash_is_not_opened_twice(service, storage, clock,
                                                                     threads):
    tournament_id = await create(service, "format roundrobin size 8 rules pp")
    await sign_up(service, tournament_id, PLAYERS[:2])
    dying = process(Dying(storage, "create_game", after=True), clock, threads)
    await enter(dying, MANAGER, "tournament start")  # the crash is logged, the game stored
    reply = await enter(service, MANAGER, "tournament start")  # open what is missing
    assert reply.plain == "Autumn Cup is running already, and each of its games is open."
    (pairing,) = await storage.tournament_games(tournament_id, 10)
    assert pairing.game_id is not None
    assert len(await storage.list_games(limit=10)) == 1
    await play_out(service, tournament_id)
    assert (await storage.get_tournament(tournament_id)).status is TournamentStatus.FINISHED


async def play_out_one(service: TwixtService, loser, game) -> None:
    stored = await service.desk.storage.get_game(game.game_id)
    await enter(service, asking(loser, stored.channel_id), "resign yes")
