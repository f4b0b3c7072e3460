"""Durable storage of games, turns, challenges, settings and ratings (the only place with SQL).

The bot talks to the `Storage` protocol; `SqliteStorage.open(path)` is today's implementation.
A game's state is the replay of its turn log (`replay`); turns land under optimistic
concurrency (`StaleVersionError`).
"""

from storage.errors import (
    ChallengeClosedError,
    ChannelBusyError,
    DatabaseError,
    GameFinishedError,
    NotFoundError,
    NotInvited,
    NotInvitedError,
    StaleVersionError,
    StorageError,
    UnsupportedSchemaError,
)
from storage.interface import Storage
from storage.model import (
    Answer,
    Challenge,
    ChallengeStatus,
    FirstMove,
    GameResult,
    GameSetup,
    GameStatus,
    GuildSettings,
    Invitee,
    LoadedGame,
    Offer,
    OfferKind,
    Player,
    PlayerStats,
    Result,
    Seat,
    StoredGame,
    StoredTurn,
    UserPrefs,
)
from storage.replay import TAKEBACK, new_game, replay
from storage.schema import full_check
from storage.sqlite import DEFAULT_PATH, SqliteStorage

__all__ = [
    "DEFAULT_PATH",
    "TAKEBACK",
    "Answer",
    "Challenge",
    "ChallengeClosedError",
    "ChallengeStatus",
    "ChannelBusyError",
    "DatabaseError",
    "FirstMove",
    "GameFinishedError",
    "GameResult",
    "GameSetup",
    "GameStatus",
    "GuildSettings",
    "Invitee",
    "LoadedGame",
    "NotFoundError",
    "NotInvited",
    "NotInvitedError",
    "Offer",
    "OfferKind",
    "Player",
    "PlayerStats",
    "Result",
    "Seat",
    "SqliteStorage",
    "StaleVersionError",
    "Storage",
    "StorageError",
    "StoredGame",
    "StoredTurn",
    "UnsupportedSchemaError",
    "UserPrefs",
    "full_check",
    "new_game",
    "replay",
]
