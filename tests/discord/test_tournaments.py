"""`/twixt-tournament` over the real service and database, Discord's network mocked with
spec'd mocks: the announcement's Join button (also after a restart), a start that opens each
game in a public thread, what only the asker sees, and the German names."""

from __future__ import annotations

from unittest.mock import AsyncMock, MagicMock

import discord

from tests.discord.helpers import press, run
from tests.discord.people import ALICE, BOB, CAROL, CHANNEL, text_channel
from tests.discord.reading import custom_ids, only, sent, words
from twixt.app.bot import discord_bot
from twixt.storage import SqliteStorage


def threads_under(monkeypatch, client) -> tuple[MagicMock, dict[int, MagicMock]]:
    """The event's channel, opening a new thread (a channel of its own) each time."""
    channel = text_channel()
    channels: dict[int, MagicMock] = {CHANNEL: channel}

    async def create_thread(*, name: str, type: discord.ChannelType) -> MagicMock:
        thread = MagicMock(spec_set=discord.Thread)
        thread.id = 900 + len(channels)
        channels[thread.id] = text_channel(thread.id)
        return thread

    channel.create_thread = AsyncMock(side_effect=create_thread)
    monkeypatch.setattr(client, "get_channel", channels.get)
    return channel, channels


async def test_join_button_round_trip_start_and_threads(client, slash, monkeypatch,
                                                        settings, clock):
    channel, channels = threads_under(monkeypatch, client)
    announced = only(await run(client, slash, "create", ALICE, manage=True,
                               name="Spring *Cup*", format="roundrobin", size="12",
                               vacation="no"))
    assert words(announced).startswith("Tournament #1 **Spring \\*Cup\\***: round robin")
    join = custom_ids(announced)["Join"]
    assert "bob joins Spring \\*Cup\\*." in words(only(await press(client, join, BOB)))
    again = only(await press(client, join, BOB))
    assert (words(again), again["ephemeral"]) == ("you are already signed up", True)

    # a restarted bot still knows the button
    async with await SqliteStorage.open(settings.database) as storage:
        restarted = discord_bot(settings, storage, clock=clock)
        assert "carol joins" in words(only(await press(restarted, join, CAROL)))

    refused = only(await run(client, slash, "start", BOB))
    assert refused["ephemeral"] and "only a channel manager" in words(refused)
    started = await run(client, slash, "start", ALICE, manage=True)
    said = [words(message) for message in sent(started)]
    assert said == ["Spring \\*Cup\\* starts with 2 entrants.",
                    "Spring \\*Cup\\*: 1 game opened, each in its own thread. Round 1."]
    assert channel.create_thread.await_count == 1
    (thread_id,) = [cid for cid in channels if cid != CHANNEL]
    opening = channels[thread_id].send.await_args.kwargs
    assert "round 1: game 1, bob (Red) against carol (Black)" in words(opening)

    info = only(await run(client, slash, "info", BOB))
    assert info["ephemeral"] and "Entrants (2): bob, carol" in words(info)
    listing = only(await run(client, slash, "list", BOB))
    assert listing["ephemeral"]
    assert "#1 Spring \\*Cup\\* — round robin, running" in words(listing)
    standings = only(await run(client, slash, "standings", BOB))
    assert not standings["ephemeral"] and standings["files"][0].filename == "board.png"


async def test_bad_options_are_one_ephemeral_line(client, slash):
    for options, cause in [(dict(format="swiss", double="yes"), "double is for round robins"),
                           (dict(format="league", rounds=3), "rounds is for a swiss"),
                           (dict(format="swiss", signup="soon"), "signup is a time")]:
        refused = only(await run(client, slash, "create", ALICE, manage=True,
                                 name="Cup", **options))
        assert refused["ephemeral"] and cause in words(refused), refused
    assert await client.service.desk.storage.tournaments(1) == ()
