"""Replies that do not answer an interaction: a post in another channel or thread (a game's
new thread, the clock's reminders and forfeits) or a direct message.

A game's board posted into a channel edits the game's last board in place where the bot
may (`in_place`). A direct message that does not arrive (the user takes no DMs from us) is
posted in the game's channel instead, pinging that user, so a reminder is not silently
lost; with no channel to fall back on it is logged.

A game whose home is a direct message or group DM (`Reply.private_home`) is never posted
into: the app may not. What the bot says there goes as a followup of the channel's last
interaction while its token lives (`relay`), and otherwise to the players it concerns in
their own DMs with the bot — with the board and its picker, which work from there too. A
DM that cannot be delivered there is logged, and the game goes on.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import replace
from typing import cast

import discord

from twixt.discord import in_place, operations, replies
from twixt.discord.board import service_of
from twixt.discord.relay import RelayClient
from twixt.service import Reply

log = logging.getLogger(__name__)


async def post(client: discord.Client, reply: Reply) -> bool:
    """Send one reply where it says: to `dm_user_id`, else into `channel_id`; whether it
    was delivered."""
    if reply.private_home:
        return await _to_private_home(client, reply)
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
    made = await replies.prepared(service_of(client), reply)
    send = functools.partial(operations.safe_send, channel, channel_id=reply.channel_id)
    sent = await in_place.show(in_place.boards_of(client), reply, reply.channel_id, made, send)
    return sent is not None


async def _to_private_home(client: discord.Client, reply: Reply) -> bool:
    """A message for a game in a direct message: through the channel's live interaction, or
    in the DMs of those it concerns. True once handled: nothing more can be done for a
    player whose DMs are closed, and the game goes on.

    Discord's change log (2024) said a user-installed app's follow-ups in DMs are shown to
    the interaction's user alone; the documentation does not settle it. So the follow-up's
    own flags decide: one that came back ephemeral was seen by that user only, and the
    others it concerns are told in their DMs as if there were no live interaction."""
    seen_by: int | None = None
    if reply.dm_user_id is None and reply.channel_id is not None:
        relay = cast(RelayClient, client).relays.followup(reply.channel_id)
        sent = None if relay is None else await in_place.show(
            in_place.boards_of(client), reply, reply.channel_id,
            await replies.prepared(service_of(client), reply),
            functools.partial(operations.safe_followup, relay.interaction))
        if sent is not None and not sent.flags.ephemeral:
            return True
        if sent is not None and relay is not None:
            seen_by = relay.interaction.user.id
    told = (reply.dm_user_id,) if reply.dm_user_id is not None else reply.mentions
    privately = replace(reply, mentions=(), private_home=False)
    for user_id in told:
        if user_id == seen_by:
            continue
        if await operations.safe_dm(client, user_id, replies.builder(privately)) is None:
            log.info("direct message not delivered", extra={
                "user_id": user_id, "home_channel_id": reply.channel_id})
    return True
