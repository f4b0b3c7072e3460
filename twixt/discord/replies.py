"""A service `Reply` as the keyword arguments of a Discord send.

Who may be pinged is decided here, once, for every message the bot posts: only the users
the reply names, never @everyone, @here or a role — and the text itself (names and moves
that users typed) has its mentions escaped so it cannot ping anyone either. What the service
marked `verbatim` (every value of a template: names, moves, quotes) is escaped here, so that
it shows as typed and nothing of it formats, links or pings.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import discord

from twixt.discord.board import BOARD_FILE, NO_LOOK, Look, board_view, look_of
from twixt.discord.views import buttons_view
from twixt.language import VERBATIM_END, VERBATIM_START, unmarked
from twixt.service import Reply, TwixtService

#: what builds a message's keyword arguments afresh for each attempt
Builder = Callable[[], dict[str, Any]]


def allowed_mentions(reply: Reply) -> discord.AllowedMentions:
    """Exactly the reply's mentions may ping."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(uid) for uid in reply.mentions])


def content(reply: Reply) -> str:
    """`<@id> text`: the pings first, then the text with what users typed shown as typed and
    any mention in it defused; a refusal (which echoes what the user typed, and has no
    formatting of its own) shows as typed throughout. The bot writes no links of its own, so
    any `[text](url)` outside code is a user's, and shows as typed, not as a link."""
    text = escape_all(unmarked(reply.text)) if reply.refused else shown(reply.text)
    text = discord.utils.escape_mentions(text)
    pings = " ".join(f"<@{uid}>" for uid in reply.mentions)
    return f"{pings} {text}" if pings else text


#: code, where nothing formats or links (and an escape would show): a block, or a span
_CODE = re.compile(r"(```.*?```|`[^`]*`)", re.DOTALL)
#: a value marked `verbatim`, and the empty mark that holds its place while code is found
_VALUE = re.compile(f"{VERBATIM_START}([^{VERBATIM_START}{VERBATIM_END}]*){VERBATIM_END}")
_PLACE = VERBATIM_START + VERBATIM_END
#: what ends a code span or block, set in a value inside code as a look-alike (ˋ)
_BACKTICK = str.maketrans("`", "\u02cb")


def shown(text: str) -> str:
    """The service's text as Discord markdown: its own formatting kept, each `verbatim`
    value escaped (in code, where an escape would show, only its backticks replaced)."""
    values = iter(_VALUE.findall(text))
    parts = _CODE.split(_VALUE.sub(_PLACE, text))
    for at, part in enumerate(parts):
        code = at % 2 == 1
        pieces = part.split(_PLACE)
        pieces[1:] = [(next(values).translate(_BACKTICK) if code else escape_all(next(values)))
                      + piece for piece in pieces[1:]]
        parts[at] = "".join(pieces) if code else "".join(pieces).replace("](", "]\\(")
    return unmarked("".join(parts))


def escape_all(text: str) -> str:
    """Text with every markdown construct shown literally: discord.py's escapes, plus the
    headings, subtext, lists (`- a`, `1. a`) and `<…>` tags (timestamps, channels, emoji)
    that they leave, and every masked link: discord.py escapes only the first `[` of a line
    (`[a](x) [b](y)` kept its second link), so each `[` is escaped and each `](` broken."""
    text = discord.utils.escape_markdown(text)
    text = re.sub(r"(?<!\\)\[", r"\\[", text).replace("](", "]\\(")
    text = re.sub(r"^(\s*)(#|-#|[-+](?=\s))", r"\1\\\2", text, flags=re.MULTILINE)
    text = re.sub(r"^(\s*\d+)([.)]\s)", r"\1\\\2", text, flags=re.MULTILINE)
    return text.replace("<", "\\<")


def message_kwargs(reply: Reply, look: Look = NO_LOOK) -> dict[str, Any]:
    """A board as one Components V2 container (`board.board_view`, with `look`'s accent and
    stamp), or else content and the buttons; files and allowed mentions either way.

    Call it once per attempt: an attached file can be read only once. Files always travel
    as `files` (Discord takes `file` or `files`, not both), the board first."""
    kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions(reply)}
    files = [discord.File(io.BytesIO(a.data), filename=a.filename) for a in reply.attachments]
    if reply.image is not None:
        files.insert(0, discord.File(io.BytesIO(reply.image), filename=BOARD_FILE))
        kwargs["view"] = board_view(reply, content(reply), look)
    else:
        kwargs["content"] = content(reply)
        if reply.buttons or reply.pickers:
            kwargs["view"] = buttons_view(reply.buttons, reply.pickers)
    if files:
        kwargs["files"] = files
    return kwargs


def builder(reply: Reply, look: Look = NO_LOOK) -> Builder:
    """`message_kwargs` for the operations, which build a fresh message for each attempt."""
    return lambda: message_kwargs(reply, look)


async def prepared(service: TwixtService, reply: Reply) -> Builder:
    """`builder` of a reply whose board (if any) shows the game's look now: the accent of
    the player to move and the stamp that tells an old board (`board.look_of`)."""
    return builder(reply, await look_of(service, reply))
