"""`/twixt-records …`: games as files, lists and pictures, the engine's look at a finished game,
and the numbers of players."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from twixt.discord.commanding import (
    OPTION_WORDS,
    First,
    ServiceCog,
    YesNo,
    installable_anywhere,
    numbered,
    player_of,
    record_bytes,
)
from twixt.discord.respond import person
from twixt.service import MAX_PAGE, build_options
from twixt.service import commands as cmd

#: the `game` option of replay and analyze
GAME = locale_str("the game's number (leave out: this channel's last game)")


@installable_anywhere
class RecordsCog(ServiceCog, group_name="twixt-records",
                 group_description=locale_str("TwixT records, replays and ratings")):
    """Export, history, replay, import, stats, leaderboard, and the engine's look at a finished
    game (analyze)."""

    @app_commands.command(description=locale_str("This channel's game as record files"))
    @app_commands.describe(
        fmt=locale_str("transcript, Little Golem (lg) or T1 (default: all three)"))
    @app_commands.rename(fmt="format")
    async def export(self, interaction: discord.Interaction,
                     fmt: Literal["transcript", "lg", "t1"] | None = None) -> None:
        await self._serve(interaction, cmd.Export(fmt))

    @app_commands.command(description=locale_str("Past games of a player, or of this channel"))
    @app_commands.describe(user=locale_str("whose games (leave out: this channel's)"),
                           page=locale_str("which page of ten games (default 1)"))
    async def history(self, interaction: discord.Interaction,
                      user: discord.User | None = None,
                      page: app_commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        await self._serve(interaction, cmd.History(person(user) if user else None, page))

    replay = numbered("RecordsCog", "replay",
                      locale_str("A game as an animated picture, one frame a turn"), "game",
                      GAME, cmd.Replay)

    @app_commands.command(
        name="import",
        description=locale_str("Show a game record, and challenge to continue it"))
    @app_commands.describe(
        file=locale_str("a transcript (.twixt), Little Golem (.tsgf) or T1 (.T1) file"),
        opponent=locale_str("who you challenge to continue it (leave out: anyone)"),
        first=locale_str("me: you take the record's Red seat; them: its Black seat"),
        thread=OPTION_WORDS["thread"])
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment,
                      opponent: discord.User | None = None, first: First | None = None,
                      thread: YesNo | None = None) -> None:
        async def build() -> cmd.ServiceCommand:
            options = build_options(first=first, thread=thread)
            who = person(player_of(opponent)) if opponent else None
            return cmd.ImportRecord(file.filename, await record_bytes(file), who, options)

        await self._serve(interaction, build)

    @app_commands.command(
        description=locale_str("Wins, losses and rating of a player in this server"))
    @app_commands.describe(user=locale_str("whose numbers (leave out: yours)"))
    async def stats(self, interaction: discord.Interaction,
                    user: discord.User | None = None) -> None:
        await self._serve(interaction, cmd.Stats(person(user) if user else None))

    @app_commands.command(description=locale_str("This server's rated players, best first"))
    @app_commands.describe(page=locale_str("which page of ten players (default 1)"))
    async def leaderboard(self, interaction: discord.Interaction,
                          page: app_commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        await self._serve(interaction, cmd.Leaderboard(page))

    analyze = numbered("RecordsCog", "analyze",
                       locale_str("A finished game's win chances, move by move, by the engine"),
                       "game", GAME, cmd.Analyze)
