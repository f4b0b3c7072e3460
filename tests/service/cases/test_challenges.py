"""Challenges through the service: making, accepting, declining, teams, threads, errors."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from tests.fakes import FakeThreads
from tests.service.people import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, asking
from tests.typed import enter
from twixt.language import translation, unmarked
from twixt.service import (
    ButtonKind,
    Request,
    ServiceError,
    TwixtService,
    User,
    build_options,
    parse_option_words,
)
from twixt.service import commands as cmd
from twixt.service import errors as kinds
from twixt.storage import ChallengeStatus, GameResult, GameSetup, InviteeAnswer, Player, Result


async def test_a_challenge_names_the_options_pings_the_opponent_and_offers_buttons(service):
    reply = await service.challenges.challenge(asking(ALICE), BOB,
                                               build_options(size="12", rules="pp"))
    assert "alice** challenges bob to TwixT (12×12, pp, swap)" in reply.plain
    assert reply.mentions == (BOB.id,)
    accept, decline = reply.buttons
    assert accept.kind is ButtonKind.ACCEPT_CHALLENGE and accept.only_users == (BOB.id,)
    assert decline.kind is ButtonKind.DECLINE_CHALLENGE
    assert set(decline.only_users) == {BOB.id, ALICE.id}


async def test_accepting_starts_the_game_with_a_board_and_pings_the_first_mover(service):
    await service.challenges.challenge(asking(ALICE), BOB, build_options(first="them"))
    reply = await service.challenges.accept(asking(BOB))
    assert reply.plain.startswith("Game 1 on: **bob** (Red) vs **alice** (Black)")
    assert reply.image is not None and reply.image.startswith(b"\x89PNG")
    assert reply.mentions == (BOB.id,)


async def test_an_open_challenge_is_taken_by_whoever_accepts(service):
    reply = await service.challenges.challenge(asking(ALICE), None, build_options())
    assert "challenges anyone here" in reply.plain
    assert reply.buttons[0].only_users == ()
    started = await service.challenges.accept(asking(CAROL))
    assert "**alice** (Red) vs **carol** (Black)" in started.plain


async def test_declining_and_withdrawing(service, storage):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    assert (await service.challenges.decline(asking(BOB))).plain == "bob declines the challenge."
    assert (await storage.get_challenge(1)).status is ChallengeStatus.DECLINED
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    withdrawn = await service.challenges.decline(asking(ALICE))
    assert withdrawn.plain == "alice withdraws the challenge."
    assert (await storage.get_challenge(2)).status is ChallengeStatus.CANCELLED


async def test_a_stranger_cannot_accept_a_named_challenge(service):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    with pytest.raises(kinds.ConflictError):
        await service.challenges.accept(asking(CAROL), 1)


async def test_no_challenge_to_accept(service):
    with pytest.raises(kinds.MissingError, match="there is no challenge for you in this channel"):
        await service.challenges.accept(asking(BOB))


async def test_a_challenge_expires(service, clock):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    clock.now += timedelta(hours=25)
    with pytest.raises(kinds.ConflictError, match="expired"):
        await service.challenges.accept(asking(BOB), 1)


async def test_you_cannot_challenge_yourself(service):
    with pytest.raises(kinds.MalformedError, match="you cannot challenge yourself"):
        await service.challenges.challenge(asking(ALICE), ALICE, build_options())


async def test_one_active_game_per_channel(service):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    await service.challenges.accept(asking(BOB))
    with pytest.raises(kinds.ConflictError, match="this channel already has a game"):
        await service.challenges.challenge(asking(CAROL), DAVE, build_options())


async def test_thread_yes_starts_the_game_in_its_own_thread(service, threads):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    await service.challenges.accept(asking(BOB))
    await service.challenges.challenge(asking(CAROL), DAVE, build_options(thread="yes"))
    reply = await service.challenges.accept(asking(DAVE))
    assert reply.plain == "Game 2 starts in its own thread."
    [board] = reply.followups
    assert board.channel_id == 1001 and board.image is not None
    assert threads.opened == [(CHANNEL, "TwixT: carol vs dave")]


async def test_team_challenge_needs_all_three_and_seats_you_opponent_partner_opponent(service):
    reply = await service.challenges.team(asking(ALICE), CAROL, (BOB, DAVE), build_options())
    assert set(reply.mentions) == {BOB.id, CAROL.id, DAVE.id}
    waiting = await service.challenges.accept(asking(BOB))
    assert waiting.plain == "bob accepts. Waiting for carol, dave."
    await service.challenges.accept(asking(CAROL))
    started = await service.challenges.accept(asking(DAVE))
    assert "**alice** & **carol** (Red) vs **bob** & **dave** (Black)" in started.plain
    game = await service.channel_game(CHANNEL)
    assert game.players == ("alice", "bob", "carol", "dave")


async def test_team_first_them_gives_the_opponents_red(service):
    await service.challenges.team(asking(ALICE), CAROL, (BOB, DAVE), build_options(first="them"))
    for user in (BOB, CAROL, DAVE):
        await service.challenges.accept(asking(user))
    game = await service.channel_game(CHANNEL)
    assert game.players == ("bob", "alice", "dave", "carol")


async def test_team_needs_four_different_players(service):
    with pytest.raises(kinds.MalformedError, match="four different players"):
        await service.challenges.team(asking(ALICE), BOB, (BOB, DAVE), build_options())


@pytest.mark.parametrize(("words", "message"), [
    (["size", "4"], "a board is 5 to 48 holes each way, not 4"),
    (["rules", "go"], "rules are classic or pp, not “go”"),
    (["swap", "maybe"], "swap is yes or no, not “maybe”"),
    (["handicap", "x"], "handicap is a number of rows, not “x”"),
    (["handicap", "6", "swap", "yes"], "swap is off in a handicap game"),
    (["first", "later"], "first is me, them or random, not “later”"),
    (["colour", "red"], "unknown option “colour”"),
    (["size"], "option “size” needs a value"),
])
def test_bad_options_are_named(words, message):
    with pytest.raises(kinds.MalformedError, match=message):
        parse_option_words(words)


def test_options_in_any_order():
    options = parse_option_words(["first", "them", "size", "24x18", "rules", "PP", "swap", "no"])
    assert str(options.describe()) == "24×18, pp, no swap"


async def test_accept_and_withdraw_at_the_same_instant_leave_one_story(service, storage):
    for channel in range(500, 510):
        await service.challenges.challenge(asking(ALICE, channel), BOB, build_options())
        results = await asyncio.gather(service.challenges.accept(asking(BOB, channel)),
                                       service.challenges.decline(asking(ALICE, channel)),
                                       return_exceptions=True)
        refused = [r for r in results if isinstance(r, ServiceError)]
        assert len(refused) == 1 and not [r for r in results if isinstance(r, Exception)
                                          and not isinstance(r, ServiceError)]
        challenge = await storage.get_challenge(channel - 499)  # one challenge per channel
        started = await storage.active_game(channel) is not None
        assert started == (challenge.status is ChallengeStatus.ACCEPTED)
        assert started or challenge.status is ChallengeStatus.CANCELLED


async def test_a_second_accept_or_a_late_decline_is_one_line(service):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    await service.challenges.accept(asking(BOB), 1)
    for late in (service.challenges.accept(asking(BOB), 1),
                 service.challenges.decline(asking(BOB), 1),
                 service.challenges.decline(asking(ALICE), 1)):
        with pytest.raises(kinds.ConflictError, match="this challenge is already accepted"):
            await late


async def test_an_accept_refused_stores_not_even_the_name_of_who_asked(service, storage):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    await service.challenges.accept(asking(BOB), 1)
    with pytest.raises(kinds.ConflictError, match="this challenge is already accepted"):
        await service.challenges.accept(asking(CAROL), 1)
    assert await storage.user_names([CAROL.id]) == {}


async def test_one_open_challenge_per_challenger_and_channel(service, storage):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    with pytest.raises(kinds.ConflictError, match="you already have an open challenge here"):
        await service.challenges.challenge(asking(ALICE), CAROL, build_options())
    assert len(await storage.pending_challenges(channel_id=CHANNEL)) == 1
    await service.challenges.challenge(asking(ALICE, 200), CAROL, build_options())
    await service.challenges.decline(asking(ALICE))  # withdrawn: a new one may follow
    await service.challenges.challenge(asking(ALICE), CAROL, build_options())


async def test_rematch_pressed_twice_or_by_both_sides_makes_one_challenge(service, storage):
    await service.challenges.challenge(asking(ALICE), BOB, build_options(swap="no"))
    await service.challenges.accept(asking(BOB))
    await service.turns.resign(asking(BOB), confirmed=True)
    await service.challenges.rematch(asking(ALICE), 1)
    with pytest.raises(kinds.ConflictError, match="your rematch is already waiting for an answer"):
        await service.challenges.rematch(asking(ALICE), 1)
    started = await service.challenges.rematch(asking(BOB), 1)  # bob's press accepts it
    assert started.plain.startswith("Game 2 on")
    assert await storage.pending_challenges(channel_id=CHANNEL) == ()


async def test_an_expired_challenge_cannot_be_accepted_and_is_marked_by_the_tick(
        service, storage, clock):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    clock.now += timedelta(hours=25)
    with pytest.raises(kinds.MissingError, match="there is no challenge for you in this channel"):
        await service.challenges.accept(asking(BOB))
    await service.tick()
    assert (await storage.get_challenge(1)).status is ChallengeStatus.EXPIRED


async def test_a_withdrawal_from_another_process_between_accept_and_start_wins(
        storage, clock, monkeypatch):
    here, there = TwixtService(storage, clock=clock), TwixtService(storage, clock=clock)
    await here.challenges.challenge(asking(ALICE), BOB, build_options())
    create_game = storage.create_game

    async def withdrawn_first(**kwargs):
        await there.challenges.decline(asking(ALICE))  # the other process, in between
        return await create_game(**kwargs)

    monkeypatch.setattr(storage, "create_game", withdrawn_first)
    with pytest.raises(kinds.ConflictError, match="this challenge is already cancelled"):
        await here.challenges.accept(asking(BOB))
    assert await storage.active_game(CHANNEL) is None
    assert (await storage.get_challenge(1)).status is ChallengeStatus.CANCELLED


async def test_a_rematch_does_not_carry_a_clock_stored_before_the_limits(service, storage):
    old = await storage.create_game(
        guild_id=GUILD, channel_id=CHANNEL, players=[Player(ALICE.id, "alice"),
                                                     Player(BOB.id, "bob")],
        setup=GameSetup(size="12", time_control="0h"))
    await storage.finish_game(old.id, 0, GameResult(Result.ABORTED, "aborted"))
    await service.challenges.rematch(asking(ALICE), old.id)
    [challenge] = await storage.pending_challenges(channel_id=CHANNEL)
    assert challenge.setup.time_control is None and challenge.setup.size == "12"


async def test_a_team_challenge_of_people_still_asks_all_three(service):
    reply = await service.execute(asking(ALICE), cmd.TeamChallenge(BOB, (CAROL, DAVE),
                                                          build_options()))
    assert reply.plain.endswith("carol and bob and dave, accept or decline.")


async def test_a_game_thread_and_a_nameless_seat_are_named_in_the_language_at_hand(service):
    threads = service.desk.port.threads
    assert isinstance(threads, FakeThreads)
    nameless = User(21, "\u200b\u2060")  # nothing that shows
    await service.execute(asking(nameless), cmd.Challenge(BOB, build_options(thread="yes")))
    await service.execute(asking(BOB, locale="de"), cmd.AnswerChallenge("accept"))
    stored = await service.desk.channel_stored(1000 + len(threads.opened))
    assert [seat.name for seat in stored.seats] == ["Spieler 1", "bob"]
    assert unmarked(translation("de").say(threads.titles[-1])) == "TwixT: Spieler 1 gegen bob"
    assert threads.opened[-1] == (CHANNEL, "TwixT: Spieler 1 vs bob")  # English elsewhere


MALLORY = User(15, "mallory")
ELSEWHERE = (asking(MALLORY, channel=200), Request(2, CHANNEL, MALLORY))


@pytest.mark.parametrize("where", ELSEWHERE, ids=["another channel", "another server"])
@pytest.mark.parametrize("answer", ["accept", "decline"])
async def test_a_challenge_is_answered_only_where_it_was_made(service, storage, where, answer):
    await service.challenges.challenge(asking(ALICE), None, build_options())  # anyone here
    await service.challenges.challenge(asking(BOB, channel=300), ALICE, build_options())
    call = getattr(service.challenges, answer)
    for number in (1, 2, 3):  # the open one, bob's to alice elsewhere, and none at all
        with pytest.raises(kinds.MissingError, match=r"^there is no such challenge$"):
            await call(where, number)
    assert [c.status for c in (await storage.pending_challenges())] == [
        ChallengeStatus.PENDING, ChallengeStatus.PENDING]
    assert all(i.user_id is None for i in (await storage.get_challenge(1)).invitees)
    assert await storage.active_game(CHANNEL) is None


async def test_a_closed_challenge_elsewhere_reads_as_no_challenge(service, clock):
    """Probing numbers from another channel tells nothing of a challenge's state."""
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    clock.now += timedelta(hours=25)
    with pytest.raises(kinds.MissingError, match=r"^there is no such challenge$"):
        await service.challenges.accept(asking(BOB, channel=200), 1)
    with pytest.raises(kinds.ConflictError, match="expired"):  # where it was made: what happened
        await service.challenges.accept(asking(BOB), 1)


async def test_the_invitee_answers_a_direct_challenge_in_its_channel_only(service):
    await service.challenges.challenge(asking(ALICE), BOB, build_options())
    with pytest.raises(kinds.MissingError, match=r"^there is no such challenge$"):
        await service.challenges.accept(asking(BOB, channel=200), 1)
    started = await service.challenges.accept(asking(BOB), 1)
    assert started.plain.startswith("Game 1 on")


ERIN = User(16, "erin")


async def test_a_refused_accept_keeps_no_place(service, storage):
    """dave's accept is refused (the channel has a game meanwhile): nothing of it is kept,
    so erin takes the place once the channel is free."""
    await service.challenges.challenge(asking(ALICE), None, build_options())  # anyone here
    await service.challenges.challenge(asking(BOB), CAROL, build_options())
    await service.challenges.accept(asking(CAROL), 2)  # bob and carol play here meanwhile
    with pytest.raises(kinds.ConflictError, match="this channel already has a game"):
        await service.challenges.accept(asking(DAVE), 1)
    first = await storage.get_challenge(1)
    assert (first.status, [(i.user_id, i.answer) for i in first.invitees]) == (
        ChallengeStatus.PENDING, [(None, InviteeAnswer.PENDING)])
    await enter(service, asking(BOB), "resign yes")
    started = await service.challenges.accept(asking(ERIN), 1)
    assert "**erin**" in started.plain and started.plain.startswith("Game 2 on")


async def test_a_refused_last_accept_of_a_team_keeps_every_answer_as_it_was(service, storage):
    await service.challenges.team(asking(ALICE), CAROL, (BOB, DAVE), build_options())
    await service.challenges.accept(asking(BOB))
    await service.challenges.accept(asking(CAROL))
    await service.challenges.challenge(asking(ERIN), MALLORY, build_options())
    await service.challenges.accept(asking(MALLORY), 2)  # a game here meanwhile
    with pytest.raises(kinds.ConflictError, match="this channel already has a game"):
        await service.challenges.accept(asking(DAVE), 1)
    answers = {i.user_id: i.answer for i in (await storage.get_challenge(1)).invitees}
    assert answers == {BOB.id: InviteeAnswer.ACCEPTED, CAROL.id: InviteeAnswer.ACCEPTED,
                       DAVE.id: InviteeAnswer.PENDING}
