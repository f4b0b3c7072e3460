"""What can go wrong in storage, as exceptions whose message a player or an operator can read.

The bot catches the specific classes (`StaleVersionError`, `ChannelBusyError`, ...) to answer a
player, and lets `DatabaseError` stop the start-up with its one clear line.
"""


class StorageError(Exception):
    """Anything storage refuses or cannot do."""


class DatabaseError(StorageError):
    """The database file cannot be used: not SQLite, corrupt, unreadable, or not ours."""


class UnsupportedSchemaError(DatabaseError):
    """The database was written by a newer version of the bot; it is left untouched."""


class NotFoundError(StorageError):
    """No game or challenge with that id."""


class StaleVersionError(StorageError):
    """The game changed since the caller read it: another turn landed first."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__("the board changed while you were moving: look at it again")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameFinishedError(StorageError):
    """A turn or a finish was sent to a game that is already over."""

    def __init__(self, game_id: int) -> None:
        super().__init__("this game is already over")
        self.game_id = game_id


class ChannelBusyError(StorageError):
    """The channel already has an active game (at most one per channel or thread)."""

    def __init__(self, channel_id: int) -> None:
        super().__init__("this channel already has a game: finish it or play in a thread")
        self.channel_id = channel_id


class ChallengeClosedError(StorageError):
    """The challenge was already accepted, declined, cancelled or has expired."""


class NotInvitedError(StorageError):
    """The user may not answer this challenge (not invited, or no open seat left)."""
