"""Vacations: stored within a year's allowance, an automatic day taken once, ended early,
read back boundedly, and every change waking the player's clocked games of the guild; a
game's vacation option and a seat's weekends off kept with the game."""

import asyncio
from datetime import timedelta

from tests.storage.storage_helpers import CLOCKED, T0, clocked
from twixt.storage import GameSetup, Player

D = timedelta(days=1)


async def test_a_vacation_is_stored_and_read_back(store):
    vacation = await store.add_vacation(100, 1, T0, T0 + 3 * D, 3, allowed=14)
    assert (vacation.user_id, vacation.starts_at, vacation.ends_at, vacation.days,
            vacation.automatic, vacation.game_id) == (1, T0, T0 + 3 * D, 3, False, None)
    assert await store.vacations(100, [1, 2], T0) == (vacation,)
    assert await store.vacations(100, [1], T0 + 3 * D) == ()  # ended by then
    assert await store.vacations(200, [1], T0) == ()  # another guild's are its own
    assert await store.vacation_days_used(100, 1, 2026) == 3
    assert await store.vacation_days_used(100, 1, 2027) == 0


async def test_the_days_of_a_year_are_not_exceeded(store):
    assert await store.add_vacation(100, 1, T0, T0 + 10 * D, 10, allowed=14)
    assert await store.add_vacation(100, 1, T0 + 20 * D, T0 + 25 * D, 5, allowed=14) is None
    assert await store.add_vacation(100, 1, T0 + 20 * D, T0 + 24 * D, 4, allowed=14)
    assert await store.vacation_days_used(100, 1, 2026) == 14
    # the next calendar year has its own days, and another guild its own
    next_year = T0.replace(year=2027)
    assert await store.add_vacation(100, 1, next_year, next_year + 14 * D, 14, allowed=14)
    assert await store.add_vacation(200, 1, T0, T0 + D, 1, allowed=14)
    assert await store.add_vacation(100, 2, T0, T0 + D, 1, allowed=0) is None


async def test_an_automatic_day_is_taken_once_however_many_try(store):
    game = await clocked(store, 1)
    tries = await asyncio.gather(*(
        store.add_vacation(100, 1, T0 + D, T0 + 2 * D, 1, allowed=14, automatic=True,
                           game_id=game.id) for _ in range(5)))
    assert len(set(tries)) == 1 and tries[0].automatic and tries[0].game_id == game.id
    assert await store.vacation_days_used(100, 1, 2026) == 1


async def test_ending_early_counts_the_new_days_once(store):
    vacation = await store.add_vacation(100, 1, T0, T0 + 5 * D, 5, allowed=14)
    ended = await store.end_vacation(vacation.id, T0 + D, 2)
    assert (ended.ends_at, ended.days) == (T0 + D, 2)
    assert await store.end_vacation(vacation.id, T0 + D, 2) is None  # over already
    assert await store.end_vacation(vacation.id, T0 + 2 * D, 3) is None
    assert await store.vacation_days_used(100, 1, 2026) == 2
    assert await store.vacations(100, [1], T0 + D) == ()


async def test_a_vacation_to_come_cannot_be_ended_before_it_starts(store):
    vacation = await store.add_vacation(100, 1, T0 + D, T0 + 2 * D, 1, allowed=14)
    assert await store.end_vacation(vacation.id, T0, 0) is None


async def test_reading_vacations_is_bounded_to_the_latest(store):
    for day in range(6):
        await store.add_vacation(100, 1, T0 + 2 * day * D, T0 + (2 * day + 1) * D, 1,
                                 allowed=14)
    found = await store.vacations(100, [1], T0, limit=3)
    assert [v.starts_at for v in found] == [T0 + 6 * D, T0 + 8 * D, T0 + 10 * D]


async def test_vacations_ending_together_come_in_one_order_on_every_back_end(store):
    """Oldest first means by end, and those ending at one moment by id: SQLite and
    PostgreSQL read ties in orders of their own otherwise."""
    added = [await store.add_vacation(100, user, T0 + user * D, T0 + 9 * D, 1, allowed=14)
             for user in (1, 2, 3, 4)]
    added.insert(0, await store.add_vacation(100, 5, T0, T0 + 2 * D, 2, allowed=14))
    assert await store.vacations(100, [5, 4, 3, 2, 1], T0) == tuple(added)
    assert await store.vacations(100, [1, 2, 3, 4, 5], T0, limit=2) == tuple(added[-2:])


async def test_a_vacation_wakes_the_players_clocked_games_of_the_guild(store):
    mine = await clocked(store, 1)
    other_guild = await clocked(store, 2, guild_id=200)
    for game in (mine, other_guild):
        await store.set_wake(game.id, 0, T0 + 10 * D)
    await store.add_vacation(100, 1, T0 + D, T0 + 3 * D, 2, allowed=14, now=T0 + D)
    assert [g.id for g in await store.due_games(T0 + D)] == [mine.id]
    await store.set_wake(mine.id, 0, T0 + 10 * D)
    [vacation] = await store.vacations(100, [1], T0)
    await store.end_vacation(vacation.id, T0 + 2 * D, 2, now=T0 + 2 * D)
    assert [g.id for g in await store.due_games(T0 + 2 * D)] == [mine.id]


async def test_a_game_keeps_its_vacation_option_and_its_seats_weekends(store):
    setup = GameSetup(size="8x8", rules="pp", time_control="10d+36h", vacation=False)
    made = await store.create_challenge(guild_id=100, channel_id=1, challenger_id=1,
                                        invitees=[2], players=2, setup=setup, first="me",
                                        thread=False, expires_at=T0 + D, now=T0)
    assert made.setup == setup
    game = await store.create_game(guild_id=100, channel_id=1, setup=setup,
                                   players=[Player(1, "one", weekends_off=True),
                                            Player(2, "two")], now=T0)
    stored = await store.get_game(game.id)
    assert stored.setup.vacation is False and stored.setup.time_control == "10d+36h"
    assert [s.weekends_off for s in stored.seats] == [True, False]
    plain = await store.create_game(guild_id=100, channel_id=2, setup=CLOCKED,
                                    players=[Player(1, "one"), Player(2, "two")])
    assert plain.setup.vacation is True
