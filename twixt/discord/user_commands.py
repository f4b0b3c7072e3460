"""The user commands: right-click or long-press a member (or a DM's other person), then
Apps → "Challenge to TwixT". A challenge to that user with the default options, answered
exactly as `/twixt challenge user:` is (`respond.serve_interaction`), so that it is one
command with two doors, not a second copy of it. Installed and used where the slash commands are
(`slash._installable_anywhere`)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from twixt.discord.commanding import player_or_bot
from twixt.discord.respond import serve_interaction
from twixt.service import TwixtService
from twixt.service import commands as cmd

#: the command's name in Discord's Apps menu (its translations are in the catalogues)
CHALLENGE = "Challenge to TwixT"
#: every user command's name, each translated as `name: …` like the slash commands' names
NAMES = frozenset({CHALLENGE})


def user_commands(service: TwixtService) -> list[app_commands.ContextMenu]:
    """The user commands, answered by `service`."""

    async def challenge(interaction: discord.Interaction,
                        user: discord.Member | discord.User) -> None:
        async def build() -> cmd.ServiceCommand:
            return cmd.Challenge(player_or_bot(interaction, user))

        await serve_interaction(interaction, service, f"user command {CHALLENGE}", build)

    menu: Any = app_commands.ContextMenu(name=locale_str(CHALLENGE), callback=challenge)
    menu = app_commands.allowed_installs(guilds=True, users=True)(menu)
    return [app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(menu)]
