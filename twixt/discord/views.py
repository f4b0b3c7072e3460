"""Buttons under the bot's messages that keep working after a restart.

discord.py rebuilds a `TwixtButton` from any old message through `DynamicItem` (registered at
start with `client.add_dynamic_items`). A press is handed to the client that owns the service
(`ButtonClient`), found through `interaction.client` rather than an import, so this module
needs nothing of the reply pipeline.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import discord

from twixt.discord.buttons import TEMPLATE, button_of, custom_id, style_of
from twixt.language import unmarked
from twixt.service import Button


class ButtonClient(Protocol):
    """The client (`app.TwixtBot`) that answers button presses."""

    async def press_button(self, interaction: discord.Interaction, button: Button) -> None:
        """Answer a press of `button`."""
        ...


class TwixtButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """One of the service's buttons; a press goes to the client's `press_button`."""

    def __init__(self, button: Button) -> None:
        # a label reads no markdown: what users typed in it shows without marks
        super().__init__(discord.ui.Button(label=unmarked(button.label),
                                           custom_id=custom_id(button), style=style_of(button)))
        self.button = button

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: Any) -> TwixtButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        button = button_of(match.string, label or "")
        assert button is not None  # discord.py matched our template already
        return cls(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        await cast(ButtonClient, interaction.client).press_button(interaction, self.button)


def buttons_view(buttons: tuple[Button, ...]) -> discord.ui.View:
    """A view of the reply's buttons; no timeout, since the buttons outlive the process."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(TwixtButton(button))
    return view
