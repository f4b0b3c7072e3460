"""Replies that do not answer an interaction: a post in another channel or thread (a game's
new thread, the clock's reminders and forfeits) or a direct message.

A direct message that does not arrive (the user takes no DMs from us) is posted in the
game's channel instead, pinging that user, so a reminder is not silently lost; with no
channel to fall back on it is logged.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import discord

from twixt.discord import operations, replies
from twixt.service import Reply

log = logging.getLogger(__name__)


async def post(client: discord.Client, reply: Reply) -> bool:
    """Send one reply where it says: to `dm_user_id`, else into `channel_id`; whether it
    was delivered."""
    if reply.dm_user_id is not None:
        user_id = reply.dm_user_id
        if await operations.safe_dm(client, user_id, replies.builder(reply)) is not None:
            return True
        reply = replace(reply, dm_user_id=None,
                        mentions=tuple(dict.fromkeys((*reply.mentions, user_id))))
        log.info("direct message not delivered", extra={
            "user_id": user_id, "fallback_channel_id": reply.channel_id})
    if reply.channel_id is None:
        log.warning("reply not delivered: no channel", extra={"mentions": reply.mentions,
                                                               "text": reply.text[:80]})
        return False
    channel = await operations.safe_channel(client, reply.channel_id)
    if channel is None:
        return False
    sent = await operations.safe_send(channel, replies.builder(reply),
                                      channel_id=reply.channel_id)
    return sent is not None
