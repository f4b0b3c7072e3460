"""The relays of private channels (`relay`): an interaction made in a DM carries the bot's
later words for 15 minutes and 5 followups, as Discord allows, and none in a server."""

from __future__ import annotations

from unittest.mock import MagicMock

import discord
import pytest

from twixt.discord import relay
from twixt.discord.relay import MAX_FOLLOWUPS, TOKEN_LIFE_SECONDS, Relays


def made(interaction_id: int, channel_id: int = 7, guild_id: int | None = None) -> MagicMock:
    mock = MagicMock(spec_set=discord.Interaction)
    mock.id, mock.channel_id, mock.guild_id = interaction_id, channel_id, guild_id
    return mock


@pytest.fixture
def now(monkeypatch) -> list[float]:
    clock = [1000.0]
    monkeypatch.setattr(relay.time, "monotonic", lambda: clock[0])
    return clock


def test_a_dm_interaction_carries_five_followups(now):
    relays = Relays()
    first = made(1)
    relays.remember(first)
    taken = [relays.followup(7) for _ in range(MAX_FOLLOWUPS + 1)]
    assert [t.interaction if t else None for t in taken] == [first] * MAX_FOLLOWUPS + [None]
    second = made(2)
    relays.remember(second)  # a new command in the channel opens the way again
    assert relays.followup(7).interaction is second


def test_a_token_lives_fifteen_minutes(now):
    relays = Relays()
    relays.remember(made(1))
    now[0] += TOKEN_LIFE_SECONDS - 1
    assert relays.followup(7) is not None
    now[0] += 2
    assert relays.followup(7) is None


def test_a_server_interaction_is_no_relay_and_not_counted(now):
    relays = Relays()
    assert relays.remember(made(1, guild_id=5)) is None
    assert relays.followup(7) is None
    assert all(relays.count(made(1, guild_id=5)) for _ in range(10))


def test_a_dm_interactions_own_followups_are_counted(now):
    relays = Relays()
    asked = made(1)
    counted = [relays.count(asked) for _ in range(MAX_FOLLOWUPS + 1)]
    assert counted == [True] * MAX_FOLLOWUPS + [False]
