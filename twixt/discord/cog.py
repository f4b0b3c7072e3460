"""The chat-move listener: a move or command typed in a channel's chatter (`messages.ChatMoves`).
The slash commands are derived from the service's listings (`slash`)."""

from __future__ import annotations

import discord
from discord.ext import commands

from twixt.discord.messages import ChatMoves


class ChatCog(commands.Cog):
    """Every message the bot can read goes to `ChatMoves`, which takes what is addressed to
    it and leaves the rest."""

    def __init__(self, chat: ChatMoves) -> None:
        self.chat = chat

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await self.chat.handle(message)
