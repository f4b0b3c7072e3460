"""Challenges: named and open places, per-invitee answers, expiry, and becoming a game."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.storage.storage_helpers import start_game
from twixt.storage import (
    ChallengeClosedError,
    ChallengeStatus,
    ChannelBusyError,
    FirstMove,
    GameSetup,
    InviteeAnswer,
    NotInvited,
    NotInvitedError,
    Player,
)

T0 = datetime(2030, 1, 1, tzinfo=UTC)
LATER = T0 + timedelta(hours=48)


async def challenge(store, invitees=(2,), players=2, channel_id=10):
    return await store.create_challenge(
        guild_id=100, channel_id=channel_id, challenger_id=1, invitees=invitees,
        players=players, setup=GameSetup(size="24x18", rules="pp"), first=FirstMove.RANDOM,
        thread=True, expires_at=LATER, now=T0)


async def test_a_challenge_keeps_its_options_and_waits_for_its_invitee(store):
    made = await challenge(store)
    assert made.status is ChallengeStatus.PENDING and not made.ready
    assert (made.setup, made.first, made.thread) == (GameSetup("24x18", "pp"),
                                                     FirstMove.RANDOM, True)
    assert [(i.user_id, i.answer) for i in made.invitees] == [(2, InviteeAnswer.PENDING)]
    assert await store.get_challenge(made.id) == made


async def test_double_twixt_is_ready_only_when_all_three_accept(store):
    made = await challenge(store, invitees=(2, 3, 4), players=4)
    for user_id in (2, 3):
        assert not (await store.answer_challenge(made.id, user_id, True, now=T0)).ready
    assert (await store.answer_challenge(made.id, 4, True, now=T0)).ready


async def test_one_decline_declines_the_challenge(store):
    made = await challenge(store, invitees=(2, 3, 4), players=4)
    await store.answer_challenge(made.id, 2, True, now=T0)
    answered = await store.answer_challenge(made.id, 3, False, now=T0)
    assert answered.status is ChallengeStatus.DECLINED
    with pytest.raises(ChallengeClosedError, match="declined"):
        await store.answer_challenge(made.id, 4, True, now=T0)


async def test_an_open_place_goes_to_whoever_accepts_first(store):
    made = await challenge(store, invitees=())
    taken = await store.answer_challenge(made.id, 7, True, now=T0)
    assert taken.ready and taken.invitees[0].user_id == 7
    with pytest.raises(NotInvitedError) as refused:
        await store.answer_challenge(made.id, 8, True, now=T0)
    assert refused.value.reason is NotInvited.NO_PLACE_LEFT


async def test_strangers_and_the_challenger_cannot_answer(store):
    made = await challenge(store)
    with pytest.raises(NotInvitedError):
        await store.answer_challenge(made.id, 9, True, now=T0)
    with pytest.raises(NotInvitedError) as refused:
        await store.answer_challenge(made.id, 1, True, now=T0)
    assert refused.value.reason is NotInvited.OWN_CHALLENGE


async def test_an_expired_challenge_cannot_be_answered_and_is_swept(store):
    made = await challenge(store)
    await challenge(store, channel_id=11)
    with pytest.raises(ChallengeClosedError, match="expired"):
        await store.answer_challenge(made.id, 2, True, now=LATER)
    assert await store.expire_challenges(now=LATER) == 2
    assert (await store.get_challenge(made.id)).status is ChallengeStatus.EXPIRED
    assert await store.expire_challenges(now=LATER) == 0


async def test_pending_challenges_are_found_by_channel_and_by_user(store):
    first = await challenge(store, invitees=(2,), channel_id=10)
    second = await challenge(store, invitees=(3,), channel_id=11)
    await store.cancel_challenge(second.id)
    assert [c.id for c in await store.pending_challenges(channel_id=10)] == [first.id]
    assert [c.id for c in await store.pending_challenges(user_id=2)] == [first.id]
    assert await store.pending_challenges(user_id=3) == ()


async def test_creating_the_game_accepts_the_challenge_once(store):
    made = await challenge(store)
    await store.answer_challenge(made.id, 2, True, now=T0)
    players = [Player(2, "b"), Player(1, "a")]
    game = await store.create_game(guild_id=100, channel_id=10, players=players,
                                   setup=made.setup, challenge_id=made.id)
    assert game.challenge_id == made.id
    assert (await store.get_challenge(made.id)).status is ChallengeStatus.ACCEPTED
    with pytest.raises(ChallengeClosedError):
        await store.create_game(guild_id=100, channel_id=12, players=players,
                                setup=made.setup, challenge_id=made.id)


async def test_a_busy_channel_leaves_the_challenge_pending(store):
    await start_game(store, channel_id=10, users=(5, 6))
    made = await challenge(store)
    await store.answer_challenge(made.id, 2, True, now=T0)
    with pytest.raises(ChannelBusyError):
        await store.create_game(guild_id=100, channel_id=10, players=[Player(1, "a"),
                                Player(2, "b")], setup=made.setup, challenge_id=made.id)
    assert (await store.get_challenge(made.id)).status is ChallengeStatus.PENDING


async def test_the_last_acceptance_is_stored_with_its_game_or_not_at_all(store):
    """`accepting`: the answer that completes a challenge and the game it starts are one
    transaction, so a refused game keeps no place taken (an open one stays open)."""
    await start_game(store, channel_id=10, users=(5, 6))
    made = await challenge(store, invitees=())
    players = [Player(1, "a"), Player(7, "g")]
    with pytest.raises(ChannelBusyError):
        await store.create_game(guild_id=100, channel_id=10, players=players, setup=made.setup,
                                challenge_id=made.id, accepting=7, now=T0)
    kept = await store.get_challenge(made.id)
    assert (kept.status, [(i.user_id, i.answer) for i in kept.invitees]) == (
        ChallengeStatus.PENDING, [(None, InviteeAnswer.PENDING)])
    with pytest.raises(ChallengeClosedError, match="changed"):  # seats someone else
        await store.create_game(guild_id=100, channel_id=11, players=[Player(1, "a"),
                                Player(8, "h")], setup=made.setup, challenge_id=made.id,
                                accepting=7, now=T0)
    assert (await store.get_challenge(made.id)) == kept
    game = await store.create_game(guild_id=100, channel_id=11, players=players,
                                   setup=made.setup, challenge_id=made.id, accepting=7, now=T0)
    taken = await store.get_challenge(made.id)
    assert (taken.status, taken.invitees[0].user_id, taken.invitees[0].answer) == (
        ChallengeStatus.ACCEPTED, 7, InviteeAnswer.ACCEPTED)
    assert [s.user_id for s in game.seats] == [1, 7]


async def test_a_challenge_invites_each_player_once(store):
    with pytest.raises(ValueError):
        await challenge(store, invitees=(2, 2))
    with pytest.raises(ValueError):
        await challenge(store, invitees=(2, 3))
