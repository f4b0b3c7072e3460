"""The application service: a command becomes a turn (or a challenge, an answer …) and a reply.

Both front ends call this and only this: who asks, in which channel, is it their turn; check it
with the rules, commit it to storage, draw the board, say what happened and whom to ping.
Data flows one way: command in → rules check → storage commit → picture → reply out.
The commands live in modules by subject; this class puts them together.
"""

from __future__ import annotations

from bot.service.core import ThreadOpener
from bot.service.model import ButtonKind, Context, Reply
from bot.service.play import PlayCommands
from bot.service.records import RecordCommands
from bot.service.stats import StatsCommands

__all__ = ["ThreadOpener", "TwixtService"]


class TwixtService(PlayCommands, RecordCommands, StatsCommands):
    """Challenges, turns, clocks, records and ratings, over one `Storage`."""

    async def press(self, ctx: Context, kind: ButtonKind, target: int) -> Reply:
        """A button was pressed; `target` is the challenge or game it belongs to."""
        if kind is ButtonKind.ACCEPT_CHALLENGE:
            return await self.accept(ctx, target)
        if kind is ButtonKind.DECLINE_CHALLENGE:
            return await self.decline(ctx, target)
        if kind is ButtonKind.REMATCH:
            return await self.rematch(ctx, target)
        return await self.game_button(ctx, kind, target)
