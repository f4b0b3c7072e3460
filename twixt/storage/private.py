"""What a player keeps beside a game for themselves alone: private notes, a move waiting for
their confirmation (SQLite's migration 0008, PostgreSQL's 0005) and conditional moves, replies
stored in advance (0009, 0006): the contract (`PrivateStore`) and its SQL, the same on both
back ends (written with `?`).

None is part of the game: the record, exports and replays read only the turn log. A game's
end forgets its waiting moves and its conditional moves (`UNPLAYED`); notes stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from twixt.storage import model, rows
from twixt.storage.connection import Connection, Row
from twixt.storage.model import PendingMove, StoredConditionals, StoredNote
from twixt.storage.rows import moment
from twixt.storage.sql import SqlBase, check_version

NOTE_COLUMNS = "game_id, user_id, number, text, written_at"
PENDING_COLUMNS = "id, game_id, user_id, command, at_version, created_at"
CONDITIONAL_COLUMNS = "game_id, user_id, at_version, at_move, plan, stored_at"

#: the number of a user's latest note on a game (0 for none); notes are only ever added or
#: cleared all together, so it is also how many they have
LAST_NOTE = "SELECT coalesce(max(number), 0) FROM game_notes WHERE game_id = ? AND user_id = ?"
ADD_NOTE = f"INSERT INTO game_notes ({NOTE_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
NOTES = (f"SELECT {NOTE_COLUMNS} FROM game_notes WHERE game_id = ? AND user_id = ? "
         "ORDER BY number LIMIT ?")
CLEAR_NOTES = "DELETE FROM game_notes WHERE game_id = ? AND user_id = ?"

#: a new move held replaces the user's older one in that game (and gets a new id)
DROP_PENDING = "DELETE FROM pending_moves WHERE game_id = ? AND user_id = ?"
HOLD_PENDING = ("INSERT INTO pending_moves (game_id, user_id, command, at_version, created_at) "
                f"VALUES (?, ?, ?, ?, ?) RETURNING {PENDING_COLUMNS}")
PENDING = f"SELECT {PENDING_COLUMNS} FROM pending_moves WHERE game_id = ? AND user_id = ?"
TAKE_PENDING = f"DELETE FROM pending_moves WHERE id = ? RETURNING {PENDING_COLUMNS}"


#: what a game's end forgets, in the transaction that ends it (each taking the game's id): the
#: moves waiting for confirmation and the conditional moves, which can no longer be played.
#: Notes stay, to be read after the game.
UNPLAYED = ("DELETE FROM pending_moves WHERE game_id = ?",
            "DELETE FROM conditional_moves WHERE game_id = ?")


def note(row: Sequence[Any]) -> StoredNote:
    game_id, user_id, number, text, written_at = row
    return StoredNote(game_id, user_id, number, text, moment(written_at))


def pending(row: Sequence[Any] | None) -> PendingMove | None:
    if row is None:
        return None
    pending_id, game_id, user_id, command, at_version, created_at = row
    return PendingMove(pending_id, game_id, user_id, command, at_version, moment(created_at))


#: a player's conditional moves in a game, replacing theirs (params: `CONDITIONAL_COLUMNS`)
STORE_CONDITIONALS = (
    f"INSERT INTO conditional_moves ({CONDITIONAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game_id, user_id) DO UPDATE SET at_version = excluded.at_version, "
    "at_move = excluded.at_move, plan = excluded.plan, stored_at = excluded.stored_at")
#: every player's conditional moves in a game (params: game id)
CONDITIONALS = (f"SELECT {CONDITIONAL_COLUMNS} FROM conditional_moves WHERE game_id = ? "
                "ORDER BY user_id")
#: forget one player's conditional moves in a game, or everyone's (params: game id, user id
#: or None)
DROP_CONDITIONALS = ("DELETE FROM conditional_moves WHERE game_id = ? "
                     "AND user_id = coalesce(CAST(? AS bigint), user_id)")


def read_conditionals(row: Sequence[Any]) -> StoredConditionals:
    game_id, user_id, at_version, at_move, plan, stored_at = row
    return StoredConditionals(game_id, user_id, at_version, at_move, plan, moment(stored_at))


class PrivateStore(Protocol):
    """What a player keeps beside a game for themselves: notes, a move to confirm,
    conditional moves."""

    async def add_note(self, game_id: int, user_id: int, text: str, *, most: int,
                       now: datetime | None = None) -> StoredNote | None:
        """Keep a private note of a user on a game, numbered after their others; None,
        writing nothing, when they already have `most` notes on it."""

    async def notes(self, game_id: int, user_id: int, limit: int) -> tuple[StoredNote, ...]:
        """A user's notes on a game, oldest first, `limit` at most."""

    async def clear_notes(self, game_id: int, user_id: int) -> int:
        """Remove all of a user's notes on a game; return how many there were."""

    async def hold_move(self, game_id: int, user_id: int, command: str, at_version: int,
                        now: datetime | None = None) -> PendingMove:
        """Keep a move waiting for its player's confirmation, replacing their earlier one in
        that game; it gets a new id, never one an earlier move had."""

    async def pending_move(self, game_id: int, user_id: int) -> PendingMove | None:
        """The move a user has waiting in a game, if any."""

    async def take_pending_move(self, pending_id: int) -> PendingMove | None:
        """Remove a waiting move and return it; None if it is gone (taken or replaced), so
        of two confirmations at once only one gets it."""

    async def store_conditionals(self, game_id: int, user_id: int, at_version: int,
                                 at_move: int, plan: str, now: datetime | None = None) -> None:
        """Keep a player's conditional moves in a game (replacing what they had), under the
        version check: `StaleVersionError` if a turn landed since `at_version`,
        `GameFinishedError` if the game is over. A game's end drops them all."""

    async def conditionals(self, game_id: int) -> tuple[StoredConditionals, ...]:
        """Every player's conditional moves in a game (one row each at most), by user id."""

    async def drop_conditionals(self, game_id: int, user_id: int | None = None) -> None:
        """Forget the conditional moves of one player in a game, or (None) of all of them."""


class SqlPrivate(SqlBase):
    """`PrivateStore` in SQL."""

    async def add_note(self, game_id: int, user_id: int, text: str, *, most: int,
                       now: datetime | None = None) -> model.StoredNote | None:
        async with self._write() as db:
            await db.lock_user(game_id, user_id)  # one note of theirs on the game at a time
            last = await db.fetch_value(LAST_NOTE, game_id, user_id)
            if last >= most:
                return None
            row = (game_id, user_id, last + 1, text, rows.utc(now))
            await db.execute(ADD_NOTE, *row)
        return note(row)

    async def notes(self, game_id: int, user_id: int, limit: int) -> tuple[model.StoredNote, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(NOTES, game_id, user_id, limit)
        return tuple(note(row) for row in found)

    async def clear_notes(self, game_id: int, user_id: int) -> int:
        async with self._write_one() as db:
            return await db.execute(CLEAR_NOTES, game_id, user_id)

    async def hold_move(self, game_id: int, user_id: int, command: str, at_version: int,
                        now: datetime | None = None) -> model.PendingMove:
        async with self._write() as db:
            await db.lock_user(game_id, user_id)  # else two at once: one breaks the unique
            await db.execute(DROP_PENDING, game_id, user_id)
            held = pending(await db.fetch_one(HOLD_PENDING, game_id, user_id,
                                                      command, at_version, rows.utc(now)))
        assert held is not None, "RETURNING gives the row just held"
        return held

    async def pending_move(self, game_id: int, user_id: int) -> model.PendingMove | None:
        async with self._read_one() as db:
            return pending(await db.fetch_one(PENDING, game_id, user_id))

    async def take_pending_move(self, pending_id: int) -> model.PendingMove | None:
        async with self._write_one() as db:
            return pending(await db.fetch_one(TAKE_PENDING, pending_id))

    async def store_conditionals(self, game_id: int, user_id: int, at_version: int,
                                 at_move: int, plan: str, now: datetime | None = None) -> None:
        async with self._write() as db:
            await check_version(db, game_id, at_version, None)
            await db.execute(STORE_CONDITIONALS, game_id, user_id, at_version, at_move,
                             plan, rows.utc(now))

    async def conditionals(self, game_id: int) -> tuple[model.StoredConditionals, ...]:
        async def read(db: Connection) -> list[Row]:
            return await db.fetch_all(CONDITIONALS, game_id)

        found = await self._read_one_by(read)
        return tuple(read_conditionals(row) for row in found)

    async def drop_conditionals(self, game_id: int, user_id: int | None = None) -> None:
        async with self._write_one() as db:
            await db.execute(DROP_CONDITIONALS, game_id, user_id)
