"""Moves written in chat: `@bot G6 link E5`, and plain `G6 link E5` with Message Content.

A message that mentions the bot carries its text even without the privileged intent, so
`@bot …` always works, and the bot answers it (errors too: the player asked it). Plain
messages are read only when `Settings.message_content` is on, and then only a command of the
move language from a player seated in the channel's game gets any answer: chat stays chat.
Replies to messages cannot be ephemeral; an error is a short reply to the message.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import discord

from bot.discord import operations, replies
from bot.discord.respond import APOLOGY, person, play
from bot.service import Context, Reply, ServiceError, TwixtService

log = logging.getLogger(__name__)


class ChatMoves:
    """Reads moves from messages and plays them through the service."""

    def __init__(self, service: TwixtService, *, read_all: bool) -> None:
        self._service = service
        self._read_all = read_all

    async def handle(self, message: discord.Message) -> None:
        """Play a message if it is a move addressed to us, or (read_all) a seated player's."""
        if message.author.bot or message.guild is None:
            return
        text = _addressed(message.content, message.guild.me.id)
        if text is not None:
            await self._play(message, text)
        elif self._read_all and await self._service.is_chat_move(_context_of(message),
                                                                 message.content):
            await self._play(message, message.content)

    async def _play(self, message: discord.Message, text: str) -> None:
        ctx = _context_of(message)
        where = {"user_id": ctx.user.id, "guild_id": ctx.guild_id, "channel_id": ctx.channel_id,
                 "message_id": message.id}
        try:
            reply = await (play(self._service, ctx, text) if text.strip()
                           else self._service.help())
        except ServiceError as error:
            reply = Reply(str(error), ephemeral=True)
        except Exception:
            log.exception("chat move failed", extra={"command": "message", **where})
            reply = Reply(APOLOGY, ephemeral=True)
        # Moves, resignations and help all answer in the channel they were asked in.
        for part in reply.all_messages():
            await operations.safe_send(message.channel, _builder(part, message), **where)


def _builder(part: Reply, message: discord.Message) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        kwargs = replies.message_kwargs(part)
        if part.ephemeral:  # a message has no private answer: reply to it instead
            kwargs["reference"] = message
        return kwargs

    return build


def _addressed(content: str, me: int) -> str | None:
    """The text after a leading mention of the bot, or None when it does not start so."""
    match = re.match(rf"\s*<@!?{me}>", content)
    return content[match.end():].strip() if match else None


def _context_of(message: discord.Message) -> Context:
    assert message.guild is not None
    author = message.author
    can_manage = (isinstance(author, discord.Member)
                  and message.channel.permissions_for(author).manage_channels)
    return Context(message.guild.id, message.channel.id, person(author), can_manage=can_manage)
