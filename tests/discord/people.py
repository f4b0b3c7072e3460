"""Who and where in the Discord tests: spec'd members, users and channels, and their ids.

Every mock is `spec_set` on the real discord.py class (python-discord/bot's tests/helpers.py
style), so a test breaks when discord.py's shape changes or when the front end uses something
that does not exist.
"""

from __future__ import annotations

from unittest.mock import MagicMock

import discord

GUILD = 900
CHANNEL = 700
BOT_ID = 555


def member(uid: int, name: str, *, bot: bool = False) -> MagicMock:
    person = MagicMock(spec_set=discord.Member)
    person.id = uid
    person.name = person.display_name = name
    person.bot = bot
    person.mention = f"<@{uid}>"
    return person


ALICE, BOB, CAROL, DAVE, EVE = (member(uid, name) for uid, name in (
    (101, "alice"), (102, "bob"), (103, "carol"), (104, "dave"), (105, "eve")))


def text_channel(channel_id: int = CHANNEL) -> MagicMock:
    channel = MagicMock(spec_set=discord.TextChannel)
    channel.id = channel_id
    channel.permissions_for.return_value = discord.Permissions.none()
    return channel


def dm_user(uid: int) -> MagicMock:
    """A user as `client.get_user` gives one, to send direct messages to."""
    user = MagicMock(spec_set=discord.User)
    user.id = uid
    return user
