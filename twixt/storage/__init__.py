"""Durable storage of games, turns, challenges, settings and ratings (the only place with SQL).

The service talks to the `Storage` protocol, made of one Protocol a subject (`GameStore`,
`ChallengeStore`, … see `interface`); `open_storage(TWIXT_DB)` opens the back end the setting's
scheme names (`backends`): `SqliteStorage` (a file, the default) or `PostgresStorage` (a
`postgresql://` URL). Both inherit every subject's SQL (`backends.shared.SqlStorage`), which
runs each statement through a `connection.Connection`.
A game's state is the replay of its turn log (`replay`); turns land under optimistic
concurrency (`StaleVersionError`).
"""

from twixt.storage import model
from twixt.storage.backends import (
    POSTGRESQL,
    SQLITE,
    Database,
    backend_of,
    database_setting,
    missing_file,
    open_storage,
)
from twixt.storage.backends.sqlite import DEFAULT_PATH, SqliteStorage
from twixt.storage.engine_games import EngineGame
from twixt.storage.errors import (
    ChallengeClosedError,
    ChannelBusyError,
    DatabaseError,
    DatabaseFault,
    EntrantTakenError,
    GameFinishedError,
    NotFoundError,
    NotInvited,
    NotInvitedError,
    PairingOpenedError,
    StaleVersionError,
    StorageError,
    UnsupportedSchemaError,
)
from twixt.storage.interface import (
    ChallengeStore,
    ClockStore,
    EngineGameStore,
    GameStore,
    PrivateStore,
    SettingStore,
    StatsStore,
    Storage,
    TournamentStore,
    VacationStore,
    WaitingStore,
)
from twixt.storage.model import *  # noqa: F403 (the values, listed in model.__all__)
from twixt.storage.rebuild import TAKEBACK, new_game, rebuild
from twixt.storage.schema import full_check
from twixt.storage.tournaments import (
    Entrant,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
)
from twixt.storage.waiting import StoredDigest, Waiting, WaitingGame

__all__ = [
    "DEFAULT_PATH",
    "POSTGRESQL",
    "SQLITE",
    "StoredDigest",
    "Waiting",
    "WaitingGame",
    "TAKEBACK",
    "EngineGame",
    "ChallengeClosedError",
    "ChannelBusyError",
    "Database",
    "DatabaseError",
    "DatabaseFault",
    "Entrant",
    "EntrantTakenError",
    "Tournament",
    "TournamentFormat",
    "TournamentGame",
    "TournamentStatus",
    "GameFinishedError",
    "NotFoundError",
    "NotInvited",
    "NotInvitedError",
    "PairingOpenedError",
    "SqliteStorage",
    "StaleVersionError",
    "Storage",
    "ChallengeStore",
    "ClockStore",
    "EngineGameStore",
    "GameStore",
    "PrivateStore",
    "SettingStore",
    "StatsStore",
    "TournamentStore",
    "VacationStore",
    "WaitingStore",
    "StorageError",
    "UnsupportedSchemaError",
    "database_setting",
    "full_check",
    "backend_of",
    "missing_file",
    "new_game",
    "open_storage",
    "rebuild",
    *model.__all__,
]
