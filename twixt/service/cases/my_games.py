"""`games`: a player's games in progress across the server's channels, for them alone — the
games waiting for their move first, soonest due first, each with where it is played.

Finished games are `history`'s. Whose turn it is comes from each game's replay (the cache
holds the games in play), so the listing sorts a bounded number of games: the newest
`MAX_SORTED` a player has in progress in the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from twixt.language import Message, Translation
from twixt.service import commands as cmd
from twixt.service.desk.desk import Desk
from twixt.service.model import (
    NO_SERVER,
    Reply,
    Request,
    channel_link,
    check_page,
    require_private,
)
from twixt.service.texts import names_and
from twixt.storage import GameStatus, GameStore, StoredGame

#: games of one player sorted for the listing at most (a player in more sees the newest)
MAX_SORTED = 100
#: games a page: seven of the longest lines (Double TwixT, four names of 32 characters, a
#: clock on vacation, in German: about 250 characters each) and the header stay within a
#: Discord message (2,000 characters)
PAGE = 7
#: the other games a player's page lists at most
OTHER_GAMES = 20


@dataclass(frozen=True)
class PlayerGame:
    """One of a player's other games in progress, for a page to list and link: the game,
    their seat in it, and `#12 vs bob — your turn (2d left)` in the page's language."""

    game_id: int
    seat: int
    summary: str
    yours: bool


@dataclass(frozen=True)
class _Entry:
    """One game as the listing sorts and shows it."""

    stored: StoredGame
    yours: bool
    to_move: str
    #: when the player to move must have moved (a clocked game), else when their turn began
    by: datetime
    #: the time left, for a clocked game
    clock_text: Message | None

    @property
    def clocked(self) -> bool:
        return self.clock_text is not None

    @property
    def order(self) -> tuple[bool, bool, datetime, int]:
        """Your turn first; then clocked games, soonest due first; then the longest waiting."""
        return (not self.yours, not self.clocked, self.by, self.stored.id)


class GameList:
    """The listing of one's own games in progress."""

    def __init__(self, desk: Desk, store: GameStore) -> None:
        self._desk = desk
        self._store = store

    @cmd.handles(cmd.MyGames)
    async def games(self, request: Request, page: int = 1) -> Reply:
        """A page of the asker's games in progress in this server (asked in a DM: in every DM),
        in their eyes only."""
        require_private(request, "/twixt games")
        check_page(page)
        found = await self._store.list_games(
            user_id=request.user.id, guild_id=request.guild_id, status=GameStatus.ACTIVE,
            limit=MAX_SORTED + 1)
        tr = request.tr
        private = request.guild_id == NO_SERVER   # asked in a DM: the games of every DM
        if not found:
            return Reply(tr("You have no games in progress in direct messages.") if private
                         else tr("You have no games in progress in this server."),
                         ephemeral=True)
        entries = sorted([await self._entry(request.user.id, stored)
                          for stored in found[:MAX_SORTED]],
                         key=lambda entry: entry.order)
        pages = -(-len(entries) // PAGE)
        shown = entries[(page - 1) * PAGE:page * PAGE]
        waiting = sum(entry.yours for entry in entries)
        heading = (tr.plural("**Your games in direct messages**: {n} game in progress, "
                             "{waiting} waiting for you (page {page} of {pages})",
                             "**Your games in direct messages**: {n} games in progress, "
                             "{waiting} waiting for you (page {page} of {pages})", len(entries),
                             waiting=waiting, page=page, pages=pages) if private
                   else tr.plural("**Your games in this server**: {n} game in progress, "
                                  "{waiting} waiting for you (page {page} of {pages})",
                                  "**Your games in this server**: {n} games in progress, "
                                  "{waiting} waiting for you (page {page} of {pages})",
                                  len(entries), waiting=waiting, page=page, pages=pages))
        lines = [heading]
        if len(found) > MAX_SORTED:
            lines.append(tr("(only your {most} newest games are listed)", most=MAX_SORTED))
        if not shown:
            lines.append(tr("None on this page."))
        lines += [_line(entry, request, tr) for entry in shown]
        if page < pages:
            lines.append(tr("More: games page {page}", page=page + 1))
        return Reply("\n".join(lines), ephemeral=True)

    async def other_games(self, request: Request, game_id: int) -> tuple[PlayerGame, ...]:
        """The asker's games in progress where they ask (a server, or the direct messages)
        other than game `game_id`, as `games` sorts them: at most `OTHER_GAMES`, each said in
        the asker's language."""
        user_id = request.user.id
        found = await self._store.list_games(user_id=user_id, guild_id=request.guild_id,
                                             status=GameStatus.ACTIVE, limit=OTHER_GAMES + 1)
        entries = sorted([await self._entry(user_id, stored) for stored in found
                          if stored.id != game_id][:OTHER_GAMES], key=lambda entry: entry.order)
        return tuple(PlayerGame(entry.stored.id, seat.number,
                                _summary(entry, user_id, request.tr), entry.yours)
                     for entry in entries
                     if (seat := entry.stored.seat_of(user_id)) is not None)

    async def _entry(self, user_id: int, stored: StoredGame) -> _Entry:
        desk = self._desk
        live = await desk.live(stored)
        seat = live.game.seat_to_move
        mover = stored.seats[seat] if seat is not None else None
        turn_clock = await desk.turn_clock(stored, live)
        return _Entry(stored, yours=mover is not None and mover.user_id == user_id,
                      to_move=mover.name if mover else "",
                      by=turn_clock.due if turn_clock else live.turn_started,
                      clock_text=desk.clock_words(stored, live.game, turn_clock))


def _line(entry: _Entry, request: Request, tr: Translation) -> str:
    """`#12 vs bob — your turn (2d 3h left) · #channel`: the game, its opponents (and partner),
    whose turn, the time left, and where it is played."""
    return f"{_summary(entry, request.user.id, tr)} · {channel_link(entry.stored.channel_id)}"


def _summary(entry: _Entry, user_id: int, tr: Translation) -> str:
    """`#12 vs bob — your turn (2d 3h left)`: the game as user `user_id` sees it."""
    stored = entry.stored
    mine = stored.seat_of(user_id)
    team = mine.team if mine else 0
    partners = [s.name for s in stored.seats
                if s.team == team and s.user_id != user_id]
    others = names_and([s.name for s in stored.seats if s.team != team], tr)
    players = (tr("with {partners} vs {opponents}", partners=names_and(partners, tr),
                  opponents=others) if partners else tr("vs {opponents}", opponents=others))
    turn = tr("your turn") if entry.yours else tr("{name} to move", name=entry.to_move)
    if entry.clock_text is not None:
        turn = tr("{turn} ({time})", turn=turn, time=entry.clock_text)
    return f"#{stored.id} {players} — {turn}"
