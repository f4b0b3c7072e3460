"""How a service `Button` is written into a Discord component: its custom id and its style.

Pure data, imported by the code that sends buttons (`replies`) and the code that rebuilds
them when pressed (`views`). Everything a press needs is in the custom id —
`twixt:<kind>:<target>[:<users>]`, the users who may press it in base 36 — so no view has to
be kept in memory and buttons keep working after a restart.
"""

from __future__ import annotations

import re

import discord

from twixt.service import Button, ButtonKind, Picker, PickStep

#: Discord's limit on a custom id
MAX_CUSTOM_ID = 100
TEMPLATE = r"twixt:(?P<kind>[a-z-]+):(?P<target>\d+)(?::(?P<users>[0-9a-z.-]+))?"
_PATTERN = re.compile(TEMPLATE)
STYLES = {ButtonKind.ACCEPT_CHALLENGE: discord.ButtonStyle.success,
          ButtonKind.DECLINE_CHALLENGE: discord.ButtonStyle.secondary,
          ButtonKind.CONFIRM_RESIGN: discord.ButtonStyle.danger,
          ButtonKind.ACCEPT_DRAW: discord.ButtonStyle.success,
          ButtonKind.DECLINE_DRAW: discord.ButtonStyle.secondary,
          ButtonKind.CLAIM: discord.ButtonStyle.danger,
          ButtonKind.ACCEPT_TAKEBACK: discord.ButtonStyle.success,
          ButtonKind.DECLINE_TAKEBACK: discord.ButtonStyle.secondary,
          ButtonKind.CONFIRM_MOVE: discord.ButtonStyle.success,
          ButtonKind.JOIN_TOURNAMENT: discord.ButtonStyle.success,
          ButtonKind.RESIGN: discord.ButtonStyle.secondary,
          ButtonKind.OFFER_DRAW: discord.ButtonStyle.secondary}


def style_of(button: Button) -> discord.ButtonStyle:
    return STYLES.get(button.kind, discord.ButtonStyle.primary)


def custom_id(button: Button) -> str:
    """The id Discord stores with the button: kind, target and who may press it."""
    text = f"twixt:{button.kind.value}:{button.target}"
    if button.only_users:
        text += ":" + ".".join(_base36(uid) for uid in button.only_users)
    if len(text) > MAX_CUSTOM_ID:  # four snowflakes in base 36 stay well below it
        raise ValueError(f"custom_id too long for {button}")
    return text


def button_of(custom_id: str, label: str = "") -> Button | None:
    """The button a custom id stands for, or None when it is not one of ours."""
    match = _PATTERN.fullmatch(custom_id)
    if match is None:
        return None
    users = match["users"]
    return Button(ButtonKind(match["kind"]), int(match["target"]), label,
                  tuple(int(u, 36) for u in users.split(".")) if users else ())


def _base36(number: int) -> str:
    """A user id in base 36; the bot's seats (`bot_seats`) are negative: `-3`."""
    if number < 0:
        return "-" + _base36(-number)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if not number:
            return text


#: a picker's control: its step, game, the log's version it was drawn for, what is chosen so
#: far (letters, digits and spaces: a column, a peg, a command with its links) and, for a
#: step whose choices fill more than one select, which part
PICKER_TEMPLATE = (r"twixt-pick:(?P<step>col|row|links|place):(?P<game>\d+):(?P<version>\d+):"
                   r"(?P<chosen>[A-Za-z0-9 ]*)(?::(?P<part>\d))?")
_PICKER = re.compile(PICKER_TEMPLATE)


def picker_id(picker: Picker, part: int | None = None) -> str:
    """The id Discord stores with one of the picker's controls."""
    text = f"twixt-pick:{picker.step.value}:{picker.game_id}:{picker.version}:{picker.chosen}"
    if part is not None:
        text += f":{part}"
    if len(text) > MAX_CUSTOM_ID or not _PICKER.fullmatch(text):
        raise ValueError(f"picker id cannot hold {picker}")
    return text


def picker_of(custom_id: str) -> Picker | None:
    """The picker a custom id stands for (without its choices), or None when not ours."""
    match = _PICKER.fullmatch(custom_id)
    if match is None:
        return None
    return Picker(int(match["game"]), int(match["version"]), PickStep(match["step"]),
                  match["chosen"])
