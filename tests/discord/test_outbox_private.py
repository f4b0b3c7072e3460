"""What the bot says by itself in a game whose home is a DM (`Reply.private_home`): a
followup of the channel's live interaction, else the players' own DMs — never a post into
the channel, which Discord refuses an app."""

from __future__ import annotations

from unittest.mock import AsyncMock, MagicMock

import discord

from tests.discord.helpers import interaction
from tests.discord.people import ALICE, BOB
from twixt.discord import operations, outbox
from twixt.service import Reply

HOME = 5000


def said(mentions: tuple[int, ...] = (ALICE.id,), **extra: object) -> Reply:
    return Reply("**bot (level 1)** (Black): `C5`", mentions=mentions, channel_id=HOME,
                 private_home=True, **extra)  # type: ignore[arg-type]


def followup_seen(*, by_all: bool) -> MagicMock:
    """The message a follow-up made: seen by everyone there, or (ephemeral) by the
    interaction's user alone."""
    sent = MagicMock(spec_set=discord.WebhookMessage)
    sent.flags = discord.MessageFlags(ephemeral=not by_all)
    return sent


async def test_with_a_live_interaction_it_follows_it(client, monkeypatch):
    asked = interaction(client, ALICE, channel_id=HOME)
    asked.guild_id = None
    asked.followup.send.return_value = followup_seen(by_all=True)
    client.relays.remember(asked)
    dm, send = AsyncMock(), AsyncMock()
    monkeypatch.setattr(operations, "safe_dm", dm)
    monkeypatch.setattr(operations, "safe_send", send)
    assert await outbox.post(client, said())
    assert asked.followup.send.await_count == 1
    assert not dm.await_count and not send.await_count


async def test_without_one_it_tells_the_player_in_their_dm(client, monkeypatch):
    dm, send = AsyncMock(return_value=MagicMock(spec_set=discord.Message)), AsyncMock()
    monkeypatch.setattr(operations, "safe_dm", dm)
    monkeypatch.setattr(operations, "safe_send", send)
    assert await outbox.post(client, said())
    [call] = dm.await_args_list
    assert call.args[1] == ALICE.id and not send.await_count
    # a DM refused (closed) is logged, and nothing is posted into the channel instead
    dm.return_value = None
    assert await outbox.post(client, said()) and not send.await_count


async def test_a_followup_discord_shows_its_user_alone_is_told_the_others_by_dm(client,
                                                                              monkeypatch):
    """Where Discord makes a user-installed app's follow-ups in a DM ephemeral, the one
    who made the interaction saw it; the others it concerns are told in their DMs."""
    asked = interaction(client, ALICE, channel_id=HOME)
    asked.guild_id = None
    asked.followup.send.return_value = followup_seen(by_all=False)
    client.relays.remember(asked)
    dm = AsyncMock(return_value=MagicMock(spec_set=discord.Message))
    monkeypatch.setattr(operations, "safe_dm", dm)
    assert await outbox.post(client, said(mentions=(ALICE.id, BOB.id)))
    assert asked.followup.send.await_count == 1
    assert [call.args[1] for call in dm.await_args_list] == [BOB.id]
