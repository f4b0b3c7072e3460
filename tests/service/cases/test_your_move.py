"""Where is it my move: `next` across servers and direct messages, most urgent first, and the
daily digest — one direct message at the player's hour in their time zone, once a day, none
when nothing waits. Time moves by the test's clock; nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.service.helpers import tick
from tests.service.people import ALICE, BOB, CAROL, asking
from tests.typed import enter
from twixt.service import NO_SERVER, ButtonKind, Request, build_options
from twixt.service import commands as cmd
from twixt.service import errors as kinds


def in_dm(user, channel: int = 5000) -> Request:
    return Request(NO_SERVER, channel, user)


async def challenge(service, asker: Request, opponent, answerer: Request, **options) -> None:
    await service.execute(asker, cmd.Challenge(opponent, build_options(**options)))
    await service.execute(answerer, cmd.AnswerChallenge("accept"))


async def test_next_is_the_soonest_deadline_then_the_longest_waiting_anywhere(service, clock):
    # a game in a server without a clock, bob to move since the start
    await challenge(service, asking(ALICE, channel=1), BOB, asking(BOB, channel=1),
                    size="12", swap="no")
    await enter(service, asking(ALICE, channel=1), "F5")
    clock.now += timedelta(hours=1)
    # a game in a DM with a clock of a day: bob to move after alice's first peg
    await challenge(service, in_dm(ALICE), BOB, in_dm(BOB), size="12", swap="no", time="1d")
    await enter(service, in_dm(ALICE), "F5")
    said = await service.execute(asking(BOB, channel=1), cmd.NextGame())
    assert said.ephemeral
    assert said.plain.startswith("Your most urgent game: #2 vs alice — 1d 0h left · ")
    assert "https://discord.com/channels/@me/5000" in said.plain
    await enter(service, in_dm(BOB), "C5")  # the clocked one answered: the other is next
    said = await service.execute(in_dm(BOB), cmd.NextGame())
    assert said.plain.startswith("Your most urgent game: #1 vs alice — waiting 1h 0m · <#1>")
    nothing = await service.execute(asking(CAROL), cmd.NextGame())
    assert nothing.plain == "No game is waiting for your move."


async def test_the_digest_comes_once_a_day_at_the_players_hour_in_their_zone(service, clock):
    clock.now = datetime(2026, 1, 5, 6, 30, tzinfo=UTC)  # 07:30 in Berlin (winter)
    said = await service.execute(asking(BOB), cmd.Digest(8, "Europe/Berlin"))
    assert "8:00 (Europe/Berlin)" in said.plain and said.ephemeral
    await challenge(service, asking(ALICE), BOB, asking(BOB), size="12", swap="no")
    await enter(service, asking(ALICE), "F5")
    clock.now = datetime(2026, 1, 5, 6, 59, tzinfo=UTC)
    assert await service.tick() == []
    clock.now = datetime(2026, 1, 5, 7, 0, tzinfo=UTC)  # 08:00 in Berlin
    [digest] = await service.tick()
    assert digest.dm_user_id == BOB.id
    assert digest.plain.startswith("**Waiting for your move**: 1 game, most urgent first\n"
                                   "#1 vs alice — waiting ")
    assert [b.kind for b in digest.buttons] == [ButtonKind.NEXT_GAME]
    assert await service.tick() == []  # once
    clock.now += timedelta(hours=23, minutes=59)
    assert await service.tick() == []
    clock.now += timedelta(minutes=1)
    assert len(await service.tick()) == 1  # the next day, at the same hour
    await enter(service, asking(BOB), "C5")
    clock.now += timedelta(days=1)
    assert await service.tick() == []  # nothing waits: no message
    assert (await service.execute(asking(BOB), cmd.Digest(off=True))).plain == \
        "No more digests."
    clock.now += timedelta(days=1)
    assert await service.tick() == []


async def test_the_digest_follows_summer_time(service, clock):
    clock.now = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)  # the day before Europe's change
    await service.execute(asking(BOB), cmd.Digest(8, "Europe/Berlin"))
    digest = await service.desk.storage.digest(BOB.id)
    assert digest.next_at == datetime(2026, 3, 29, 6, 0, tzinfo=UTC)  # 08:00 CEST


@pytest.mark.parametrize(("asked", "said"), [
    (cmd.Digest(24, "UTC"), "the hour is 0 to 23, not 24"),
    (cmd.Digest(8, "Mars/Olympus"), "“Mars/Olympus” is not a time zone"),
    (cmd.Digest(8, "../../etc/passwd"), "is not a time zone"),
    (cmd.Digest(None, "UTC"), "give the hour too")])
async def test_a_wrong_digest_is_refused_in_one_line_and_changes_nothing(service, asked, said):
    with pytest.raises(kinds.MalformedError) as refused:
        await service.execute(asking(BOB), asked)
    assert said in str(refused.value) and "\n" not in str(refused.value)
    assert await service.desk.storage.digest(BOB.id) is None


async def test_digest_and_next_are_typed_too(service):
    said = await enter(service, asking(BOB), "digest 7 America/New_York")
    assert "7:00 (America/New_York)" in said.plain
    assert "7:00" in (await enter(service, asking(BOB), "digest")).plain
    nothing = await enter(service, asking(BOB), "next")
    assert nothing.plain == "No game is waiting for your move."


async def test_a_dm_games_clock_speaks_to_its_players_never_into_its_channel(service, clock):
    await challenge(service, in_dm(ALICE), BOB, in_dm(BOB), size="12", swap="no", time="1d",
                    vacation="no")
    await enter(service, in_dm(ALICE), "F5")
    clock.now += timedelta(hours=23)  # bob's reminder is due
    said = await tick(service)
    assert said and all(reply.private_home and reply.channel_id == 5000 for reply in said)
    assert {reply.dm_user_id for reply in said} == {BOB.id}
    clock.now += timedelta(hours=2)  # bob's time is up: alice may claim
    [up] = [reply for reply in await tick(service) if "is up" in reply.plain]
    assert up.private_home and up.mentions == (ALICE.id,)


async def test_a_dm_game_is_rated_for_nobody(service, storage):
    await challenge(service, in_dm(ALICE), BOB, in_dm(BOB), size="12", swap="no")
    await enter(service, in_dm(BOB), "resign yes")
    assert (await storage.player_stats(NO_SERVER, ALICE.id)).rated_games == 0
    assert (await storage.player_stats(NO_SERVER, ALICE.id)).wins == 1
    with pytest.raises(kinds.NotAllowedError, match="not rated"):
        await service.execute(in_dm(ALICE), cmd.Leaderboard())
