"""Each game's board edited in place where Discord lets the bot edit it: its own posts at any
time, an interaction's answers while the token lives (never a request Discord would refuse),
a new message otherwise; what is said in the board's place keeps the pings."""

from __future__ import annotations

from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from tests.discord.people import CHANNEL
from tests.discord.reading import pictures, words
from twixt.discord import in_place, replies
from twixt.discord.in_place import Boards
from twixt.discord.relay import TOKEN_LIFE_SECONDS
from twixt.service import Button, ButtonKind, Reply

BOB = 102


def board(text: str, *, ephemeral: bool = False) -> Reply:
    """A board of game 1 with its buttons, pinging bob."""
    return Reply(text, image=b"png", mentions=(BOB,), ephemeral=ephemeral,
                 buttons=(Button(ButtonKind.RESIGN, 1, "Resign"),))


def shown(kind: type[discord.Message] = discord.Message, channel_id: int = CHANNEL,
          ephemeral: bool = False) -> MagicMock:
    """A message of the bot's as discord.py gives it back: posted by the bot, or an
    interaction's answer (edited through its token)."""
    message = MagicMock(spec_set=kind)
    message.channel.id = channel_id
    message.flags = discord.MessageFlags(ephemeral=ephemeral)
    message.jump_url = f"https://discord.com/channels/1/{channel_id}/42"
    message.id = 42
    message.edit = AsyncMock(return_value=message)
    return message


class Sender:
    """`in_place.Send`: what it was handed, answering with `message`."""

    def __init__(self, message: Any) -> None:
        self.message, self.sent = message, []

    async def __call__(self, made: replies.Builder) -> Any:
        self.sent.append(made())
        return self.message


async def test_the_next_board_edits_the_bots_post_and_says_the_move_with_its_pings():
    boards, first = Boards(), shown()
    send = Sender(first)
    await in_place.show(boards, board("alice moves"), CHANNEL,
                        replies.builder(board("alice moves")), send)
    assert pictures(send.sent[0]) == ["attachment://board.png"]
    await in_place.show(boards, board("bob moves"), CHANNEL,
                        replies.builder(board("bob moves")), send)
    [edit] = first.edit.await_args_list
    assert "content" not in edit.kwargs and edit.kwargs["view"].has_components_v2()
    assert [file.filename for file in edit.kwargs["attachments"]] == ["board.png"]
    said = send.sent[1]  # in the board's place: its text, its pings, a link to it
    assert words(said) == f"<@{BOB}> bob moves\n{first.jump_url}" and "view" not in said
    assert [user.id for user in said["allowed_mentions"].users] == [BOB]


async def test_a_new_message_where_the_board_cannot_be_edited(monkeypatch):
    boards = Boards()
    old = shown(discord.InteractionMessage)
    await in_place.show(boards, board("1"), CHANNEL, replies.builder(board("1")), Sender(old))
    # elsewhere, or shown to one person alone: a board of its own
    for part, channel in ((board("2"), CHANNEL + 1), (board("3", ephemeral=True), CHANNEL)):
        send = Sender(shown(channel_id=channel, ephemeral=part.ephemeral))
        await in_place.show(boards, part, channel, replies.builder(part), send)
        assert pictures(send.sent[0])
    assert not old.edit.await_count
    # back in the first channel, whose board the game's last one elsewhere replaced
    await in_place.show(boards, board("1"), CHANNEL, replies.builder(board("1")), Sender(old))
    # the token of the answer that showed it has lived its 15 minutes: no request at all
    now = in_place.time.monotonic()
    monkeypatch.setattr(in_place.time, "monotonic", lambda: now + TOKEN_LIFE_SECONDS + 1)
    send = Sender(shown())
    await in_place.show(boards, board("4"), CHANNEL, replies.builder(board("4")), send)
    assert not old.edit.await_count and pictures(send.sent[0])


async def test_a_board_gone_is_forgotten_and_the_next_one_is_new():
    boards, gone = Boards(), shown()
    gone.edit.side_effect = discord.NotFound(MagicMock(status=404, reason="gone"), "gone")
    await in_place.show(boards, board("1"), CHANNEL, replies.builder(board("1")), Sender(gone))
    fresh = shown()
    send = Sender(fresh)
    await in_place.show(boards, board("2"), CHANNEL, replies.builder(board("2")), send)
    assert gone.edit.await_count == 1 and pictures(send.sent[0])
    await in_place.show(boards, board("3"), CHANNEL, replies.builder(board("3")), send)
    assert fresh.edit.await_count == 1 and gone.edit.await_count == 1


async def test_only_a_board_with_controls_is_remembered():
    boards, final = Boards(), shown()
    over = Reply("alice wins", image=b"png")  # a finished game's board: nothing to press
    await in_place.show(boards, over, CHANNEL, replies.builder(over), Sender(final))
    send = Sender(shown())
    await in_place.show(boards, over, CHANNEL, replies.builder(over), send)
    assert not final.edit.await_count and pictures(send.sent[0])
