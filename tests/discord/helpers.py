"""What the Discord tests do, as discord.py would: a slash command, a button press, a typed
message, a started game (who and where: `people.py`; what came back: `reading.py`).

Every mock is `spec_set` on the real class, so a test breaks when discord.py's shape changes
or when the front end uses something that does not exist; coroutine methods are AsyncMocks
by virtue of the spec.
"""

from __future__ import annotations

import re
from typing import Any
from unittest.mock import MagicMock

import discord

from tests.discord.people import ALICE, BOB, BOT_ID, CHANNEL, GUILD, member
from tests.discord.reading import custom_ids, only
from twixt.discord.buttons import TEMPLATE
from twixt.discord.views import TwixtButton


def interaction(client: Any, user: MagicMock, *, manage: bool = False,
                manage_server: bool = False,
                channel_id: int = CHANNEL, command: Any = None,
                kind: discord.InteractionType = discord.InteractionType.application_command,
                locale: discord.Locale = discord.Locale.american_english,
                pressed: discord.Message | None = None) -> MagicMock:
    """An interaction whose response knows whether it has been answered, like the real one;
    `locale` is the asker's Discord client's language, `pressed` the message a component
    was used on."""
    mock = MagicMock(spec_set=discord.Interaction)
    mock.client = client
    mock.user = user
    mock.locale = locale
    mock.guild_id = GUILD
    mock.channel_id = channel_id
    mock.permissions = discord.Permissions(manage_channels=manage, manage_guild=manage_server)
    mock.type = kind
    mock.command = command
    mock.message = pressed
    response = MagicMock(spec_set=discord.InteractionResponse)
    response.is_done.side_effect = lambda: bool(response.send_message.await_count
                                                or response.edit_message.await_count
                                                or response.defer.await_count)
    mock.response = response
    mock.followup = MagicMock(spec_set=discord.Webhook)
    return mock


def received(kwargs: dict[str, Any], *, ephemeral: bool = False) -> MagicMock:
    """The message a send's keyword arguments made, as a press hands it over: its
    components read back by discord.py's own classes, and its flags."""
    mock = MagicMock(spec_set=discord.Message)
    view = kwargs.get("view")
    mock.components = [discord.components._component_factory(data)
                       for data in (view.to_components() if view is not None else [])]
    mock.flags = discord.MessageFlags(ephemeral=ephemeral, components_v2=bool(
        view is not None and view.has_components_v2()))
    return mock


async def press(client: Any, custom_id: str, user: MagicMock, **kwargs: Any) -> MagicMock:
    """Press a button as discord.py does for a dynamic item: rebuild it from the custom_id
    alone, check, then call back."""
    mock = interaction(client, user, kind=discord.InteractionType.component, **kwargs)
    match = re.fullmatch(TEMPLATE, custom_id)
    assert match, custom_id
    item = await TwixtButton.from_custom_id(
        mock, discord.ui.Button(custom_id=custom_id, label="?"), match)
    if await item.interaction_check(mock):
        await item.callback(mock)
    return mock


def message(author: MagicMock, content: str, channel: MagicMock,
            guild_locale: discord.Locale = discord.Locale.american_english) -> MagicMock:
    """A guild message in `channel`; the guild's `me` is the bot, its language
    `guild_locale`."""
    mock = MagicMock(spec_set=discord.Message)
    mock.id = 1
    mock.author = author
    mock.content = content
    mock.channel = channel
    mock.guild = MagicMock(spec_set=discord.Guild)
    mock.guild.id = GUILD
    mock.guild.me = member(BOT_ID, "twixt", bot=True)
    mock.guild.preferred_locale = guild_locale
    return mock


class Commands:
    """The slash commands as the tests call them: a command by its name, whichever group
    (`/twixt`, `/twixt-records`, `/twixt-settings`, `/twixt-tournament`) holds it (no two
    groups have a command of the same name)."""

    def __init__(self, groups: list[discord.app_commands.Group]) -> None:
        self.by_name = {command.name: command for group in groups
                        for command in group.commands}

    def __getitem__(self, name: str) -> Any:
        return self.by_name[name]


async def suggested(command: Any, option: str, typed: str,
                    asked: discord.Interaction | None = None) -> list[str]:
    """What a command's autocomplete offers for `option` as `typed`, as discord.py asks it
    (it keeps an option's autocomplete callback on the command's parameter)."""
    choices = await command._params[option].autocomplete(asked, typed)
    assert all(choice.name == choice.value for choice in choices)
    return [choice.value for choice in choices]


async def run(client: Any, slash: Commands, name: str, who: MagicMock, /, *,
              manage: bool = False, manage_server: bool = False, channel_id: int = CHANNEL,
              locale: discord.Locale = discord.Locale.american_english,
              **options: Any) -> MagicMock:
    """Call a slash command as `user` from a client in `locale`, through the command's own
    callback, with its options by the names Discord shows."""
    command = slash[name]
    mock = interaction(client, who, manage=manage, manage_server=manage_server,
                       channel_id=channel_id, command=command, locale=locale)
    await command.callback(mock, **options)
    return mock


async def start_game(client: Any, slash: Commands, *, channel_id: int = CHANNEL,
                     **options: Any) -> dict[str, Any]:
    """alice challenges bob, bob presses Accept; the game's first message."""
    challenge = only(await run(client, slash, "challenge", ALICE, user=BOB,
                               channel_id=channel_id, **options))
    return only(await press(client, custom_ids(challenge)["Accept"], BOB,
                            channel_id=channel_id))
