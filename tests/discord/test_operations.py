"""The Discord wrappers: transient failures are retried, gone or refused ones are logged; the
typing indicator lasts as long as what it shows, however that ends."""

import asyncio
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from tests.discord.people import text_channel
from twixt.discord import operations


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


def _client_with(channel: MagicMock) -> MagicMock:
    client = MagicMock(spec_set=discord.Client)
    client.get_channel.return_value = channel
    return client


def _signs() -> list[asyncio.Task]:
    return [t for t in asyncio.all_tasks() if t.get_coro().__name__ == "_keep_typing"]


async def test_typing_ends_with_a_search_that_fails():
    channel = text_channel()
    with pytest.raises(RuntimeError):
        async with operations.typing(_client_with(channel), channel.id):
            while not channel.typing.return_value.__aenter__.await_count:
                await asyncio.sleep(0)
            raise RuntimeError("the search broke")
    assert channel.typing.return_value.__aexit__.await_count == 1
    assert _signs() == []


async def test_typing_ends_with_a_search_that_is_cancelled():
    channel = text_channel()
    entered = asyncio.Event()

    async def search() -> None:
        async with operations.typing(_client_with(channel), channel.id):
            entered.set()
            await asyncio.Event().wait()
    task = asyncio.create_task(search())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _signs() == []


async def test_a_channel_that_refuses_typing_does_not_stop_the_search(caplog):
    caplog.set_level("INFO", logger=operations.__name__)
    channel = text_channel()
    channel.typing.return_value.__aenter__.side_effect = http_error(discord.Forbidden, 403)
    async with operations.typing(_client_with(channel), channel.id):
        while not channel.typing.return_value.__aenter__.await_count:
            await asyncio.sleep(0)
    assert any(r.message == "typing not shown" for r in caplog.records)
