"""What can go wrong in storage, as exceptions that carry what happened as data.

Their messages are for operators and logs. What a player reads is the service's to say
(`twixt.service.texts.storage_refusal`), in one place that can be translated; `DatabaseError`
stops the start-up with its one clear line.
"""

import enum


class StorageError(Exception):
    """Anything storage refuses or cannot do."""


class DatabaseFault(enum.Enum):
    """Why a database cannot be used, as far as it matters to whoever runs the bot: each asks
    for something else to be done (a full disk is not a corrupt file)."""

    LOCKED = "locked"
    READ_ONLY = "read-only"
    FULL = "full"
    #: the file was removed or replaced while the bot had it open: what it writes is lost
    GONE = "gone"
    #: cannot be opened or reached (a missing folder, a server that is down)
    UNREACHABLE = "unreachable"
    #: anything else: corrupt, not SQLite, not ours, a failure without a clearer name
    BROKEN = "broken"


class DatabaseError(StorageError):
    """The database cannot be used: not SQLite, corrupt, unreadable, not ours, read-only, on
    a full disk or gone. `fault` says which; the message is one line naming it."""

    def __init__(self, message: str, fault: DatabaseFault = DatabaseFault.BROKEN) -> None:
        super().__init__(message)
        self.fault = fault


class UnsupportedSchemaError(DatabaseError):
    """The database was written by a newer version of the bot; it is left untouched."""


class NotFoundError(StorageError):
    """No game or challenge with that id."""


class StaleVersionError(StorageError):
    """The game changed since the caller read it: another turn landed first."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameFinishedError(StorageError):
    """A turn or a finish was sent to a game that is already over."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is over")
        self.game_id = game_id


class ChannelBusyError(StorageError):
    """The channel already has an active game (at most one per channel or thread)."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an active game")
        self.channel_id = channel_id


class ChallengeClosedError(StorageError):
    """The challenge was already accepted, declined, cancelled or has expired: `state` is
    its status, or `expired`."""

    def __init__(self, state: str) -> None:
        super().__init__(f"the challenge is {state}")
        self.state = state


class NotInvited(enum.Enum):
    """Why a user may not answer a challenge."""

    OWN_CHALLENGE = "own challenge"
    NOT_NAMED = "not named"
    NO_PLACE_LEFT = "no place left"


class NotInvitedError(StorageError):
    """The user may not answer this challenge; `reason` says why."""

    def __init__(self, reason: NotInvited) -> None:
        super().__init__(f"may not answer: {reason.value}")
        self.reason = reason


class EntrantTakenError(StorageError):
    """A player is already in another entrant (a team) of the tournament."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} is already signed up for the event")
        self.user_id = user_id


class PairingOpenedError(StorageError):
    """A tournament's pairing already has its game (another process opened it)."""

    def __init__(self, tournament_game_id: int) -> None:
        super().__init__(f"event game {tournament_game_id} already has a game")
        self.tournament_game_id = tournament_game_id
