"""Each player's record in a guild: wins, losses and draws (running totals, added in the
transaction that records a result: `ADD_TOTALS`) and their Glicko-2 rating (`storage.ratings`,
rated in that transaction too, by each back end's `_rate`): the contract (`StatsStore`) and its
SQL, the same on both back ends (written with `?`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from twixt.storage import model, ratings
from twixt.storage.connection import Connection
from twixt.storage.model import PlayerStats, Result
from twixt.storage.ratings import Rating
from twixt.storage.rows import moment
from twixt.storage.sql import SqlBase

#: what `PlayerStats` shows of a row of `ratings r`, in its order (see `rating_fields`)
RATING_COLUMNS = "r.rating, r.rated_games, r.deviation, r.volatility, r.updated_at"
#: what `stored_rating` reads of a row of `ratings`
GLICKO_COLUMNS = "rating, deviation, volatility, updated_at"


def rating_fields(values: Sequence[Any]) -> tuple[Any, ...]:
    """`RATING_COLUMNS`' values as `PlayerStats`' fields from `rating` on."""
    rating, rated_games, deviation, volatility, rated_at = values
    return rating, rated_games, deviation, volatility, moment(rated_at)


def stored_rating(values: Sequence[Any]) -> Rating:
    """`GLICKO_COLUMNS`' values as a rating to rate a game from."""
    rating, deviation, volatility, rated_at = values
    return Rating(rating, deviation, volatility, moment(rated_at))


def new_ratings(result: Result, sides: tuple[tuple[int, ...], tuple[int, ...]],
                current: Mapping[int, Rating], at: datetime) -> list[tuple[int, Rating]]:
    """Each player's new rating after a game of Red's and Black's `sides` that ended at `at`
    with `result`, from `current` (a newcomer missing from it starts at the start values);
    both back ends' `_rate` share it."""
    red, black = sides
    score = {Result.RED: 1.0, Result.BLACK: 0.0}.get(result, 0.5)
    new_red, new_black = ratings.rate_game([current.get(u, Rating()) for u in red],
                                           [current.get(u, Rating()) for u in black], score, at)
    return list(zip([*red, *black], new_red + new_black, strict=True))


def player_stats(guild_id: int, user_ids: Sequence[int],
                 counts: Iterable[Sequence[Any]],
                 rated: Iterable[Sequence[Any]]) -> dict[int, PlayerStats]:
    """Each user's stats from (user_id, games, wins, losses, draws) and (user_id,
    `RATING_COLUMNS`) rows; a user in neither is left out."""
    totals = {row[0]: tuple(row)[1:] for row in counts}
    ratings = {row[0]: rating_fields(tuple(row)[1:]) for row in rated}
    return {user_id: PlayerStats(guild_id, user_id, *totals.get(user_id, (0, 0, 0, 0)),
                                 *ratings.get(user_id, ()))
            for user_id in user_ids if user_id in totals or user_id in ratings}



#: the ratings of some players of a guild (the players' condition goes in `{users}`)
RATINGS = f"SELECT user_id, {GLICKO_COLUMNS} FROM ratings WHERE guild_id = ? AND {{users}}"


# --- running totals (SQLite's migration 0006, PostgreSQL's 0003) --------------------

#: the games that count in stats: aborted games and continued imports are nobody's win or loss
_COUNTED = "g.status = 'finished' AND g.result <> 'aborted' AND g.opening IS NULL"


def _counts(seat: str) -> str:
    """The wins, losses and draws (0 or 1 each) a counted game `g` gives `seat`, as columns
    (`winner` is 0/1 in SQLite and a boolean in PostgreSQL: both read it as a condition)."""
    return (f"CASE WHEN {seat}.winner THEN 1 ELSE 0 END, "
            f"CASE WHEN g.result <> 'draw' AND NOT {seat}.winner THEN 1 ELSE 0 END, "
            "CASE WHEN g.result = 'draw' THEN 1 ELSE 0 END")


def _adding(table: str, columns: Sequence[str]) -> str:
    """An upsert's SET clause that adds the new row's `columns` to the stored ones."""
    return ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in columns)


#: the two upserts (each taking the game's id) that add a game that has just finished to its
#: players' and its pairs' totals, in the transaction that records its result; rows are taken
#: in user order, so that two such transactions on PostgreSQL cannot deadlock
ADD_TOTALS = (
    "INSERT INTO player_totals (guild_id, user_id, games, wins, losses, draws) "
    f"SELECT g.guild_id, s.user_id, 1, {_counts('s')} "
    f"FROM games g JOIN game_seats s ON s.game_id = g.id WHERE g.id = ? AND {_COUNTED} "
    "ORDER BY s.user_id ON CONFLICT (guild_id, user_id) DO UPDATE SET "
    + _adding("player_totals", ("games", "wins", "losses", "draws")),
    "INSERT INTO pair_totals (guild_id, user_id, other_id, wins, losses, draws) "
    f"SELECT g.guild_id, me.user_id, them.user_id, {_counts('me')} "
    "FROM games g JOIN game_seats me ON me.game_id = g.id "
    "JOIN game_seats them ON them.game_id = g.id AND them.team <> me.team "
    f"WHERE g.id = ? AND {_COUNTED} ORDER BY me.user_id, them.user_id "
    "ON CONFLICT (guild_id, user_id, other_id) DO UPDATE SET "
    + _adding("pair_totals", ("wins", "losses", "draws")),
)


class StatsStore(Protocol):
    """Players' wins, losses, draws and ratings in a guild."""

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A user's wins, losses, draws and rating in a guild."""

    async def leaderboard(self, guild_id: int, limit: int = 10,
                          offset: int = 0) -> tuple[PlayerStats, ...]:
        """The guild's rated players, best rating first; page on with `offset`."""

    async def head_to_head(self, guild_id: int, user_id: int,
                           other_id: int) -> tuple[int, int, int]:
        """`user_id`'s wins, losses and draws against `other_id` (on opposite sides)."""


class SqlStats(SqlBase):
    """`StatsStore` in SQL."""

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
                f"coalesce(t.losses, 0), coalesce(t.draws, 0), {RATING_COLUMNS} "
                "FROM ratings r LEFT JOIN player_totals t "
                "ON t.guild_id = r.guild_id AND t.user_id = r.user_id WHERE r.guild_id = ? "
                "ORDER BY r.rating DESC, r.user_id LIMIT ? OFFSET ?", guild_id, limit, offset)
        return tuple(model.PlayerStats(guild_id, *row[:5], *rating_fields(row[5:]))
                     for row in found)

    async def head_to_head(self, guild_id: int, user_id: int,
                           other_id: int) -> tuple[int, int, int]:
        async with self._read_one() as db:
            row = await db.fetch_one("SELECT wins, losses, draws FROM pair_totals "
                                     "WHERE guild_id = ? AND user_id = ? AND other_id = ?",
                                     guild_id, user_id, other_id)
        return (0, 0, 0) if row is None else (row[0], row[1], row[2])


async def _stats(db: Connection, guild_id: int,
                 user_ids: Sequence[int]) -> dict[int, model.PlayerStats]:
    """The totals of the counted games (`ADD_TOTALS`) and the stored rating."""
    if not user_ids:
        return {}
    users, values = db.among("user_id", user_ids)
    counts = await db.fetch_all("SELECT user_id, games, wins, losses, draws FROM player_totals "
                                f"WHERE guild_id = ? AND {users}", guild_id, *values)
    rated = await db.fetch_all(f"SELECT r.user_id, {RATING_COLUMNS} FROM ratings r "
                               f"WHERE r.guild_id = ? AND r.{users}", guild_id, *values)
    return player_stats(guild_id, user_ids, counts, rated)
