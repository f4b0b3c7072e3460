"""The `/twixt` slash commands: each builds the service call and hands it to `respond`.

Thin on purpose: what a command means is the service's business; how an interaction is
deferred, answered and protected from errors is `respond`'s.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.messages import ChatMoves
from bot.discord.respond import Call, answer, person, play
from bot.service import Context, Reply, ServiceError, TwixtService, build_options

YesNo = Literal["yes", "no"]
Rules = Literal["classic", "pp"]
First = Literal["me", "them", "random"]

COMMON_SIZES = ("24", "24x18", "20", "16", "12", "30", "48")
_OPTIONS = {
    "size": "board size: 24, 12 or columns x rows like 24x18 (default 24)",
    "rules": "classic (links block, removals allowed) or pp (own links may cross)",
    "swap": "may the second player take over the first peg? (default yes, no with handicap)",
    "handicap": "rows the weaker side's opponent gives up",
    "first": "who plays Red and moves first (default me)",
    "thread": "play in a new thread of its own",
}


async def size_choices(interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
    """Common sizes that start with what is typed (any other size may still be typed)."""
    typed = current.strip().lower()
    return [app_commands.Choice(name=size, value=size)
            for size in COMMON_SIZES if size.startswith(typed)]


def _opponent(member: discord.Member | discord.User) -> discord.Member | discord.User:
    if member.bot:
        raise ServiceError(f"{member.display_name} is a bot; bots do not play TwixT")
    return member


@app_commands.guild_only()
class TwixtCog(commands.GroupCog, group_name="twixt", group_description="Play TwixT"):
    """`/twixt …` and the chat-move listener."""

    def __init__(self, service: TwixtService, chat: ChatMoves) -> None:
        self.service = service
        self.chat = chat
        super().__init__()

    async def _run(self, interaction: discord.Interaction, call: Call) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        await answer(interaction, command, call)

    @app_commands.command(description="Challenge someone, or anyone here, to TwixT")
    @app_commands.describe(user="who you challenge (leave out: anyone here may accept)",
                           **_OPTIONS)
    @app_commands.autocomplete(size=size_choices)
    async def challenge(self, interaction: discord.Interaction,
                        user: discord.Member | None = None, size: str | None = None,
                        rules: Rules | None = None, swap: YesNo | None = None,
                        handicap: app_commands.Range[int, 0] | None = None,
                        first: First | None = None, thread: YesNo | None = None) -> None:
        async def call(ctx: Context) -> Reply:
            options = build_options(size=size, rules=rules, swap=swap, handicap=handicap,
                                    first=first, thread=thread)
            opponent = person(_opponent(user)) if user else None
            return await self.service.challenge(ctx, opponent, options)

        await self._run(interaction, call)

    @app_commands.command(description="Double TwixT: you and a partner against two others")
    @app_commands.describe(partner="your teammate", opponent1="first opponent",
                           opponent2="second opponent", **_OPTIONS)
    @app_commands.autocomplete(size=size_choices)
    async def team(self, interaction: discord.Interaction, partner: discord.Member,
                   opponent1: discord.Member, opponent2: discord.Member,
                   size: str | None = None, rules: Rules | None = None,
                   swap: YesNo | None = None,
                   handicap: app_commands.Range[int, 0] | None = None,
                   first: First | None = None, thread: YesNo | None = None) -> None:
        async def call(ctx: Context) -> Reply:
            options = build_options(size=size, rules=rules, swap=swap, handicap=handicap,
                                    first=first, thread=thread)
            players = [person(_opponent(m)) for m in (partner, opponent1, opponent2)]
            return await self.service.team(ctx, players[0], (players[1], players[2]), options)

        await self._run(interaction, call)

    @app_commands.command(description="Accept the challenge made to you here")
    async def accept(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.accept)

    @app_commands.command(description="Decline a challenge made to you, or withdraw yours")
    async def decline(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.decline)

    @app_commands.command(description="Play your turn, like G6 link E5")
    @app_commands.describe(command="G6 · G6 link E5 · remove J9-K11; I11 link K10 · swap")
    async def move(self, interaction: discord.Interaction, command: str) -> None:
        await self._run(interaction, lambda ctx: play(self.service, ctx, command))

    @app_commands.command(description="Take over Red's first peg (when swap is on)")
    async def swap(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, lambda ctx: self.service.move(ctx, "swap"))

    @app_commands.command(description="Double TwixT: call Privilege after your move")
    async def privilege(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, lambda ctx: self.service.move(ctx, "privilege"))

    @app_commands.command(description="Resign this game (asks to confirm)")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.resign)

    @app_commands.command(description="Offer a draw, or accept or decline one")
    async def draw(self, interaction: discord.Interaction,
                   action: Literal["offer", "accept", "decline"]) -> None:
        await self._run(interaction, lambda ctx: self.service.draw(ctx, action))

    @app_commands.command(description="Show the board of this channel's game")
    async def board(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.board)

    @app_commands.command(description="Players, options and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.status)

    @app_commands.command(description="How to play, and the move language")
    async def help(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, lambda ctx: self.service.help())

    @app_commands.command(description="Call the game off (a channel manager, or all players)")
    async def abort(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.abort)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await self.chat.handle(message)
