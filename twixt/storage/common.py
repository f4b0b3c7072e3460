"""The `Storage` methods whose SQL is the same on both back ends, each written once over the
connection seam (`storage.connection`).

`SqlStorage` holds them; `SqliteStorage` and `PostgresStorage` inherit them and keep what
really differs: how a transaction is opened (`_read`, `_write` and their one-statement kinds),
the locks and claims that PostgreSQL's concurrent writers need and SQLite's single writer does
not (`_rate`, `claim_due_games`, `reclaim_reminders`, `expire_challenges`, PostgreSQL's
one-statement turn), group commit, and migrations. The statements of one subject live beside
its values (`storage.tournaments`, `storage.private`, `storage.bots`, `storage.rows`); the rest are
here, written with `?`, which the PostgreSQL adapter numbers.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import fields
from datetime import datetime
from typing import Any, Self

from twixt.storage import engine_games, model, private, rows, tournaments
from twixt.storage import waiting as waits
from twixt.storage.connection import Connection, DuplicateKeyError, Row
from twixt.storage.engine_games import EngineGame
from twixt.storage.errors import (
    ChallengeClosedError,
    ChannelBusyError,
    EntrantTakenError,
    GameFinishedError,
    NotFoundError,
    PairingOpenedError,
    StaleVersionError,
)
from twixt.storage.shards import Shards
from twixt.storage.tournaments import Entrant, Tournament, TournamentGame, TournamentStatus
from twixt.storage.waiting import Digest, Waiting, WaitingGame

#: the pending challenges expired by a moment, through the partial index by expiry
EXPIRED = "status = 'pending' AND expires_at <= ?"
EXPIRE = f"UPDATE challenges SET status = 'expired' WHERE {EXPIRED}"
#: the unique index that keeps one active game a channel, as each back end names it
ONE_GAME_PER_CHANNEL = ("games_one_active_per_channel", "games.channel_id")

ADD_CHALLENGE = ("INSERT INTO challenges (guild_id, channel_id, challenger_id, players, "
                 f"{rows.SETUP_COLUMNS}, first, thread, created_at, expires_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
ADD_GAME = ("INSERT INTO games (guild_id, channel_id, challenge_id, "
            f"{rows.SETUP_COLUMNS}, created_at, updated_at, wake_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
ADD_TURN = ("INSERT INTO turns (game_id, number, actor_id, command, played_at) "
            "VALUES (?, ?, ?, ?, ?)")
#: a change to a game that is no entry of its log (an offer made or closed): its live version
#: moves on (`StoredGame.live_version`)
SIDE_CHANGE = "UPDATE games SET side_changes = side_changes + 1 WHERE id = ?"
#: the optimistic-concurrency check, as one guarded UPDATE (see `_advance`)
ADVANCE = ("UPDATE games SET version = version + ?, updated_at = coalesce(?, updated_at) "
           "WHERE id = ? AND version = ? AND status = 'active'")
#: what a game's end brings about in the transaction that records it, after its winners are
#: marked (each statement taking the game's id): its tournament owes a look from the clocks' tick
#: (`tournaments.LOOK_GAME`: a crash right after leaves it owed), the moves that can no longer be
#: played are dropped (`private.UNPLAYED`), and the game is added to its players' and pairs'
#: totals (`rows.ADD_TOTALS`, upserts that add under the row's lock), so that the totals never
#: drift from games
AFTER_FINISH = (tournaments.LOOK_GAME, *private.UNPLAYED, *rows.ADD_TOTALS)
#: a page of rows, appended to an ordered SELECT: the limit, then the offset
PAGE = " LIMIT ? OFFSET ?"
#: the ratings of some players of a guild (the players' condition goes in `{users}`)
RATINGS = f"SELECT user_id, {rows.GLICKO_COLUMNS} FROM ratings WHERE guild_id = ? AND {{users}}"


class SqlStorage(abc.ABC):
    """The shared half of both back ends; see the module's docstring."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Finish pending work and release the database."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- transactions: each back end's own ----------------------------------------------

    @abc.abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """One read snapshot, so that a game and its log agree."""

    @abc.abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """One write, atomic and durable when the block is left."""

    def _read_one(self) -> AbstractAsyncContextManager[Connection]:
        """A read of one statement, which needs no snapshot to agree with itself."""
        return self._read()

    def _write_one(self) -> AbstractAsyncContextManager[Connection]:
        """A write of one statement, atomic on its own."""
        return self._write()

    @abc.abstractmethod
    async def _rate(self, db: Connection, guild_id: int, result: model.GameResult,
                    sides: tuple[tuple[int, ...], tuple[int, ...]], at: datetime) -> None:
        """New ratings from the stored ones, read and written in the caller's transaction."""

    #: where `list_games` finds one player's games: (the rows read, the column that orders
    #: them newest first, the condition naming the player, the page's limit and offset);
    #: each back end walks the index game_seats_by_user its own way, so that a page costs
    #: the same however many games
    _PLAYER_GAMES: tuple[str, str, str, str]

    # --- challenges --------------------------------------------------------------------

    async def create_challenge(self, *, guild_id: int, channel_id: int, challenger_id: int,
                               invitees: Sequence[int], players: int, setup: model.GameSetup,
                               first: model.FirstMove, thread: bool, expires_at: datetime,
                               now: datetime | None = None) -> model.Challenge:
        slots = rows.challenge_slots(challenger_id, invitees, players)
        async with self._write() as db:
            challenge_id = await db.fetch_value(
                ADD_CHALLENGE, guild_id, channel_id, challenger_id, players,
                *rows.setup_values(setup), model.FirstMove(first).value, thread, rows.utc(now),
                rows.utc(expires_at))
            await db.execute_many(
                "INSERT INTO challenge_invitees (challenge_id, slot, user_id) VALUES (?, ?, ?)",
                [(challenge_id, slot, user_id) for slot, user_id in enumerate(slots)])
            return await _challenge(db, challenge_id)

    async def get_challenge(self, challenge_id: int) -> model.Challenge:
        async with self._read() as db:
            return await _challenge(db, challenge_id)

    async def answer_challenge(self, challenge_id: int, user_id: int, accept: bool,
                               now: datetime | None = None) -> model.Challenge:
        async with self._write() as db:
            return await _answer(db, challenge_id, user_id, accept, rows.utc(now))

    async def cancel_challenge(self, challenge_id: int) -> model.Challenge:
        async with self._write() as db:
            challenge = await _challenge(db, challenge_id, lock=True)
            rows.check_pending(challenge)
            await _set_challenge_status(db, challenge_id, model.ChallengeStatus.CANCELLED)
            return await _challenge(db, challenge_id)

    async def pending_challenges(self, *, channel_id: int | None = None,
                                 user_id: int | None = None,
                                 now: datetime | None = None) -> tuple[model.Challenge, ...]:
        where, params = rows.pending_filter(channel_id, user_id, now)
        async with self._read() as db:
            return await _challenges(db, where, params)

    # --- games and turns ---------------------------------------------------------------

    async def create_game(self, *, guild_id: int, channel_id: int, players: Sequence[model.Player],
                          setup: model.GameSetup, challenge_id: int | None = None,
                          now: datetime | None = None, tournament_game_id: int | None = None,
                          accepting: int | None = None) -> model.StoredGame:
        rows.check_players(players)
        at = rows.utc(now)
        async with self._write() as db:
            if challenge_id is not None and accepting is not None:
                answered = await _answer(db, challenge_id, accepting, True, at)
                rows.check_complete(answered, players)
            if challenge_id is not None:
                await _claim_challenge(db, challenge_id)
            try:
                game_id = await db.fetch_value(
                    ADD_GAME, guild_id, channel_id, challenge_id, *rows.setup_values(setup),
                    at, at, at if setup.time_control else None)  # a clock: looked at at once
            except DuplicateKeyError as error:
                if error.constraint in ONE_GAME_PER_CHANNEL:
                    raise ChannelBusyError(channel_id) from None
                raise
            await db.execute_many(
                "INSERT INTO game_seats (game_id, seat, user_id, name, weekends_off) "
                "VALUES (?, ?, ?, ?, ?)",
                [(game_id, seat, p.user_id, p.name, p.weekends_off)
                 for seat, p in enumerate(players)])
            if tournament_game_id is not None and await db.execute(
                    tournaments.LINK_GAME, game_id, tournament_game_id) != 1:
                raise PairingOpenedError(tournament_game_id)
            return await _game(db, game_id)

    async def get_game(self, game_id: int) -> model.StoredGame:
        async with self._read() as db:
            return await _game(db, game_id)

    async def load_game(self, game_id: int) -> model.LoadedGame:
        async with self._read() as db:
            game = await _game(db, game_id)
            found = await db.fetch_all(
                "SELECT number, actor_id, command, played_at FROM turns WHERE game_id = ? "
                "ORDER BY number", game_id)
        return model.LoadedGame(game, tuple(rows.turn(row) for row in found))

    async def active_game(self, channel_id: int) -> model.StoredGame | None:
        async with self._read() as db:
            games = await read_games(db, "channel_id = ? AND status = 'active'", [channel_id], 1)
        return games[0] if games else None

    async def live_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        ids = list(dict.fromkeys(game_ids))
        if not ids:
            return {}
        async with self._read_one() as db:
            games, values = db.among("id", ids)
            found = await db.fetch_all(
                f"SELECT id, version + side_changes FROM games WHERE {games}", *values)
        return {row[0]: row[1] for row in found}

    async def list_games(self, *, user_id: int | None = None, channel_id: int | None = None,
                         guild_id: int | None = None, status: model.GameStatus | None = None,
                         limit: int = 20, before_id: int | None = None,
                         visible_to: tuple[int, int] | None = None, offset: int = 0
                         ) -> tuple[model.StoredGame, ...]:
        where: list[str] = ["1 = 1"]
        params: list[object] = []
        if visible_to is not None and visible_to[1] != user_id:  # own games: all visible
            # one seat looked up a game (a list of all the user's games would cost their count)
            where.append("(channel_id = ? OR EXISTS (SELECT 1 FROM game_seats AS seen "
                         "WHERE seen.game_id = games.id AND seen.user_id = ?))")
            params.extend(visible_to)
        source = ("games", "id", PAGE)
        if user_id is not None:
            table, newest, player, page = self._PLAYER_GAMES
            source = (table, newest, page)
            where.append(player)
            params.append(user_id)
        for condition, value in (
                ("channel_id = ?", channel_id), ("guild_id = ?", guild_id),
                ("status = ?", None if status is None else model.GameStatus(status).value),
                ("id < ?", before_id)):
            if value is not None:
                where.append(condition)
                params.append(value)
        async with self._read() as db:
            return await read_games(db, " AND ".join(where), params, None if limit < 0 else limit,
                                offset, source)

    async def append_turn(self, game_id: int, expected_version: int, actor_id: int,
                          command: str, *, finish: model.GameResult | None = None,
                          wake_at: datetime | None = None, now: datetime | None = None,
                          waiting: Waiting | None = None) -> int:
        at = rows.utc(now)
        async with self._write() as db:
            await _advance(db, game_id, expected_version, at, step=1)
            await db.execute(ADD_TURN, game_id, expected_version + 1, actor_id, command, at)
            if waiting is not None and finish is None:
                await _set_waiting(db, game_id, waiting)
            if finish is not None:
                await self._finish(db, game_id, finish, at)
            elif wake_at is None:  # due by now at the latest: an earlier wake-up stays
                await db.execute(
                    "UPDATE games SET wake_at = CASE WHEN time_control IS NULL THEN NULL "
                    "WHEN wake_at IS NULL OR wake_at > ? THEN ? ELSE wake_at END WHERE id = ?",
                    at, at, game_id)
            else:
                await db.execute(
                    "UPDATE games SET wake_at = CASE WHEN time_control IS NULL THEN NULL "
                    "ELSE ? END WHERE id = ?", rows.utc(wake_at), game_id)
        return expected_version + 1

    async def finish_game(self, game_id: int, expected_version: int, result: model.GameResult,
                          now: datetime | None = None) -> model.StoredGame:
        at = rows.utc(now)
        async with self._write() as db:
            await _advance(db, game_id, expected_version, at, step=0)
            await self._finish(db, game_id, result, at)
            return await _game(db, game_id)

    async def _finish(self, db: Connection, game_id: int, result: model.GameResult,
                      at: datetime) -> None:
        """Record a game's end, and all that follows from it in the same transaction."""
        guild_id = await db.fetch_value(
            "UPDATE games SET status = 'finished', result = ?, reason = ?, finished_at = ?, "
            "wake_at = NULL, to_move_id = NULL, side_changes = side_changes + 1 "
            "WHERE id = ? RETURNING guild_id",
            model.Result(result.result).value, result.reason, at, game_id)
        if result.winners:
            winners, values = db.among("user_id", result.winners)
            marked = await db.execute(
                f"UPDATE game_seats SET winner = ? WHERE game_id = ? AND {winners}",
                True, game_id, *values)
            if marked != len(set(result.winners)):
                raise ValueError("every winner must have a seat in the game")
        await db.execute("DELETE FROM offers WHERE game_id = ?", game_id)
        for statement in AFTER_FINISH:
            await db.execute(statement, game_id)
        if result.rated_sides is not None:
            await self._rate(db, guild_id, result, result.rated_sides, at)

    # --- offers ------------------------------------------------------------------------

    async def make_offer(self, game_id: int, kind: model.OfferKind, user_id: int, at_version: int,
                         now: datetime | None = None) -> model.Offer:
        offer = model.Offer(game_id, model.OfferKind(kind), user_id, at_version, rows.utc(now))
        async with self._write() as db:
            await _advance(db, game_id, at_version, None, step=0)
            await db.execute(
                f"INSERT INTO offers ({rows.OFFER_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, kind) DO UPDATE SET user_id = excluded.user_id, "
                "at_version = excluded.at_version, created_at = excluded.created_at",
                game_id, offer.kind.value, user_id, at_version, offer.created_at)
            await db.execute(SIDE_CHANGE, game_id)
        return offer

    async def open_offers(self, game_id: int) -> tuple[model.Offer, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(f"SELECT {rows.OFFER_COLUMNS} FROM offers "
                                       "WHERE game_id = ? ORDER BY created_at", game_id)
        return tuple(rows.offer(row) for row in found)

    async def close_offer(self, game_id: int, kind: model.OfferKind) -> model.Offer | None:
        async with self._write() as db:
            row = await db.fetch_one("DELETE FROM offers WHERE game_id = ? AND kind = ? "
                                     f"RETURNING {rows.OFFER_COLUMNS}", game_id,
                                     model.OfferKind(kind).value)
            if row is not None:
                await db.execute(SIDE_CHANGE, game_id)
        return None if row is None else rows.offer(row)

    # --- conditional moves -------------------------------------------------------------

    async def store_conditionals(self, game_id: int, user_id: int, at_version: int,
                                 at_move: int, plan: str, now: datetime | None = None) -> None:
        async with self._write() as db:
            await _advance(db, game_id, at_version, None, step=0)
            await db.execute(rows.STORE_CONDITIONALS, game_id, user_id, at_version, at_move,
                             plan, rows.utc(now))

    async def conditionals(self, game_id: int) -> tuple[model.StoredConditionals, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(rows.CONDITIONALS, game_id)
        return tuple(rows.conditionals(row) for row in found)

    async def drop_conditionals(self, game_id: int, user_id: int | None = None) -> None:
        async with self._write_one() as db:
            await db.execute(rows.DROP_CONDITIONALS, game_id, user_id)

    async def head_to_head(self, guild_id: int, user_id: int,
                           other_id: int) -> tuple[int, int, int]:
        async with self._read_one() as db:
            row = await db.fetch_one("SELECT wins, losses, draws FROM pair_totals "
                                     "WHERE guild_id = ? AND user_id = ? AND other_id = ?",
                                     guild_id, user_id, other_id)
        return (0, 0, 0) if row is None else (row[0], row[1], row[2])

    # --- the clocks' wake-ups and reminders ----------------------------------------------

    async def due_games(self, now: datetime, limit: int = 100) -> tuple[model.StoredGame, ...]:
        async with self._read() as db:
            # the earliest wake-ups from the partial index; only active games have one
            return await read_games(db, "id IN (SELECT id FROM games WHERE wake_at IS NOT NULL "
                                    "AND wake_at <= ? ORDER BY wake_at LIMIT ?)",
                                [rows.utc(now), limit], None)

    async def next_wake(self, *, shards: Shards | None = None) -> datetime | None:
        mine = "" if shards is None else f" AND {shards.sql()}"
        async with self._read_one() as db:
            wake_at = await db.fetch_value(
                f"SELECT min(wake_at) FROM games WHERE wake_at IS NOT NULL{mine}")
        return rows.maybe_moment(wake_at)

    async def set_wake(self, game_id: int, version: int, wake_at: datetime | None) -> bool:
        async with self._write_one() as db:
            return await db.execute(
                "UPDATE games SET wake_at = ? WHERE id = ? AND version = ? "
                "AND status = 'active' AND time_control IS NOT NULL",
                None if wake_at is None else rows.utc(wake_at), game_id, version) == 1

    async def claim_reminder(self, game_id: int, version: int, stage: str,
                             now: datetime | None = None) -> bool:
        async with self._write_one() as db:
            return await db.execute(
                "INSERT INTO reminders (game_id, version, stage, sent_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING", game_id, version, stage, rows.utc(now)) == 1

    async def reminder_delivered(self, game_id: int, version: int, stage: str,
                                 now: datetime | None = None) -> None:
        async with self._write_one() as db:
            await db.execute("UPDATE reminders SET delivered_at = ? WHERE game_id = ? AND "
                             "version = ? AND stage = ? AND delivered_at IS NULL",
                             rows.utc(now), game_id, version, stage)

    async def vote_abort(self, game_id: int, user_id: int) -> frozenset[int]:
        async with self._write() as db:
            await db.execute("INSERT INTO abort_votes (game_id, user_id) VALUES (?, ?) "
                             "ON CONFLICT DO NOTHING", game_id, user_id)
            found = await db.fetch_all("SELECT user_id FROM abort_votes WHERE game_id = ?",
                                       game_id)
        return frozenset(row[0] for row in found)

    # --- vacations -----------------------------------------------------------------------

    async def add_vacation(self, guild_id: int, user_id: int, starts_at: datetime,
                           ends_at: datetime, days: int, *, allowed: int,
                           automatic: bool = False, game_id: int | None = None,
                           now: datetime | None = None) -> model.Vacation | None:
        start = rows.utc(starts_at)
        async with self._write() as db:
            # the days counted and the new row must not race another writer adding one
            await db.lock_user(guild_id, user_id)
            row = await db.fetch_one(rows.VACATION_STARTING, guild_id, user_id, start)
            if row is not None:
                return rows.vacation(row)
            first, last = rows.year_bounds(start.year)
            used = await db.fetch_value(rows.DAYS_USED, guild_id, user_id, first, last)
            if used + days > allowed:
                return None
            added = await _only_row(db, rows.ADD_VACATION, guild_id, user_id, start,
                                    rows.utc(ends_at), days, automatic, game_id)
            at = rows.utc(now)
            await db.execute(rows.WAKE_GAMES_OF, at, guild_id, user_id, at)
            return rows.vacation(added)

    async def end_vacation(self, vacation_id: int, ends_at: datetime, days: int,
                           now: datetime | None = None) -> model.Vacation | None:
        end = rows.utc(ends_at)
        async with self._write() as db:
            row = await db.fetch_one(rows.END_VACATION, end, days, vacation_id, end, end)
            if row is None:
                return None
            vacation = rows.vacation(row)
            at = rows.utc(now)
            await db.execute(rows.WAKE_GAMES_OF, at, vacation.guild_id, vacation.user_id, at)
            return vacation

    async def vacations(self, guild_id: int, user_ids: Sequence[int], since: datetime,
                        limit: int = 500) -> tuple[model.Vacation, ...]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return ()
        async with self._read_one() as db:
            users, values = db.among("user_id", ids)
            found = await db.fetch_all(rows.VACATIONS_SINCE.format(users=users), guild_id,
                                       *values, rows.utc(since), limit)
        return tuple(rows.vacation(row) for row in reversed(found))

    async def vacation_days_used(self, guild_id: int, user_id: int, year: int) -> int:
        first, last = rows.year_bounds(year)
        async with self._read_one() as db:
            return int(await db.fetch_value(rows.DAYS_USED, guild_id, user_id, first, last))

    # --- tournaments and leagues (storage.tournaments) ---------------------------------------

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        async with self._write_one() as db:
            row = await _only_row(db, tournaments.ADD_TOURNAMENT,
                                  *tournaments.tournament_row(tournament))
        return tournaments.tournament(row)

    async def get_tournament(self, tournament_id: int) -> Tournament:
        async with self._read_one() as db:
            row = await db.fetch_one(tournaments.TOURNAMENT, tournament_id)
        if row is None:
            raise NotFoundError(f"no event {tournament_id}")
        return tournaments.tournament(row)

    async def tournaments(self, guild_id: int, *, status: TournamentStatus | None = None,
                     limit: int = 20) -> tuple[Tournament, ...]:
        wanted = None if status is None else status.value
        async with self._read_one() as db:
            found = await db.fetch_all(tournaments.TOURNAMENTS, guild_id, wanted, wanted, limit)
        return tuple(tournaments.tournament(row) for row in found)

    async def due_tournaments(self, now: datetime, limit: int = 100) -> tuple[Tournament, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(tournaments.DUE_TOURNAMENTS, rows.utc(now), limit)
        return tuple(tournaments.tournament(row) for row in found)

    async def tournament_looked(self, tournament_id: int, looks: int) -> bool:
        async with self._write_one() as db:
            return await db.execute(tournaments.LOOKED, tournament_id, looks) == 1

    async def move_tournament(self, tournament_id: int, status: TournamentStatus, round: int, *,
                         was: TournamentStatus, was_round: int) -> bool:
        async with self._write_one() as db:
            return await db.execute(tournaments.SET_TOURNAMENT, status.value, round, 1,
                                    tournament_id,
                                    was.value, was_round) == 1

    async def save_entrant(self, entrant: Entrant) -> bool:
        async with self._write() as db:
            if not await _signing_up(db, entrant.tournament_id):
                return False
            await db.execute(tournaments.DROP_ENTRANT, entrant.tournament_id, entrant.user_id)
            await db.execute(tournaments.DROP_PLAYERS, entrant.tournament_id, entrant.user_id)
            await db.execute(tournaments.ADD_ENTRANT, *tournaments.entrant_row(entrant))
            for player in entrant.players:
                try:
                    await db.execute(tournaments.ADD_PLAYER, entrant.tournament_id, player,
                                     entrant.user_id)
                except DuplicateKeyError:
                    raise EntrantTakenError(player) from None
            return True

    async def drop_entrant(self, tournament_id: int, user_id: int) -> bool:
        async with self._write() as db:
            if not await _signing_up(db, tournament_id):
                return False
            await db.execute(tournaments.DROP_PLAYERS, tournament_id, user_id)
            return await db.execute(tournaments.DROP_ENTRANT, tournament_id, user_id) == 1

    async def entrants(self, tournament_id: int, limit: int) -> tuple[Entrant, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(tournaments.ENTRANTS, tournament_id, limit)
        return tuple(tournaments.entrant(row) for row in found)

    async def withdraw_entrant(self, tournament_id: int, user_id: int) -> bool:
        async with self._write() as db:
            if await db.execute(tournaments.WITHDRAW, True, tournament_id, user_id, False) != 1:
                return False
            await db.execute(tournaments.LOOK, tournament_id)
            return True

    async def pair_round(self, tournament_id: int, games: Sequence[TournamentGame], *, round: int,
                         was_round: int) -> tuple[TournamentGame, ...] | None:
        stored = []
        running = TournamentStatus.RUNNING.value
        async with self._write() as db:
            if await db.execute(tournaments.SET_TOURNAMENT, running, round, 0, tournament_id,
                                running,
                                was_round) != 1:
                return None
            for game in games:
                stored.append(tournaments.tournament_game(
                    await db.fetch_one(tournaments.ADD_GAME, *tournaments.game_row(tournament_id,
                                                                                   game))))
        return tuple(game for game in stored if game is not None)

    async def tournament_games(self, tournament_id: int, limit: int) -> tuple[TournamentGame, ...]:
        async with self._read_one() as db:
            found = [tournaments.tournament_game(row)
                     for row in await db.fetch_all(tournaments.GAMES, tournament_id, limit)]
        return tuple(game for game in found if game is not None)

    async def tournament_game_of(self, game_id: int) -> TournamentGame | None:
        async with self._read_one() as db:
            return tournaments.tournament_game(await db.fetch_one(tournaments.GAME_OF, game_id))

    async def ended_unscored(self, tournament_id: int, limit: int) -> tuple[int, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(tournaments.ENDED_UNSCORED, tournament_id, limit)
        return tuple(row[0] for row in found)

    async def score_tournament_game(self, tournament_game_id: int, score: float,
                                    forfeit: bool) -> bool:
        async with self._write() as db:
            if await db.execute(tournaments.SCORE_GAME, score, forfeit, tournament_game_id) != 1:
                return False
            await db.execute(tournaments.LOOK_PAIRING, tournament_game_id)
            return True

    # --- what a player keeps for themselves: notes, a move to confirm (storage.private) --

    async def add_note(self, game_id: int, user_id: int, text: str, *, most: int,
                       now: datetime | None = None) -> model.Note | None:
        async with self._write() as db:
            await db.lock_user(game_id, user_id)  # one note of theirs on the game at a time
            last = await db.fetch_value(private.LAST_NOTE, game_id, user_id)
            if last >= most:
                return None
            row = (game_id, user_id, last + 1, text, rows.utc(now))
            await db.execute(private.ADD_NOTE, *row)
        return private.note(row)

    async def notes(self, game_id: int, user_id: int, limit: int) -> tuple[model.Note, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(private.NOTES, game_id, user_id, limit)
        return tuple(private.note(row) for row in found)

    async def clear_notes(self, game_id: int, user_id: int) -> int:
        async with self._write_one() as db:
            return await db.execute(private.CLEAR_NOTES, game_id, user_id)

    async def hold_move(self, game_id: int, user_id: int, command: str, at_version: int,
                        now: datetime | None = None) -> model.PendingMove:
        async with self._write() as db:
            await db.lock_user(game_id, user_id)  # else two at once: one breaks the unique
            await db.execute(private.DROP_PENDING, game_id, user_id)
            held = private.pending(await db.fetch_one(private.HOLD_PENDING, game_id, user_id,
                                                      command, at_version, rows.utc(now)))
        assert held is not None, "RETURNING gives the row just held"
        return held

    async def pending_move(self, game_id: int, user_id: int) -> model.PendingMove | None:
        async with self._read_one() as db:
            return private.pending(await db.fetch_one(private.PENDING, game_id, user_id))

    async def take_pending_move(self, pending_id: int) -> model.PendingMove | None:
        async with self._write_one() as db:
            return private.pending(await db.fetch_one(private.TAKE_PENDING, pending_id))

    # --- the bot as a player (storage.bots) ---------------------------------------------

    async def add_engine_challenge(self, challenge_id: int, guild_id: int,
                                takebacks: bool) -> None:
        async with self._write_one() as db:
            await db.execute(engine_games.ADD, challenge_id, guild_id, takebacks)

    async def start_engine_game(self, challenge_id: int, game_id: int) -> None:
        async with self._write_one() as db:
            await db.execute(engine_games.START, game_id, True, challenge_id)

    async def engine_game(self, game_id: int) -> EngineGame | None:
        async with self._read_one() as db:
            return engine_games.engine_game(await db.fetch_one(engine_games.GET, game_id))

    async def await_engine(self, game_id: int, awaiting: bool) -> None:
        async with self._write_one() as db:
            await db.execute(engine_games.AWAIT, awaiting, game_id)

    async def awaiting_engine_games(self, limit: int, *, shards: Shards | None = None
                                 ) -> tuple[int, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(engine_games.awaiting(shards), limit)
        return tuple(row[0] for row in found)

    async def count_hopeless(self, game_id: int, team: int, version: int,
                             hopeless: bool) -> int:
        update, select = engine_games.count(team)
        async with self._write() as db:
            await db.execute(update, hopeless, version, game_id, version)
            return int(await db.fetch_value(select, game_id))

    async def claim_busy_notice(self, game_id: int, version: int) -> bool:
        async with self._write_one() as db:
            return await db.execute(engine_games.BUSY, version, game_id, version) == 1

    async def open_engine_games(self, guild_id: int, user_id: int) -> int:
        async with self._read_one() as db:
            return int(await db.fetch_value(engine_games.OPEN_OF, user_id, guild_id))

    # --- users, settings, preferences, stats -------------------------------------------

    async def remember_users(self, names: dict[int, str]) -> None:
        async with self._write() as db:
            # in one order, so that two of these at once cannot deadlock
            await db.execute_many(
                "INSERT INTO users (user_id, name) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name",
                sorted(names.items()))

    async def user_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        async with self._read_one() as db:
            users, values = db.among("user_id", ids)
            found = await db.fetch_all(f"SELECT user_id, name FROM users WHERE {users}",
                                       *values)
        return {row[0]: row[1] for row in found}

    async def guild_settings(self, guild_id: int) -> model.GuildSettings:
        async with self._read_one() as db:
            return await _settings(db, "guild_settings", "guild_id", guild_id, model.GuildSettings)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> model.GuildSettings:
        async with self._write() as db:
            settings = await _update_settings(db, "guild_settings", "guild_id", guild_id,
                                              model.GuildSettings, changes)
            if changes.keys() & model.CLOCK_SETTINGS:
                # due at once (as of the last move), so the clocks work the marks out again
                await db.execute(
                    "UPDATE games SET wake_at = updated_at WHERE guild_id = ? AND "
                    "status = 'active' AND time_control IS NOT NULL AND "
                    "(wake_at IS NULL OR wake_at > updated_at)", guild_id)
            return settings

    async def guilds_with(self, setting: str, value: Any) -> tuple[int, ...]:
        if setting not in {field.name for field in fields(model.GuildSettings)}:
            raise ValueError(f"there is no setting called {setting}")
        async with self._read_one() as db:
            found = await db.fetch_all(
                "SELECT guild_id FROM guild_settings WHERE key = ? AND value = ? "
                "ORDER BY guild_id", setting, json.dumps(value))
        return tuple(row[0] for row in found)

    async def set_waiting(self, game_id: int, waiting: Waiting) -> None:
        async with self._write() as db:
            await _set_waiting(db, game_id, waiting)

    async def waiting_games(self, user_id: int, limit: int) -> tuple[WaitingGame, ...]:
        async with self._read() as db:
            found = await db.fetch_all(waits.WAITING_FOR, user_id, limit)
            games = {game.id: game for game in
                     await games_by_id(db, [row[0] for row in found])} if found else {}
        return tuple(WaitingGame(games[row[0]], rows.maybe_moment(row[1]), rows.moment(row[2]))
                     for row in found if row[0] in games)

    async def digest(self, user_id: int) -> Digest | None:
        async with self._read() as db:
            row = await db.fetch_one(waits.GET_DIGEST, user_id)
        return None if row is None else waits.digest(row)

    async def set_digest(self, digest: Digest) -> None:
        async with self._write() as db:
            await db.execute(waits.SET_DIGEST, digest.user_id, digest.hour, digest.zone,
                             digest.locale, rows.utc(digest.next_at))

    async def drop_digest(self, user_id: int) -> bool:
        async with self._write() as db:
            return await db.execute(waits.DROP_DIGEST, user_id) == 1

    async def due_digests(self, now: datetime, limit: int) -> tuple[Digest, ...]:
        async with self._read() as db:
            found = await db.fetch_all(waits.DUE_DIGESTS, rows.utc(now), limit)
        return tuple(waits.digest(row) for row in found)

    async def advance_digests(self, moves: Sequence[tuple[Digest, datetime]]
                              ) -> tuple[int, ...]:
        moved = []
        async with self._write() as db:
            for digest, next_at in moves:
                if await db.execute(waits.ADVANCE_DIGEST, rows.utc(next_at), digest.user_id,
                                    rows.utc(digest.next_at)) == 1:
                    moved.append(digest.user_id)
        return tuple(moved)

    async def user_prefs(self, user_id: int) -> model.UserPrefs:
        async with self._read_one() as db:
            return await _settings(db, "user_prefs", "user_id", user_id, model.UserPrefs)

    async def update_user_prefs(self, user_id: int, **changes: Any) -> model.UserPrefs:
        async with self._write() as db:
            return await _update_settings(db, "user_prefs", "user_id", user_id, model.UserPrefs,
                                          changes)

    async def player_stats(self, guild_id: int, user_id: int) -> model.PlayerStats:
        async with self._read() as db:
            found = await _stats(db, guild_id, [user_id])
        return found.get(user_id, model.PlayerStats(guild_id, user_id))

    async def leaderboard(self, guild_id: int, limit: int = 10,
                          offset: int = 0) -> tuple[model.PlayerStats, ...]:
        async with self._read_one() as db:
            # a page straight from the index ratings_by_rank, with each player's totals
            found = await db.fetch_all(
                "SELECT r.user_id, coalesce(t.games, 0), coalesce(t.wins, 0), "
                f"coalesce(t.losses, 0), coalesce(t.draws, 0), {rows.RATING_COLUMNS} "
                "FROM ratings r LEFT JOIN player_totals t "
                "ON t.guild_id = r.guild_id AND t.user_id = r.user_id WHERE r.guild_id = ? "
                "ORDER BY r.rating DESC, r.user_id LIMIT ? OFFSET ?", guild_id, limit, offset)
        return tuple(model.PlayerStats(guild_id, *row[:5], *rows.rating_fields(row[5:]))
                     for row in found)


# --- reading stored values (inside a transaction) -------------------------------------------

async def _only_row(db: Connection, sql: str, *args: Any) -> Row:
    """The row of a query that always returns one: RETURNING from a row just written."""
    row = await db.fetch_one(sql, *args)
    assert row is not None, "the query returns exactly one row"
    return row


async def _game(db: Connection, game_id: int) -> model.StoredGame:
    games = await read_games(db, "id = ?", [game_id], 1)
    if not games:
        raise NotFoundError(f"there is no game {game_id}")
    return games[0]


async def read_games(db: Connection, where: str, params: Sequence[Any], limit: int | None,
                 offset: int = 0, source: tuple[str, str, str] = ("games", "id", PAGE)
                 ) -> tuple[model.StoredGame, ...]:
    """Games matching `where`, newest first, skipping `offset`; `limit` None means all.

    `source` is the rows read and the column that orders them (see `_PLAYER_GAMES`). Skipped
    games are stepped over in an index, not read in full: seats are read for the games
    returned.
    """
    table, newest, page = source
    if limit is None:
        page = ""
    found = await db.fetch_all(f"SELECT {rows.GAME_COLUMNS} FROM {table} WHERE {where} "
                               f"ORDER BY {newest} DESC{page}",
                               *params, *(() if limit is None else (limit, offset)))
    seats = await _children(db, "game_seats", "game_id", rows.SEAT_COLUMNS, "seat",
                            [row[0] for row in found])
    return tuple(rows.game(row, seats.get(row[0], [])) for row in found)


async def games_by_id(db: Connection, ids: Sequence[int]) -> tuple[model.StoredGame, ...]:
    """The games of these ids, newest first: those a claim has just taken, read back."""
    where, values = db.among("id", ids)
    return await read_games(db, where, values, None)


def reminders_of(shards: Shards | None) -> str:
    """The condition, to add with AND, that a reminder's game is of the guilds of `shards`
    (nothing for every guild)."""
    return ("" if shards is None else
            f" AND game_id IN (SELECT id FROM games WHERE {shards.sql()})")


async def _challenge(db: Connection, challenge_id: int, *, lock: bool = False) -> model.Challenge:
    found = await _challenges(db, "id = ?", [challenge_id], lock=lock)
    if not found:
        raise NotFoundError(f"there is no challenge {challenge_id}")
    return found[0]


async def _challenges(db: Connection, where: str, params: Sequence[Any], *,
                      lock: bool = False) -> tuple[model.Challenge, ...]:
    """Challenges matching `where`; `lock` holds them while they are answered, cancelled or
    claimed, so that an open place or the challenge itself is taken once."""
    found = await db.fetch_all(f"SELECT {rows.CHALLENGE_COLUMNS} FROM challenges "
                               f"WHERE {where} ORDER BY id{db.for_update if lock else ''}",
                               *params)
    invitees = await _children(db, "challenge_invitees", "challenge_id",
                               rows.INVITEE_COLUMNS, "slot", [row[0] for row in found])
    return tuple(rows.challenge(row, invitees.get(row[0], [])) for row in found)


async def _children(db: Connection, table: str, parent: str, columns: str, order: str,
                    parent_ids: Sequence[int]) -> dict[int, list[Any]]:
    """The rows of `table` belonging to each parent id, in `order`, by parent id."""
    if not parent_ids:
        return {}
    parents, values = db.among(parent, parent_ids)
    found = await db.fetch_all(f"SELECT {parent}, {columns} FROM {table} "
                               f"WHERE {parents} ORDER BY {parent}, {order}", *values)
    return rows.children(found)


async def _stats(db: Connection, guild_id: int,
                 user_ids: Sequence[int]) -> dict[int, model.PlayerStats]:
    """The totals of the counted games (`rows.ADD_TOTALS`) and the stored rating."""
    if not user_ids:
        return {}
    users, values = db.among("user_id", user_ids)
    counts = await db.fetch_all("SELECT user_id, games, wins, losses, draws FROM player_totals "
                                f"WHERE guild_id = ? AND {users}", guild_id, *values)
    rated = await db.fetch_all(f"SELECT r.user_id, {rows.RATING_COLUMNS} FROM ratings r "
                               f"WHERE r.guild_id = ? AND r.{users}", guild_id, *values)
    return rows.player_stats(guild_id, user_ids, counts, rated)


async def _settings(db: Connection, table: str, owner: str, owner_id: int,
                    kind: type[rows.Settings]) -> rows.Settings:
    found = await db.fetch_all(f"SELECT key, value FROM {table} WHERE {owner} = ?", owner_id)
    return rows.settings(kind, {key: value for key, value in found})


async def _update_settings(db: Connection, table: str, owner: str, owner_id: int,
                           kind: type[rows.Settings], changes: dict[str, Any]) -> rows.Settings:
    encoded = rows.checked_changes(await _settings(db, table, owner, owner_id, kind), changes)
    await db.execute_many(f"INSERT INTO {table} ({owner}, key, value) VALUES (?, ?, ?) "
                          f"ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                          [(owner_id, key, value) for key, value in sorted(encoded.items())])
    return await _settings(db, table, owner, owner_id, kind)


async def _signing_up(db: Connection, tournament_id: int) -> bool:
    """Whether a tournament still takes sign-ups; the row is held, so that a start waits for the
    sign-ups under way, and they for it."""
    return await db.fetch_one(tournaments.SIGNING_UP + db.for_share, tournament_id) is not None


# --- writing (inside a write transaction) ----------------------------------------------------

async def _advance(db: Connection, game_id: int, expected_version: int, at: datetime | None, *,
                   step: int) -> None:
    """The optimistic-concurrency check: move an active game at `expected_version` on by `step`.

    One guarded UPDATE, so the check and the change cannot be separated (on PostgreSQL it also
    locks the game's row until the transaction ends). `at` None leaves `updated_at` (the time
    of the last move) alone.
    """
    if await db.execute(ADVANCE, step, at, game_id, expected_version) != 1:
        await refuse(db, game_id, expected_version)


async def _set_waiting(db: Connection, game_id: int, said: Waiting) -> None:
    await db.execute(f"UPDATE games SET {waits.SET} WHERE id = ?", said.user_id,
                     None if said.due_at is None else rows.utc(said.due_at),
                     rows.utc(said.since), game_id)


async def refuse(db: Connection, game_id: int, expected_version: int) -> None:
    """Say why a guarded change matched nothing: no game, a finished one, or another version."""
    row = await db.fetch_one("SELECT version, status FROM games WHERE id = ?", game_id)
    if row is None:
        raise NotFoundError(f"there is no game {game_id}")
    if row[1] != model.GameStatus.ACTIVE:
        raise GameFinishedError(game_id)
    raise StaleVersionError(game_id, expected_version, row[0])


async def _set_challenge_status(db: Connection, challenge_id: int,
                                status: model.ChallengeStatus) -> None:
    await db.execute("UPDATE challenges SET status = ? WHERE id = ?", status.value,
                     challenge_id)


async def _answer(db: Connection, challenge_id: int, user_id: int, accept: bool,
                  at: datetime) -> model.Challenge:
    """Record one invitee's answer in the caller's transaction (see `answer_challenge`)."""
    challenge = await _challenge(db, challenge_id, lock=True)
    rows.check_pending(challenge, at)
    slot = next((i.slot for i in challenge.invitees if i.user_id == user_id), None)
    if slot is None:
        slot = rows.open_slot(challenge, user_id, accept)
    answer = model.Answer.ACCEPTED if accept else model.Answer.DECLINED
    await db.execute(
        "UPDATE challenge_invitees SET user_id = ?, answer = ?, answered_at = ? "
        "WHERE challenge_id = ? AND slot = ?",
        user_id, answer.value, at, challenge_id, slot)
    if not accept:
        await _set_challenge_status(db, challenge_id, model.ChallengeStatus.DECLINED)
    return await _challenge(db, challenge_id)


async def _claim_challenge(db: Connection, challenge_id: int) -> None:
    """Accept a pending challenge; its row stays locked, so it is claimed once."""
    status = await db.fetch_value(
        f"SELECT status FROM challenges WHERE id = ?{db.for_update}", challenge_id)
    if status is None:
        raise NotFoundError(f"there is no challenge {challenge_id}")
    if status != model.ChallengeStatus.PENDING:
        raise ChallengeClosedError(status)
    await _set_challenge_status(db, challenge_id, model.ChallengeStatus.ACCEPTED)
