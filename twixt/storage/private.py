"""What a player keeps beside a game for themselves alone: private notes, and a move waiting for
their confirmation (SQLite's migration 0008, PostgreSQL's 0005).

Neither is part of the game: the record, exports and replays read only the turn log. A
game's end forgets its waiting moves, and its conditional moves too (`UNPLAYED`). The SQL
is the same on both back ends (written with `?`, run by `storage.common` through either back
end's connection).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from twixt.storage.model import Note, PendingMove
from twixt.storage.rows import moment

NOTE_COLUMNS = "game_id, user_id, number, text, written_at"
PENDING_COLUMNS = "id, game_id, user_id, command, at_version, created_at"

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


def note(row: Sequence[Any]) -> Note:
    game_id, user_id, number, text, written_at = row
    return Note(game_id, user_id, number, text, moment(written_at))


def pending(row: Sequence[Any] | None) -> PendingMove | None:
    if row is None:
        return None
    pending_id, game_id, user_id, command, at_version, created_at = row
    return PendingMove(pending_id, game_id, user_id, command, at_version, moment(created_at))
