"""`/twixt-settings …`: how the bot treats you (`me`), your days off (`vacation`), and how it
runs this server."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from twixt.discord.commanding import (
    OnOff,
    ServiceCog,
    YesNo,
    installable_anywhere,
    zone_choices,
)
from twixt.service import commands as cmd


@installable_anywhere
class SettingsCog(ServiceCog, group_name="twixt-settings",
                  group_description=locale_str("TwixT settings: yours, and the server's")):
    """A player's settings, vacation and the server's settings."""

    @app_commands.command(name="me",
                          description=locale_str("Show or change how the bot treats you"))
    @app_commands.describe(theme=locale_str("the board's colours"),
                           palette=locale_str("colours for colour-blindness"),
                           side=locale_str("the side you see the board from"),
                           dm=locale_str("clock reminders by direct message"),
                           autolink=locale_str("a bare peg like G6 links all it can (classic)"),
                           confirm=locale_str("see your move privately, and play it with a button"),
                           weekends=locale_str(
                               "off: your clocks stop on Saturdays and Sundays (UTC) in new games"))
    async def settings(self, interaction: discord.Interaction,
                       theme: Literal["light", "dark"] | None = None,
                       palette: Literal["normal", "colour-blind"] | None = None,
                       side: Literal["red", "black", "any"] | None = None,
                       dm: OnOff | None = None, autolink: OnOff | None = None,
                       confirm: OnOff | None = None, weekends: OnOff | None = None) -> None:
        given: dict[str, str | None] = {"theme": theme, "palette": palette, "side": side,
                                        "dm": dm, "autolink": autolink, "confirm": confirm,
                                        "weekends": weekends}
        changes = {name: value for name, value in given.items() if value is not None}
        await self._serve(interaction, cmd.UserSettings(changes))

    @app_commands.command(
        description=locale_str("The server's settings (changed by those with Manage Server)"))
    @app_commands.describe(
        thread=locale_str("a thread for each new game unless the challenge says"),
        expiry=locale_str("hours before an unanswered challenge expires"),
        forfeit=locale_str("a player whose time runs out loses at once"),
        reminder=locale_str("hours into a clocked turn before the first reminder"),
        vacationdays=locale_str("vacation days each player has a year (0: no vacation)"),
        vacation=locale_str("new games let vacations stop their clocks unless the challenge says"),
        botgames=locale_str("games with the bot each player may have in progress at once"))
    async def server(self, interaction: discord.Interaction, thread: YesNo | None = None,
                     expiry: app_commands.Range[int, 1, 720] | None = None,
                     forfeit: YesNo | None = None,
                     reminder: app_commands.Range[int, 1, 720] | None = None,
                     vacationdays: app_commands.Range[int, 0, 60] | None = None,
                     vacation: YesNo | None = None,
                     botgames: app_commands.Range[int, 1, 20] | None = None) -> None:
        given = {"thread": thread, "expiry": expiry, "forfeit": forfeit, "reminder": reminder,
                 "vacationdays": vacationdays, "vacation": vacation, "botgames": botgames}
        changes = {name: str(value) for name, value in given.items() if value is not None}
        await self._serve(interaction, cmd.ServerSettings(changes))

    @app_commands.command(
        description=locale_str("Vacation: your clocks stop in this server's games for some days"))
    @app_commands.describe(days=locale_str("whole days from now (leave out: see your days left)"),
                           end=locale_str("yes: end your vacation now"))
    async def vacation(self, interaction: discord.Interaction,
                       days: app_commands.Range[int, 1, 60] | None = None,
                       end: YesNo | None = None) -> None:
        await self._serve(interaction, cmd.Vacation(days, end == "yes"))

    @app_commands.command(
        description=locale_str("A direct message each day with the games waiting for you"))
    @app_commands.describe(hour=locale_str("the hour of the day, 0 to 23, in your time zone"),
                           timezone=locale_str("your time zone, like Europe/Berlin"),
                           off=locale_str("yes: no more digests"))
    @app_commands.autocomplete(timezone=zone_choices)
    async def digest(self, interaction: discord.Interaction,
                     hour: app_commands.Range[int, 0, 23] | None = None,
                     timezone: app_commands.Range[str, 1, 64] | None = None,
                     off: YesNo | None = None) -> None:
        await self._serve(interaction, cmd.Digest(hour, timezone, off == "yes"))
