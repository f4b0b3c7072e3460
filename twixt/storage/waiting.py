"""Whose move each game waits for, and the players' daily digests (SQLite's migration 0015,
PostgreSQL's 0012): what "where is it my move?" reads.

A game's row says which person it waits for (`to_move_id`), until when (`due_at`, a clocked
turn's deadline) and since when (`waiting_since`); the service writes them with each turn, in
the statement that stores it, and a partial index on them holds only the games in progress
that wait for a person. So a player's waiting games are one index lookup of their own rows,
whatever the number of games and players (benchmarks/digest_bench.py measures it at 100,000
games). The SQL is the same on both back ends (written with `?`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from twixt.storage.model import StoredGame
from twixt.storage.rows import moment


@dataclass(frozen=True)
class Waiting:
    """Whose move a game waits for: a person (`user_id`; None for the bot's seat or a game
    over), until when in a clocked game (`due_at`) and since when (`since`)."""

    user_id: int | None
    due_at: datetime | None
    since: datetime


@dataclass(frozen=True)
class WaitingGame:
    """A game in progress that waits for a player's move, with its deadline and since when."""

    game: StoredGame
    due_at: datetime | None
    since: datetime


@dataclass(frozen=True)
class Digest:
    """A player's daily digest: at `hour` (0-23) in time zone `zone` (an IANA name), said in
    `locale` (the player's language when they asked for it), next at `next_at` (UTC)."""

    user_id: int
    hour: int
    zone: str
    locale: str
    next_at: datetime


#: a game's waiting state, set beside the turn that leads to it (the game's id last)
SET = "to_move_id = ?, due_at = ?, waiting_since = ?"
#: the games that wait for a person's move, most urgent first: a clocked turn's deadline,
#: soonest first, then the longest waiting (through the partial index `games_waiting_for`)
WAITING_FOR = ("SELECT id, due_at, waiting_since FROM games WHERE to_move_id = ? "
               "AND status = 'active' AND to_move_id IS NOT NULL "
               "ORDER BY due_at IS NULL, due_at, waiting_since, id LIMIT ?")
DIGEST_COLUMNS = "user_id, hour, zone, locale, next_at"
GET_DIGEST = f"SELECT {DIGEST_COLUMNS} FROM digests WHERE user_id = ?"
SET_DIGEST = ("INSERT INTO digests (user_id, hour, zone, locale, next_at) "
              "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET hour = excluded.hour, "
              "zone = excluded.zone, locale = excluded.locale, next_at = excluded.next_at")
DROP_DIGEST = "DELETE FROM digests WHERE user_id = ?"
#: the digests due by a time, soonest first (through `digests_due`)
DUE_DIGESTS = f"SELECT {DIGEST_COLUMNS} FROM digests WHERE next_at <= ? ORDER BY next_at LIMIT ?"
#: a digest moved on to its next day, once: by the process whose claim this is
ADVANCE_DIGEST = "UPDATE digests SET next_at = ? WHERE user_id = ? AND next_at = ?"


def digest(row: Sequence[Any]) -> Digest:
    """A digest from a `DIGEST_COLUMNS` row."""
    user_id, hour, zone, locale, next_at = row
    return Digest(int(user_id), int(hour), str(zone), str(locale), moment(next_at))
