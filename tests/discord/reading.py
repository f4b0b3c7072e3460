"""What the bot sent, as the Discord tests read it back: the messages an interaction answered
with or a channel received (as send keyword arguments), their files and their buttons."""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock

import discord


def sent(mock: MagicMock) -> list[dict[str, Any]]:
    """Every message an interaction answered with, in order, as send keyword arguments (a
    "thinking…" message filled in first)."""
    calls = (mock.response.send_message.await_args_list
             + mock.response.edit_message.await_args_list
             + mock.edit_original_response.await_args_list
             + mock.followup.send.await_args_list)
    return [call.kwargs for call in calls]


def only(mock: MagicMock) -> dict[str, Any]:
    """The one message an interaction answered with."""
    messages = sent(mock)
    assert len(messages) == 1, messages
    return messages[0]


def filenames(message: dict[str, Any]) -> list[str]:
    """The names of the files a message carries, in order (the board first)."""
    return [file.filename for file in message.get("files", ())]


def words(message: dict[str, Any]) -> str:
    """What a message says: its content, or a Components V2 board's text displays."""
    if "content" in message:
        return str(message["content"])
    return "\n".join(item.content for item in message["view"].walk_children()
                     if isinstance(item, discord.ui.TextDisplay))


def pictures(message: dict[str, Any]) -> list[str]:
    """The media a Components V2 board shows in its gallery (`attachment://…`)."""
    view = message.get("view")
    return [entry.media.url for item in (view.walk_children() if view else ())
            if isinstance(item, discord.ui.MediaGallery) for entry in item.items]


def custom_ids(message: dict[str, Any]) -> dict[str, str]:
    """A message's buttons, in a classic view or a board's container: label → custom_id
    (the picker's selects, which have no label, left out)."""
    return {item.item.label: item.custom_id for item in message["view"].walk_children()
            if isinstance(item, discord.ui.DynamicItem)
            and isinstance(item.item, discord.ui.Button)}


def posted(channel: MagicMock) -> list[dict[str, Any]]:
    """Every message sent into a channel (or to a user), in order, as send keyword arguments."""
    return [call.kwargs for call in channel.send.await_args_list]
