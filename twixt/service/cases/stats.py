"""Ratings in numbers: a player's `stats` and the server's `leaderboard`.

Ratings are Glicko-2 (twixt/storage/ratings.py), shown as they stand now: the deviation grows with
the time since a player's last rated game, and a rating whose deviation is above 110 is
provisional, shown `1500?`. Provisional players are on the leaderboard too, marked: in a
server of few players and slow games most would otherwise be missing for months.
"""

from __future__ import annotations

from twixt.language import verbatim
from twixt.service import commands as cmd
from twixt.service.desk.desk import Desk
from twixt.service.errors import NotAllowedError
from twixt.service.model import NO_SERVER, PAGE_SIZE, Reply, Request, User, check_page
from twixt.storage import PlayerStats, StatsStore
from twixt.storage.ratings import Rating


class Standings:
    """What the numbers say about players."""

    def __init__(self, desk: Desk, store: StatsStore) -> None:
        self._desk = desk
        self._store = store

    @cmd.handles(cmd.Stats)
    async def stats(self, request: Request, user: User | None = None) -> Reply:
        """Wins, losses, draws and rating in this server, and head-to-head against the asker."""
        user = user or request.user
        tr = request.tr
        storage = self._store
        await self._desk.remember(user)
        stats = await storage.player_stats(request.guild_id, user.id)
        rating = self._rating_text(request, stats)
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

    @cmd.handles(cmd.Leaderboard)
    async def leaderboard(self, request: Request, page: int = 1) -> Reply:
        """The server's rated players, best first, a page at a time."""
        if request.guild_id == NO_SERVER:
            raise NotAllowedError("leaderboards are a server's; games in direct messages are "
                                  "not rated")
        check_page(page)
        tr = request.tr
        ranked = await self._store.leaderboard(request.guild_id, limit=PAGE_SIZE + 1,
                                                      offset=(page - 1) * PAGE_SIZE)
        shown = ranked[:PAGE_SIZE]
        if not shown:
            return Reply(tr("No rated games yet.") if page == 1
                         else tr("No players on this page."))
        names = await self._desk.names([s.user_id for s in shown])
        now = self._desk.clock()
        lines = [tr("**Leaderboard** (page {page})", page=page)]
        provisional = False
        for place, stats in enumerate(shown, start=(page - 1) * PAGE_SIZE + 1):
            rating = stats.rating_at(now)
            assert rating is not None, "the leaderboard lists rated players"
            provisional |= rating.provisional
            lines.append(f"{place}. {verbatim(names[stats.user_id])} — {shown_rating(rating)} "
                         f"({stats.wins}–{stats.losses}–{stats.draws})")
        if provisional:
            lines.append(tr("? provisional: too few recent games to be sure of the rating"))
        if len(ranked) > PAGE_SIZE:
            lines.append(tr("More: leaderboard page {page}", page=page + 1))
        return Reply("\n".join(lines))

    def _rating_text(self, request: Request, stats: PlayerStats) -> str:
        """`rating 1516 ±62 after 20 rated games`, or `rating 1662? ±290 (provisional) …`;
        the deviation as it has grown by now."""
        tr = request.tr
        rating = stats.rating_at(self._desk.clock())
        if rating is None:
            return tr("not rated yet")
        values = {"rating": f"{rating.rating:.0f}", "deviation": f"{rating.deviation:.0f}"}
        if rating.provisional:
            return tr.plural("rating {rating}? ±{deviation} (provisional) after {n} rated game",
                             "rating {rating}? ±{deviation} (provisional) after {n} rated games",
                             stats.rated_games, **values)
        return tr.plural("rating {rating} ±{deviation} after {n} rated game",
                         "rating {rating} ±{deviation} after {n} rated games",
                         stats.rated_games, **values)


def shown_rating(rating: Rating) -> str:
    """A rating as the leaderboard shows it: `1516`, or `1516?` when provisional."""
    return f"{rating.rating:.0f}{'?' if rating.provisional else ''}"
