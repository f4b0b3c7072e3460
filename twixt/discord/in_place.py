"""Each game's newest board, edited in place turn by turn where Discord lets the bot edit it.

A public board of a game in progress is remembered with the message that shows it. When the
game's next board is to be shown in the same channel, that message is edited to show it
instead of a new one being sent — as Discord allows: a message the bot posted, by the bot,
at any time; a message that answered an interaction, through that interaction's token, for
its 15 minutes (`relay.TOKEN_LIFE_SECONDS`), never after (the request would be refused and
counted toward Discord's invalid-request limit). Where it cannot — no board remembered, a
token too old, the message gone — the board is sent as a new message and remembered.

An edit notifies no one, so what is sent in the board's place is its text, with its pings,
and a link to the board edited (`said_instead`): the player to move is told as before. A board
shown to one person alone (a private answer, a follow-up Discord made private) is never
remembered: the others must see the next one. Nothing here outlives the process: after a
restart the next board is a new message, and the old one's presses are answered that it is
old (`board.is_old`).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol, cast

import discord

from twixt.discord import operations, replies
from twixt.discord.board import game_of
from twixt.discord.relay import TOKEN_LIFE_SECONDS
from twixt.service import Reply

#: the games whose newest board is remembered, the least recently shown forgotten first
MAX_GAMES = 10_000

#: sends a message (the board, or what is said in its place); the message sent, or None
Send = Callable[[replies.Builder], Awaitable[discord.Message | None]]


@dataclass
class ShownBoard:
    """The message that shows a game's newest board, and since when."""

    message: discord.Message
    since: float

    def editable(self, now: float) -> bool:
        """Whether the bot may still edit it: its own post always, an interaction's answer
        while the interaction's token lives."""
        by_token = isinstance(self.message, (discord.InteractionMessage,
                                             discord.WebhookMessage))
        return not by_token or now - self.since < TOKEN_LIFE_SECONDS


class Boards:
    """The newest public board of each game this process has shown (at most `MAX_GAMES`)."""

    def __init__(self) -> None:
        self._shown: OrderedDict[int, ShownBoard] = OrderedDict()

    def remember(self, part: Reply, sent: discord.Message | None) -> None:
        """Note `sent` as the message showing `part`'s board, if it is a public board of a
        game in progress."""
        game_id = game_of(part)
        if (game_id is None or part.ephemeral or not isinstance(sent, discord.Message)
                or sent.flags.ephemeral):
            return
        self._shown[game_id] = ShownBoard(sent, time.monotonic())
        self._shown.move_to_end(game_id)
        while len(self._shown) > MAX_GAMES:
            self._shown.popitem(last=False)

    async def edited(self, part: Reply, channel_id: int | None,
                     made: replies.Builder) -> discord.Message | None:
        """The game's board edited in place to show `part` (a public board, for the channel
        the board is in); None when it cannot be, and a new message is wanted."""
        game_id = game_of(part)
        if game_id is None or part.ephemeral:
            return None
        shown = self._shown.get(game_id)
        if (shown is None or shown.message.channel.id != channel_id
                or not shown.editable(time.monotonic())):
            return None
        edited = await operations.safe_edit(shown.message, made)
        if edited is None:
            self._shown.pop(game_id, None)  # gone, or refused: the next board is new
        return edited


class BoardsClient(Protocol):
    """The client (`app.TwixtBot`) that keeps the boards shown."""

    boards: Boards


def said_instead(part: Reply, link: str) -> Reply:
    """What is sent in the place of a board edited in place: its text and its pings, and a
    link to the board, with no picture and no controls."""
    return replace(part, text=f"{part.text}\n{link}", image=None, attachments=(), pickers=(),
                   buttons=())


def boards_of(client: discord.Client) -> Boards:
    """The boards the client (`app.TwixtBot`) keeps."""
    return cast(BoardsClient, client).boards


async def show(boards: Boards, part: Reply, channel_id: int | None, made: replies.Builder,
               send: Send) -> discord.Message | None:
    """Show `part` in `channel_id`: its game's board edited in place and `said_instead`
    sent, or else `part` sent by `send` (and remembered as its game's board); the message
    sent."""
    edited = await boards.edited(part, channel_id, made)
    if edited is not None:
        return await send(replies.builder(said_instead(part, edited.jump_url)))
    sent = await send(made)
    boards.remember(part, sent)
    return sent
