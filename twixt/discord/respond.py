"""One way from an interaction to the service and back: build the Request and the command,
call the service once, send the reply.

Slash commands and buttons both come through `serve_interaction`: it builds the `Request` and the
command (a button's is `commands.of_button`), hands both to `TwixtService.answer` — the
service's one funnel: a `ServiceError` becomes an ephemeral line, an unexpected error a log
record with the interaction's context and a short apology, never a traceback — and sends
what comes back; a slow call is deferred before Discord's three-second deadline, and a long
one (an analysis) says how far it has come by editing that deferred answer (`show_progress`,
the service's `Port.progress`), which is deleted before the answer is sent. An option
the service cannot take (a bot named as a player, a record too big) is told through the same
funnel (`refusal`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import replace
from typing import cast

import discord
from discord import app_commands

from twixt.discord import board, in_place, operations, outbox, replies
from twixt.discord.relay import RelayClient
from twixt.language import Message, locale_of, message, translation
from twixt.rules import quote
from twixt.service import (
    APOLOGY,
    NO_SERVER,
    Button,
    ConflictError,
    FaultError,
    MalformedError,
    NotAllowedError,
    Picker,
    Reply,
    Request,
    ServiceError,
    TwixtService,
    User,
    refusal,
)
from twixt.service import commands as cmd

log = logging.getLogger(__name__)

#: a command built from an interaction's options, which may be refused (`ServiceError`)
Build = Callable[[], Awaitable[cmd.ServiceCommand]]

NOT_FOR_YOU = message("This button is not for you.")
NO_CHANNEL = message("I cannot tell where this was asked; try again in a channel or a DM")
#: the app is used in a server that has not added it (installed to the asker's account)
NOT_IN_SERVER = message("I am not added to this server, so I cannot keep a game here: ask "
                        "its managers to add me, or play in a DM")
PROGRESS = message("Analysing: move {done} of {total}…")
FORCED_PRIVATE = message("This server limits outside apps, so only you see my answers here.")
#: the commands that begin a game in the channel they are asked in
_STARTING = (cmd.Challenge, cmd.TeamChallenge, cmd.Rematch, cmd.AnswerChallenge)
# Discord wants an answer within 3 s. A call that is not done by then is deferred; a quick
# one (nearly all) answers directly, which keeps an error ephemeral at no cost.
DEFER_AFTER_SECONDS = 2.0


#: set by `serve` for the service's call: the interaction `show_progress` edits. Once the
#: answer is there it replaces the progress as it replaces "thinking…" (the thinking message
#: filled in, or removed for an answer of other visibility: `operations.safe_respond`).
_answering: ContextVar[discord.Interaction | None] = ContextVar("answering", default=None)


async def show_progress(request: Request, done: int, total: int) -> None:
    """The service's `Port.progress`: the interaction being answered shows "move n of N" in
    its deferred answer (deferred now, if it was not yet), in the asker's language."""
    interaction = _answering.get()
    if interaction is None:
        return
    await operations.safe_defer(interaction)
    said = translation(request.locale).say(message(PROGRESS.template, done=done, total=total))
    await operations.safe_edit_original(interaction, replies.content(Reply(said)))


def person(member: discord.abc.User) -> User:
    """A Discord user as the service knows people: id and the name shown in this guild."""
    return User(member.id, member.display_name)


def language_of(interaction: discord.Interaction) -> str:
    """The asker's language: their Discord client's (`language.LOCALES`)."""
    return locale_of(interaction.locale)


def request_of(interaction: discord.Interaction) -> Request:
    """Who asks and where, in which language; `manage_channels` in this channel makes a
    channel manager. A direct message or group DM is a game's home with no server
    (`NO_SERVER`), where nobody manages anything."""
    if interaction.channel_id is None:
        raise MalformedError(NO_CHANNEL)
    if interaction.guild_id is None:
        return Request(NO_SERVER, interaction.channel_id, person(interaction.user),
                       locale=language_of(interaction))
    return Request(interaction.guild_id, interaction.channel_id, person(interaction.user),
                   can_manage=interaction.permissions.manage_channels,
                   can_manage_server=interaction.permissions.manage_guild,
                   locale=language_of(interaction))


def guest_in_server(interaction: discord.Interaction) -> bool:
    """Used in a server that has not added the app (installed to the asker's account only):
    the bot cannot post there, so no game lives there."""
    return interaction.guild_id is not None and not interaction.is_guild_integration()


async def serve_interaction(interaction: discord.Interaction, service: TwixtService, label: str,
                asked: cmd.ServiceCommand | Build) -> None:
    """The one way from an interaction to the service and back: the command `asked` (or
    built from the options, or read from typed text) answered for the interaction's user and
    channel, and sent; `label` names the command in the log."""
    token = _answering.set(interaction)
    try:
        reply = await _within_deadline(interaction, _answer(interaction, service, label, asked))
    finally:
        _answering.reset(token)
    await deliver(interaction, reply)


async def _answer(interaction: discord.Interaction, service: TwixtService, label: str,
                  asked: cmd.ServiceCommand | Build) -> Reply:
    context = {"command": label, **operations.where(interaction)}
    try:
        request = request_of(interaction)
        if callable(asked):
            asked = await asked()
        if isinstance(asked, _STARTING) and guest_in_server(interaction):
            raise NotAllowedError(NOT_IN_SERVER)
    except Exception as error:  # options the service cannot take: the same funnel
        return refusal(error, context, language_of(interaction))
    return await service.answer(request, asked, context)


async def press(interaction: discord.Interaction, service: TwixtService,
                button: Button) -> None:
    """A button pressed: refused in one line to anyone it is not for, or under a board the
    game has moved on from, else the command it stands for, served as a slash command's
    is."""
    if button.only_users and interaction.user.id not in button.only_users:
        await deliver(interaction, _refusal(interaction, NotAllowedError(NOT_FOR_YOU)))
        return
    if not await _refused_if_old(interaction):
        await serve_interaction(interaction, service, f"button {button.kind.value}",
                                cmd.of_button(button.kind, button.target))


async def pick(interaction: discord.Interaction, service: TwixtService, picker: Picker,
               chosen: str) -> None:
    """A step of the move picker: refused at once under a board the game has moved on
    from, else the step served; a step taken on the private picker updates it in place
    (`deliver`)."""
    if not await _refused_if_old(interaction):
        await serve_interaction(interaction, service, f"picker {picker.step.value}",
                                cmd.Pick(picker.game_id, picker.version, picker.step, chosen))


async def _refused_if_old(interaction: discord.Interaction) -> bool:
    """Whether the press was under an old board (`board.is_old`), and so answered, privately
    and at once, that it is old, with nothing done."""
    if not await board.is_old(interaction):
        return False
    await deliver(interaction, _refusal(interaction, ConflictError(board.OLD_BOARD)))
    return True


async def _within_deadline(interaction: discord.Interaction, work: Awaitable[Reply]) -> Reply:
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_SECONDS)
    if not done:
        await operations.safe_defer(interaction)
    return await task


async def deliver(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a reply and its followups: here through the interaction (a game's board
    editing its last board in place where Discord allows it, `in_place`; a private step
    updating the private message pressed), elsewhere (a game's new thread, a direct
    message) through the outbox; the interaction is always acknowledged. In a direct
    message or group DM the interaction is kept for what the bot says there by itself
    (`relay`); a board there pings the player to move, who is also told once a game in
    their own DM with the bot (`_tell_who_moves`)."""
    relays = cast(RelayClient, interaction.client).relays
    relays.remember(interaction)
    service = board.service_of(interaction.client)
    first = True
    for part in reply.all_messages():
        if part.dm_user_id is None and part.channel_id in (None, interaction.channel_id):
            if first and replies_forced_private(interaction):
                part = replace(part, text=part.text + "\n" + _said(interaction, FORCED_PRIVATE))
            made = await replies.prepared(service, part)
            if first and _updates_pressed(interaction, part):
                sent = await operations.safe_update(interaction, made)
            else:  # a board of a game in progress edits the game's board where it can
                sent = await in_place.show(in_place.boards_of(interaction.client), part,
                                           interaction.channel_id,
                                           made, functools.partial(
                                               operations.safe_respond, interaction,
                                               ephemeral=part.ephemeral, first=first,
                                               relays=relays))
            first = False
            if (sent is not None and interaction.guild_id is None and not part.ephemeral
                    and part.pickers):  # a board that waits for someone's move
                await _tell_who_moves(interaction, part, sent)
        else:
            await outbox.post(interaction.client, part)
    await operations.safe_defer(interaction)


def _updates_pressed(interaction: discord.Interaction, part: Reply) -> bool:
    """Whether the answer takes the place of the message pressed (Discord's UPDATE_MESSAGE):
    a private answer — the picker's next step — to a press on a private message that is no
    board (a board is the one Components V2 message: the picker's last step), so that one
    private message follows the whole pick. A refusal leaves that message as it was, and
    comes as a message of its own; so does the step from a board, which stays."""
    pressed = interaction.message
    return (interaction.type is discord.InteractionType.component
            and not interaction.response.is_done() and pressed is not None
            and pressed.flags.ephemeral and not pressed.flags.components_v2
            and part.ephemeral and part.refused is None)


def replies_forced_private(interaction: discord.Interaction) -> bool:
    """Discord shows the app's answers to the asker alone in a server that has not added the
    app and does not let this member use outside apps (Use External Apps)."""
    return guest_in_server(interaction) and not interaction.permissions.use_external_apps


async def _tell_who_moves(interaction: discord.Interaction, part: Reply,
                          sent: discord.Message) -> None:
    """In a direct message the answer itself mentions the player to move, and Discord
    notifies them of it. A DM from the bot, with a link to the game's message, is an extra:
    tried once per game and player, and not again once refused (`reach`)."""
    client = cast(RelayClient, interaction.client)
    game_id = part.pickers[0].game_id
    for user_id in part.mentions:
        if user_id == interaction.user.id or not client.reach.first_of_game(game_id, user_id):
            continue
        nudge = Reply(_said(interaction, message(
            "It is your move in TwixT, after {name}: {link}",
            name=interaction.user.display_name, link=sent.jump_url)), dm_user_id=user_id)
        await operations.safe_dm(interaction.client, user_id, replies.builder(nudge))


def _said(interaction: discord.Interaction, said: Message) -> str:
    """A message in the asker's language."""
    return translation(language_of(interaction)).say(said)


async def on_app_command_error(interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
    """The command tree's error handler: what went wrong before a command body ran (a
    failed check, an argument Discord could not convert) — one line in the asker's language,
    or an apology."""
    refused: ServiceError
    if isinstance(error, app_commands.CheckFailure):
        refused = NotAllowedError("you cannot use this command here")
    elif isinstance(error, app_commands.TransformerError):
        refused = MalformedError("I could not read {value} for this option; pick one from "
                                 "Discord's list", value=quote(str(error.value)))
    else:
        slash = interaction.command.qualified_name if interaction.command else "?"
        log.error("command error", exc_info=error,
                  extra={"command": slash, **operations.where(interaction)})
        refused = FaultError(APOLOGY)
    await deliver(interaction, _refusal(interaction, refused))


def _refusal(interaction: discord.Interaction, refused: ServiceError) -> Reply:
    """A refusal of this front end's own, told as the service's funnel tells one (`refusal`):
    in the asker's language, of its kind."""
    return refusal(refused, {}, language_of(interaction))
