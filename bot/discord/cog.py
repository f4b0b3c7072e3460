"""The `/twixt` slash commands: each turns Discord's options into a service command and
hands it to `respond`.

Thin on purpose: what a command does is the service's business; how an interaction is
deferred, answered and protected from errors is `respond`'s.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.messages import ChatMoves
from bot.discord.respond import answer, person
from bot.service import MAX_PAGE, Reply, Request, ServiceError, TwixtService, build_options, router
from bot.service import commands as cmd
from bot.service.records import MAX_IMPORT_BYTES
from rules import Action, Command

YesNo = Literal["yes", "no"]
Rules = Literal["classic", "pp"]
First = Literal["me", "them", "random"]
OnOff = Literal["on", "off"]
Build = Callable[[], Awaitable[cmd.ServiceCommand]]

_DRAW_ACTIONS = {"offer": Action.OFFER_DRAW, "accept": Action.ACCEPT_DRAW,
                 "decline": Action.DECLINE_DRAW}

COMMON_SIZES = ("24", "24x18", "20", "16", "12", "30", "48")
COMMON_TIMES = ("12h", "1d", "2d", "3d", "7d")
_OPTIONS = {
    "size": "board size: 24, 12 or columns x rows like 24x18 (default 24)",
    "rules": "classic (links block, removals allowed) or pp (own links may cross)",
    "swap": "may the second player take over the first peg? (default yes, no with handicap)",
    "handicap": "rows the weaker side's opponent gives up",
    "first": "who plays Red and moves first (default me)",
    "thread": "play in a new thread of its own",
    "time": "time per move, like 3d, 12h or 1d12h (default: no clock)",
}

Suggest = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]


def suggestions(values: tuple[str, ...]) -> Suggest:
    """An autocomplete of the common values that start with what is typed (any other value
    may still be typed: the service judges it)."""
    async def choices(interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [app_commands.Choice(name=value, value=value)
                for value in values if value.startswith(typed)]

    return choices


size_choices = suggestions(COMMON_SIZES)
time_choices = suggestions(COMMON_TIMES)


def _opponent(member: discord.Member | discord.User) -> discord.Member | discord.User:
    if member.bot:
        raise ServiceError(f"{member.display_name} is a bot; bots do not play TwixT")
    return member


async def _read(file: discord.Attachment) -> bytes:
    """An attached record's bytes; a file too big for a record is refused before reading."""
    if file.size > MAX_IMPORT_BYTES:
        raise ServiceError(f"{file.filename} is too big for a game record "
                           f"({MAX_IMPORT_BYTES // 1024} KB at most)")
    try:
        return await file.read()
    except discord.HTTPException:
        raise ServiceError(f"Discord did not hand me {file.filename}; attach it again") from None


@app_commands.guild_only()
class TwixtCog(commands.GroupCog, group_name="twixt", group_description="Play TwixT"):
    """`/twixt …` and the chat-move listener."""

    def __init__(self, service: TwixtService, chat: ChatMoves) -> None:
        self.service = service
        self.chat = chat
        super().__init__()

    async def _run(self, interaction: discord.Interaction, build: Build) -> None:
        """Build the command from the options (which may be refused, as the service's own
        errors are) and execute it."""
        label = interaction.command.qualified_name if interaction.command else "?"

        async def call(request: Request) -> Reply:
            return await self.service.execute(request, await build())

        await answer(interaction, label, call)

    async def _send(self, interaction: discord.Interaction, command: cmd.ServiceCommand) -> None:
        async def build() -> cmd.ServiceCommand:
            return command

        await self._run(interaction, build)

    @app_commands.command(description="Challenge someone, or anyone here, to TwixT")
    @app_commands.describe(user="who you challenge (leave out: anyone here may accept)",
                           **_OPTIONS)
    @app_commands.autocomplete(size=size_choices, time=time_choices)
    async def challenge(self, interaction: discord.Interaction,
                        user: discord.Member | None = None, size: str | None = None,
                        rules: Rules | None = None, swap: YesNo | None = None,
                        handicap: app_commands.Range[int, 0] | None = None,
                        first: First | None = None, thread: YesNo | None = None,
                        time: str | None = None) -> None:
        async def build() -> cmd.ServiceCommand:
            options = build_options(size=size, rules=rules, swap=swap, handicap=handicap,
                                    first=first, thread=thread, time=time)
            return cmd.Challenge(person(_opponent(user)) if user else None, options)

        await self._run(interaction, build)

    @app_commands.command(description="Double TwixT: you and a partner against two others")
    @app_commands.describe(partner="your teammate", opponent1="first opponent",
                           opponent2="second opponent", **_OPTIONS)
    @app_commands.autocomplete(size=size_choices, time=time_choices)
    async def team(self, interaction: discord.Interaction, partner: discord.Member,
                   opponent1: discord.Member, opponent2: discord.Member,
                   size: str | None = None, rules: Rules | None = None,
                   swap: YesNo | None = None,
                   handicap: app_commands.Range[int, 0] | None = None,
                   first: First | None = None, thread: YesNo | None = None,
                   time: str | None = None) -> None:
        async def build() -> cmd.ServiceCommand:
            options = build_options(size=size, rules=rules, swap=swap, handicap=handicap,
                                    first=first, thread=thread, time=time)
            players = [person(_opponent(m)) for m in (partner, opponent1, opponent2)]
            return cmd.Team(players[0], (players[1], players[2]), options)

        await self._run(interaction, build)

    @app_commands.command(description="Accept the challenge made to you here")
    async def accept(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.AnswerChallenge("accept"))

    @app_commands.command(description="Decline a challenge made to you, or withdraw yours")
    async def decline(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.AnswerChallenge("decline"))

    @app_commands.command(description="Play your turn, like G6 link E5")
    @app_commands.describe(command="G6 · G6 link E5 · remove J9-K11; I11 link K10 · swap")
    async def move(self, interaction: discord.Interaction, command: str) -> None:
        async def build() -> cmd.ServiceCommand:
            return router.read(command)

        await self._run(interaction, build)

    @app_commands.command(description="Take over Red's first peg (when swap is on)")
    async def swap(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.Move(Command(actions=(Action.SWAP,))))

    @app_commands.command(description="Double TwixT: call Privilege after your move")
    async def privilege(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.Move(Command(actions=(Action.PRIVILEGE,))))

    @app_commands.command(description="Resign this game (asks to confirm)")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.Resign())

    @app_commands.command(description="Offer a draw, or accept or decline one")
    @app_commands.describe(action="offer a draw, or answer your opponent's offer")
    async def draw(self, interaction: discord.Interaction,
                   action: Literal["offer", "accept", "decline"]) -> None:
        await self._send(interaction, cmd.Move(Command(actions=(_DRAW_ACTIONS[action],))))

    @app_commands.command(description="Show the board of this channel's game")
    async def board(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.ShowBoard())

    @app_commands.command(description="Players, options and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.Status())

    @app_commands.command(description="How to play, and the move language")
    async def help(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.Help())

    @app_commands.command(description="Call the game off (a channel manager, or all players)")
    async def abort(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.Abort())

    @app_commands.command(description="Claim the win when your opponent's time is up")
    async def claim(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.Claim())

    @app_commands.command(description="Ask to take back your last turn, or answer such a request")
    @app_commands.describe(action="request (your last turn), or accept or decline a request")
    async def takeback(self, interaction: discord.Interaction,
                       action: Literal["request", "accept", "decline"] = "request") -> None:
        await self._send(interaction, cmd.Takeback(action))

    @app_commands.command(description="This channel's game as record files")
    @app_commands.describe(fmt="transcript, Little Golem (lg) or T1 (default: all three)")
    @app_commands.rename(fmt="format")
    async def export(self, interaction: discord.Interaction,
                     fmt: Literal["transcript", "lg", "t1"] | None = None) -> None:
        await self._send(interaction, cmd.Export(fmt))

    @app_commands.command(description="Past games of a player, or of this channel")
    @app_commands.describe(user="whose games (leave out: this channel's)",
                           page="which page of ten games (default 1)")
    async def history(self, interaction: discord.Interaction,
                      user: discord.Member | None = None,
                      page: app_commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        await self._send(interaction, cmd.History(person(user) if user else None, page))

    @app_commands.command(description="A game as an animated picture, one frame a turn")
    @app_commands.describe(game="the game's number (leave out: this channel's last game)")
    async def replay(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1] | None = None) -> None:
        await self._send(interaction, cmd.Replay(game))

    @app_commands.command(name="import",
                          description="Show a game record, and challenge to continue it")
    @app_commands.describe(file="a transcript (.twixt), Little Golem (.tsgf) or T1 (.T1) file",
                           opponent="who you challenge to continue it (leave out: anyone)",
                           first="me: you take the record's Red seat; them: its Black seat",
                           thread=_OPTIONS["thread"])
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment,
                      opponent: discord.Member | None = None, first: First | None = None,
                      thread: YesNo | None = None) -> None:
        async def build() -> cmd.ServiceCommand:
            options = build_options(first=first, thread=thread)
            who = person(_opponent(opponent)) if opponent else None
            return cmd.ImportRecord(file.filename, await _read(file), who, options)

        await self._run(interaction, build)

    @app_commands.command(description="Wins, losses and rating of a player in this server")
    @app_commands.describe(user="whose numbers (leave out: yours)")
    async def stats(self, interaction: discord.Interaction,
                    user: discord.Member | None = None) -> None:
        await self._send(interaction, cmd.Stats(person(user) if user else None))

    @app_commands.command(description="This server's rated players, best first")
    @app_commands.describe(page="which page of ten players (default 1)")
    async def leaderboard(self, interaction: discord.Interaction,
                          page: app_commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        await self._send(interaction, cmd.Leaderboard(page))

    @app_commands.command(description="Challenge the players of this channel's last game again")
    async def rematch(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, cmd.Rematch())

    @app_commands.command(description="Show or change how the bot treats you")
    @app_commands.describe(theme="the board's colours", palette="colours for colour-blindness",
                           side="the side you see the board from",
                           dm="clock reminders by direct message",
                           autolink="a bare peg like G6 links all it can (classic)")
    async def settings(self, interaction: discord.Interaction,
                       theme: Literal["light", "dark"] | None = None,
                       palette: Literal["normal", "colour-blind"] | None = None,
                       side: Literal["red", "black", "any"] | None = None,
                       dm: OnOff | None = None, autolink: OnOff | None = None) -> None:
        given: dict[str, str | None] = {"theme": theme, "palette": palette, "side": side,
                                        "dm": dm, "autolink": autolink}
        changes = {name: value for name, value in given.items() if value is not None}
        await self._send(interaction, cmd.UserSettings(changes))

    @app_commands.command(description="The server's settings (changed by those with Manage Server)")
    @app_commands.describe(thread="a thread for each new game unless the challenge says",
                           expiry="hours before an unanswered challenge expires",
                           forfeit="a player whose time runs out loses at once",
                           reminder="hours into a clocked turn before the first reminder")
    async def server(self, interaction: discord.Interaction, thread: YesNo | None = None,
                     expiry: app_commands.Range[int, 1, 720] | None = None,
                     forfeit: YesNo | None = None,
                     reminder: app_commands.Range[int, 1, 720] | None = None) -> None:
        given = {"thread": thread, "expiry": expiry, "forfeit": forfeit, "reminder": reminder}
        changes = {name: str(value) for name, value in given.items() if value is not None}
        await self._send(interaction, cmd.ServerSettings(changes))

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await self.chat.handle(message)
