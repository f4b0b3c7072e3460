"""Buttons under the bot's messages that keep working after a restart.

Everything a press needs is in the button's custom_id — `twixt:<kind>:<target>[:<users>]`,
the users who may press it in base 36 — so discord.py rebuilds the button from any old
message through `DynamicItem` (registered at start with `client.add_dynamic_items`), and
no view has to be kept in memory.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord import respond
from bot.service import Button, ButtonKind, Reply

_TEMPLATE = r"twixt:(?P<kind>[a-z-]+):(?P<target>\d+)(?::(?P<users>[0-9a-z.]+))?"
_STYLES = {ButtonKind.ACCEPT_CHALLENGE: discord.ButtonStyle.success,
           ButtonKind.DECLINE_CHALLENGE: discord.ButtonStyle.secondary,
           ButtonKind.CONFIRM_RESIGN: discord.ButtonStyle.danger,
           ButtonKind.ACCEPT_DRAW: discord.ButtonStyle.success,
           ButtonKind.DECLINE_DRAW: discord.ButtonStyle.secondary,
           ButtonKind.CLAIM: discord.ButtonStyle.danger,
           ButtonKind.ACCEPT_TAKEBACK: discord.ButtonStyle.success,
           ButtonKind.DECLINE_TAKEBACK: discord.ButtonStyle.secondary}
NOT_FOR_YOU = "This button is not for you."


def custom_id(button: Button) -> str:
    """The id Discord stores with the button: kind, target and who may press it."""
    text = f"twixt:{button.kind.value}:{button.target}"
    if button.only_users:
        text += ":" + ".".join(_base36(uid) for uid in button.only_users)
    if len(text) > 100:  # Discord's limit; four snowflakes in base 36 stay well below it
        raise ValueError(f"custom_id too long for {button}")
    return text


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if not number:
            return text


class TwixtButton(discord.ui.DynamicItem[discord.ui.Button], template=_TEMPLATE):
    """One of the service's buttons; pressing it is `service.press(ctx, kind, target)`."""

    def __init__(self, button: Button) -> None:
        super().__init__(discord.ui.Button(
            label=button.label, custom_id=custom_id(button),
            style=_STYLES.get(button.kind, discord.ButtonStyle.primary)))
        self.button = button

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Button[Any], match: Any) -> TwixtButton:
        users = match["users"]
        return cls(Button(ButtonKind(match["kind"]), int(match["target"]), item.label or "",
                          tuple(int(u, 36) for u in users.split(".")) if users else ()))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        allowed = self.button.only_users
        if allowed and interaction.user.id not in allowed:
            await respond.deliver(interaction, Reply(NOT_FOR_YOU, ephemeral=True))
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        kind, target = self.button.kind, self.button.target
        service = respond.service_of(interaction)
        await respond.answer(interaction, f"button {kind.value}",
                             lambda ctx: service.press(ctx, kind, target))


def view_of(buttons: tuple[Button, ...]) -> discord.ui.View:
    """A view of the reply's buttons; no timeout, since the buttons outlive the process."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(TwixtButton(button))
    return view
