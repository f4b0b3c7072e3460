"""Writes racing on the same rows, which SQLite's one writer serialises and PostgreSQL's pool
runs really at once: each must still happen once, and none may lose another's update."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from tests.storage.storage_helpers import start_game
from twixt.storage import (
    ChallengeClosedError,
    FirstMove,
    GameResult,
    GameSetup,
    NotInvitedError,
    Player,
    Result,
)
from twixt.storage.ratings import Rating, rate_game

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
AT_ONCE = 24


async def test_results_recorded_at_once_all_count_in_totals_and_ratings(store):
    games = [await start_game(store, channel_id=c, users=(1, 2) if c % 2 else (2, 1))
             for c in range(AT_ONCE)]
    # user 1 wins every game, from either seat, all at one moment: whatever order they
    # commit in, the ratings must be those of AT_ONCE wins in a row; a rating read before
    # another game's was written would leave one win out
    await asyncio.gather(*(
        store.finish_game(game.id, 0, GameResult(
            Result.RED if game.seats[0].user_id == 1 else Result.BLACK, "resignation", (1,),
            rated_sides=((game.seats[0].user_id,), (game.seats[1].user_id,))), now=NOW)
        for game in games))
    one, two = await store.player_stats(100, 1), await store.player_stats(100, 2)
    assert (one.games, one.wins, one.losses, one.rated_games) == (AT_ONCE, AT_ONCE, 0, AT_ONCE)
    assert (two.games, two.wins, two.losses, two.rated_games) == (AT_ONCE, 0, AT_ONCE, AT_ONCE)
    winner, loser = Rating(), Rating()
    for _ in range(AT_ONCE):
        [winner], [loser] = rate_game([winner], [loser], 1.0, NOW)
    assert (one.rating, one.deviation) == pytest.approx((winner.rating, winner.deviation))
    assert (two.rating, two.deviation) == pytest.approx((loser.rating, loser.deviation))
    assert await store.head_to_head(100, 1, 2) == (AT_ONCE, 0, 0)


async def test_an_open_place_is_taken_by_exactly_one_of_many_at_once(store):
    made = await store.create_challenge(
        guild_id=100, channel_id=5, challenger_id=1, invitees=[], players=2,
        setup=GameSetup(), first=FirstMove.ME, thread=False,
        expires_at=NOW + timedelta(days=1), now=NOW)
    outcomes = await asyncio.gather(
        *(store.answer_challenge(made.id, user, True, now=NOW) for user in range(2, 2 + 12)),
        return_exceptions=True)
    taken = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(taken) == 1
    assert all(isinstance(o, NotInvitedError) for o in outcomes if o not in taken)
    final = await store.get_challenge(made.id)
    assert [i.user_id for i in final.invitees] == [taken[0].invitees[0].user_id]


async def test_a_challenge_becomes_one_game_however_many_accept_it_at_once(store):
    made = await store.create_challenge(
        guild_id=100, channel_id=5, challenger_id=1, invitees=[2], players=2,
        setup=GameSetup(), first=FirstMove.ME, thread=False,
        expires_at=NOW + timedelta(days=1), now=NOW)
    players = [Player(1, "one"), Player(2, "two")]
    outcomes = await asyncio.gather(
        *(store.create_game(guild_id=100, channel_id=channel, players=players,
                            setup=GameSetup(), challenge_id=made.id)
          for channel in range(5, 5 + 8)),  # a thread each, say: no channel is busy
        return_exceptions=True)
    games = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(games) == 1
    assert all(isinstance(o, ChallengeClosedError) and o.state == "accepted"
               for o in outcomes if o not in games)
    assert len(await store.list_games(limit=100)) == 1


async def test_a_reminder_claimed_at_once_is_claimed_once(store):
    game = await start_game(store, channel_id=1,
                            setup=GameSetup(size="8x8", rules="pp", time_control="1d"))
    claims = await asyncio.gather(*(store.claim_reminder(game.id, 0, "half", now=NOW)
                                    for _ in range(16)))
    assert sorted(claims) == [False] * 15 + [True]


async def test_names_and_settings_written_at_once_all_land(store):
    users = list(range(AT_ONCE))
    await asyncio.gather(  # the same users, each call in another order
        *(store.remember_users({user: f"name {user}" for user in users[k:] + users[:k]})
          for k in range(AT_ONCE)),
        *(store.update_user_prefs(7, theme="dark" if n % 2 else "light") for n in range(8)))
    names = await store.user_names(range(AT_ONCE))
    assert names == {user: f"name {user}" for user in range(AT_ONCE)}
    assert (await store.user_prefs(7)).theme in ("dark", "light")


async def test_notes_added_at_once_all_land_each_with_its_own_number(store):
    game = await start_game(store, channel_id=7)
    added = await asyncio.gather(*(store.add_note(game.id, 1, f"note {n}", most=AT_ONCE)
                                   for n in range(AT_ONCE)))
    assert sorted(note.number for note in added) == list(range(1, AT_ONCE + 1))
    kept = await store.notes(game.id, 1, limit=100)
    assert sorted(n.text for n in kept) == sorted(f"note {n}" for n in range(AT_ONCE))
    # and at most `most`, however many arrive together
    beyond = await asyncio.gather(*(store.add_note(game.id, 1, "more", most=AT_ONCE + 2)
                                    for _ in range(6)))
    assert sum(note is not None for note in beyond) == 2
    assert len(await store.notes(game.id, 1, limit=100)) == AT_ONCE + 2


async def test_moves_held_at_once_leave_one_waiting_and_every_id_new(store):
    game = await start_game(store, channel_id=8)
    held = await asyncio.gather(*(store.hold_move(game.id, 1, f"C{n + 3}", 0)
                                  for n in range(AT_ONCE)))
    assert len({move.id for move in held}) == AT_ONCE
    assert await store.pending_move(game.id, 1) in held
