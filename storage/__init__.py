"""Durable storage of games, turns, challenges, settings and ratings (the only place with SQL).

The bot talks to the `Storage` protocol; `SqliteStorage.open(path)` is today's implementation.
A game's state is the replay of its turn log (`replay`); turns land under optimistic
concurrency (`StaleVersion`).
"""

from storage.errors import (
    ChallengeClosed,
    ChannelBusy,
    DatabaseError,
    GameFinished,
    NotFound,
    NotInvited,
    StaleVersion,
    StorageError,
    UnsupportedSchema,
)
from storage.interface import Storage
from storage.records import (
    Answer,
    Challenge,
    ChallengeStatus,
    FirstMove,
    GameRecord,
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
    TurnRecord,
    UserPrefs,
)
from storage.replay import TAKEBACK, new_game, replay
from storage.sqlite import DEFAULT_PATH, SqliteStorage

__all__ = [
    "DEFAULT_PATH",
    "TAKEBACK",
    "Answer",
    "Challenge",
    "ChallengeClosed",
    "ChallengeStatus",
    "ChannelBusy",
    "DatabaseError",
    "FirstMove",
    "GameFinished",
    "GameRecord",
    "GameResult",
    "GameSetup",
    "GameStatus",
    "GuildSettings",
    "Invitee",
    "LoadedGame",
    "NotFound",
    "NotInvited",
    "Offer",
    "OfferKind",
    "Player",
    "PlayerStats",
    "Result",
    "Seat",
    "SqliteStorage",
    "StaleVersion",
    "Storage",
    "StorageError",
    "TurnRecord",
    "UnsupportedSchema",
    "UserPrefs",
    "new_game",
    "replay",
]
