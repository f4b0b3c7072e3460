"""The clocks' wake-ups and reminders (the timers-table pattern): the contract (`ClockStore`) and
its SQL, the same on both back ends (written with `?`) but for the claims, which each back end
makes its own way.

An active game with a time control has a wake-up: the moment its clock next needs a look (the
earlier of its next reminder and its deadline, worked out by the service). It is kept in an
indexed column, so finding what is due costs the same at 10 or 100,000 games. It is set when a
game is created (now), by each turn (`GameStore.append_turn`'s `wake_at`), by `set_wake`, a
vacation, and a change of the clock settings; finished games and games without a time control
have none. When in doubt a back end sets it earlier, never later: an early wake-up costs one
look, a late one a missed reminder.
"""

from __future__ import annotations

import abc
from datetime import datetime
from typing import Protocol

from twixt.storage import model, rows
from twixt.storage.shards import Shards
from twixt.storage.sql import SqlBase, read_games


class ClockStore(Protocol):
    """Each clocked game's next wake-up, and the reminders claimed and delivered."""

    async def due_games(self, now: datetime, limit: int = 100) -> tuple[model.StoredGame, ...]:
        """Active games whose wake-up is at or before `now`: the `limit` earliest of them (in
        no particular order). Reads only those rows (an index on the wake-up), whatever the
        number of games; a caller that gets `limit` games asks again once it has set their
        wake-ups."""

    async def claim_due_games(self, now: datetime, lease_until: datetime, limit: int = 100, *,
                              shards: Shards | None = None) -> tuple[model.StoredGame, ...]:
        """Claim up to `limit` of the due games (as `due_games`), of the guilds of `shards`
        only when given: their wake-up moves to `lease_until` in the same transaction, so no
        other process (or tick) takes them before then. The claimer stores each one's real
        next wake-up (`set_wake`); one that dies first loses them only until `lease_until`.
        Of several processes claiming at once, each due game goes to one (on PostgreSQL, rows
        locked by another claimer are skipped: `FOR UPDATE SKIP LOCKED`)."""

    async def next_wake(self, *, shards: Shards | None = None) -> datetime | None:
        """The earliest wake-up of any game (None: no clock is running), of the guilds of
        `shards` only when given; one index look."""

    async def set_wake(self, game_id: int, version: int, wake_at: datetime | None) -> bool:
        """Set the wake-up of an active clocked game still at `version` (None: no wake-up
        until its next turn or a change of the clock settings). False, changing nothing, if
        a turn landed meanwhile (its own wake-up stands), the game is over or has no clock."""

    async def claim_reminder(self, game_id: int, version: int, stage: str,
                             now: datetime | None = None) -> bool:
        """True the first time a reminder (stage) is claimed for a game at a version, False
        ever after: whoever gets True sends it, so none is sent twice, restarts included."""

    async def reminder_delivered(self, game_id: int, version: int, stage: str,
                                 now: datetime | None = None) -> None:
        """Note that a claimed reminder reached its player (or no longer needs to)."""

    async def reclaim_reminders(self, claimed_before: datetime, now: datetime,
                                limit: int = 100, *, shards: Shards | None = None
                                ) -> tuple[tuple[int, int, str], ...]:
        """Claim again the reminders claimed before `claimed_before` and never delivered (of
        the guilds of `shards` only when given), the `limit` oldest at most: each one's
        claim moves to `now` in the same transaction, so of several processes only one sends
        it again, and not again before its new claim is as old. This is how a reminder whose
        sender died (or whose message Discord refused) is sent once more."""


class SqlClocks(SqlBase):
    """`ClockStore` in SQL; a back end makes the claims (`claim_due_games`,
    `reclaim_reminders`) its own way."""

    async def due_games(self, now: datetime, limit: int = 100) -> tuple[model.StoredGame, ...]:
        async with self._read() as db:
            # the earliest wake-ups from the partial index; only active games have one
            return await read_games(db, "id IN (SELECT id FROM games WHERE wake_at IS NOT NULL "
                                    "AND wake_at <= ? ORDER BY wake_at LIMIT ?)",
                                [rows.utc(now), limit], None)

    async def next_wake(self, *, shards: Shards | None = None) -> datetime | None:
        mine = "" if shards is None else f" AND {shards.sql()}"
        async with self._read_one() as db:
            wake_at = await db.fetch_value(
                f"SELECT min(wake_at) FROM games WHERE wake_at IS NOT NULL{mine}")
        return rows.maybe_moment(wake_at)

    async def set_wake(self, game_id: int, version: int, wake_at: datetime | None) -> bool:
        async with self._write_one() as db:
            return await db.execute(
                "UPDATE games SET wake_at = ? WHERE id = ? AND version = ? "
                "AND status = 'active' AND time_control IS NOT NULL",
                None if wake_at is None else rows.utc(wake_at), game_id, version) == 1

    async def claim_reminder(self, game_id: int, version: int, stage: str,
                             now: datetime | None = None) -> bool:
        async with self._write_one() as db:
            return await db.execute(
                "INSERT INTO reminders (game_id, version, stage, sent_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING", game_id, version, stage, rows.utc(now)) == 1

    async def reminder_delivered(self, game_id: int, version: int, stage: str,
                                 now: datetime | None = None) -> None:
        async with self._write_one() as db:
            await db.execute("UPDATE reminders SET delivered_at = ? WHERE game_id = ? AND "
                             "version = ? AND stage = ? AND delivered_at IS NULL",
                             rows.utc(now), game_id, version, stage)

    @abc.abstractmethod
    async def claim_due_games(self, now: datetime, lease_until: datetime, limit: int = 100, *,
                              shards: Shards | None = None) -> tuple[model.StoredGame, ...]:
        """See `ClockStore.claim_due_games`."""

    @abc.abstractmethod
    async def reclaim_reminders(self, claimed_before: datetime, now: datetime,
                                limit: int = 100, *, shards: Shards | None = None
                                ) -> tuple[tuple[int, int, str], ...]:
        """See `ClockStore.reclaim_reminders`."""


def reminders_of(shards: Shards | None) -> str:
    """The condition, to add with AND, that a reminder's game is of the guilds of `shards`
    (nothing for every guild)."""
    return ("" if shards is None else
            f" AND game_id IN (SELECT id FROM games WHERE {shards.sql()})")
