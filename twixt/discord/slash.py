"""The slash commands, derived from the commands the service lists (`router.VOCABULARY.
listed`, declared in each subject's command module): one `/twixt…` group per
listed group, one subcommand per listed command, its options from the listing's.

Nothing here says what a command is. A listed option becomes a discord.py parameter by its
kind (a choice a `Literal`, a bounded number a `Range`, a person a `discord.User`, a file an
attachment); when the command is used, each Discord value is turned into the service's (a
`User`, an `Attachment`) and the listing's build makes the command, which
`respond.serve_interaction` answers. The descriptions are marked for translation where they
are declared (`message("…")`); the translator finds them in each language, and the names
(`name: …`).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from twixt.discord.commanding import player_of, player_or_bot, record_bytes
from twixt.discord.move_suggestions import MAX_SUGGESTIONS, Suggest, move_autocomplete
from twixt.discord.respond import person, serve_interaction
from twixt.service import Attachment, TwixtService
from twixt.service import commands as cmd
from twixt.service.commands import Group, Kind, Listed, Option, router

#: what follows a command's answer in Discord alone, by its path
FollowUp = Callable[[discord.Interaction], Awaitable[None]]


async def _board_link(interaction: discord.Interaction) -> None:
    """The asker's link to the web board, when the client serves one
    (`TwixtBot.send_board_link`)."""
    links = getattr(interaction.client, "send_board_link", None)
    if links is not None:
        await links(interaction)


FOLLOW_UPS: dict[str, FollowUp] = {"/twixt board": _board_link}
#: autocompletes that read the game, by command path and option
AUTOCOMPLETES: dict[tuple[str, str], Callable[[TwixtService], Suggest]] = {
    ("/twixt move", "command"): move_autocomplete}


def slash_groups(service: TwixtService) -> list[app_commands.Group]:
    """The `/twixt…` groups of the commands the service lists, answered by `service`."""
    groups: dict[Group, app_commands.Group] = {}
    for command in router.VOCABULARY.listed:
        if command.group not in groups:
            groups[command.group] = _installable_anywhere(app_commands.Group(
                name=command.group.name,
                description=locale_str(command.group.description.template)))
        groups[command.group].add_command(slash_command(service, command))
    return list(groups.values())


def _installable_anywhere(group: app_commands.Group) -> app_commands.Group:
    """A command group installed to servers and to players' own accounts, and used in
    servers, in the bot's DM and in private channels (DMs and group DMs). Discord reads
    these on the group alone (on a subcommand they do nothing); a command that only a server
    has (its settings, tournaments, the leaderboard) is refused elsewhere by the service."""
    group = app_commands.allowed_installs(guilds=True, users=True)(group)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(group)


def slash_command(service: TwixtService, listed: Listed) -> app_commands.Command[Any, ..., None]:
    """The subcommand of one listed command."""
    options = {option.name: option for option in listed.options}
    follow_up = FOLLOW_UPS.get(listed.path)

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        async def build() -> cmd.ServiceCommand:
            given = {name: await _service_value(interaction, options[name].kind, value)
                     for name, value in values.items() if value is not None}
            return listed.build(**given)

        label = interaction.command.qualified_name if interaction.command else listed.path
        await serve_interaction(interaction, service, label, build)
        if follow_up is not None:
            await follow_up(interaction)

    callback.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          annotation=discord.Interaction),
        *(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY,
                            annotation=_annotation(option),
                            default=inspect.Parameter.empty if option.required else None)
          for option in listed.options)])
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=listed.name, description=locale_str(listed.description.template),
        callback=callback)
    if listed.options:
        app_commands.describe(**{option.name: locale_str(option.description.template)
                                 for option in listed.options})(command)
    for option in listed.options:
        if option.suggestions is not None:
            command.autocomplete(option.name)(suggestions(option.suggestions()))
        reading = AUTOCOMPLETES.get((listed.path, option.name))
        if reading is not None:
            command.autocomplete(option.name)(reading(service))
    return command


def _annotation(option: Option) -> Any:
    """The type discord.py reads an option's kind, bounds and choices from."""
    kind = option.kind
    if kind is Kind.CHOICE:
        annotation: Any = Literal[option.choices]
    elif kind in (Kind.PERSON, Kind.PLAYER, Kind.OPPONENT):
        annotation = discord.User
    elif kind is Kind.FILE:
        annotation = discord.Attachment
    else:
        base = int if kind is Kind.NUMBER else str
        bounded = option.least is not None or option.most is not None
        annotation = app_commands.Range[base, option.least, option.most] if bounded else base
    return annotation if option.required else typing.Optional[annotation]  # noqa: UP045


async def _service_value(interaction: discord.Interaction, kind: Kind, value: Any) -> Any:
    """An option's Discord value as the service takes it."""
    if kind is Kind.PERSON:
        return person(value)
    if kind is Kind.PLAYER:
        return person(player_of(value))
    if kind is Kind.OPPONENT:
        return player_or_bot(interaction, value)
    if kind is Kind.FILE:
        return Attachment(value.filename, await record_bytes(value))
    return value


def suggestions(values: Sequence[str]) -> Suggest:
    """An autocomplete of the common values that start with what is typed, the first
    `MAX_SUGGESTIONS` of them (any other value may still be typed: the service judges it)."""
    async def choices(interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [app_commands.Choice(name=value, value=value)
                for value in values if value.lower().startswith(typed)][:MAX_SUGGESTIONS]

    return choices
