"""The values storage hands out and takes in: frozen dataclasses with plain ids, no Discord types.

User, guild and channel ids are Discord snowflakes (ints); a Discord thread is a channel.
Times are timezone-aware `datetime`s in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from twixt.storage.ratings import START_DEVIATION, START_VOLATILITY, Rating

#: what the package offers of these values (`twixt/storage/__init__.py` hands on the same)
__all__ = [
    "ChallengeStatus",
    "FirstMove",
    "GameResult",
    "GameSetup",
    "GameStatus",
    "GuildSettings",
    "Invitee",
    "InviteeAnswer",
    "LoadedGame",
    "Offer",
    "OfferKind",
    "PendingMove",
    "Player",
    "PlayerStats",
    "Result",
    "Seat",
    "StoredChallenge",
    "StoredConditionals",
    "StoredGame",
    "StoredNote",
    "StoredTurn",
    "StoredVacation",
    "UserPrefs",
]


class GameStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"


class ChallengeStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class InviteeAnswer(StrEnum):
    """An invitee's answer to a challenge."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"


class FirstMove(StrEnum):
    """Who of challenger and challenged plays Red (seat 0), as the challenger chose."""

    ME = "me"
    THEM = "them"
    RANDOM = "random"


class OfferKind(StrEnum):
    DRAW = "draw"
    TAKEBACK = "takeback"


class Result(StrEnum):
    """How a game ended; `aborted` is a game called off without a result (it counts nowhere)."""

    RED = "red"
    BLACK = "black"
    DRAW = "draw"
    ABORTED = "aborted"


@dataclass(frozen=True)
class GameSetup:
    """The options a game is created with, exactly as `rules.Game` takes them.

    `size` is the board before the handicap ("24x24" with handicap 6 plays on 24x18);
    `swap` None means the rules' default (on unless there is a handicap).
    `time_control` (e.g. "3d") is the time for each move, or a bank ("10d+36h"); `imported_turns`
    holds the turns of an imported record the game continues from, as "seat: command" lines
    (played before the log). `vacation` says whether the players' vacations and weekends off
    stop the game's clock.
    """

    size: str = "24x24"
    rules: str = "classic"
    swap: bool | None = None
    handicap: int = 0
    time_control: str | None = None
    imported_turns: str | None = None
    vacation: bool = True


@dataclass(frozen=True)
class Player:
    """Someone about to take a seat: the user id and the name shown on the board, and
    whether their clock stops on weekends in this game (their preference when it began)."""

    user_id: int
    name: str
    weekends_off: bool = False


@dataclass(frozen=True)
class Seat:
    """A seat at a game. Seat 0 moves first; partners in Double TwixT share `team`."""

    number: int
    user_id: int
    name: str
    weekends_off: bool = False

    @property
    def team(self) -> int:
        return self.number % 2


@dataclass(frozen=True)
class GameResult:
    """How a game ended, as recorded with its last turn.

    `winners` are user ids (empty for a draw or an abort). `rated_sides`, Red's and Black's
    user ids, asks for new (Glicko-2) ratings: storage computes them from the stored ones in the
    transaction that records the result, so they never drift from results nor lose an update.
    """

    result: Result
    reason: str
    winners: tuple[int, ...] = ()
    rated_sides: tuple[tuple[int, ...], tuple[int, ...]] | None = None


@dataclass(frozen=True)
class StoredGame:
    """A game without its log. `version` is the number of turns in the log (the token of
    its version checks); `side_changes` counts the changes that are no entry of the log (an
    offer made or closed, an end without a turn)."""

    id: int
    guild_id: int
    channel_id: int
    status: GameStatus
    setup: GameSetup
    seats: tuple[Seat, ...]
    version: int
    created_at: datetime
    updated_at: datetime
    challenge_id: int | None = None
    result: GameResult | None = None
    finished_at: datetime | None = None
    side_changes: int = 0

    @property
    def is_active(self) -> bool:
        return self.status is GameStatus.ACTIVE

    @property
    def live_version(self) -> int:
        """A number that grows with every change to the game anyone can see: a turn, an
        offer made or answered, its end (`Storage.live_versions` reads it for many games)."""
        return self.version + self.side_changes

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat a user sits in, or None for an onlooker."""
        return next((seat for seat in self.seats if seat.user_id == user_id), None)


@dataclass(frozen=True)
class StoredTurn:
    """One entry of the append-only log: turn `number` (1, 2, ...) took the game to that version."""

    number: int
    actor_id: int
    command: str
    played_at: datetime


@dataclass(frozen=True)
class LoadedGame:
    """A game and its whole log, read in one snapshot so they agree."""

    game: StoredGame
    turns: tuple[StoredTurn, ...]


@dataclass(frozen=True)
class Invitee:
    """One of the challenge's open places: a named user, or anyone (`user_id` None) until taken."""

    slot: int
    user_id: int | None
    answer: InviteeAnswer
    answered_at: datetime | None = None


@dataclass(frozen=True)
class StoredChallenge:
    """An invitation to a game; `players` is 2, or 4 for Double TwixT (three invitees)."""

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    players: int
    setup: GameSetup
    first: FirstMove
    thread: bool
    status: ChallengeStatus
    created_at: datetime
    expires_at: datetime
    invitees: tuple[Invitee, ...]

    @property
    def ready(self) -> bool:
        """Everyone invited has accepted: the game can be created."""
        return all(invitee.answer is InviteeAnswer.ACCEPTED for invitee in self.invitees)


@dataclass(frozen=True)
class Offer:
    """An open offer in a game, made when the game stood at `at_version`."""

    game_id: int
    kind: OfferKind
    user_id: int
    at_version: int
    created_at: datetime


@dataclass(frozen=True)
class StoredConditionals:
    """A player's conditional moves in a game, as the service wrote them (`plan`), stored
    when the game was at `at_version` with `at_move` moves made."""

    game_id: int
    user_id: int
    at_version: int
    at_move: int
    plan: str
    stored_at: datetime


@dataclass(frozen=True)
class GuildSettings:
    """Per-guild settings; the defaults stand until an admin changes one."""

    thread_default: bool = False
    challenge_expiry_hours: int = 24
    forfeit_on_timeout: bool = False
    #: hours into a clocked player's turn before the first reminder
    reminder_hours: int = 24
    #: the bot registered a copy of its commands in this guild (to remove when unwanted)
    commands_copied: bool = False
    #: vacation days each player has a calendar year (UTC); 0: no vacation on this server
    vacation_days: int = 14
    #: whether a new game lets vacations stop its clocks, unless its challenge says
    vacation_default: bool = True
    #: games in progress against the bot that one player may have at once (each search of
    #: the bot's takes the engine for seconds)
    bot_games: int = 5


#: the `GuildSettings` that a clock's wake-ups depend on: changing one wakes the guild's clocks
CLOCK_SETTINGS = frozenset({"forfeit_on_timeout", "reminder_hours"})


@dataclass(frozen=True)
class UserPrefs:
    """Per-user preferences: board `theme` (light, dark), `palette` (normal, colour-blind),
    `side` facing the viewer (red, black, any), reminders by DM, auto-link (a bare `G6`
    links every legal link of the new peg), confirm (a peg or swap is first shown to its
    player alone, and played once they confirm it), and `weekends`: whether the player's
    clocks run on Saturdays and Sundays (UTC) in the games they start from now on."""

    theme: str = "light"
    palette: str = "normal"
    side: str = "any"
    dm_reminders: bool = True
    auto_link: bool = False
    confirm_moves: bool = False
    weekends: bool = True


@dataclass(frozen=True)
class StoredVacation:
    """A player's vacation in one guild, from `starts_at` to `ends_at`, counting `days`
    against the calendar year (UTC) it starts in. An `automatic` one is the day used when
    the player's time ran out in game `game_id`."""

    id: int
    guild_id: int
    user_id: int
    starts_at: datetime
    ends_at: datetime
    days: int
    automatic: bool = False
    game_id: int | None = None


@dataclass(frozen=True)
class PlayerStats:
    """A user's record in one guild, counted from finished games; `rating` None until rated.

    The deviation is as stored at `rated_at`, the end of the last rated game; `rating_at`
    says how far it has grown since.
    """

    guild_id: int
    user_id: int
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    rating: float | None = None
    rated_games: int = 0
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    rated_at: datetime | None = None

    def rating_at(self, now: datetime) -> Rating | None:
        """The rating as it stands at `now` (see `Rating.at`); None until rated."""
        if self.rating is None:
            return None
        return Rating(self.rating, self.deviation, self.volatility, self.rated_at).at(now)


@dataclass(frozen=True)
class StoredNote:
    """A player's private note on a game, number 1, 2, … of theirs on it; never part of the
    game's record."""

    game_id: int
    user_id: int
    number: int
    text: str
    written_at: datetime


@dataclass(frozen=True)
class PendingMove:
    """A move checked and shown to its player, waiting for their confirmation: played only
    while the game is still at `at_version`. `id` is new for every move held, so that an
    older preview's Confirm button never plays a newer move."""

    id: int
    game_id: int
    user_id: int
    command: str
    at_version: int
    created_at: datetime
