"""A service `Reply` as the keyword arguments of a Discord send.

Who may be pinged is decided here, once, for every message the bot posts: only the users
the reply names, never @everyone, @here or a role — and the text itself (names and moves
that users typed) has its mentions escaped so it cannot ping anyone either.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import discord

from bot.discord.views import buttons_view
from bot.service import Reply

BOARD_FILE = "board.png"


def allowed_mentions(reply: Reply) -> discord.AllowedMentions:
    """Exactly the reply's mentions may ping."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(uid) for uid in reply.mentions])


def content(reply: Reply) -> str:
    """`<@id> text`: the pings first, then the text with any mention in it defused; a refusal
    (which echoes what the user typed, and has no formatting of its own) shows as typed.
    Names keep their brackets (`bot.service.names`): the bot writes no links of its own, so
    any `[text](url)` is a name's, and shows as typed, not as a link."""
    text = escape_all(reply.text) if reply.refused else _no_links(reply.text)
    text = discord.utils.escape_mentions(text)
    pings = " ".join(f"<@{uid}>" for uid in reply.mentions)
    return f"{pings} {text}" if pings else text


#: code, where nothing formats or links (and an escape would show): a block, or a span
_CODE = re.compile(r"(```.*?```|`[^`]*`)", re.DOTALL)


def _no_links(text: str) -> str:
    """`text` with every masked link `[words](url)` outside code shown as typed."""
    parts = _CODE.split(text)
    parts[::2] = [part.replace("](", "]\\(") for part in parts[::2]]
    return "".join(parts)


def escape_all(text: str) -> str:
    """Text with every markdown construct shown literally: discord.py's escapes, plus the
    headings, subtext and `<…>` tags (timestamps, channels, emoji) that they leave."""
    text = discord.utils.escape_markdown(text)
    text = re.sub(r"^(\s*)(#|-#)", r"\1\\\2", text, flags=re.MULTILINE)
    return text.replace("<", "\\<")


def message_kwargs(reply: Reply) -> dict[str, Any]:
    """Content, the board as an embedded attachment, further files, buttons, allowed mentions.

    Call it once per attempt: an attached file can be read only once. Files always travel
    as `files` (Discord takes `file` or `files`, not both), the board first."""
    kwargs: dict[str, Any] = {"content": content(reply),
                              "allowed_mentions": allowed_mentions(reply)}
    files = [discord.File(io.BytesIO(a.data), filename=a.filename) for a in reply.attachments]
    if reply.image is not None:
        embed = discord.Embed()
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        kwargs["embed"] = embed
        files.insert(0, discord.File(io.BytesIO(reply.image), filename=BOARD_FILE))
    if files:
        kwargs["files"] = files
    if reply.buttons:
        kwargs["view"] = buttons_view(reply.buttons)
    return kwargs


def builder(reply: Reply) -> Callable[[], dict[str, Any]]:
    """`message_kwargs` for the operations, which build a fresh message for each attempt."""
    return lambda: message_kwargs(reply)
