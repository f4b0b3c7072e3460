"""Tournaments and leagues as stored facts (SQLite's migration 0011, PostgreSQL's 0008), on
both back ends: events, their entrants and their pairings, read back as they were stored."""

from dataclasses import replace
from datetime import timedelta

import pytest
from storage_helpers import SMALL, T0, start_game

from storage import (
    Entrant,
    Event,
    EventFormat,
    EventGame,
    EventStatus,
    NotFoundError,
)

EVENT = Event(0, 100, 7, "Autumn Cup", EventFormat.SWISS,
              replace(SMALL, time_control="10d+36h", vacation=False), 4, False, False,
              T0 + timedelta(days=3), EventStatus.SIGNUP, 0, 1, None, 1, T0)


async def test_an_event_reads_back_as_stored_and_is_listed_newest_first(store):
    first = await store.create_event(EVENT)
    second = await store.create_event(replace(EVENT, name="Winter League", season=2,
                                              format=EventFormat.LEAGUE, previous_id=first.id,
                                              double=True, teams=True))
    assert replace(first, id=0) == EVENT
    assert await store.get_event(second.id) == second
    assert (second.previous_id, second.season, second.double, second.teams) == (
        first.id, 2, True, True)
    assert [e.id for e in await store.events(100)] == [second.id, first.id]
    assert [e.id for e in await store.events(100, limit=1)] == [second.id]
    assert await store.events(101) == ()
    with pytest.raises(NotFoundError):
        await store.get_event(second.id + 100)


async def test_only_events_past_their_deadline_and_still_signing_up_are_due(store):
    early = await store.create_event(EVENT)
    late = await store.create_event(replace(EVENT, signup_until=T0 + timedelta(days=5)))
    assert await store.due_events(T0) == ()
    assert [e.id for e in await store.due_events(T0 + timedelta(days=6))] == [early.id, late.id]
    assert await store.move_event(early.id, EventStatus.RUNNING, 1, was=EventStatus.SIGNUP,
                                  was_round=0)
    # a second start (another process, a restart) finds it moved on
    assert not await store.move_event(early.id, EventStatus.RUNNING, 1,
                                      was=EventStatus.SIGNUP, was_round=0)
    assert [e.id for e in await store.due_events(T0 + timedelta(days=6))] == [late.id]
    assert [e.id for e in await store.events(100, status=EventStatus.RUNNING)] == [early.id]
    assert (await store.get_event(early.id)).round == 1


async def test_entrants_join_confirm_leave_and_withdraw(store):
    event = await store.create_event(replace(EVENT, teams=True))
    await store.save_entrant(Entrant(event.id, 1, partner_id=2, confirmed=False, joined_at=T0))
    await store.save_entrant(Entrant(event.id, 3, joined_at=T0 + timedelta(hours=1)))
    await store.save_entrant(Entrant(event.id, 1, partner_id=2, confirmed=True, joined_at=T0))
    found = await store.entrants(event.id, limit=10)
    assert [(e.user_id, e.partner_id, e.confirmed, e.players) for e in found] == [
        (1, 2, True, (1, 2)), (3, None, True, (3,))]
    assert len(await store.entrants(event.id, limit=1)) == 1
    assert await store.withdraw_entrant(event.id, 3)
    assert not await store.withdraw_entrant(event.id, 3)
    assert [e.withdrawn for e in await store.entrants(event.id, limit=10)] == [False, True]
    assert await store.drop_entrant(event.id, 1)
    assert not await store.drop_entrant(event.id, 1)
    assert [e.user_id for e in await store.entrants(event.id, limit=10)] == [3]


async def test_pairings_are_linked_to_games_and_scored_once(store):
    event = await store.create_event(EVENT)
    stored = await store.add_event_games(event.id, [
        EventGame(0, 0, 1, 0, 11, 12), EventGame(0, 0, 1, 0, 13, None, score=1.0),
        EventGame(0, 0, 2, 1, 12, 13)])
    assert [(g.round, g.group, g.red, g.black, g.score) for g in stored] == [
        (1, 0, 11, 12, None), (1, 0, 13, None, 1.0), (2, 1, 12, 13, None)]
    game = await start_game(store, 20)
    assert await store.link_event_game(stored[0].id, game.id)
    assert not await store.link_event_game(stored[0].id, game.id)
    assert await store.event_game_of(game.id) == replace(stored[0], game_id=game.id)
    assert await store.event_game_of(game.id + 1) is None
    assert await store.score_event_game(stored[0].id, 0.5, False)
    assert not await store.score_event_game(stored[0].id, 1.0, True)  # the first one stands
    assert await store.score_event_game(stored[2].id, 0.0, True)
    games = await store.event_games(event.id, limit=10)
    assert [(g.score, g.forfeit) for g in games] == [(0.5, False), (1.0, False), (0.0, True)]
    assert len(await store.event_games(event.id, limit=2)) == 2
