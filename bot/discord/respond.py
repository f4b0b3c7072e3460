"""One way from an interaction to the service and back: build the Request, call, send.

Slash commands and buttons both come through `answer`, which sends the work through the
service's one funnel (`answer_safely`: a `ServiceError` becomes an ephemeral line, an
unexpected error a log record with the interaction's context and a short apology, never a
traceback) and defers a slow call before Discord's three-second deadline.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.discord import operations, outbox, replies
from bot.service import (
    APOLOGY,
    Button,
    Reply,
    Request,
    ServiceError,
    TwixtService,
    User,
    answer_safely,
)
from language import Message, locale_of, message, translation
from rules import quote

log = logging.getLogger(__name__)

Call = Callable[[Request], Awaitable[Reply]]

NOT_FOR_YOU = message("This button is not for you.")
DIRECT_MESSAGE = message("TwixT is played in a server's channels, not in direct messages")
# Discord wants an answer within 3 s. A call that is not done by then is deferred; a quick
# one (nearly all) answers directly, which keeps an error ephemeral at no cost.
DEFER_AFTER_SECONDS = 2.0


def person(member: discord.abc.User) -> User:
    """A Discord user as the service knows people: id and the name shown in this guild."""
    return User(member.id, member.display_name)


def language_of(interaction: discord.Interaction) -> str:
    """The asker's language: their Discord client's (`language.LOCALES`)."""
    return locale_of(interaction.locale)


def request_of(interaction: discord.Interaction) -> Request:
    """Who asks and where, in which language; `manage_channels` in this channel makes a
    channel manager."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ServiceError(DIRECT_MESSAGE)
    return Request(interaction.guild_id, interaction.channel_id, person(interaction.user),
                   can_manage=interaction.permissions.manage_channels,
                   can_manage_server=interaction.permissions.manage_guild,
                   locale=language_of(interaction))


async def answer(interaction: discord.Interaction, label: str, call: Call) -> None:
    """Run `call` for the interaction's user and channel, and send what it replies; `label`
    names the command in the log."""
    reply = await answer_safely(_within_deadline(interaction, call),
                                {"command": label, **operations.where(interaction)},
                                locale=language_of(interaction))
    await deliver(interaction, reply)


async def press(interaction: discord.Interaction, service: TwixtService,
                button: Button) -> None:
    """A button pressed: refused in one line to anyone it is not for, else the service's."""
    if button.only_users and interaction.user.id not in button.only_users:
        await deliver(interaction, _refusal(interaction, NOT_FOR_YOU))
        return
    await answer(interaction, f"button {button.kind.value}",
                 lambda request: service.press(request, button.kind, button.target))


async def _within_deadline(interaction: discord.Interaction, call: Call) -> Reply:
    task = asyncio.ensure_future(call(request_of(interaction)))
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_SECONDS)
    if not done:
        await operations.safe_defer(interaction)
    return await task


async def deliver(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a reply and its followups: here through the interaction, elsewhere (a game's
    new thread, a direct message) through the outbox; the interaction is always
    acknowledged."""
    first = True
    for part in reply.all_messages():
        if part.dm_user_id is None and part.channel_id in (None, interaction.channel_id):
            await operations.safe_respond(interaction, replies.builder(part),
                                          ephemeral=part.ephemeral, first=first)
            first = False
        else:
            await outbox.post(interaction.client, part)
    await operations.safe_defer(interaction)


async def on_app_command_error(interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
    """The command tree's error handler: what went wrong before a command body ran (a
    failed check, an argument Discord could not convert) — one line in the asker's language,
    or an apology."""
    if isinstance(error, app_commands.NoPrivateMessage):
        said = DIRECT_MESSAGE
    elif isinstance(error, app_commands.CheckFailure):
        said = message("you cannot use this command here")
    elif isinstance(error, app_commands.TransformerError):
        said = message("I could not read {value} for this option; pick one from Discord's list",
                       value=quote(str(error.value)))
    else:
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("command error", exc_info=error,
                  extra={"command": command, **operations.where(interaction)})
        said = APOLOGY
    await deliver(interaction, _refusal(interaction, said))


def _refusal(interaction: discord.Interaction, said: Message) -> Reply:
    return Reply(translation(language_of(interaction)).say(said), ephemeral=True, refused=True)
