"""Challenges: an invitation to a game, answered by its invitees (or open places taken by anyone),
accepted when its game is created (`games`): the contract (`ChallengeStore`) and its SQL, the
same on both back ends (written with `?`) but for how expired challenges are marked.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from twixt.storage import model, rows
from twixt.storage.connection import Connection
from twixt.storage.errors import ChallengeClosedError, NotFoundError
from twixt.storage.sql import SqlBase, children_of

#: the pending challenges expired by a moment, through the partial index by expiry
EXPIRED = "status = 'pending' AND expires_at <= ?"
EXPIRE = f"UPDATE challenges SET status = 'expired' WHERE {EXPIRED}"
ADD_CHALLENGE = ("INSERT INTO challenges (guild_id, channel_id, challenger_id, players, "
                 f"{rows.SETUP_COLUMNS}, first, thread, created_at, expires_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")


class ChallengeStore(Protocol):
    """Challenges and their answers."""

    async def create_challenge(self, *, guild_id: int, channel_id: int, challenger_id: int,
                               invitees: Sequence[int], players: int, setup: model.GameSetup,
                               first: model.FirstMove, thread: bool, expires_at: datetime,
                               now: datetime | None = None) -> model.StoredChallenge:
        """Invite `invitees` (empty or fewer than players-1: the rest is open to anyone)."""

    async def get_challenge(self, challenge_id: int) -> model.StoredChallenge:
        """The challenge, whatever its status; `NotFoundError` if there is none."""

    async def answer_challenge(self, challenge_id: int, user_id: int, accept: bool,
                               now: datetime | None = None) -> model.StoredChallenge:
        """Record one invitee's answer; a named invitee's decline declines the challenge.

        Accepting an open place takes it. `NotInvitedError` if the user has no place to answer,
        `ChallengeClosedError` if it is no longer pending (or has expired by `now`).
        """

    async def cancel_challenge(self, challenge_id: int) -> model.StoredChallenge:
        """The challenger withdraws a pending challenge."""

    async def pending_challenges(self, *, channel_id: int | None = None,
                                 user_id: int | None = None,
                                 now: datetime | None = None) -> tuple[model.StoredChallenge, ...]:
        """Pending challenges in a channel and/or made by or to a user, oldest first; with
        `now`, only those that have not expired by then."""

    async def expire_challenges(self, now: datetime | None = None) -> int:
        """Mark every pending challenge past its expiry as expired; return how many.

        The clocks' tick calls it every time, so with nothing expired it must be cheap: an
        indexed look (pending by expiry), no rows loaded and no write transaction taken."""


class SqlChallenges(SqlBase):
    """`ChallengeStore` in SQL; a back end says how expired challenges are marked."""

    async def create_challenge(self, *, guild_id: int, channel_id: int, challenger_id: int,
                               invitees: Sequence[int], players: int, setup: model.GameSetup,
                               first: model.FirstMove, thread: bool, expires_at: datetime,
                               now: datetime | None = None) -> model.StoredChallenge:
        slots = rows.challenge_slots(challenger_id, invitees, players)
        async with self._write() as db:
            challenge_id = await db.fetch_value(
                ADD_CHALLENGE, guild_id, channel_id, challenger_id, players,
                *rows.setup_values(setup), model.FirstMove(first).value, thread, rows.utc(now),
                rows.utc(expires_at))
            await db.execute_many(
                "INSERT INTO challenge_invitees (challenge_id, slot, user_id) VALUES (?, ?, ?)",
                [(challenge_id, slot, user_id) for slot, user_id in enumerate(slots)])
            return await read_challenge(db, challenge_id)

    async def get_challenge(self, challenge_id: int) -> model.StoredChallenge:
        async with self._read() as db:
            return await read_challenge(db, challenge_id)

    async def answer_challenge(self, challenge_id: int, user_id: int, accept: bool,
                               now: datetime | None = None) -> model.StoredChallenge:
        async with self._write() as db:
            return await record_answer(db, challenge_id, user_id, accept, rows.utc(now))

    async def cancel_challenge(self, challenge_id: int) -> model.StoredChallenge:
        async with self._write() as db:
            challenge = await read_challenge(db, challenge_id, lock=True)
            rows.check_pending(challenge)
            await _set_challenge_status(db, challenge_id, model.ChallengeStatus.CANCELLED)
            return await read_challenge(db, challenge_id)

    async def pending_challenges(self, *, channel_id: int | None = None,
                                 user_id: int | None = None,
                                 now: datetime | None = None) -> tuple[model.StoredChallenge, ...]:
        where, params = rows.pending_filter(channel_id, user_id, now)
        async with self._read() as db:
            return await read_challenges(db, where, params)

    @abc.abstractmethod
    async def expire_challenges(self, now: datetime | None = None) -> int:
        """See `ChallengeStore.expire_challenges`."""


# --- inside a transaction --------------------------------------------------------------------

async def read_challenge(db: Connection, challenge_id: int, *,
                         lock: bool = False) -> model.StoredChallenge:
    found = await read_challenges(db, "id = ?", [challenge_id], lock=lock)
    if not found:
        raise NotFoundError(f"there is no challenge {challenge_id}")
    return found[0]


async def read_challenges(db: Connection, where: str, params: Sequence[Any], *,
                      lock: bool = False) -> tuple[model.StoredChallenge, ...]:
    """Challenges matching `where`; `lock` holds them while they are answered, cancelled or
    claimed, so that an open place or the challenge itself is taken once."""
    found = await db.fetch_all(f"SELECT {rows.CHALLENGE_COLUMNS} FROM challenges "
                               f"WHERE {where} ORDER BY id{db.for_update if lock else ''}",
                               *params)
    invitees = await children_of(db, "challenge_invitees", "challenge_id",
                               rows.INVITEE_COLUMNS, "slot", [row[0] for row in found])
    return tuple(rows.challenge(row, invitees.get(row[0], [])) for row in found)


async def _set_challenge_status(db: Connection, challenge_id: int,
                                status: model.ChallengeStatus) -> None:
    await db.execute("UPDATE challenges SET status = ? WHERE id = ?", status.value,
                     challenge_id)


async def record_answer(db: Connection, challenge_id: int, user_id: int, accept: bool,
                        at: datetime) -> model.StoredChallenge:
    """Record one invitee's answer in the caller's transaction (see `answer_challenge`)."""
    challenge = await read_challenge(db, challenge_id, lock=True)
    rows.check_pending(challenge, at)
    slot = next((i.slot for i in challenge.invitees if i.user_id == user_id), None)
    if slot is None:
        slot = rows.open_slot(challenge, user_id, accept)
    given = model.InviteeAnswer.ACCEPTED if accept else model.InviteeAnswer.DECLINED
    await db.execute(
        "UPDATE challenge_invitees SET user_id = ?, answer = ?, answered_at = ? "
        "WHERE challenge_id = ? AND slot = ?",
        user_id, given.value, at, challenge_id, slot)
    if not accept:
        await _set_challenge_status(db, challenge_id, model.ChallengeStatus.DECLINED)
    return await read_challenge(db, challenge_id)


async def claim_challenge(db: Connection, challenge_id: int) -> None:
    """Accept a pending challenge; its row stays locked, so it is claimed once."""
    status = await db.fetch_value(
        f"SELECT status FROM challenges WHERE id = ?{db.for_update}", challenge_id)
    if status is None:
        raise NotFoundError(f"there is no challenge {challenge_id}")
    if status != model.ChallengeStatus.PENDING:
        raise ChallengeClosedError(status)
    await _set_challenge_status(db, challenge_id, model.ChallengeStatus.ACCEPTED)
