"""Discord's own values in a command: the people named (no bot plays, but this one), and an
attached record (read within its bounds)."""

from __future__ import annotations

import discord

from twixt.discord.respond import person
from twixt.rules import visible
from twixt.service import (
    MAX_IMPORT_BYTES,
    THE_ENGINE_PLAYER,
    BusyError,
    LimitError,
    MalformedError,
    User,
)


def player_of(member: discord.Member | discord.User) -> discord.Member | discord.User:
    """A member named in an option, who may play: bots may not."""
    if member.bot:
        raise MalformedError("{name} is a bot; bots do not play TwixT", name=member.display_name)
    return member


def player_or_bot(interaction: discord.Interaction,
                  member: discord.Member | discord.User) -> User:
    """A member named in a challenge: this bot itself (`THE_BOT`, which plays at the
    challenge's level), or a person; other bots may not play."""
    me = interaction.client.user
    if me is not None and member.id == me.id:
        return THE_ENGINE_PLAYER
    return person(player_of(member))


async def record_bytes(file: discord.Attachment) -> bytes:
    """An attached record's bytes; a file too big for a record is refused before reading."""
    if file.size > MAX_IMPORT_BYTES:
        raise LimitError("{file} is too big for a game record ({kb} KB at most)",
                         file=visible(file.filename), kb=MAX_IMPORT_BYTES // 1024)
    try:
        return await file.read()
    except discord.HTTPException:
        raise BusyError("Discord did not hand me {file}; attach it again",
                        file=visible(file.filename)) from None
