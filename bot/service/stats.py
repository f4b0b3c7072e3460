"""Ratings in numbers: a player's `stats` and the server's `leaderboard`."""

from __future__ import annotations

from bot.service.core import ServiceCore
from bot.service.model import PAGE_SIZE, Reply, Request, User, check_page


class Stats:
    """What the numbers say about players."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core

    async def stats(self, request: Request, user: User | None = None) -> Reply:
        """Wins, losses, draws and rating in this server, and head-to-head against the asker."""
        user = user or request.user
        tr = request.tr
        storage = self._core.storage
        await self._core.remember(user)
        stats = await storage.player_stats(request.guild_id, user.id)
        rating = (tr.plural("rating {rating} after {n} rated game",
                            "rating {rating} after {n} rated games", stats.rated_games,
                            rating=f"{stats.rating:.0f}")
                  if stats.rating is not None else tr("not rated yet"))
        lines = [tr.plural("**{name}**: {n} game — {wins} won, {losses} lost, {draws} drawn; "
                           "{rating}.",
                           "**{name}**: {n} games — {wins} won, {losses} lost, {draws} drawn; "
                           "{rating}.", stats.games, name=user.name, wins=stats.wins,
                           losses=stats.losses, draws=stats.draws, rating=rating)]
        if user.id != request.user.id:
            wins, losses, draws = await storage.head_to_head(request.guild_id,
                                                             request.user.id, user.id)
            lines.append(tr("You against {name}: {wins} won, {losses} lost, {draws} drawn.",
                            name=user.name, wins=wins, losses=losses, draws=draws))
        return Reply("\n".join(lines))

    async def leaderboard(self, request: Request, page: int = 1) -> Reply:
        """The server's rated players, best first, a page at a time."""
        check_page(page)
        tr = request.tr
        ranked = await self._core.storage.leaderboard(request.guild_id, limit=PAGE_SIZE + 1,
                                                      offset=(page - 1) * PAGE_SIZE)
        shown = ranked[:PAGE_SIZE]
        if not shown:
            return Reply(tr("No rated games yet.") if page == 1
                         else tr("No players on this page."))
        names = await self._core.names([s.user_id for s in shown])
        lines = [tr("**Leaderboard** (page {page})", page=page)]
        for place, stats in enumerate(shown, start=(page - 1) * PAGE_SIZE + 1):
            lines.append(f"{place}. {names[stats.user_id]} — {stats.rating:.0f} "
                         f"({stats.wins}–{stats.losses}–{stats.draws})")
        if len(ranked) > PAGE_SIZE:
            lines.append(tr("More: leaderboard page {page}", page=page + 1))
        return Reply("\n".join(lines))
