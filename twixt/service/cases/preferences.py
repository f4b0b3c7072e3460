"""Preferences: how each player likes the bot (`settings`) and how a server runs (`server`)."""

from __future__ import annotations

from typing import Any

from twixt.language import Message, message
from twixt.rules import quote
from twixt.rules.numbers import whole_number
from twixt.service import commands as cmd
from twixt.service.commands.options import SERVER_SETTINGS, either, yes_no
from twixt.service.commands.options import SETTINGS as _CHOICES
from twixt.service.desk.desk import Desk
from twixt.service.errors import MalformedError, NotAllowedError
from twixt.service.model import NO_SERVER, Reply, Request
from twixt.storage import GuildSettings, SettingStore, UserPrefs

MAX_HOURS = 24 * 30
#: vacation days a year at most (which also bounds how far a paused deadline can move)
MAX_VACATION_DAYS = 60
#: games with the bot a player may be allowed at once at most (the engine is shared by all)
MAX_ENGINE_GAMES = 20


class Preferences:
    """Reading and changing settings; nothing here touches a game."""

    def __init__(self, desk: Desk, store: SettingStore) -> None:
        self._desk = desk
        self._store = store

    @cmd.handles(cmd.UserSettings)
    async def user_settings(self, request: Request, changes: dict[str, str] | None = None
                            ) -> Reply:
        """Show or change your preferences: theme, palette, side, dm, autolink, confirm,
        weekends."""
        updates: dict[str, Any] = {}
        for name, value in (changes or {}).items():
            if name.lower() not in _CHOICES:
                raise MalformedError("unknown setting {name}: use {names}", name=quote(name),
                                     names=", ".join(_CHOICES))
            field, allowed = _CHOICES[name.lower()]
            if allowed is None:
                updates[field] = yes_no(name, value, on_off=True)
            elif value.lower() not in allowed:
                raise MalformedError("{name} is {choices}, not {value}", name=name,
                                     choices=either(list(dict.fromkeys(allowed.values()))),
                                     value=quote(value))
            else:
                updates[field] = allowed[value.lower()]
        storage = self._store
        prefs = (await storage.update_user_prefs(request.user.id, **updates) if updates
                 else await storage.user_prefs(request.user.id))
        return Reply(request.tr.say(describe_prefs(prefs)), ephemeral=True)

    @cmd.handles(cmd.ServerSettings)
    async def server_settings(self, request: Request, changes: dict[str, str] | None = None
                              ) -> Reply:
        """Show or change (Manage Server only) the server's settings: a thread per game by
        default, challenge expiry hours, forfeit at the deadline, hours before a reminder,
        vacation days a year, whether new games allow vacation by default, and the games with
        the bot a player may have at once."""
        if request.guild_id == NO_SERVER:
            raise NotAllowedError("server settings belong to a server; here there is none")
        updates: dict[str, bool | int] = {}
        for name, value in (changes or {}).items():
            if name.lower() not in SERVER_SETTINGS:
                raise MalformedError("unknown server setting {name}: use {names}",
                                     name=quote(name), names=", ".join(SERVER_SETTINGS))
            field, unit = SERVER_SETTINGS[name.lower()]
            number = whole_number(value)
            if unit is None:
                updates[field] = yes_no(name, value)
            elif unit == "days":
                if number is None or not 0 <= number <= MAX_VACATION_DAYS:
                    raise MalformedError("{name} is a number of days from 0 to {most}",
                                         name=name, most=MAX_VACATION_DAYS)
                updates[field] = number
            elif unit == "games":
                if number is None or not 1 <= number <= MAX_ENGINE_GAMES:
                    raise MalformedError("{name} is a number of games from 1 to {most}",
                                         name=name, most=MAX_ENGINE_GAMES)
                updates[field] = number
            else:
                if number is None or not 1 <= number <= MAX_HOURS:
                    raise MalformedError("{name} is a number of hours from 1 to {most}",
                                         name=name, most=MAX_HOURS)
                updates[field] = number
        if updates and not request.can_manage_server:
            raise NotAllowedError("only someone who manages the server can change its settings")
        storage = self._store
        settings = (await storage.update_guild_settings(request.guild_id, **updates)
                    if updates else await storage.guild_settings(request.guild_id))
        return Reply(request.tr.say(describe_server(settings)), ephemeral=True)


def _word(value: bool, yes: str = "yes", no: str = "no") -> str:
    return yes if value else no


def describe_prefs(prefs: UserPrefs) -> Message:
    """A player's settings as they would type them (`theme dark`): names and values stay
    English, the sentence around them is said in the reader's language."""
    return message("Your settings: theme {theme}, palette {palette}, side {side}, dm {dm}, "
                   "autolink {autolink}, confirm {confirm}, weekends {weekends}.",
                   theme=prefs.theme, palette=prefs.palette, side=prefs.side,
                   dm=_word(prefs.dm_reminders, "on", "off"),
                   autolink=_word(prefs.auto_link, "on", "off"),
                   confirm=_word(prefs.confirm_moves, "on", "off"),
                   weekends=_word(prefs.weekends, "on", "off"))


def describe_server(settings: GuildSettings) -> Message:
    """The server's settings as they would be typed (`forfeit yes`)."""
    return message("Server settings: thread {thread}, expiry {expiry}h, forfeit {forfeit}, "
                   "reminder {reminder}h, vacationdays {days}, vacation {vacation}, "
                   "botgames {botgames}.",
                   thread=_word(settings.thread_default),
                   expiry=settings.challenge_expiry_hours,
                   forfeit=_word(settings.forfeit_on_timeout),
                   reminder=settings.reminder_hours, days=settings.vacation_days,
                   vacation=_word(settings.vacation_default), botgames=settings.bot_games)
