"""The web board from Discord: a player's link under `/twixt board`, the button that
launches the board as an Activity (interaction response `LAUNCH_ACTIVITY`), and the
command sync that keeps the Activity's entry point.

An application with Activities has a Primary Entry Point command (type 4): the app
launcher's way in. Discord refuses a bulk overwrite of the global commands that leaves it
out (error 50240), and discord.py's `tree.sync` overwrites with the tree's commands alone; so
the global sync reads the commands Discord has and sends the entry point along with ours.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord
from discord import app_commands

from twixt.language import locale_of, translation

log = logging.getLogger(__name__)

#: the Primary Entry Point command's type (Discord's application command types)
PRIMARY_ENTRY_POINT = 4
#: what of a command Discord has is sent back in an overwrite (not its version, nor ids
#: other than its own)
_KEPT = ("id", "name", "name_localizations", "description", "description_localizations",
         "type", "handler", "integration_types", "contexts", "default_member_permissions",
         "nsfw")
LAUNCH_ID = "twixt:launch"


class BoardBeside(Protocol):
    """The web board served beside the bot, as the bot uses it: the links `/twixt board`
    gives, whether it runs the Discord Activity, and its stop with the bot. The composition
    root lends it (`TwixtBot.board`); the bot imports nothing of the web."""

    @property
    def runs_activity(self) -> bool:
        """Whether the board runs as the Discord Activity too."""

    async def seat_link(self, channel_id: int, user_id: int, base_url: str) -> str | None:
        """The user's link to their seat in the channel's game (to watch it, without one);
        None when the channel has no game."""

    async def stop(self) -> None:
        """Stop serving (the bot closes)."""


class LaunchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.escape(LAUNCH_ID)):
    """Play on the board: launches the Activity in the channel (works after a restart: the
    custom id is all it needs)."""

    def __init__(self, label: str = "Play on the board") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=LAUNCH_ID))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LaunchButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await launch(interaction)


async def launch(interaction: discord.Interaction) -> None:
    """Answer the press with LAUNCH_ACTIVITY; a refusal (Activities off for the app, a
    place without them) is said to the presser in one line."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        log.info("activity not launched", extra={"status": error.status, "code": error.code})
        tr = translation(locale_of(interaction.locale))
        if not interaction.response.is_done():
            await interaction.response.send_message(
                tr("Discord cannot start the board here; use the link instead."),
                ephemeral=True)


async def send_board_link(interaction: discord.Interaction, web: BoardBeside,
                          base_url: str) -> None:
    """After `/twixt board`: the asker's own link to their seat (or to watch), for their
    eyes only, with the button that opens the board inside Discord when it runs one."""
    tr = translation(locale_of(interaction.locale))
    if interaction.channel_id is None:
        return
    link = await web.seat_link(interaction.channel_id, interaction.user.id, base_url)
    if link is None:
        return
    text = tr("Your board on the web: only you can use this link, for a week.")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=tr("Open the board"), url=link))
    if web.runs_activity:
        view.add_item(LaunchButton(tr("Play on the board")))
    await interaction.followup.send(text, view=view, ephemeral=True)


async def sync_global_commands(tree: app_commands.CommandTree[Any],
                               client: discord.Client) -> int:
    """Overwrite the global commands with the tree's, keeping a Primary Entry Point command
    that Discord has (the app launcher's); how many commands Discord now has."""
    application_id = client.application_id
    if application_id is None:  # not logged in: discord.py's sync says so
        return len(await tree.sync())
    existing = await client.http.get_global_commands(application_id)
    kept = [{key: value for key, value in command.items() if key in _KEPT}
            for command in existing if command.get("type") == PRIMARY_ENTRY_POINT]
    if not kept:
        return len(await tree.sync())
    commands = tree.get_commands()
    translator = tree.translator
    payload = [await command.get_translated_payload(tree, translator) if translator
               else command.to_dict(tree) for command in commands]
    synced = await client.http.bulk_upsert_global_commands(application_id,
                                                           payload=[*payload, *kept])
    return len(synced)
