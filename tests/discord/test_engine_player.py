"""The bot as a player through Discord: `/twixt challenge` with the bot's own user and
a `level`, a game against it played to the end (its moves posted in the channel), Double
TwixT with the bot in a seat; its seats are never pinged; the game's channel shows Discord's
typing indicator while the bot searches."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any
from unittest.mock import MagicMock

import discord
import pytest

from tests.discord.helpers import press, run
from tests.discord.people import ALICE, BOB, BOT_ID, CAROL, CHANNEL, member, text_channel
from tests.discord.reading import custom_ids, only, posted, words
from tests.service import engines as engines
from twixt.discord.app import TwixtBot
from twixt.discord.buttons import TEMPLATE, button_of, custom_id
from twixt.service import Button, ButtonKind
from twixt.service.desk.engine_seats import engine_seat_id

THE_ENGINE_PLAYER = member(BOT_ID, "twixt", bot=True)
#: at most this many of alice's turns: a 6×6 board has fewer holes than that
TURNS = 40


@pytest.fixture
async def bot_client(client: TwixtBot, monkeypatch) -> AsyncIterator[TwixtBot]:
    """The client as it is once logged in as `THE_BOT`, its engine pool closed after."""
    me = MagicMock(spec_set=discord.ClientUser)
    me.id = BOT_ID
    monkeypatch.setattr(client._connection, "user", me)
    yield client
    await client.service.engine_player.close()
    await client.service.desk.engine_pool.close()


@pytest.fixture
def channel(client: TwixtBot, monkeypatch) -> MagicMock:
    """The game's channel, where the bot posts its moves."""
    found = text_channel(CHANNEL)
    monkeypatch.setattr(client, "get_channel", {CHANNEL: found}.get)
    return found


async def _game_over(client: TwixtBot) -> bool:
    await client.service.engine_player.idle()
    return (await client.service.channel_game(CHANNEL)).is_over


def _pings(messages: list[dict[str, Any]]) -> set[int]:
    return {user.id for message in messages for user in message["allowed_mentions"].users}


async def test_a_whole_game_against_the_bot_through_the_cog(bot_client, slash, channel):
    start = only(await run(bot_client, slash, "challenge", ALICE, user=THE_ENGINE_PLAYER, level=1,
                           size="6",
                           rules="pp", swap="no"))
    assert "**alice** (Red) vs **bot (level 1)** (Black)" in words(start)
    answers = []
    for _ in range(TURNS):
        if await _game_over(bot_client):
            break
        game = await bot_client.service.channel_game(CHANNEL)
        hole = min(game.legal_placements(), key=lambda h: (h.col, h.row))
        answers.append(only(await run(bot_client, slash, "move", ALICE, command=str(hole))))
    assert await _game_over(bot_client)
    moves = posted(channel)
    assert moves and all(words(m).startswith(("**bot (level 1)** (Black): `",
                                                   "<@101> **bot (level 1)** (Black): `"))
                         for m in moves)
    assert _pings(moves + answers + [start]) <= {ALICE.id}  # the bot's seat is nobody to ping
    assert "<@-" not in "".join(words(m) for m in moves + answers)


async def test_the_channel_shows_the_bot_typing_while_it_searches(bot_client, slash, channel,
                                                                  tmp_path, monkeypatch):
    latch = tmp_path / "latch"  # the bot's search answers once this file exists
    monkeypatch.setenv(engines.LATCH, str(latch))
    bot_client.service.engine_player.think = engines.latched
    typing = channel.typing.return_value
    await run(bot_client, slash, "challenge", ALICE, user=THE_ENGINE_PLAYER, level=1, size="6",
              rules="pp",
              swap="no")
    await run(bot_client, slash, "move", ALICE, command="B2")  # answered: the bot searches

    async def typing_shown() -> None:
        while not typing.__aenter__.await_count:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(typing_shown(), 60)  # a guard, so that a broken test ends
    assert typing.__aexit__.await_count == 0 and posted(channel) == []
    latch.touch()
    await bot_client.service.engine_player.idle()
    channel.typing.assert_called_once_with()
    assert (typing.__aenter__.await_count, typing.__aexit__.await_count) == (1, 1)
    [move] = posted(channel)
    assert words(move).startswith("<@101> **bot (level 1)** (Black): `")


async def test_the_bot_takes_a_seat_in_double_twixt_through_the_cog(bot_client, slash, channel):
    challenge = only(await run(bot_client, slash, "team", ALICE, partner=THE_ENGINE_PLAYER,
                               opponent1=BOB, opponent2=CAROL, level=2, size="12"))
    assert "bot (level 2)" in words(challenge)
    await press(bot_client, custom_ids(challenge)["Accept"], BOB)
    await press(bot_client, custom_ids(challenge)["Accept"], CAROL)
    await run(bot_client, slash, "move", ALICE, command="F6")
    await run(bot_client, slash, "move", BOB, command="C5")
    await bot_client.service.engine_player.idle()
    [move] = posted(channel)
    assert words(move).startswith("<@103> **bot (level 2)** (Red): `")  # carol's turn next


async def test_another_bot_still_may_not_play(bot_client, slash):
    reply = only(await run(bot_client, slash, "challenge", ALICE,
                           user=member(777, "robot", bot=True), level=2))
    assert words(reply) == "robot is a bot; bots do not play TwixT"


async def test_a_level_is_refused_in_a_challenge_between_people(bot_client, slash):
    reply = only(await run(bot_client, slash, "challenge", ALICE, user=BOB, level=2))
    assert "options of a challenge to the bot" in words(reply) and reply["ephemeral"]


def test_a_button_for_a_bot_seat_keeps_its_players_in_its_custom_id():
    """The Swap button after alice's first peg is the bot's: nobody else may press it, so its
    custom id carries the bot seat's (negative) id, and reads back the same."""
    button = Button(ButtonKind.SWAP, 42, "Swap", (engine_seat_id(3), engine_seat_id(5, 2),
                                                  ALICE.id))
    assert button_of(custom_id(button), "Swap") == button
    assert re.fullmatch(TEMPLATE, custom_id(button))
