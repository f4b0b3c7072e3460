"""Ratings and preferences: `stats`, `leaderboard`, a player's `settings` and the server's."""

from __future__ import annotations

from bot.service.core import ServiceCore
from bot.service.model import Context, Reply, ServiceError, User
from storage import UserPrefs

PAGE = 10
_CHOICES = {
    "theme": ("theme", {"light": "light", "dark": "dark"}),
    "palette": ("palette", {"normal": "normal", "colour-blind": "colour-blind",
                            "colourblind": "colour-blind", "color-blind": "colour-blind"}),
    "side": ("side", {"red": "red", "black": "black", "any": "any"}),
    "dm": ("dm_reminders", {"on": True, "yes": True, "off": False, "no": False}),
    "autolink": ("auto_link", {"on": True, "yes": True, "off": False, "no": False}),
}
_YES_NO = {"yes": True, "on": True, "no": False, "off": False}
#: server settings: name → (GuildSettings field, yes/no or a number of hours)
_SERVER = {"thread": ("thread_default", None), "forfeit": ("forfeit_on_timeout", None),
           "expiry": ("challenge_expiry_hours", "hours"), "reminder": ("reminder_hours", "hours")}
MAX_HOURS = 24 * 30


class StatsCommands(ServiceCore):
    """What the numbers say about players, and how each likes the bot to behave."""

    async def stats(self, ctx: Context, user: User) -> Reply:
        """Wins, losses, draws and rating in this server, and head-to-head against the asker."""
        await self._remember(user)
        stats = await self.storage.player_stats(ctx.guild_id, user.id)
        rating = (f"rating {stats.rating:.0f} after {stats.rated_games} rated games"
                  if stats.rating is not None else "not rated yet")
        games = f"{stats.games} game{'' if stats.games == 1 else 's'}"
        lines = [f"**{user.name}**: {games} — {stats.wins} won, {stats.losses} lost, "
                 f"{stats.draws} drawn; {rating}."]
        if user.id != ctx.user.id:
            wins, losses, draws = await self.storage.head_to_head(ctx.guild_id, ctx.user.id,
                                                                  user.id)
            lines.append(f"You against {user.name}: {wins} won, {losses} lost, {draws} drawn.")
        return Reply("\n".join(lines))

    async def leaderboard(self, ctx: Context, page: int = 1) -> Reply:
        """The server's rated players, best first, a page of ten."""
        if page < 1:
            raise ServiceError("pages start at 1")
        ranked = await self.storage.leaderboard(ctx.guild_id, limit=PAGE + 1,
                                                offset=(page - 1) * PAGE)
        if not ranked[:PAGE]:
            return Reply("No rated games yet." if page == 1 else "No players on this page.")
        names = await self._names([s.user_id for s in ranked[:PAGE]])
        lines = [f"**Leaderboard** (page {page})"]
        for place, stats in enumerate(ranked[:PAGE], start=(page - 1) * PAGE + 1):
            lines.append(f"{place}. {names[stats.user_id]} — {stats.rating:.0f} "
                         f"({stats.wins}–{stats.losses}–{stats.draws})")
        if len(ranked) > PAGE:
            lines.append(f"More: leaderboard page {page + 1}")
        return Reply("\n".join(lines))

    async def settings(self, ctx: Context, changes: dict[str, str] | None = None) -> Reply:
        """Show or change your preferences: theme, palette, side, dm, autolink."""
        updates = {}
        for name, value in (changes or {}).items():
            if name.lower() not in _CHOICES:
                raise ServiceError(f"unknown setting “{name}”: use "
                                   f"{', '.join(_CHOICES)}")
            field, allowed = _CHOICES[name.lower()]
            if value.lower() not in allowed:
                raise ServiceError(f"{name} is {' or '.join(dict.fromkeys(map(str, allowed)))},"
                                   f" not “{value}”")
            updates[field] = allowed[value.lower()]
        prefs = (await self.storage.update_user_prefs(ctx.user.id, **updates) if updates
                 else await self.storage.user_prefs(ctx.user.id))
        return Reply(describe_prefs(prefs), ephemeral=True)


    async def server_settings(self, ctx: Context, changes: dict[str, str] | None = None) -> Reply:
        """Show or change (channel managers only) the server's settings: a thread per game by
        default, challenge expiry hours, forfeit at the deadline, hours before a reminder."""
        updates: dict[str, bool | int] = {}
        for name, value in (changes or {}).items():
            if name.lower() not in _SERVER:
                raise ServiceError(f"unknown server setting “{name}”: use "
                                   f"{', '.join(_SERVER)}")
            field, kind = _SERVER[name.lower()]
            if kind is None:
                if value.lower() not in _YES_NO:
                    raise ServiceError(f"{name} is yes or no, not “{value}”")
                updates[field] = _YES_NO[value.lower()]
            elif not value.isdigit() or not 1 <= int(value) <= MAX_HOURS:
                raise ServiceError(f"{name} is a number of hours from 1 to {MAX_HOURS}")
            else:
                updates[field] = int(value)
        if updates and not ctx.can_manage:
            raise ServiceError("only a channel manager can change the server's settings")
        settings = (await self.storage.update_guild_settings(ctx.guild_id, **updates)
                    if updates else await self.storage.guild_settings(ctx.guild_id))
        yes_no = {True: "yes", False: "no"}
        return Reply(f"Server settings: thread {yes_no[settings.thread_default]}, expiry "
                     f"{settings.challenge_expiry_hours}h, forfeit "
                     f"{yes_no[settings.forfeit_on_timeout]}, reminder "
                     f"{settings.reminder_hours}h.", ephemeral=True)


def describe_prefs(prefs: UserPrefs) -> str:
    on_off = {True: "on", False: "off"}
    return (f"Your settings: theme {prefs.theme}, palette {prefs.palette}, side {prefs.side}, "
            f"dm {on_off[prefs.dm_reminders]}, autolink {on_off[prefs.auto_link]}.")
