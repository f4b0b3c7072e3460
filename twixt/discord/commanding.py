"""What the `/twixt…` slash command groups share: turning options into a service command and
handing it to `respond.serve`, the options' words, and the checks on Discord's own values.

Thin on purpose: what a command does is the service's business; how an interaction is
deferred, answered and protected from errors is `respond`'s. The commands are split into
groups by subject (`cog`, `records_cog`, `settings_cog`), so that each has room to grow
within Discord's 25 subcommands a group.
"""

from __future__ import annotations

import inspect
import typing
import zoneinfo
from collections.abc import Callable, Coroutine
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from twixt.discord.respond import Build, person, serve
from twixt.rules import visible
from twixt.service import (
    MAX_IMPORT_BYTES,
    THE_ENGINE_PLAYER,
    TOPICS,
    BusyError,
    ChallengeOptions,
    LimitError,
    MalformedError,
    TwixtService,
    User,
    build_options,
)
from twixt.service import commands as cmd

YesNo = Literal["yes", "no"]
Rules = Literal["classic", "pp"]
First = Literal["me", "them", "random"]
OnOff = Literal["on", "off"]

COMMON_SIZES = ("24", "24x18", "20", "16", "12", "30", "48")
#: times per move, and a bank like Little Golem's (10 days, 36 hours more with each move)
COMMON_TIMES = ("12h", "1d", "2d", "3d", "7d", "10d+36h")
OPTION_WORDS = {
    "size": locale_str("board size: 24, 12 or columns x rows like 24x18 (default 24)"),
    "rules": locale_str("classic (links block, removals allowed) or pp (own links may cross)"),
    "swap": locale_str(
        "may the second player take over the first peg? (default yes, no with handicap)"),
    "handicap": locale_str("rows the weaker side's opponent gives up"),
    "first": locale_str("who plays Red and moves first (default me)"),
    "thread": locale_str("play in a new thread of its own"),
    "time": locale_str("time per move like 3d or 12h, or a bank like 10d+36h (default: no clock)"),
    "vacation": locale_str(
        "may vacations and weekends off stop the clocks? (default: the server's)"),
    "level": locale_str("when you challenge me, the bot: 1 (easy) to 5 (strong), default 3"),
    "takebacks": locale_str("when you challenge me, the bot: may you take back? (default no)"),
}

def challenge_options(size: str | None = None, rules: Rules | None = None,
                      swap: YesNo | None = None,
                      handicap: app_commands.Range[int, 0] | None = None,
                      first: First | None = None, thread: YesNo | None = None,
                      time: str | None = None, vacation: YesNo | None = None,
                      level: app_commands.Range[int, 1, 5] | None = None,
                      takebacks: YesNo | None = None) -> ChallengeOptions:
    """A challenge's options from a slash command's. Its parameters are the options that
    `/twixt challenge` and `/twixt team` take, written once: `with_challenge_options`
    gives them to each command."""
    return build_options(size=size, rules=rules, swap=swap, handicap=handicap, first=first,
                         thread=thread, time=time, vacation=vacation, level=level,
                         takebacks=takebacks)


def with_challenge_options(slash: Callable[..., Any]) -> Any:
    """Give a slash command the options of a challenge (`challenge_options`'s parameters)
    after its own; it takes them as `**options`. discord.py reads a command's options from
    its signature, which is why they are added there. (Any: a callback's `**options` fits
    none of the typed callbacks discord.py's `command` accepts.)"""
    hints = typing.get_type_hints(challenge_options)
    own = [parameter for parameter in inspect.signature(slash).parameters.values()
           if parameter.kind is not parameter.VAR_KEYWORD]
    options = [parameter.replace(kind=parameter.KEYWORD_ONLY, annotation=hints[name])
               for name, parameter in inspect.signature(challenge_options).parameters.items()]
    slash.__signature__ = inspect.signature(slash).replace(  # type: ignore[attr-defined]
        parameters=[*own, *options])
    return slash


Suggest = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]


#: the most choices Discord takes in an autocomplete's answer
MAX_SUGGESTIONS = 25


def suggestions(values: tuple[str, ...]) -> Suggest:
    """An autocomplete of the common values that start with what is typed, the first
    `MAX_SUGGESTIONS` of them (any other value may still be typed: the service judges it)."""
    async def choices(interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [app_commands.Choice(name=value, value=value)
                for value in values if value.lower().startswith(typed)][:MAX_SUGGESTIONS]

    return choices


size_choices = suggestions(COMMON_SIZES)
#: the IANA time zones, for the digest (`/twixt-settings digest`)
zone_choices = suggestions(tuple(sorted(zoneinfo.available_timezones())))
time_choices = suggestions(COMMON_TIMES)
command_choices = suggestions(tuple(TOPICS))


def player_of(member: discord.Member | discord.User) -> discord.Member | discord.User:
    """A member named in an option, who may play: bots may not."""
    if member.bot:
        raise MalformedError("{name} is a bot; bots do not play TwixT", name=member.display_name)
    return member


def player_or_bot(interaction: discord.Interaction,
                  member: discord.Member | discord.User) -> User:
    """A member named in a challenge: this bot itself (`THE_BOT`, which plays at the
    challenge's level), or a person; other bots may not play."""
    me = interaction.client.user
    if me is not None and member.id == me.id:
        return THE_ENGINE_PLAYER
    return person(player_of(member))


async def record_bytes(file: discord.Attachment) -> bytes:
    """An attached record's bytes; a file too big for a record is refused before reading."""
    if file.size > MAX_IMPORT_BYTES:
        raise LimitError("{file} is too big for a game record ({kb} KB at most)",
                         file=visible(file.filename), kb=MAX_IMPORT_BYTES // 1024)
    try:
        return await file.read()
    except discord.HTTPException:
        raise BusyError("Discord did not hand me {file}; attach it again",
                        file=visible(file.filename)) from None


CogClass = typing.TypeVar("CogClass", bound=type)


def installable_anywhere(cog: CogClass) -> CogClass:
    """A command group installed to servers and to players' own accounts, and used in
    servers, in the bot's DM and in private channels (DMs and group DMs). Discord reads
    these on the group alone (on a subcommand they do nothing); a command that only a server
    has (its settings, tournaments, the leaderboard) is refused elsewhere by the service."""
    cog = app_commands.allowed_installs(guilds=True, users=True)(cog)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(cog)


class ServiceCog(commands.GroupCog):
    """A group of slash commands over the service; subclasses name the group."""

    def __init__(self, service: TwixtService) -> None:
        self.service = service
        super().__init__()

    async def _serve(self, interaction: discord.Interaction,
                     asked: cmd.ServiceCommand | Build) -> None:
        """The command `asked` (or built from the options or read from typed text, which may
        be refused as the service's own errors are), served by `respond.serve`."""
        label = interaction.command.qualified_name if interaction.command else "?"
        await serve(interaction, self.service, label, asked)


def numbered(cog: str, name: str, description: locale_str, option: str, described: locale_str,
             asking: Callable[[int | None], cmd.ServiceCommand]) -> app_commands.Command[
                 Any, ..., None]:
    """A subcommand whose one option is the number of what it acts on, left out for this
    channel's (`/twixt-records replay [game]`, `/twixt-tournament start [event]`): the
    option shown as `option`, described by `described`, asking the service `asking(number)`.
    Written once for the commands that differ only in these; `cog` is the class that holds
    it, by name, which is how discord.py tells a method's callback (it passes the cog)."""
    async def callback(self: ServiceCog, interaction: discord.Interaction,
                       number: app_commands.Range[int, 1] | None = None) -> None:
        await self._serve(interaction, asking(number))

    callback.__qualname__ = f"{cog}.{name}"
    described_callback = app_commands.describe(number=described)(callback)
    return app_commands.command(name=name, description=description)(
        app_commands.rename(number=option)(described_callback))
