"""What the bot knows of reaching a user in their direct messages with it.

Discord refuses a DM to a user whose DMs are closed to the bot (50007) or who shares no
server with it (50278 — most players of a user-installed app in a DM). Such a DM is an
extra: in a game whose home is a DM or group DM, the answer to the mover's own command or
press mentions the player to move, and Discord notifies them of that. So a DM is tried once
per game and player ("it is your move in TwixT"), and a refusal is remembered for a day:
no request that is known to fail is made again (each counts toward Discord's
invalid-request limit). Nothing here outlives the process; both maps are bounded.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

#: Discord's JSON error codes for a DM the user does not take from the bot
DM_REFUSALS = (50007, 50278)
#: how long a refusal is believed: a player may open their DMs or join a server later
REFUSAL_SECONDS = 24 * 60 * 60
#: how many users and (game, user) pairs are kept at most, the oldest forgotten first
KEPT = 100_000


class DirectReach:
    """The users who refused the bot's DMs, and the games whose players were told once."""

    def __init__(self) -> None:
        self._refused: OrderedDict[int, float] = OrderedDict()
        self._told: OrderedDict[tuple[int, int], None] = OrderedDict()

    def refuses(self, user_id: int) -> bool:
        """Whether a DM to `user_id` was refused within the last day."""
        since = self._refused.get(user_id)
        if since is None:
            return False
        if time.monotonic() - since > REFUSAL_SECONDS:
            del self._refused[user_id]
            return False
        return True

    def refused_by(self, user_id: int) -> None:
        """Remember that Discord refused a DM to `user_id`."""
        self._refused[user_id] = time.monotonic()
        self._refused.move_to_end(user_id)
        _bound(self._refused)

    def first_of_game(self, game_id: int, user_id: int) -> bool:
        """True the first time `user_id` is to be told of their move in `game_id`."""
        key = (game_id, user_id)
        if key in self._told:
            return False
        self._told[key] = None
        _bound(self._told)
        return True


def _bound(kept: OrderedDict[Any, Any]) -> None:
    """Forget the oldest entries past `KEPT`."""
    while len(kept) > KEPT:
        kept.popitem(last=False)
