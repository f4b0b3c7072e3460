"""The Discord wrappers: transient failures are retried, gone or refused ones are logged."""

from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.discord import operations
from tests.bot_discord.helpers import text_channel


def http_error(kind: type[discord.HTTPException], status: int) -> discord.HTTPException:
    return kind(MagicMock(status=status, reason="x"), "x")


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    monkeypatch.setattr(operations, "BACKOFF_SECONDS", 0)


async def test_a_transient_error_is_retried_with_a_fresh_message():
    channel = text_channel()
    channel.send = AsyncMock(side_effect=[http_error(discord.DiscordServerError, 503), "ok"])
    builds = []
    result = await operations.safe_send(channel, lambda: builds.append(1) or {"content": "x"})
    assert result == "ok" and len(builds) == 2


async def test_gives_up_after_a_few_attempts(caplog):
    channel = text_channel()
    channel.send = AsyncMock(side_effect=http_error(discord.DiscordServerError, 502))
    assert await operations.safe_send(channel, dict) is None
    assert channel.send.await_count == operations.ATTEMPTS
    assert any(r.message == "discord unavailable" for r in caplog.records)


@pytest.mark.parametrize("kind, status", [(discord.NotFound, 404), (discord.Forbidden, 403)])
async def test_gone_or_refused_is_not_retried_and_not_raised(kind, status):
    channel = text_channel()
    channel.send = AsyncMock(side_effect=http_error(kind, status))
    assert await operations.safe_send(channel, dict) is None
    assert channel.send.await_count == 1
