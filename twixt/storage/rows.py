"""Between the back ends' rows and the storage model's values: times as UTC ISO text (SQLite),
setups as columns, settings as JSON; and what both back ends share above their SQL."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from twixt.storage.errors import ChallengeClosedError, NotInvited, NotInvitedError
from twixt.storage.model import (
    ChallengeStatus,
    FirstMove,
    GameResult,
    GameSetup,
    GameStatus,
    Invitee,
    InviteeAnswer,
    Offer,
    OfferKind,
    Player,
    Result,
    Seat,
    StoredChallenge,
    StoredGame,
    StoredTurn,
)

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: a settings dataclass, such as GuildSettings
StoredSettings = TypeVar("StoredSettings", bound="DataclassInstance")

#: the columns of a GameSetup, in the order of `setup_values`
SETUP_COLUMNS = "size, rules, swap, handicap, time_control, opening, vacation"
GAME_COLUMNS = ("id, guild_id, channel_id, challenge_id, status, size, rules, swap, handicap, "
                "time_control, opening, vacation, version, created_at, updated_at, result, "
                "reason, finished_at, side_changes")
CHALLENGE_COLUMNS = ("id, guild_id, channel_id, challenger_id, players, size, rules, swap, "
                     "handicap, time_control, opening, vacation, first, thread, status, "
                     "created_at, expires_at")
#: a game's seat rows, a challenge's invitee rows and an offer row, as `game`, `challenge` and
#: `offer` read them
SEAT_COLUMNS = "seat, user_id, name, winner, weekends_off"
INVITEE_COLUMNS = "slot, user_id, answer, answered_at"
OFFER_COLUMNS = "game_id, kind, user_id, at_version, created_at"


def utc(moment: datetime | None) -> datetime:
    """A time to store, in UTC: now by default; naive times are refused rather than guessed."""
    if moment is None:
        return datetime.now(UTC)
    if moment.tzinfo is None:
        raise ValueError("storage takes timezone-aware times")
    return moment.astimezone(UTC)


def stamp(moment: datetime | None) -> str:
    """A time as sortable UTC text (see `utc`)."""
    return _utc_text(utc(moment))


#: the second `utc_text` formatted last (a UTC time, no microseconds) and its text, the
#: microseconds left to fill: one tuple, replaced whole, so that a thread reads a second with
#: its own text
_last_second: tuple[datetime, str] = (datetime.min.replace(tzinfo=UTC), "")


def utc_text(moment: datetime) -> str:
    """A time already in UTC (`utc`) as `stamp`'s text: `isoformat(timespec="microseconds")`,
    made from the text of its second, which the moments written together mostly share (a
    third of the time of `isoformat`, which a turn's moment cost once a turn). Whether it is
    that second is one subtraction (a third of the instructions of `timestamp()`)."""
    global _last_second
    second, text = _last_second
    offset = moment - second
    if offset.days or offset.seconds:  # another second
        second = moment.replace(microsecond=0)
        text = second.isoformat()[:19] + ".%06d+00:00"
        _last_second = (second, text)
        return text % moment.microsecond
    return text % offset.microseconds


#: a UTC time's text, remembered: a moment often goes into several statements on SQLite (a
#: turn's, run alone, into both of its own), and formatting an aware time costs more than the
#: statement that stores it (2-4 µs, against a tenth of that to find it here)
_utc_text = functools.lru_cache(maxsize=1024)(utc_text)


def moment(text: str | datetime) -> datetime:
    """A time read back from a NOT NULL column (SQLite's text; PostgreSQL hands a datetime)."""
    return text if isinstance(text, datetime) else datetime.fromisoformat(text)


def maybe_moment(text: str | datetime | None) -> datetime | None:
    """A time read back from a column that may be NULL (not finished, not answered yet)."""
    return None if text is None else moment(text)


def setup_values(setup: GameSetup) -> tuple[Any, ...]:
    """The setup as the `SETUP_COLUMNS` (flags as booleans, which SQLite stores as 0 and 1)."""
    return (setup.size, setup.rules, setup.swap, setup.handicap, setup.time_control,
            setup.imported_turns, setup.vacation)


def _setup(size: str, rules: str, swap: int | None, handicap: int,
           time_control: str | None, imported_turns: str | None, vacation: int) -> GameSetup:
    return GameSetup(size, rules, None if swap is None else bool(swap), handicap, time_control,
                     imported_turns, bool(vacation))


def game(row: Sequence[Any], seats: Sequence[Sequence[Any]]) -> StoredGame:
    """A game from a `GAME_COLUMNS` row and its `SEAT_COLUMNS` rows in order."""
    (game_id, guild_id, channel_id, challenge_id, status, size, rules, swap, handicap,
     time_control, imported_turns, vacation, version, created_at, updated_at, result, reason,
     finished_at, side_changes) = row
    outcome = None
    if result is not None:
        winners = tuple(user_id for _seat, user_id, _name, won, _off in seats if won)
        outcome = GameResult(Result(result), reason, winners)
    return StoredGame(
        id=game_id, guild_id=guild_id, channel_id=channel_id, status=GameStatus(status),
        setup=_setup(size, rules, swap, handicap, time_control, imported_turns, vacation),
        seats=tuple(Seat(seat, user_id, name, bool(off))
                    for seat, user_id, name, _won, off in seats),
        version=version,
        created_at=moment(created_at), updated_at=moment(updated_at),
        challenge_id=challenge_id, result=outcome, finished_at=maybe_moment(finished_at),
        side_changes=side_changes)


def turn(row: Sequence[Any]) -> StoredTurn:
    number, actor_id, command, played_at = row
    return StoredTurn(number, actor_id, command, moment(played_at))


def challenge(row: Sequence[Any], invitees: Iterable[Sequence[Any]]) -> StoredChallenge:
    """A challenge from a `CHALLENGE_COLUMNS` row and its (slot, user_id, answer, at) rows."""
    (challenge_id, guild_id, channel_id, challenger_id, players, size, rules, swap, handicap,
     time_control, imported_turns, vacation, first, thread, status, created_at, expires_at) = row
    return StoredChallenge(
        id=challenge_id, guild_id=guild_id, channel_id=channel_id,
        challenger_id=challenger_id, players=players,
        setup=_setup(size, rules, swap, handicap, time_control, imported_turns, vacation),
        first=FirstMove(first),
        thread=bool(thread), status=ChallengeStatus(status), created_at=moment(created_at),
        expires_at=moment(expires_at),
        invitees=tuple(Invitee(slot, user_id, InviteeAnswer(answer), maybe_moment(at))
                       for slot, user_id, answer, at in invitees))


def offer(row: Sequence[Any]) -> Offer:
    game_id, kind, user_id, at_version, created_at = row
    return Offer(game_id, OfferKind(kind), user_id, at_version, moment(created_at))


def children(found: Iterable[Sequence[Any]]) -> dict[int, list[Any]]:
    """Rows whose first column is their parent's id, as their other columns by parent id."""
    by_parent: dict[int, list[Any]] = {}
    for row in found:
        by_parent.setdefault(row[0], []).append(tuple(row)[1:])
    return by_parent


def settings(kind: type[StoredSettings], stored: Mapping[str, str]) -> StoredSettings:
    """Defaults overlaid with stored values; keys this version no longer knows are ignored.
    Nothing stored: the defaults, made once a kind (the settings are frozen; a move reads
    its players', who mostly keep the defaults)."""
    if not stored:
        defaults: StoredSettings = _defaults(kind)
        return defaults
    known = _field_names(kind)
    return kind(**{key: json.loads(value) for key, value in stored.items() if key in known})


@functools.cache
def _defaults(kind: type[StoredSettings]) -> StoredSettings:
    return kind()


@functools.cache
def _field_names(kind: type[DataclassInstance]) -> frozenset[str]:
    return frozenset(field.name for field in fields(kind))


def checked_changes(current: StoredSettings, changes: Mapping[str, Any]) -> dict[str, str]:
    """Changes as JSON text, after checking each names a field and has that field's type."""
    known = _field_names(type(current))
    for key, value in changes.items():
        if key not in known:
            raise ValueError(f"there is no setting called {key}")
        if type(value) is not type(getattr(current, key)):
            raise ValueError(f"{key} takes a {type(getattr(current, key)).__name__}")
    return {key: json.dumps(value) for key, value in changes.items()}


def challenge_slots(challenger_id: int, invitees: Sequence[int],
                    players: int) -> list[int | None]:
    """A new challenge's places in slot order: the users named, then open ones (None); a
    challenge for other than two or four players, or naming someone twice or the challenger,
    is refused before anything is written."""
    if players not in (2, 4):
        raise ValueError("a challenge is for two players, or four for Double TwixT")
    places = players - 1
    named = list(dict.fromkeys(invitees))
    if len(named) != len(invitees) or challenger_id in named or len(named) > places:
        raise ValueError(f"invite at most {places} other players, each once")
    return [*named, *[None] * (places - len(named))]


def check_players(players: Sequence[Player]) -> None:
    """Refuse a new game's players, before anything is written, unless two or four differ."""
    if len(players) not in (2, 4) or len({p.user_id for p in players}) != len(players):
        raise ValueError("a game has two different players, or four for Double TwixT")


def pending_filter(channel_id: int | None, user_id: int | None,
                   now: datetime | None) -> tuple[str, list[object]]:
    """The WHERE clause and its values of `pending_challenges`: pending, unexpired at `now`,
    in a channel, or a user's (made or named in)."""
    where: list[str] = ["status = 'pending'"]
    params: list[object] = []
    if now is not None:
        where.append("expires_at > ?")
        params.append(utc(now))
    if channel_id is not None:
        where.append("channel_id = ?")
        params.append(channel_id)
    if user_id is not None:
        where.append("(challenger_id = ? OR id IN "
                     "(SELECT challenge_id FROM challenge_invitees WHERE user_id = ?))")
        params += [user_id, user_id]
    return " AND ".join(where), params


def check_pending(challenge: StoredChallenge, at: datetime | None = None) -> None:
    """Refuse to change a challenge that is no longer pending, or (given `at`) has expired."""
    if challenge.status is not ChallengeStatus.PENDING:
        raise ChallengeClosedError(challenge.status.value)
    if at is not None and challenge.expires_at <= at:
        raise ChallengeClosedError("expired")


def check_complete(challenge: StoredChallenge, players: Sequence[Player]) -> None:
    """Refuse to start a game of a challenge that an acceptance did not complete, or whose
    players it does not seat (another process answered it meanwhile)."""
    seated = {challenge.challenger_id, *(i.user_id for i in challenge.invitees)}
    if not challenge.ready or seated != {p.user_id for p in players}:
        raise ChallengeClosedError("changed")


def open_slot(challenge: StoredChallenge, user_id: int, accept: bool) -> int:
    """The open place a user who was not named takes by accepting."""
    if user_id == challenge.challenger_id:
        raise NotInvitedError(NotInvited.OWN_CHALLENGE)
    if not accept:
        raise NotInvitedError(NotInvited.NOT_NAMED)
    slot = next((i.slot for i in challenge.invitees if i.user_id is None), None)
    if slot is None:
        raise NotInvitedError(NotInvited.NO_PLACE_LEFT)
    return slot


