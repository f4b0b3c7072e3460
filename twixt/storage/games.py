"""Games and their turns: a game's seats, its turn log, its offers and its players' votes to
abort it. The contract (`GameStore`) and its SQL, the same on both back ends (written with `?`).

Rules of the contract, whatever the back end:
- A game's state is the replay of its turn log; `version` is the number of turns in it.
- `append_turn` lands only if the game is still at `expected_version` (optimistic concurrency):
  of two turns racing, one lands and the other raises `StaleVersionError`. A finished game
  refuses turns with `GameFinishedError`. The turn and the game's end (with totals, ratings,
  and the unplayed moves it drops) commit together.
- A channel has at most one active game (`ChannelBusyError`); finished games are kept.
- A write returns once it is durable (committed; on SQLite fsynced, synchronous=FULL). Writes
  that arrive together may share one transaction and one commit (SQLite's group commit, a
  batch of turns on PostgreSQL), each still atomic on its own: one that fails (a stale
  version, say) undoes only itself.
- `now` parameters default to the current UTC time; tests pass their own.

A turn is written by two statements: `MOVE_GAMES` moves its game on under the version check
and `LOG_TURNS` adds it to the log. `write_turns` runs them for one turn (SQLite, in its
write) or a batch of them in one statement (PostgreSQL's `TurnBatches`); SQLite's writer runs
them for the turns queued together, each statement once for all of them (`executemany`, its
`_turns_together`), and falls back to `write_turns` a turn when not all of them land.
"""

from __future__ import annotations

import abc
import asyncio
import functools
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from twixt.storage import model, private, rows, stats, tournaments
from twixt.storage.challenges import claim_challenge, record_answer
from twixt.storage.connection import Connection, DuplicateKeyError
from twixt.storage.errors import ChannelBusyError, PairingOpenedError
from twixt.storage.model import (
    GameResult,
    GameSetup,
    GameStatus,
    LoadedGame,
    Offer,
    OfferKind,
    Player,
    StoredGame,
)
from twixt.storage.sql import PAGE, SqlBase, check_version, column_of, read_game, read_games, refuse
from twixt.storage.waiting import Waiting

#: the unique index that keeps one active game a channel, as each back end names it
ONE_GAME_PER_CHANNEL = ("games_one_active_per_channel", "games.channel_id")

ADD_GAME = ("INSERT INTO games (guild_id, channel_id, challenge_id, "
            f"{rows.SETUP_COLUMNS}, created_at, updated_at, wake_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
#: what a game's end brings about in the transaction that records it, after its winners are
#: marked (each statement taking the game's id): its tournament owes a look from the clocks' tick
#: (`tournaments.LOOK_GAME`: a crash right after leaves it owed), the moves that can no longer be
#: played are dropped (`private.UNPLAYED`), and the game is added to its players' and pairs'
#: totals (`stats.ADD_TOTALS`, upserts that add under the row's lock), so that the totals never
#: drift from games
#: a change to a game that is no entry of its log (an offer made or closed): its live version
#: moves on (`StoredGame.live_version`)
SIDE_CHANGE = "UPDATE games SET side_changes = side_changes + 1 WHERE id = ?"
AFTER_FINISH = (tournaments.LOOK_GAME, *private.UNPLAYED, *stats.ADD_TOTALS)

# --- a turn's write --------------------------------------------------------------------------

#: a turn's values as the rows `turn` of `MOVE_GAMES` and `LOG_TURNS` hold them (with the
#: PostgreSQL type of each): whose move the game now waits for is the turn's when it says it
#: (`said`), else stays as it was
TURN_COLUMNS = (("game_id", "bigint"), ("version", "integer"), ("actor_id", "bigint"),
                ("command", "text"), ("at", "timestamptz"), ("wake_at", "timestamptz"),
                ("said", "boolean"), ("to_move_id", "bigint"), ("due_at", "timestamptz"),
                ("since", "timestamptz"))
#: each turn of `{turns}` moves its game on if the game is still active at the turn's version
#: (the optimistic-concurrency check, in the same statement); its wake-up is the turn's (none
#: without a time control; none said: due by the turn's time at the latest, an earlier one
#: stays), and whose move it waits for is the turn's, when said
MOVE_GAMES = (
    "UPDATE games SET version = games.version + 1, updated_at = turn.at, "
    "wake_at = CASE WHEN games.time_control IS NULL THEN NULL "
    "WHEN turn.wake_at IS NOT NULL THEN turn.wake_at "
    "WHEN games.wake_at IS NULL OR games.wake_at > turn.at THEN turn.at "
    "ELSE games.wake_at END, "
    "to_move_id = CASE WHEN turn.said THEN turn.to_move_id ELSE games.to_move_id END, "
    "due_at = CASE WHEN turn.said THEN turn.due_at ELSE games.due_at END, "
    "waiting_since = CASE WHEN turn.said THEN turn.since ELSE games.waiting_since END "
    "FROM {turns} WHERE games.id = turn.game_id AND games.version = turn.version "
    "AND games.status = 'active'")
#: the log's entry of each turn of `{turns}` (turns whose game `MOVE_GAMES` moved on)
LOG_TURNS = ("INSERT INTO turns (game_id, number, actor_id, command, played_at) "
             "SELECT turn.game_id, turn.version + 1, turn.actor_id, turn.command, turn.at "
             "FROM {turns}")


def one_turn(statement: str) -> tuple[str, int]:
    """`MOVE_GAMES` or `LOG_TURNS` for one turn, its values numbered parameters in the order of
    `TURN_COLUMNS` (`?1` its game, ...), which SQLite reads more than once: with no table of
    turns to join (SQLite materializes one), the guarded UPDATE costs a third as much. With
    how many of a turn's values it takes (the first ones)."""
    numbers = {column: number for number, (column, _kind) in enumerate(TURN_COLUMNS, 1)}
    used = {numbers[column] for column in re.findall(r"\bturn\.(\w+)", statement)}
    return (re.sub(r"\bturn\.(\w+)", lambda found: f"?{numbers[found.group(1)]}",
                   statement.replace(" FROM {turns}", "")), max(used))


#: a turn's two statements, one turn at a time (SQLite's, whose WITH holds no write)
MOVE_GAME, LOG_TURN = one_turn(MOVE_GAMES), one_turn(LOG_TURNS)


def _as_it_is(moment: datetime) -> datetime:
    return moment


@dataclass(eq=False)
class NewTurn:
    """A validated turn to write (canonical text) on a game at `expected_version`."""

    game_id: int
    expected_version: int
    actor_id: int
    command: str
    at: datetime
    wake_at: datetime | None
    waiting: Waiting | None

    def values(self, moment: Callable[[datetime], Any] = _as_it_is) -> tuple[Any, ...]:
        """The turn as a row of `TURN_COLUMNS` (`turn_row`)."""
        return turn_row(self.game_id, self.expected_version, self.actor_id, self.command,
                        self.at, self.wake_at, self.waiting, moment)


#: a turn as `NewTurn`'s fields, in order: how the write there are most of travels (`turn_row`)
TurnFields = tuple[int, int, int, str, datetime, datetime | None, Waiting | None]


def turn_row(game_id: int, expected_version: int, actor_id: int, command: str, at: datetime,
             wake_at: datetime | None, waiting: Waiting | None,
             moment: Callable[[datetime], Any] = _as_it_is) -> tuple[Any, ...]:
    """A turn (`NewTurn`'s fields, in order) as a row of `TURN_COLUMNS`, each moment in UTC as
    `moment` gives it (a back end's form: SQLite's text, `rows.utc_text`); the turn's own once,
    also where the game waits since then (the usual case)."""
    when = moment(at)
    waking = None if wake_at is None else moment(wake_at)
    if waiting is None:
        return (game_id, expected_version, actor_id, command, when, waking, False, None, None,
                None)
    due, since = waiting.due_at, waiting.since
    return (game_id, expected_version, actor_id, command, when, waking, True, waiting.user_id,
            None if due is None else moment(rows.utc(due)),
            when if since is at else moment(rows.utc(since)))


async def write_turns(db: Connection, turns: Sequence[NewTurn]) -> set[int]:
    """Write turns, each under its own version check; the ids of the games they moved on (a
    turn whose game is elsewhere or over writes nothing: `sql.refuse` says why).

    Where a back end's WITH may hold a write (PostgreSQL), all of them in one statement: a
    batch of turns is one round trip. Otherwise one turn after another, each in the two
    statements, which the caller's write transaction holds together.
    """
    if db.writes_in_with:
        source, values = db.table_of("turn", TURN_COLUMNS, [turn.values() for turn in turns])
        found = await db.fetch_all(f"WITH moved AS ({MOVE_GAMES.format(turns=source)} "
                                   f"RETURNING turn.*) "
                                   f"{LOG_TURNS.format(turns='moved AS turn')} "
                                   "RETURNING game_id", *values)
        return {row[0] for row in found}
    moved = set()
    (move, move_width), (log, log_width) = MOVE_GAME, LOG_TURN
    for turn in turns:
        values = turn.values()
        if await db.execute(move, *values[:move_width]) == 1:
            await db.execute(log, *values[:log_width])
            moved.add(turn.game_id)
    return moved


class GameStore(Protocol):
    """Games, their turns, their offers and the votes to abort them."""

    async def create_game(self, *, guild_id: int, channel_id: int, players: Sequence[Player],
                          setup: GameSetup, challenge_id: int | None = None,
                          now: datetime | None = None, tournament_game_id: int | None = None,
                          accepting: int | None = None) -> StoredGame:
        """Seat `players` in turn order and start the game at version 0.

        With `challenge_id` the challenge becomes accepted in the same transaction; with
        `accepting` too, that user's acceptance is recorded in it first (as `answer_challenge`
        would, with its refusals), the last one the game waited for: refused, the game and the
        acceptance are both left unwritten (`ChallengeClosedError` "changed" when it does
        not complete the challenge or seat `players`). A game
        with a time control is due at once (its wake-up is `now`, see `due_games`), so the
        clocks work out its marks at their next tick.
        `ChannelBusyError` if the channel has an active game (the challenge then stays pending,
        its answers as they were).
        With `tournament_game_id` the game is linked to that pairing of a tournament in the same
        transaction; `PairingOpenedError`, storing nothing, if it has a game already.
        """

    async def get_game(self, game_id: int) -> StoredGame:
        """The game with its seats and result; `NotFoundError` if there is none."""

    async def load_game(self, game_id: int) -> LoadedGame:
        """The game and its full turn log, read together."""

    async def active_game(self, channel_id: int) -> StoredGame | None:
        """The active game of a channel, if any."""

    async def live_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The live version of each of some games (`StoredGame.live_version`: it grows with
        every turn, offer made or closed, and end), in one statement (the watcher of live
        pages); games not found are left out."""

    async def list_games(self, *, user_id: int | None = None, channel_id: int | None = None,
                         guild_id: int | None = None, status: GameStatus | None = None,
                         limit: int = 20, before_id: int | None = None,
                         visible_to: tuple[int, int] | None = None, offset: int = 0
                         ) -> tuple[StoredGame, ...]:
        """Games matching every filter given, newest first; page on with `before_id`, or skip
        `offset` games (a numbered page: only the page's games are read in full).

        `visible_to=(channel_id, user_id)` keeps the games that user may see from that
        channel: the channel's own, and the ones they played."""

    async def append_turn(self, game_id: int, expected_version: int, actor_id: int,
                          command: str, *, finish: GameResult | None = None,
                          wake_at: datetime | None = None, now: datetime | None = None,
                          waiting: Waiting | None = None) -> int:
        """Append a validated turn (canonical text) and return the new version.

        `finish` ends the game in the same transaction (as `finish_game` does). Otherwise a
        game with a time control gets `wake_at` as its next wake-up in the same transaction
        (None: due by `now` at the latest, an earlier wake-up kept); one without keeps none;
        and `waiting` (when given) says whose move the game now waits for, in the same
        statement.
        `StaleVersionError` if another turn landed first, `GameFinishedError` if the game is
        over, `NotFoundError` if there is no game.
        """

    async def finish_game(self, game_id: int, expected_version: int, result: GameResult,
                          now: datetime | None = None) -> StoredGame:
        """End a game without a turn (e.g. an abort), under the same version check. In the
        same transaction its result counts in the totals (and ratings, when rated), and what
        can no longer be played is dropped: offers, the wake-up, moves waiting for
        confirmation and conditional moves (notes stay)."""

    async def make_offer(self, game_id: int, kind: OfferKind, user_id: int, at_version: int,
                         now: datetime | None = None) -> Offer:
        """Open an offer, replacing an earlier one of the same kind in that game; the
        game's live version moves on."""

    async def open_offers(self, game_id: int) -> tuple[Offer, ...]:
        """The game's open offers; the caller judges whether a turn since made one lapse."""

    async def close_offer(self, game_id: int, kind: OfferKind) -> Offer | None:
        """Remove an offer (accepted, declined, withdrawn or lapsed) and return it; when there
        was one, the game's live version moves on."""

    async def vote_abort(self, game_id: int, user_id: int) -> frozenset[int]:
        """Record a player's wish to abort a game; return everyone who has asked so far."""


class SqlGames(SqlBase):
    """`GameStore` in SQL; a back end rates a game's result its own way (`_rate`)."""

    #: where `list_games` finds one player's games: (the rows read, the column that orders
    #: them newest first, the condition naming the player, the page's limit and offset);
    #: each back end walks the index game_seats_by_user its own way, so that a page costs
    #: the same however many games
    _PLAYER_GAMES: tuple[str, str, str, str]

    @abc.abstractmethod
    async def _rate(self, db: Connection, guild_id: int, result: model.GameResult,
                    sides: tuple[tuple[int, ...], tuple[int, ...]], at: datetime) -> None:
        """New ratings from the stored ones, read and written in the caller's transaction."""

    async def create_game(self, *, guild_id: int, channel_id: int, players: Sequence[model.Player],
                          setup: model.GameSetup, challenge_id: int | None = None,
                          now: datetime | None = None, tournament_game_id: int | None = None,
                          accepting: int | None = None) -> model.StoredGame:
        rows.check_players(players)
        at = rows.utc(now)
        async with self._write() as db:
            if challenge_id is not None and accepting is not None:
                answered = await record_answer(db, challenge_id, accepting, True, at)
                rows.check_complete(answered, players)
            if challenge_id is not None:
                await claim_challenge(db, challenge_id)
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
            return await read_game(db, game_id)

    async def get_game(self, game_id: int) -> model.StoredGame:
        return await self._read_by(functools.partial(read_game, game_id=game_id))

    async def load_game(self, game_id: int) -> model.LoadedGame:
        async with self._read() as db:
            game = await read_game(db, game_id)
            found = await db.fetch_all(
                "SELECT number, actor_id, command, played_at FROM turns WHERE game_id = ? "
                "ORDER BY number", game_id)
        return model.LoadedGame(game, tuple(rows.turn(row) for row in found))

    async def active_game(self, channel_id: int) -> model.StoredGame | None:
        games = await self._read_by(functools.partial(
            read_games, where="channel_id = ? AND status = 'active'", params=[channel_id],
            limit=1))
        return games[0] if games else None

    async def live_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        # by `_read_one_by`, as a move's other reads: one statement by key (a move's check
        # of its game under the channel's lock, the watcher's look at a chunk of games)
        return await self._read_one_by(functools.partial(
            column_of, table="games", key="id", column="version + side_changes",
            keys=game_ids))

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
        at, wake = rows.utc(now), None if wake_at is None else rows.utc(wake_at)
        if finish is None:
            try:
                return await self._append_turn(game_id, expected_version, actor_id, command,
                                               at, wake, waiting)
            except asyncio.CancelledError:
                await self._turn_given_up()
                raise
        turn = NewTurn(game_id, expected_version, actor_id, command, at, wake, waiting)
        return await self._write_by(functools.partial(self._write_turn, turn=turn,
                                                      finish=finish))

    @abc.abstractmethod
    def _append_turn(self, *turn: Any) -> Awaitable[int]:
        """Write a turn that does not end its game (`_write_turn`), given as `NewTurn`'s
        fields in order (no object made for it: the write there are most of); each back end
        writes those that arrive together together."""

    async def _turn_given_up(self) -> None:
        """Return once a turn whose caller was cancelled while awaiting `_append_turn` has
        landed or not (a back end whose wait settles it before it raises has nothing to do)."""

    async def _write_turn(self, db: Connection, turn: NewTurn,
                          finish: model.GameResult | None = None) -> int:
        """Write one turn in the caller's write transaction, and the game's end with it when
        `finish` is given; the new version."""
        if not await write_turns(db, [turn]):
            await refuse(db, turn.game_id, turn.expected_version)
        if finish is not None:
            await self._finish(db, turn.game_id, finish, turn.at)
        return turn.expected_version + 1

    async def finish_game(self, game_id: int, expected_version: int, result: model.GameResult,
                          now: datetime | None = None) -> model.StoredGame:
        at = rows.utc(now)
        async with self._write() as db:
            await check_version(db, game_id, expected_version, at)
            await self._finish(db, game_id, result, at)
            return await read_game(db, game_id)

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

    async def make_offer(self, game_id: int, kind: model.OfferKind, user_id: int, at_version: int,
                         now: datetime | None = None) -> model.Offer:
        offer = model.Offer(game_id, model.OfferKind(kind), user_id, at_version, rows.utc(now))
        async with self._write() as db:
            await check_version(db, game_id, at_version, None)
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

    async def vote_abort(self, game_id: int, user_id: int) -> frozenset[int]:
        async with self._write() as db:
            await db.execute("INSERT INTO abort_votes (game_id, user_id) VALUES (?, ?) "
                             "ON CONFLICT DO NOTHING", game_id, user_id)
            found = await db.fetch_all("SELECT user_id FROM abort_votes WHERE game_id = ?",
                                       game_id)
        return frozenset(row[0] for row in found)
