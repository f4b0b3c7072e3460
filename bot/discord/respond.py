"""One way from an interaction to the service and back: build the Context, call, send.

Slash commands and buttons both come through `answer`, so there is one place where a
`ServiceError` becomes an ephemeral line, an unexpected error becomes a log record with the
interaction's context and a short apology (never a traceback), and a slow call gets
deferred before Discord's three-second deadline.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, cast

import discord
from discord import app_commands

from bot.discord import operations, outbox, replies
from bot.service import Context, Reply, ServiceError, TwixtService, User

log = logging.getLogger(__name__)

Call = Callable[[Context], Awaitable[Reply]]

APOLOGY = "Sorry, something went wrong on my side; nothing was changed. Please try again."
# Discord wants an answer within 3 s. A call that is not done by then is deferred; a quick
# one (nearly all) answers directly, which keeps an error ephemeral at no cost.
DEFER_AFTER_SECONDS = 2.0


class ServiceClient(Protocol):
    """The client that owns the service (`app.TwixtBot`); buttons find it through here."""

    service: TwixtService


def service_of(interaction: discord.Interaction) -> TwixtService:
    return cast(ServiceClient, interaction.client).service


def person(member: discord.abc.User) -> User:
    """A Discord user as the service knows people: id and the name shown in this guild."""
    return User(member.id, member.display_name)


def context_of(interaction: discord.Interaction) -> Context:
    """Who asks and where; `manage_channels` in this channel makes a channel manager."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ServiceError("TwixT is played in a server's channels, not in direct messages")
    return Context(interaction.guild_id, interaction.channel_id, person(interaction.user),
                   can_manage=interaction.permissions.manage_channels)


def play(service: TwixtService, ctx: Context, text: str) -> Awaitable[Reply]:
    """A typed command; a bare `resign` asks for confirmation first, as the button does."""
    if " ".join(text.lower().split()) == "resign":
        return service.resign(ctx)
    return service.move(ctx, text)


async def answer(interaction: discord.Interaction, command: str, call: Call) -> None:
    """Run `call` for the interaction's user and channel, and send what it replies."""
    try:
        reply = await _within_deadline(interaction, call)
    except ServiceError as error:
        reply = Reply(str(error), ephemeral=True)
    except Exception:
        log.exception("command failed", extra={"command": command, **operations.where(interaction)})
        reply = Reply(APOLOGY, ephemeral=True)
    await deliver(interaction, reply)


async def _within_deadline(interaction: discord.Interaction, call: Call) -> Reply:
    task = asyncio.ensure_future(call(context_of(interaction)))
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_SECONDS)
    if not done:
        await operations.safe_defer(interaction)
    return await task


async def deliver(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a reply and its followups: here through the interaction, elsewhere (a game's
    new thread, a direct message) through the outbox; the interaction is always
    acknowledged."""
    first = True
    for message in reply.all_messages():
        if message.dm_user_id is None and message.channel_id in (None, interaction.channel_id):
            await operations.safe_respond(interaction, replies.builder(message),
                                          ephemeral=message.ephemeral, first=first)
            first = False
        else:
            await outbox.post(interaction.client, message)
    await operations.safe_defer(interaction)


async def on_app_command_error(interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
    """The command tree's error handler: what went wrong before a command body ran (a
    failed check, an argument Discord could not convert) — one line, or an apology."""
    if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
        reply = Reply(str(error), ephemeral=True)
    else:
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("command error", exc_info=error,
                  extra={"command": command, **operations.where(interaction)})
        reply = Reply(APOLOGY, ephemeral=True)
    await deliver(interaction, reply)
