"""`/twixt-tournament …`: round robins, Swiss tournaments and leagues in a channel."""

from __future__ import annotations

import functools
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from twixt.discord.commanding import (
    OPTION_WORDS,
    Rules,
    ServiceCog,
    YesNo,
    installable_anywhere,
    numbered,
    player_of,
    size_choices,
    time_choices,
)
from twixt.discord.respond import person
from twixt.service import MAX_NAME, MAX_ROUNDS, build_tournament_options
from twixt.service import commands as cmd
from twixt.service import tournament_name as checked_name

Format = Literal["roundrobin", "swiss", "league"]
EVENT = locale_str("the tournament's number (leave out: this channel's newest)")
EventNumber = app_commands.Range[int, 1]


def _on_event(action: str, description: locale_str) -> app_commands.Command[Any, ..., None]:
    """`/twixt-tournament <action> [event]`: the action on the event numbered (this channel's
    newest when left out)."""
    return numbered("TournamentCog", action, description, "event", EVENT,
                    functools.partial(cmd.TournamentAction, action))


@installable_anywhere
class TournamentCog(ServiceCog, group_name="twixt-tournament",
                    group_description=locale_str("TwixT tournaments and leagues")):
    """Create, join, start, follow and leave events."""

    @app_commands.command(description=locale_str("Announce a tournament here (channel managers)"))
    @app_commands.describe(
        name=locale_str("the tournament's name"),
        format=locale_str("round robin, swiss (round by round) or league (groups by rating)"),
        size=OPTION_WORDS["size"], rules=OPTION_WORDS["rules"], time=OPTION_WORDS["time"],
        vacation=OPTION_WORDS["vacation"],
        rounds=locale_str("a swiss's rounds (default 4)"),
        group=locale_str("a league's group size (default 10)"),
        double=locale_str("every pairing plays both colours (round robin, league)"),
        teams=locale_str("Double TwixT: teams of two sign up together"),
        signup=locale_str("how long sign-up runs, like 3d or 12h (default 3d)"))
    @app_commands.autocomplete(size=size_choices, time=time_choices)
    async def create(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, MAX_NAME], format: Format,
                     size: str | None = None, rules: Rules | None = None,
                     time: str | None = None, vacation: YesNo | None = None,
                     rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
                     group: app_commands.Range[int, 4, 16] | None = None,
                     double: YesNo | None = None, teams: YesNo | None = None,
                     signup: str | None = None) -> None:
        async def build() -> cmd.ServiceCommand:
            options = build_tournament_options(format, rounds=rounds, group=group, double=double,
                                          teams=teams, signup=signup, size=size, rules=rules,
                                          time=time, vacation=vacation)
            return cmd.TournamentAction("create", name=checked_name(name), options=options)

        await self._serve(interaction, build)

    @app_commands.command(description=locale_str("Sign up for a tournament"))
    @app_commands.describe(event=EVENT,
                           partner=locale_str("Double TwixT: your partner, who joins too"))
    async def join(self, interaction: discord.Interaction, event: EventNumber | None = None,
                   partner: discord.User | None = None) -> None:
        async def build() -> cmd.ServiceCommand:
            return cmd.TournamentAction("join", event,
                                  partner=person(player_of(partner)) if partner else None)

        await self._serve(interaction, build)

    leave = _on_event("leave", locale_str("Take your sign-up back before the start"))
    start = _on_event("start", locale_str("Start a tournament now (channel managers)"))
    withdraw = _on_event(
        "withdraw", locale_str("Leave a running tournament: your games left are forfeited"))
    standings = _on_event("standings", locale_str("A tournament's crosstable"))
    info = _on_event("info", locale_str("A tournament's options and entrants"))
    next_season = _on_event("next-season",
                            locale_str("Open a league's next season (channel managers)"))

    @app_commands.command(name="list", description=locale_str("This server's tournaments"))
    async def list_(self, interaction: discord.Interaction) -> None:
        await self._serve(interaction, cmd.TournamentAction("list"))
