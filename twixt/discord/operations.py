"""Every call to Discord goes through here: deferring, sending, fetching a channel.

Discord is a network away: a message can be gone (NotFoundError: the interaction expired, the
channel was deleted), we can lack a permission, and the API has bad moments. None of that
must escape into a command's code, so these wrappers retry the transient failures a few
times, log the rest with context, and return None instead of raising (spellbot's
`operations.py` does the same).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar, cast

import aiohttp
import discord

from twixt.discord.reach import DM_REFUSALS
from twixt.discord.relay import RelayClient, Relays
from twixt.service import alongside

log = logging.getLogger(__name__)

T = TypeVar("T")
Kwargs = dict[str, Any]

ATTEMPTS = 3
BACKOFF_SECONDS = 0.5
# discord.py already retries 5xx and rate limits inside one request; these are what is
# left when it gives up, or when the connection itself fails.
TRANSIENT = (discord.DiscordServerError, aiohttp.ClientConnectionError, asyncio.TimeoutError)


async def _attempt(action: str, call: Callable[[], Awaitable[T]], **context: object) -> T | None:
    """Run `call`, again after a transient failure; None when Discord said no."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return await call()
        except discord.NotFound:
            log.info("discord object gone", extra={"action": action, **context})
            return None
        except TRANSIENT as error:
            if attempt == ATTEMPTS:
                log.warning("discord unavailable", extra={"action": action, "error": repr(error),
                                                          "attempts": attempt, **context})
                return None
            await asyncio.sleep(BACKOFF_SECONDS * attempt)
        except discord.HTTPException as error:
            log.warning("discord refused", extra={"action": action, "status": error.status,
                                                  "code": error.code, "error": error.text,
                                                  **context})
            return None
    return None  # pragma: no cover - the loop always returns


def where(interaction: discord.Interaction) -> dict[str, object]:
    """The interaction's context as log fields."""
    return {"user_id": interaction.user.id, "guild_id": interaction.guild_id,
            "channel_id": interaction.channel_id}


def private_thinking(interaction: discord.Interaction) -> bool:
    """Whether a command's "thinking…" is shown to the asker alone: in a server, where a
    public placeholder that a private answer removes would flash for everyone. In a DM or
    group DM it stays public, so that a public answer fills it in — a follow-up there may
    be shown to the asker alone (the 2024 change log) and is one of five."""
    return (interaction.type is discord.InteractionType.application_command
            and interaction.guild_id is not None)


async def safe_defer(interaction: discord.Interaction) -> None:
    """Acknowledge an interaction that will be answered later (once: a retry would fail):
    a command with "thinking…" (`private_thinking`), a press with nothing shown."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=private_thinking(interaction))
    except discord.HTTPException as error:
        log.warning("defer failed", extra={"status": error.status, **where(interaction)})


async def safe_edit_original(interaction: discord.Interaction, text: str
                             ) -> discord.InteractionMessage | None:
    """Replace the text of an interaction's answer (its deferred "thinking…" one); the message,
    or None when it could not be edited."""
    return await _attempt("edit answer", lambda: interaction.edit_original_response(
        content=text), **where(interaction))


async def safe_respond(interaction: discord.Interaction, make_kwargs: Callable[[], Kwargs],
                       *, ephemeral: bool, first: bool = True, relays: Relays | None = None
                       ) -> discord.Message | None:
    """Answer an interaction: the first answer is its response, later ones are followups;
    the message sent, or None (not sent, or an answer that Discord does not return).

    `make_kwargs` builds a fresh message each attempt (an attached file is read once). In a
    private channel `relays` counts the followups, which Discord limits: one past the limit
    is not sent but logged."""
    # the first answer after a "thinking…" defer (a command's defer is always one)
    thinking = (first and interaction.response.is_done()
                and interaction.type is discord.InteractionType.application_command)
    fills_thinking = thinking and ephemeral == private_thinking(interaction)
    if thinking and not fills_thinking:
        # The thinking message keeps its visibility whatever fills it in; removing it lets
        # the answer, a followup of its own, be seen by whom it is for.
        await _attempt("delete thinking", interaction.delete_original_response,
                       **where(interaction))

    if (interaction.response.is_done() and not fills_thinking and relays is not None
            and not relays.count(interaction)):
        log.warning("followup not sent: the interaction has none left", extra=where(interaction))
        return None

    async def send() -> discord.Message | None:
        if fills_thinking:
            # Discord documents filling in the thinking message as an edit of the original
            # response (a followup there does the same, but is deprecated)
            return await interaction.edit_original_response(**_as_edit(make_kwargs()))
        if interaction.response.is_done():
            return await interaction.followup.send(**make_kwargs(), ephemeral=ephemeral,
                                                   wait=True)
        answered = await interaction.response.send_message(**make_kwargs(),
                                                           ephemeral=ephemeral)
        resource = getattr(answered, "resource", None)
        return resource if isinstance(resource, discord.Message) else None

    return await _attempt("respond", send, **where(interaction))


async def safe_update(interaction: discord.Interaction, make_kwargs: Callable[[], Kwargs]
                      ) -> discord.Message | None:
    """Answer a press by updating the message pressed in place (UPDATE_MESSAGE); the
    message as updated, or None."""
    async def update() -> discord.Message | None:
        answered = await interaction.response.edit_message(**_as_edit(make_kwargs()))
        resource = getattr(answered, "resource", None)
        return resource if isinstance(resource, discord.Message) else None

    return await _attempt("update", update, **where(interaction))


async def safe_edit(message: discord.Message, make_kwargs: Callable[[], Kwargs]
                    ) -> discord.Message | None:
    """Edit a message of the bot's in place — by the bot, or through the token of the
    interaction it answered (discord.py's message knows which); the message edited, or None
    when it could not be."""
    return await _attempt("edit", lambda: message.edit(**_as_edit(make_kwargs())),
                          message_id=message.id)


def _as_edit(kwargs: Kwargs) -> Kwargs:
    """A message's keyword arguments as an edit takes them: its files as `attachments`."""
    edit = dict(kwargs)
    if "files" in edit:
        edit["attachments"] = edit.pop("files")
    return edit


async def safe_followup(interaction: discord.Interaction, make_kwargs: Callable[[], Kwargs]
                        ) -> discord.Message | None:
    """A followup of an earlier interaction, sent later (`relay`); None when it could not
    be sent (the token expired, the followups ran out)."""
    return await _attempt("followup", lambda: interaction.followup.send(**make_kwargs(),
                                                                       wait=True),
                          **where(interaction))


async def safe_send(channel: discord.abc.Messageable, make_kwargs: Callable[[], Kwargs],
                    **context: object) -> discord.Message | None:
    """Post a message in a channel or thread; None when it could not be posted."""
    return await _attempt("send", lambda: channel.send(**make_kwargs()), **context)


async def safe_channel(client: discord.Client, channel_id: int) -> Any | None:
    """A channel or thread by id, from the cache or else from Discord."""
    channel = client.get_channel(channel_id)
    if channel is not None:
        return channel
    return await _attempt("fetch channel", lambda: client.fetch_channel(channel_id),
                          channel_id=channel_id)


async def safe_dm(client: discord.Client, user_id: int, make_kwargs: Callable[[], Kwargs],
                  **context: object) -> discord.Message | None:
    """A direct message to a user; None when it could not be sent — most often Forbidden,
    the user takes no direct messages from us (50007) or shares no server with the bot
    (50278) — so the caller can say it elsewhere. Such a refusal is remembered
    (`reach.DirectReach`), and the DM is not tried again while it is."""
    reach = cast(RelayClient, client).reach
    if reach.refuses(user_id):
        log.info("direct message not tried: refused before",
                 extra={"user_id": user_id, **context})
        return None
    user = await safe_user(client, user_id, **context)
    if user is None:
        return None

    async def send() -> discord.Message:
        try:
            return await user.send(**make_kwargs())
        except discord.Forbidden as error:
            if error.code in DM_REFUSALS:
                reach.refused_by(user_id)
            raise

    return await _attempt("direct message", send, user_id=user_id, **context)


async def safe_user(client: discord.Client, user_id: int,
                    **context: object) -> discord.User | None:
    """A user by id, from the cache or else from Discord."""
    return client.get_user(user_id) or await _attempt(
        "fetch user", lambda: client.fetch_user(user_id), user_id=user_id, **context)


async def safe_member(guild: discord.Guild, user_id: int) -> discord.Member | None:
    """A member of a guild by id, from the cache or else from Discord."""
    member = guild.get_member(user_id)
    if member is not None:
        return member
    return await _attempt("fetch member", lambda: guild.fetch_member(user_id),
                          guild_id=guild.id, user_id=user_id)


def typing(client: discord.Client, channel_id: int) -> AbstractAsyncContextManager[None]:
    """Discord's typing indicator in a channel for as long as the context lasts (the
    service's `Thinking`: the bot's search, an analysis); discord.py's `typing()` refreshes
    it every 5 seconds until the task that holds it is cancelled.

    Only in a channel the client has in its cache — every channel and active thread of the
    servers the bot is in, and its own DMs once opened. A game's home in a DM or group DM
    between players is never there: the app is not in that channel, so Discord refuses
    both the fetch and the sign (403, Missing Access), and each refusal counts toward
    Discord's invalid-request limit. The sign is skipped there, with no request."""
    return alongside(_keep_typing(client, channel_id))


async def _keep_typing(client: discord.Client, channel_id: int) -> None:
    channel = client.get_channel(channel_id)
    if channel is None or not isinstance(channel, discord.abc.Messageable):
        return
    try:
        async with channel.typing():
            await asyncio.get_running_loop().create_future()  # until cancelled
    except discord.HTTPException as error:  # no permission, a bad moment: no sign, no harm
        log.info("typing not shown", extra={"channel_id": channel_id, "status": error.status})
