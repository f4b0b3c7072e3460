"""Commands written in chat: `@bot G6 link E5`, and plain `G6 link E5` with Message Content.

A message that mentions the bot carries its text even without the privileged intent, so
`@bot …` always works — any command, read by the service's router, with players named by
mentioning them — and the bot answers it (errors too: the player asked it). Plain
messages are read only when `Settings.message_content` is on, and then only a command of the
move language from a player seated in the channel's game gets any answer: chat stays chat.
Replies to messages cannot be ephemeral; an error is a short reply to the message, and
conditional moves (`if H9 then G6`), which are private, are only refused there, never echoed
(see `/twixt if`). Discord
does not tell a message's author's language, so the bot answers in the server's
(`guild.preferred_locale`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

import discord

from twixt.discord import in_place, operations, replies
from twixt.discord.commanding import player_of
from twixt.discord.in_place import Boards
from twixt.discord.respond import person
from twixt.language import locale_of
from twixt.rules import quote
from twixt.service import MalformedError, Reply, Request, ServiceError, TwixtService, User, refusal
from twixt.service.commands import router

log = logging.getLogger(__name__)

_MENTION = re.compile(r"<@!?(\d+)>")


class ChatMoves:
    """Reads commands from messages and runs them through the service."""

    def __init__(self, service: TwixtService, *, read_all: bool,
                 boards: Boards | None = None) -> None:
        self._service = service
        self._read_all = read_all
        #: the games' boards shown, which a chat move's board edits in place (the client's)
        self._boards = Boards() if boards is None else boards

    async def handle(self, message: discord.Message) -> None:
        """Answer a message if it is addressed to us, or (read_all) a seated player's move:
        the Request built here, the text read here once (`router.read_command`), the service called
        once (`answer`, or `hear` for chat that may be only chat), and what it says posted."""
        if message.author.bot or message.guild is None:
            return
        text = _addressed(message.content, message.guild.me.id)
        if text is None and not self._read_all:
            return  # chat stays chat: not even the author's rights are looked up
        request = _request_of(message)
        where = {"user_id": request.user.id, "guild_id": request.guild_id,
                 "channel_id": request.channel_id, "message_id": message.id}
        context = {"command": "message", **where}
        reply: Reply | None
        if text is not None:
            try:
                asked = router.read_command(text or "help", lambda word: _mentioned(message, word),
                                    public=True)
            except Exception as error:  # what was typed is refused as the service refuses
                reply = refusal(error, context, request.locale)
            else:
                reply = await self._service.answer(request, asked, context)
        else:
            try:
                heard = router.read_command(message.content)
            except ServiceError:
                return  # chat stays chat
            reply = await self._service.hear(request, heard, context)
        if reply is None:
            return
        async def send(made: replies.Builder) -> discord.Message | None:
            return await operations.safe_send(message.channel, made, **where)

        # Moves, resignations and help all answer in the channel they were asked in (a
        # game's board edited in place where it can be); a private word to someone (a
        # stored reply that could not be played) never does.
        for part in reply.all_messages():
            if part.dm_user_id is not None:
                await _tell_privately(message, part, where)
            else:
                made = await replies.prepared(self._service, part)
                await in_place.show(self._boards, part, message.channel.id,
                                    _builder(made, part, message), send)


async def _tell_privately(message: discord.Message, part: Reply,
                          where: Mapping[str, object]) -> None:
    """A direct message that a chat command led to; when it cannot be sent (the member takes
    no direct messages) it is logged, not said in the channel, which must not read it."""
    assert message.guild is not None and part.dm_user_id is not None
    person = await operations.safe_member(message.guild, part.dm_user_id)
    if person is None or await operations.safe_send(person, replies.builder(part),
                                                    **where) is None:
        log.info("direct message not delivered", extra={"to_user_id": part.dm_user_id,
                                                        **where})


def _builder(made: replies.Builder, part: Reply, message: discord.Message
             ) -> replies.Builder:
    def build() -> dict[str, Any]:
        kwargs = made()
        if part.ephemeral:  # a message has no private answer: reply to it instead
            kwargs["reference"] = message
        return kwargs

    return build


def _addressed(content: str, me: int) -> str | None:
    """The text after a leading mention of the bot, or None when it does not start so."""
    match = re.match(rf"\s*<@!?{me}>", content)
    return content[match.end():].strip() if match else None


def _mentioned(message: discord.Message, word: str) -> User:
    """A person named in a chat command: one of the users the message mentions."""
    match = _MENTION.fullmatch(word)
    member = next((m for m in message.mentions if match and m.id == int(match[1])), None)
    if member is None:
        raise MalformedError("mention the player (@name) instead of writing {word}",
                             word=quote(word))
    return person(player_of(member))


def _request_of(message: discord.Message) -> Request:
    assert message.guild is not None
    author = message.author
    rights = (message.channel.permissions_for(author) if isinstance(author, discord.Member)
              else discord.Permissions.none())
    return Request(message.guild.id, message.channel.id, person(author),
                   can_manage=rights.manage_channels, can_manage_server=rights.manage_guild,
                   locale=locale_of(message.guild.preferred_locale), private_replies=False)
