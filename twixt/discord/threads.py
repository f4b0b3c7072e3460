"""The service's `ThreadOpener` on Discord: a public thread per game under a text channel,
named in the server's language (`guild.preferred_locale`), as everyone there reads it."""

from __future__ import annotations

import logging

import discord

from twixt.discord import operations
from twixt.language import Message, locale_of, translation, unmarked
from twixt.service import BusyError, NotAllowedError

log = logging.getLogger(__name__)

MAX_THREAD_NAME = 100  # Discord's limit


class DiscordThreads:
    """Opens game threads; a refusal becomes a ServiceError the player can act on."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def open_thread(self, channel_id: int, name: Message) -> int:
        channel = await operations.safe_channel(self._client, channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise NotAllowedError("a game gets its own thread only in a text channel: "
                                  "challenge with thread no")
        # Not retried: a retry after a lost answer could open a second thread.
        try:
            said = unmarked(translation(locale_of(channel.guild.preferred_locale)).say(name))
            thread = await channel.create_thread(name=said[:MAX_THREAD_NAME],
                                                 type=discord.ChannelType.public_thread)
        except discord.Forbidden:
            raise NotAllowedError("I may not open threads here: give me Create Public Threads, "
                                  "or challenge with thread no") from None
        except discord.HTTPException as error:
            log.warning("thread not opened", extra={"channel_id": channel_id,
                                                    "status": error.status})
            raise BusyError("Discord did not open the game's thread; try again") from None
        return thread.id
