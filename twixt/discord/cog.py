"""`/twixt …`: challenges and everything a player does in a game — what players type most
stays this short (`/twixt move`, `/twixt board`)."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from twixt.discord.commanding import (
    OPTION_WORDS,
    ServiceCog,
    YesNo,
    challenge_options,
    command_choices,
    installable_anywhere,
    player_or_bot,
    size_choices,
    time_choices,
    with_challenge_options,
)
from twixt.discord.messages import ChatMoves
from twixt.rules import Action, Command
from twixt.service import MAX_NOTE, MAX_PAGE, TwixtService
from twixt.service import commands as cmd
from twixt.service.commands import router

_DRAW_ACTIONS = {"offer": Action.OFFER_DRAW, "accept": Action.ACCEPT_DRAW,
                 "decline": Action.DECLINE_DRAW}


@installable_anywhere
class TwixtCog(ServiceCog, group_name="twixt", group_description=locale_str("Play TwixT")):
    """`/twixt …`: what players do in a game, and the chat-move listener."""

    def __init__(self, service: TwixtService, chat: ChatMoves) -> None:
        self.chat = chat
        super().__init__(service)

    @app_commands.command(description=locale_str("Challenge someone, or anyone here, to TwixT"))
    @app_commands.describe(user=locale_str("who you challenge (leave out: anyone here may accept)"),
                           **OPTION_WORDS)
    @app_commands.autocomplete(size=size_choices, time=time_choices)
    @with_challenge_options
    async def challenge(self, interaction: discord.Interaction,
                        user: discord.User | None = None, **options: Any) -> None:
        async def build() -> cmd.ServiceCommand:
            return cmd.Challenge(player_or_bot(interaction, user) if user else None,
                                 challenge_options(**options))

        await self._serve(interaction, build)

    @app_commands.command(
        description=locale_str("Double TwixT: you and a partner against two others"))
    @app_commands.describe(partner=locale_str("your teammate"),
                           opponent1=locale_str("first opponent"),
                           opponent2=locale_str("second opponent"), **OPTION_WORDS)
    @app_commands.autocomplete(size=size_choices, time=time_choices)
    @with_challenge_options
    async def team(self, interaction: discord.Interaction, partner: discord.User,
                   opponent1: discord.User, opponent2: discord.User,
                   **options: Any) -> None:
        async def build() -> cmd.ServiceCommand:
            players = [player_or_bot(interaction, m) for m in (partner, opponent1, opponent2)]
            return cmd.Team(players[0], (players[1], players[2]), challenge_options(**options))

        await self._serve(interaction, build)

    @app_commands.command(description=locale_str("Accept the challenge made to you here"))
    async def accept(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.AnswerChallenge("accept"))

    @app_commands.command(
        description=locale_str("Decline a challenge made to you, or withdraw yours"))
    async def decline(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.AnswerChallenge("decline"))

    @app_commands.command(description=locale_str("Play your turn, like G6 link E5"))
    @app_commands.describe(
        text=locale_str("G6 · G6 link E5 · remove J9-K11; I11 link K10 · swap"))
    @app_commands.rename(text="command")  # the option's name for players
    async def move(self, interaction: discord.Interaction, text: str) -> None:
        async def typed() -> cmd.ServiceCommand:
            return router.read(text)

        await self._serve(interaction, typed)

    @app_commands.command(description=locale_str("Take over Red's first peg (when swap is on)"))
    async def swap(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.Move(Command(actions=(Action.SWAP,))))

    @app_commands.command(description=locale_str("Double TwixT: call Privilege after your move"))
    async def privilege(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.Move(Command(actions=(Action.PRIVILEGE,))))

    @app_commands.command(description=locale_str("Resign this game (asks to confirm)"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.Resign())

    @app_commands.command(description=locale_str("Offer a draw, or accept or decline one"))
    @app_commands.describe(action=locale_str("offer a draw, or answer your opponent's offer"))
    async def draw(self, interaction: discord.Interaction,
                   action: Literal["offer", "accept", "decline"]) -> None:
        await self._serve(interaction, cmd.Move(Command(actions=(_DRAW_ACTIONS[action],))))

    @app_commands.command(description=locale_str("Show the board of this channel's game"))
    async def board(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.ShowBoard())
        # the asker's link to the web board follows, when the client serves one
        # (`TwixtBot.send_board_link`)
        links = getattr(interaction.client, "send_board_link", None)
        if links is not None:
            await links(interaction)

    @app_commands.command(description=locale_str("Players, options and whose turn it is"))
    async def status(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.Status())

    @app_commands.command(description=locale_str("How to play, and the move language"))
    @app_commands.describe(
        topic=locale_str("a command to explain, like challenge (leave out: all of them)"))
    @app_commands.autocomplete(topic=command_choices)
    @app_commands.rename(topic="command")  # the option's name for players
    async def help(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        await self._serve(interaction, cmd.Help(topic))

    @app_commands.command(
        description=locale_str("Call the game off (a channel manager, or all players)"))
    async def abort(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.Abort())

    @app_commands.command(description=locale_str("Claim the win when your opponent's time is up"))
    async def claim(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.Claim())

    @app_commands.command(
        description=locale_str("Ask to take back your last turn, or answer such a request"))
    @app_commands.describe(
        action=locale_str("request (your last turn), or accept or decline a request"))
    async def takeback(self, interaction: discord.Interaction,
                       action: Literal["request", "accept", "decline"] = "request") -> None:
        await self._serve(interaction, cmd.Takeback(action))

    @app_commands.command(
        name="if", description=locale_str("Store private replies to your opponent's next moves"))
    @app_commands.describe(
        moves=locale_str("if H9 then G6; if J10 then K8 · clear · leave out: show them"))
    async def conditional(self, interaction: discord.Interaction,
                          moves: str | None = None) -> None:
        async def build() -> cmd.ServiceCommand:
            return router.conditional(moves or "")

        await self._serve(interaction, build)

    @app_commands.command(
        description=locale_str("Challenge the players of this channel's last game again"))
    async def rematch(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.Rematch())

    @app_commands.command(
        description=locale_str("Your games here, those waiting for your move first"))
    @app_commands.describe(page=locale_str("which page of your games (default 1)"))
    async def games(self, interaction: discord.Interaction,
                    page: app_commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        await self._serve(interaction, cmd.MyGames(page))

    @app_commands.command(
        description=locale_str("Your most urgent game waiting for your move, anywhere"))
    async def next(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.NextGame())

    @app_commands.command(description=locale_str("Keep a private note on a game"))
    @app_commands.describe(
        text=locale_str("your note; only you will see it"),
        game=locale_str("the game's number (leave out: this channel's game)"))
    async def note(self, interaction: discord.Interaction,
                   text: app_commands.Range[str, 1, MAX_NOTE],
                   game: app_commands.Range[int, 1] | None = None) -> None:
        await self._serve(interaction, cmd.Note(text, game))

    @app_commands.command(description=locale_str("Your private notes on a game"))
    @app_commands.describe(
        game=locale_str("the game's number (leave out: this channel's game)"),
        page=locale_str("which page of notes (default 1)"),
        clear=locale_str("yes: remove all your notes on the game"))
    async def notes(self, interaction: discord.Interaction,
                    game: app_commands.Range[int, 1] | None = None,
                    page: app_commands.Range[int, 1, MAX_PAGE] = 1,
                    clear: YesNo = "no") -> None:
        await self._serve(interaction, cmd.Notes(game, page, clear == "yes"))

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await self.chat.handle(message)
