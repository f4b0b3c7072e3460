"""The Discord client of `twixt run`, and its run until it is closed, with a clean exit code.

The client registers at start what must exist before the first event: the cog, the button
factory (so buttons on messages from before a restart still answer), the translator that
gives the slash commands their names and descriptions in each language, and the slash
commands — synced to `TWIXT_GUILD_IDS` at once when given, else globally (Discord may take
up to an hour to show global changes). It starts the clocks' scheduler then too, and stops
it when it closes; and it owns the engine pool in which the bot thinks when people play it
(`TWIXT_ENGINE_WORKERS` processes), whose moves it posts through the outbox — the game's
channel shows Discord's typing indicator while the bot searches or analyses a game.

The client is discord.py's `AutoShardedBot`: with `--shard-count N --shard-ids …` (or
TWIXT_SHARD_COUNT / TWIXT_SHARD_IDS) it runs those shards only, so that several processes,
on several machines, share one PostgreSQL database. Each then looks after the clocks of its
own shards' guilds (claimed in the database, so none fires twice), and only the process that
runs shard 0 syncs the commands.

What it is given comes from the process's composition root (`twixt.app.bot`): the settings,
how to open its service over the storage the root opened (`OpenService`, handed the port it
lends), and the web board served beside it (`board`), whose links `/twixt board` gives.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
import sys
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from twixt.config import Settings
from twixt.discord import operations, outbox, respond
from twixt.discord.activity import (
    BoardBeside,
    LaunchButton,
    send_board_link,
    sync_global_commands,
)
from twixt.discord.cog import ChatCog
from twixt.discord.in_place import Boards
from twixt.discord.messages import ChatMoves
from twixt.discord.reach import DirectReach
from twixt.discord.relay import Relays
from twixt.discord.scheduler import ClockScheduler
from twixt.discord.slash import slash_groups
from twixt.discord.threads import DiscordThreads
from twixt.discord.translator import CatalogueTranslator
from twixt.discord.user_commands import user_commands
from twixt.discord.views import PickerPlace, PickerSelect, TwixtButton
from twixt.language import locale_of
from twixt.service import Button, OpenService, Picker, Port, Reply

log = logging.getLogger(__name__)


def intents_for(settings: Settings) -> discord.Intents:
    """The default intents; Message Content (privileged) only when the settings ask for it."""
    intents = discord.Intents.default()
    intents.message_content = settings.message_content
    return intents


class TwixtBot(commands.AutoShardedBot):
    """The Discord client; owns the service that every command and button calls."""

    def __init__(self, settings: Settings, open_service: OpenService) -> None:
        shards = settings.shards
        # none given: as many shards as Discord recommends, all in this process
        sharding: dict[str, Any] = {} if shards is None else {"shard_count": shards.count,
                                              "shard_ids": list(shards.ids)}
        # a text bot needs no voice: discord.py's once-a-process warnings that the voice
        # libraries (PyNaCl, davey) are missing would only be noise in the log
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # No prefix commands: chat moves are read by the cog's listener instead.
        super().__init__(command_prefix=(), intents=intents_for(settings), help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), **sharding)
        self.settings = settings
        #: the live interactions of games in direct messages, where the bot may not post
        self.relays = Relays()
        #: the users who refused the bot's DMs, and the games whose players were told once
        self.reach = DirectReach()
        #: each game's newest board, edited in place turn by turn where Discord allows it
        self.boards = Boards()
        # what the service borrows of Discord, lent once: game threads, the bot's moves
        # posted by the outbox, each server's language, the typing sign while the bot
        # thinks, an analysis's progress in its deferred answer, and the clocks of this
        # process's guilds only (no shards given: every one)
        self.service = open_service(Port(threads=DiscordThreads(self), post=self.post,
                                         language=self.language_of,
                                         thinking=functools.partial(operations.typing, self),
                                         progress=respond.show_progress,
                                         shards=shards))
        # discord.py's AutoShardedClient makes its event queue only when it connects, but its
        # close() uses it: a client closed before it connected (a failed login, the tests)
        # needs one. `connect` replaces it with its own.
        self.__dict__.setdefault("_AutoShardedClient__queue", asyncio.PriorityQueue())
        self.scheduler = ClockScheduler(self, self.service)
        #: the web board beside the bot, when TWIXT_WEB_PORT asks for one: lent by the
        #: composition root once it serves it, and stopped with the bot
        self.board: BoardBeside | None = None
        self.tree.error(respond.on_app_command_error)

    async def setup_hook(self) -> None:
        chat = ChatMoves(self.service, read_all=self.settings.message_content,
                         boards=self.boards)
        await self.add_cog(ChatCog(chat))
        for group in slash_groups(self.service):
            self.tree.add_command(group)
        for menu in user_commands(self.service):
            self.tree.add_command(menu)
        self.add_dynamic_items(TwixtButton, LaunchButton, PickerSelect, PickerPlace)
        await self.tree.set_translator(CatalogueTranslator())
        if self.settings.syncs_commands:
            await self._sync_commands()
        else:
            log.info("commands are synced by the process that runs shard 0")
        self.scheduler.start()

    async def send_board_link(self, interaction: discord.Interaction) -> None:
        """After `/twixt board`, the asker's link to the web board (when one is served)."""
        if self.board is not None:
            await send_board_link(interaction, self.board, self.settings.web_url)

    async def press_button(self, interaction: discord.Interaction, button: Button) -> None:
        """Where every `TwixtButton` press arrives (see `views.ButtonClient`)."""
        await respond.press(interaction, self.service, button)

    async def use_picker(self, interaction: discord.Interaction, picker: Picker,
                         chosen: str) -> None:
        """Where every step of the move picker arrives (see `views.ButtonClient`)."""
        await respond.pick(interaction, self.service, picker, chosen)

    async def post(self, reply: Reply) -> None:
        """Post what nobody asked for here (the bot's move, a move made on the web board
        announced in its game's channel)."""
        await outbox.post(self, reply)

    def language_of(self, guild_id: int) -> str:
        """A server's language, as its settings in Discord say (`language.LOCALES`), from
        the client's cache; English for a server it does not know."""
        guild = self.get_guild(guild_id)
        return locale_of(guild.preferred_locale if guild is not None else None)

    async def close(self) -> None:
        self.scheduler.stop()
        if self.board is not None:
            await self.board.stop()
        await self.service.close()  # the bot's games stay marked: answered after a restart
        await super().close()

    async def _sync_commands(self) -> None:
        service = self.service
        try:
            for guild_id in self.settings.guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                await service.note_copied_commands(guild_id, True)
                log.info("commands synced", extra={"guild_id": guild_id, "count": len(synced)})
            # a copy left from an earlier run with other TWIXT_GUILD_IDS would show `/twixt`
            # twice in the picker: remembered when made, removed when no longer wanted
            for guild_id in await service.copied_commands():
                if guild_id not in self.settings.guild_ids:
                    guild = discord.Object(guild_id)
                    self.tree.clear_commands(guild=guild)
                    await self.tree.sync(guild=guild)
                    await service.note_copied_commands(guild_id, False)
                    log.info("command copy removed", extra={"guild_id": guild_id})
            if not self.settings.guild_ids:
                count = await sync_global_commands(self.tree, self)
                log.info("commands synced", extra={"scope": "global", "count": count})
        except discord.HTTPException as error:
            # The bot still plays through buttons and chat; the commands may be stale.
            log.error("command sync failed", extra={"status": error.status,
                                                    "error": error.text})

    async def on_ready(self) -> None:
        log.info("ready", extra={"user": str(self.user), "guilds": len(self.guilds),
                                 "shards": self.shard_count, "shard_ids": self.shard_ids,
                                 "message_content": self.settings.message_content})


async def serve_client(client: TwixtBot, token: str) -> int:
    """Log in and run until the client is closed (by a signal: SIGTERM, SIGINT); 2, with the
    reason in one line, when Discord refuses it or cannot be reached."""
    async with client:
        stopping = _close_on_signals(client)
        try:
            await _start(client, token, stopping)
        except discord.LoginFailure:
            print("twixt: Discord refused the token: copy it again from the Developer "
                  "Portal (Bot → Reset Token) into DISCORD_TOKEN.", file=sys.stderr)
            return 2
        except (aiohttp.ClientError, OSError) as error:
            # the network, not our code: one line, no aiohttp traceback
            print(f"twixt: cannot reach Discord ({error.__class__.__name__}: {error}); check "
                  "the network and try again.", file=sys.stderr)
            return 2
        except discord.PrivilegedIntentsRequired:
            print("twixt: TWIXT_MESSAGE_CONTENT is on but the Message Content intent is not "
                  "enabled for this bot in the Developer Portal (Bot → Privileged Gateway "
                  "Intents): enable it, or set TWIXT_MESSAGE_CONTENT=no.", file=sys.stderr)
            return 2
    return 0


async def _start(client: TwixtBot, token: str, stopping: asyncio.Event) -> None:
    """Run the client until it is closed. Once a signal has closed it, whatever fails in the
    start after that (a close during the login cuts the HTTP session under it) is the stop's
    doing, not a reason to report a failure and exit 2."""
    try:
        await client.start(token)
    except Exception:
        if not stopping.is_set():
            raise


def _close_on_signals(client: TwixtBot) -> asyncio.Event:
    """SIGTERM (`docker stop`, which kills 10 s later) and SIGINT (Ctrl-C) close the client
    as its own `close` does, in the event loop: the clocks stop, the bot's searches and any
    analysis are abandoned (their games stay marked: answered after the restart), the
    workers end, the gateway is closed with 1000, and then `start` returns and the database
    is closed on the way out (exit 0). Raising KeyboardInterrupt wherever the loop happened
    to be instead could cut a clean-up in half, and waited for running searches. The event
    returned is set once a signal came."""
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()
    stopping = asyncio.Event()

    def close() -> None:
        log.info("stopping on a signal")
        stopping.set()
        task = loop.create_task(client.close())
        closing.add(task)  # kept until done: the loop holds tasks only weakly
        task.add_done_callback(closing.discard)

    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, close)
    return stopping
