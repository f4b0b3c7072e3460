"""The storage the service talks to: one Protocol a subject, and `Storage`, all of them.

A use case is given the subjects it uses (say `ChallengeStore` and `GameStore`), typed, so
that what it may read and write is in its signature; whoever opens the storage (the process's
composition root) holds the whole `Storage` and hands it on. Each subject's contract, with its
rules, lives in its module, beside its SQL: `games` (games, turns, offers; the rules every
back end keeps are in its docstring), `challenges`, `clocks`, `vacations`, `tournaments`,
`private` (notes, a move to confirm, conditional moves), `engine_games`, `waiting` (whose move
it is, digests), `settings` (names, settings, preferences) and `stats`.
"""

from __future__ import annotations

from typing import Protocol, Self

from twixt.storage.challenges import ChallengeStore
from twixt.storage.clocks import ClockStore
from twixt.storage.engine_games import EngineGameStore
from twixt.storage.games import GameStore
from twixt.storage.private import PrivateStore
from twixt.storage.settings import SettingStore
from twixt.storage.stats import StatsStore
from twixt.storage.tournaments import TournamentStore
from twixt.storage.vacations import VacationStore
from twixt.storage.waiting import WaitingStore

__all__ = ["ChallengeStore", "ClockStore", "EngineGameStore", "GameStore", "PrivateStore",
           "SettingStore", "StatsStore", "Storage", "TournamentStore", "VacationStore",
           "WaitingStore"]


class Storage(GameStore, ChallengeStore, ClockStore, VacationStore, TournamentStore,
              PrivateStore, EngineGameStore, WaitingStore, SettingStore, StatsStore, Protocol):
    """Every subject, on one database that `open_storage` opened: `SqliteStorage` or
    `PostgresStorage`."""

    async def close(self) -> None:
        """Finish pending work and release the database."""

    async def __aenter__(self) -> Self:
        """The storage itself, closed when the block is left."""

    async def __aexit__(self, *exc_info: object) -> None:
        """Close the storage."""
