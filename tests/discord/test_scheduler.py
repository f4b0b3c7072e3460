"""The clocks' scheduler and the outbox: reminders and forfeits posted in the game's channel
or sent as direct messages, once, across a restart, whatever fails on the way."""

import logging
from datetime import timedelta
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from tests.discord.helpers import press, run, start_game
from tests.discord.people import ALICE, BOB, CHANNEL, GUILD, dm_user, text_channel
from tests.discord.reading import custom_ids, filenames, only, posted, words
from twixt.app.bot import discord_bot
from twixt.discord import outbox, scheduler
from twixt.service import Reply
from twixt.service.cases.clocks import LONGEST_SLEEP
from twixt.storage import SqliteStorage

OTHER = 701  # a second channel, for a second game


def forbidden() -> discord.Forbidden:
    return discord.Forbidden(MagicMock(status=403, reason="Forbidden"),
                             {"code": 50007, "message": "Cannot send messages to this user"})


def only_post(channel: MagicMock) -> str:
    """The text of the one message posted in a channel."""
    [message] = posted(channel)
    return words(message)


@pytest.fixture
def channels(client, monkeypatch) -> dict[int, MagicMock]:
    """The text channels the client can see, by id."""
    found = {CHANNEL: text_channel(CHANNEL), OTHER: text_channel(OTHER)}
    monkeypatch.setattr(client, "get_channel", found.get)
    return found


@pytest.fixture
def users(client, monkeypatch) -> dict[int, MagicMock]:
    """The users the client can write to, by id."""
    found = {ALICE.id: dm_user(ALICE.id), BOB.id: dm_user(BOB.id)}
    monkeypatch.setattr(client, "get_user", found.get)
    return found


async def no_dms(client, slash, *players) -> None:
    for player in players:
        await run(client, slash, "me", player, dm="off")


async def test_a_reminder_is_posted_once_even_across_a_restart(settings, client, slash, clock,
                                                               channels, monkeypatch):
    await no_dms(client, slash, ALICE)
    await start_game(client, slash, time="3d", swap="no")
    await client.scheduler.round()
    assert posted(channels[CHANNEL]) == []
    clock.now += timedelta(hours=25)
    await client.scheduler.round()
    await client.scheduler.round()
    [reminder] = posted(channels[CHANNEL])
    assert words(reminder) == f"<@{ALICE.id}> alice, it is your move in game 1 (1d 23h left)."
    assert [o.id for o in reminder["allowed_mentions"].users] == [ALICE.id]
    await client.service.desk.storage.close()

    async with await SqliteStorage.open(settings.database) as storage:
        restarted = discord_bot(settings, storage, clock=clock)
        monkeypatch.setattr(restarted, "get_channel", channels.get)
        await restarted.scheduler.round()
    assert len(posted(channels[CHANNEL])) == 1


async def test_a_reminder_goes_by_direct_message_by_default(client, slash, clock, channels,
                                                            users):
    await start_game(client, slash, time="3d", swap="no")
    clock.now += timedelta(hours=25)
    await client.scheduler.round()
    [dm] = posted(users[ALICE.id])
    assert words(dm) == "alice, it is your move in game 1 (1d 23h left)."
    assert posted(channels[CHANNEL]) == []


async def test_a_user_not_in_the_cache_is_fetched_for_a_direct_message(client, monkeypatch):
    alice = dm_user(ALICE.id)
    monkeypatch.setattr(client, "get_user", lambda uid: None)
    monkeypatch.setattr(client, "fetch_user", AsyncMock(return_value=alice))
    await outbox.post(client, Reply("hello", dm_user_id=ALICE.id))
    client.fetch_user.assert_awaited_once_with(ALICE.id)
    assert words(posted(alice)[0]) == "hello"


async def test_closed_direct_messages_fall_back_to_the_games_channel(client, slash, clock,
                                                                     channels, users):
    users[ALICE.id].send.side_effect = forbidden()
    await start_game(client, slash, time="3d", swap="no")
    clock.now += timedelta(hours=25)
    await client.scheduler.round()
    [fallback] = posted(channels[CHANNEL])
    assert words(fallback) == f"<@{ALICE.id}> alice, it is your move in game 1 (1d 23h left)."
    assert [o.id for o in fallback["allowed_mentions"].users] == [ALICE.id]


async def test_closed_direct_messages_without_a_channel_are_logged(client, users, caplog):
    users[ALICE.id].send.side_effect = forbidden()
    await outbox.post(client, Reply("hello", dm_user_id=ALICE.id))
    assert any(r.message == "reply not delivered: no channel" for r in caplog.records)


async def test_a_forfeit_is_posted_with_the_board_in_the_games_channel(client, slash, clock,
                                                                       channels):
    await client.service.desk.storage.update_guild_settings(GUILD, forfeit_on_timeout=True)
    await start_game(client, slash, time="12h", swap="no", vacation="no", channel_id=OTHER)
    clock.now += timedelta(hours=12)
    await client.scheduler.round()
    [forfeit] = posted(channels[OTHER])
    assert "alice ran out of time." in words(forfeit)
    assert "bob (Black) wins on time" in words(forfeit)
    assert filenames(forfeit) == ["board.png"]
    assert posted(channels[CHANNEL]) == []
    assert await client.service.desk.storage.active_game(OTHER) is None


async def test_the_claim_button_of_a_time_notice(client, slash, clock, channels):
    await no_dms(client, slash, ALICE)
    await start_game(client, slash, time="12h", swap="no", vacation="no")
    clock.now += timedelta(hours=12)
    await client.scheduler.round()
    [notice] = posted(channels[CHANNEL])
    assert words(notice).startswith(f"<@{BOB.id}> alice's time to move in game 1 is up")
    claim = custom_ids(notice)["Claim the win"]
    assert only(await press(client, claim, ALICE))["ephemeral"] is True
    won = only(await press(client, claim, BOB))
    assert "bob (Black) wins on time" in words(won)


async def test_a_failing_delivery_does_not_stop_the_next_one(client, slash, clock, channels,
                                                            caplog):
    await no_dms(client, slash, ALICE)
    await start_game(client, slash, time="3d", swap="no")
    await start_game(client, slash, time="3d", swap="no", channel_id=OTHER)
    channels[CHANNEL].send.side_effect = RuntimeError("socket on fire")
    clock.now += timedelta(hours=25)
    await client.scheduler.round()
    assert "game 2" in only_post(channels[OTHER])
    failed = next(r for r in caplog.records if r.message == "clock reply not delivered")
    assert failed.levelno == logging.ERROR and failed.channel_id == CHANNEL


async def test_a_failing_tick_is_logged_and_the_next_round_runs(client, slash, clock, channels,
                                                                monkeypatch, caplog):
    await no_dms(client, slash, ALICE)
    await start_game(client, slash, time="3d", swap="no")
    clock.now += timedelta(hours=25)
    real_tick = client.service.tick
    monkeypatch.setattr(client.service, "tick", AsyncMock(side_effect=RuntimeError("db")))
    await client.scheduler.round()
    assert any(r.message == "clock tick failed" for r in caplog.records)
    monkeypatch.setattr(client.service, "tick", real_tick)
    await client.scheduler.round()
    assert "it is your move" in only_post(channels[CHANNEL])


async def test_a_failing_wait_is_logged_and_sleeps_out_the_longest_pause(client, monkeypatch,
                                                                         caplog):
    monkeypatch.setattr(client.service.clocks, "wait", AsyncMock(side_effect=RuntimeError("db")))
    slept = AsyncMock()
    monkeypatch.setattr(scheduler.asyncio, "sleep", slept)
    await client.scheduler.sleep()
    assert any(r.message == "clock wait failed" for r in caplog.records)
    slept.assert_awaited_once_with(LONGEST_SLEEP.total_seconds())


async def test_a_reminder_discord_refused_is_posted_again_a_few_minutes_later(
        client, slash, clock, channels):
    await no_dms(client, slash, ALICE)
    await start_game(client, slash, time="3d", swap="no")
    channels[CHANNEL].send.side_effect = discord.HTTPException(
        MagicMock(status=500, reason="Internal Server Error"), "down")
    clock.now += timedelta(hours=25)
    await client.scheduler.round()
    channels[CHANNEL].send.side_effect = None
    channels[CHANNEL].send.reset_mock()
    await client.scheduler.round()  # a minute later: it may still be on its way
    assert posted(channels[CHANNEL]) == []
    clock.now += timedelta(minutes=6)
    await client.scheduler.round()
    assert only_post(channels[CHANNEL]).startswith(f"<@{ALICE.id}> alice, it is your move")
    clock.now += timedelta(minutes=6)
    await client.scheduler.round()
    assert len(posted(channels[CHANNEL])) == 1
