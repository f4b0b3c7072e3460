"""Answers into a channel the app may not post in: a game's home in a direct message or a
group DM, reached only through the interactions its players make there.

A user-installed app is refused a post into such a channel (50001, Missing Access), so the
bot never tries: what it says by itself there (its own moves, a clock's notice) goes as a
follow-up of the last interaction made in that channel, while that interaction's token
lives and has follow-ups left — Discord gives a token 15 minutes and, for an app not
installed where it is used, 5 follow-ups. Otherwise it is said in the players' own direct
messages with the bot (`outbox`). Nothing here outlives the process: after a restart, the
next interaction in the channel opens the way again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

import discord

from twixt.discord.reach import DirectReach

#: how long Discord accepts an interaction's token for follow-ups (15 minutes), less a
#: margin for the follow-up's own trip
TOKEN_LIFE_SECONDS = 15 * 60 - 30
#: the most follow-ups Discord takes for one interaction of a user-installed app
MAX_FOLLOWUPS = 5


@dataclass
class Relay:
    """One interaction made in a private channel, and the follow-ups it has carried."""

    interaction: discord.Interaction
    since: float
    followups: int = 0

    def alive(self, now: float) -> bool:
        """Whether Discord still takes followups with its token."""
        return now - self.since < TOKEN_LIFE_SECONDS

    def usable(self, now: float) -> bool:
        """Alive, with a followup left."""
        return self.alive(now) and self.followups < MAX_FOLLOWUPS


class Relays:
    """The newest interaction of each private channel this process has answered in."""

    def __init__(self) -> None:
        self._by_channel: dict[int, Relay] = {}

    def remember(self, interaction: discord.Interaction) -> Relay | None:
        """Note an interaction made outside a server; its relay (None in a server)."""
        if interaction.guild_id is not None or interaction.channel_id is None:
            return None
        now = time.monotonic()
        # forget the dead, so that the map holds only live tokens (a bounded number)
        self._by_channel = {channel: relay for channel, relay in self._by_channel.items()
                            if relay.alive(now)}
        existing = self._by_channel.get(interaction.channel_id)
        if existing is not None and existing.interaction.id == interaction.id:
            return existing
        relay = Relay(interaction, now)
        self._by_channel[interaction.channel_id] = relay
        return relay

    def followup(self, channel_id: int) -> Relay | None:
        """A live interaction of `channel_id` with a follow-up left, counted as taken."""
        relay = self._by_channel.get(channel_id)
        if relay is None or not relay.usable(time.monotonic()):
            return None
        relay.followups += 1
        return relay

    def count(self, interaction: discord.Interaction) -> bool:
        """Count one follow-up of `interaction`; False when it has none left (or is not a
        private channel's, which has no such limit)."""
        if interaction.guild_id is not None or interaction.channel_id is None:
            return True
        relay = self.remember(interaction)
        if relay is None or not relay.usable(time.monotonic()):
            return False
        relay.followups += 1
        return True


class RelayClient(Protocol):
    """The client (`app.TwixtBot`) that keeps the relays, and what it knows of reaching
    users in their DMs."""

    relays: Relays
    reach: DirectReach
