"""Tournaments and leagues as stored facts: tournaments, their entrants and their games (SQLite's
migrations 0011 to 0013, PostgreSQL's 0008 to 0010).

Standings and the next Swiss round are worked out from these rows alone, so they survive a
restart. The SQL is the same on both back ends (written with `?`, run through either back
end's connection).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from twixt.storage import rows
from twixt.storage.connection import Connection, DuplicateKeyError
from twixt.storage.errors import EntrantTakenError, NotFoundError
from twixt.storage.model import GameSetup
from twixt.storage.rows import moment, utc
from twixt.storage.sql import SqlBase, only_row


class TournamentFormat(enum.StrEnum):
    ROUND_ROBIN = "roundrobin"
    SWISS = "swiss"
    LEAGUE = "league"


class TournamentStatus(enum.StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(frozen=True)
class Tournament:
    """A tournament or a league's season. `rounds` is a Swiss's number of rounds, a league's
    group size (0 for a round robin); `round` the latest round paired; `teams` a Double
    TwixT tournament; `looks` the steps it may owe since the clocks' tick last looked at it (see
    `DUE_EVENTS`)."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    format: TournamentFormat
    setup: GameSetup
    rounds: int
    double: bool
    teams: bool
    signup_until: datetime
    status: TournamentStatus
    round: int
    season: int
    previous_id: int | None
    created_by: int
    created_at: datetime
    looks: int = 0


@dataclass(frozen=True)
class Entrant:
    """A player of a tournament, or a team (named by `user_id`, its first player) with its
    `partner_id`; a team plays once `confirmed` (the partner joined too)."""

    tournament_id: int
    user_id: int
    partner_id: int | None = None
    confirmed: bool = True
    withdrawn: bool = False
    joined_at: datetime | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.user_id,) if self.partner_id is None else (self.user_id, self.partner_id)


@dataclass(frozen=True)
class TournamentGame:
    """One pairing of a tournament: `black` None is a bye; `game_id` once its game is opened;
    `score` Red's once decided (1, 0.5, 0), `forfeit` when decided without play."""

    id: int
    tournament_id: int
    round: int
    group: int
    red: int
    black: int | None
    game_id: int | None = None
    score: float | None = None
    forfeit: bool = False


TOURNAMENT_COLUMNS = ("id, guild_id, channel_id, name, format, size, rules, time_control, "
                      "vacation, rounds, both_colours, teams, signup_until, status, round, "
                      "season, previous_id, created_by, created_at, looks")
ENTRANT_COLUMNS = "event_id, user_id, partner_id, confirmed, withdrawn, joined_at"
GAME_COLUMNS = "id, event_id, round, group_no, red, black, game_id, score, forfeit"

ADD_TOURNAMENT = ("INSERT INTO events (guild_id, channel_id, name, format, size, rules, "
             "time_control, vacation, rounds, both_colours, teams, signup_until, status, "
             "season, previous_id, created_by, created_at) "
             f"VALUES ({', '.join('?' * 17)}) RETURNING {TOURNAMENT_COLUMNS}")
TOURNAMENT = f"SELECT {TOURNAMENT_COLUMNS} FROM events WHERE id = ?"
#: a guild's tournaments, newest first (the status filter: NULL for any)
TOURNAMENTS = (f"SELECT {TOURNAMENT_COLUMNS} FROM events WHERE guild_id = ? "
          "AND (CAST(? AS text) IS NULL OR status = ?) "
          "ORDER BY id DESC LIMIT ?")
#: tournaments whose sign-up has closed, and running ones owed a look: a write after which one may
#: need a step (its start, a game's end, a score, a withdrawal) added to `looks` in its own
#: transaction, so a crash right after it leaves the count set. Two index looks
#: (`events_by_deadline`, `events_by_looks`), whatever the number of tournaments and games: the
#: tick reads a tournament's pairings only when it is owed a look.
DUE_TOURNAMENTS = (f"SELECT {TOURNAMENT_COLUMNS} FROM events "
                   "WHERE (status = 'signup' AND signup_until <= ?) "
                   "OR (status = 'running' AND looks > 0) ORDER BY signup_until LIMIT ?")
#: a look taken: the count cleared only if no write has added to it since it was read
LOOKED = "UPDATE events SET looks = 0 WHERE id = ? AND looks = ?"
#: a look owed: by a tournament's id, by one of its games, by one of its pairings
_LOOK = "UPDATE events SET looks = looks + 1 WHERE id = "
LOOK = _LOOK + "?"
LOOK_GAME = _LOOK + "(SELECT event_id FROM event_games WHERE game_id = ?)"
LOOK_PAIRING = _LOOK + "(SELECT event_id FROM event_games WHERE id = ?)"
#: moves a tournament on only from the status it was read in, so that two starts cannot both pair;
#: the last value adds to the looks owed (a start's: its pairing may be cut short)
SET_TOURNAMENT = ("UPDATE events SET status = ?, round = ?, looks = looks + ? "
             "WHERE id = ? AND status = ? AND round = ?")

#: whether a tournament still takes sign-ups (PostgreSQL adds FOR SHARE: a start waits for the
#: sign-ups under way, and they for it)
SIGNING_UP = "SELECT 1 FROM events WHERE id = ? AND status = 'signup'"
#: a sign-up; joining again replaces the row (a team confirmed, a partner changed)
DROP_ENTRANT = "DELETE FROM event_entrants WHERE event_id = ? AND user_id = ?"
#: each player of an entrant, once per tournament (a unique key: one team per player)
DROP_PLAYERS = "DELETE FROM event_players WHERE event_id = ? AND entrant_id = ?"
ADD_PLAYER = "INSERT INTO event_players (event_id, user_id, entrant_id) VALUES (?, ?, ?)"
ADD_ENTRANT = f"INSERT INTO event_entrants ({ENTRANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
ENTRANTS = (f"SELECT {ENTRANT_COLUMNS} FROM event_entrants WHERE event_id = ? "
            "ORDER BY joined_at, user_id LIMIT ?")
WITHDRAW = ("UPDATE event_entrants SET withdrawn = ? "
            "WHERE event_id = ? AND user_id = ? AND withdrawn = ?")

ADD_GAME = ("INSERT INTO event_games (event_id, round, group_no, red, black, score, forfeit) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}")
GAMES = f"SELECT {GAME_COLUMNS} FROM event_games WHERE event_id = ? ORDER BY round, id LIMIT ?"
GAME_OF = f"SELECT {GAME_COLUMNS} FROM event_games WHERE game_id = ?"
#: the games of a tournament's pairings that have ended but are not scored yet (a restart came
#: between a game's end and its score): usually none, so nothing else need be read
ENDED_UNSCORED = ("SELECT pairing.game_id FROM event_games AS pairing "
                  "JOIN games ON games.id = pairing.game_id "
                  "WHERE pairing.event_id = ? AND pairing.score IS NULL "
                  "AND games.status <> 'active' ORDER BY pairing.id LIMIT ?")
LINK_GAME = "UPDATE event_games SET game_id = ? WHERE id = ? AND game_id IS NULL"
#: a result lands once: a game's end and a withdrawal cannot both score one pairing
SCORE_GAME = "UPDATE event_games SET score = ?, forfeit = ? WHERE id = ? AND score IS NULL"


def tournament_row(tournament: Tournament) -> tuple[Any, ...]:
    """The values of `ADD_EVENT`."""
    return (tournament.guild_id, tournament.channel_id, tournament.name, tournament.format.value,
            tournament.setup.size,
            tournament.setup.rules, tournament.setup.time_control, tournament.setup.vacation,
            tournament.rounds,
            tournament.double, tournament.teams, utc(tournament.signup_until),
            tournament.status.value, tournament.season,
            tournament.previous_id, tournament.created_by, utc(tournament.created_at))


def read_tournament(row: Sequence[Any]) -> Tournament:
    (tournament_id, guild_id, channel_id, name, fmt, size, rules, time_control, vacation, rounds,
     double, teams, signup_until, status, round_, season, previous_id, created_by,
     created_at, looks) = row
    setup = GameSetup(size=size, rules=rules, time_control=time_control, vacation=bool(vacation))
    return Tournament(tournament_id, guild_id, channel_id, name, TournamentFormat(fmt), setup,
                      rounds,
                 bool(double), bool(teams), moment(signup_until), TournamentStatus(status), round_,
                 season, previous_id, created_by, moment(created_at), looks)


def entrant_row(entrant: Entrant) -> tuple[Any, ...]:
    return (entrant.tournament_id, entrant.user_id, entrant.partner_id, entrant.confirmed,
            entrant.withdrawn, utc(entrant.joined_at))


def entrant(row: Sequence[Any]) -> Entrant:
    tournament_id, user_id, partner_id, confirmed, withdrawn, joined_at = row
    return Entrant(tournament_id, user_id, partner_id, bool(confirmed), bool(withdrawn),
                   moment(joined_at))


def game_row(tournament_id: int, game: TournamentGame) -> tuple[Any, ...]:
    return (tournament_id, game.round, game.group, game.red, game.black, game.score, game.forfeit)


def tournament_game(row: Sequence[Any] | None) -> TournamentGame | None:
    if row is None:
        return None
    game_id, tournament_id, round_, group, red, black, linked, score, forfeit = row
    return TournamentGame(game_id, tournament_id, round_, group, red, black, linked,
                     None if score is None else float(score), bool(forfeit))


class TournamentStore(Protocol):
    """Tournaments and leagues: their entrants, rounds and pairings."""

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Store a new tournament (its `id` is ignored) and return it as stored."""

    async def get_tournament(self, tournament_id: int) -> Tournament:
        """The tournament; `NotFoundError` if there is none."""

    async def tournaments(self, guild_id: int, *, status: TournamentStatus | None = None,
                     limit: int = 20) -> tuple[Tournament, ...]:
        """A guild's tournaments (of one status, or any), newest first, `limit` at most."""

    async def due_tournaments(self, now: datetime, limit: int = 100) -> tuple[Tournament, ...]:
        """Tournaments still taking sign-ups whose deadline has come, and running tournaments owed a
        look (`Tournament.looks` > 0: a start, a game's end, a score or a withdrawal since the last
        look, each counted in its own transaction), earliest deadline first. The clocks' tick
        asks every time: two index looks, whatever the number of tournaments and pairings."""

    async def tournament_looked(self, tournament_id: int, looks: int) -> bool:
        """Clear a tournament's looks owed once the tick has looked at it, only if they are still
        the `looks` it read; False, changing nothing, if a write has added one since (a game
        that ended meanwhile is then looked at by the next tick)."""

    async def move_tournament(self, tournament_id: int, status: TournamentStatus, round: int, *,
                         was: TournamentStatus, was_round: int) -> bool:
        """Set a tournament's status and latest round, only if it still stands at `was` and
        `was_round`; False, changing nothing, if another start or round came first."""

    async def save_entrant(self, entrant: Entrant) -> bool:
        """Sign an entrant up (replacing its earlier row: a team confirmed); False, changing
        nothing, once the tournament no longer takes sign-ups. `EntrantTakenError` if one of its
        players is already in another entrant of the tournament (a unique key: two processes
        cannot both put a player in two teams)."""

    async def drop_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Take a sign-up back while the tournament takes sign-ups; False if there was none (or
        the tournament has started)."""

    async def entrants(self, tournament_id: int, limit: int) -> tuple[Entrant, ...]:
        """A tournament's entrants in the order they joined, `limit` at most."""

    async def withdraw_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Mark an entrant withdrawn, owing the tournament a look; False if it was already (or is
        not an entrant)."""

    async def pair_round(self, tournament_id: int, games: Sequence[TournamentGame], *, round: int,
                         was_round: int) -> tuple[TournamentGame, ...] | None:
        """Move a running tournament from round `was_round` to `round` and store that round's
        pairings (their ids, games and results ignored, except a bye's score), in one
        transaction: a crash leaves either both or neither. None, storing nothing, if the
        tournament no longer stands at `was_round` (another process paired it)."""

    async def tournament_games(self, tournament_id: int, limit: int) -> tuple[TournamentGame, ...]:
        """A tournament's pairings by round, `limit` at most."""

    async def tournament_game_of(self, game_id: int) -> TournamentGame | None:
        """The pairing a game was opened for, if it belongs to a tournament."""

    async def ended_unscored(self, tournament_id: int, limit: int) -> tuple[int, ...]:
        """The ids of the games of a tournament's pairings that have ended without a score yet
        (one query, however many of its games are open)."""

    async def score_tournament_game(self, tournament_game_id: int, score: float,
                                    forfeit: bool) -> bool:
        """Record Red's score of a pairing, owing its tournament a look; False, changing nothing,
        if it has one already."""


class SqlTournaments(SqlBase):
    """`TournamentStore` in SQL."""

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        async with self._write_one() as db:
            row = await only_row(db, ADD_TOURNAMENT,
                                  *tournament_row(tournament))
        return read_tournament(row)

    async def get_tournament(self, tournament_id: int) -> Tournament:
        async with self._read_one() as db:
            row = await db.fetch_one(TOURNAMENT, tournament_id)
        if row is None:
            raise NotFoundError(f"no event {tournament_id}")
        return read_tournament(row)

    async def tournaments(self, guild_id: int, *, status: TournamentStatus | None = None,
                     limit: int = 20) -> tuple[Tournament, ...]:
        wanted = None if status is None else status.value
        async with self._read_one() as db:
            found = await db.fetch_all(TOURNAMENTS, guild_id, wanted, wanted, limit)
        return tuple(read_tournament(row) for row in found)

    async def due_tournaments(self, now: datetime, limit: int = 100) -> tuple[Tournament, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(DUE_TOURNAMENTS, rows.utc(now), limit)
        return tuple(read_tournament(row) for row in found)

    async def tournament_looked(self, tournament_id: int, looks: int) -> bool:
        async with self._write_one() as db:
            return await db.execute(LOOKED, tournament_id, looks) == 1

    async def move_tournament(self, tournament_id: int, status: TournamentStatus, round: int, *,
                         was: TournamentStatus, was_round: int) -> bool:
        async with self._write_one() as db:
            return await db.execute(SET_TOURNAMENT, status.value, round, 1,
                                    tournament_id,
                                    was.value, was_round) == 1

    async def save_entrant(self, entrant: Entrant) -> bool:
        async with self._write() as db:
            if not await _signing_up(db, entrant.tournament_id):
                return False
            await db.execute(DROP_ENTRANT, entrant.tournament_id, entrant.user_id)
            await db.execute(DROP_PLAYERS, entrant.tournament_id, entrant.user_id)
            await db.execute(ADD_ENTRANT, *entrant_row(entrant))
            for player in entrant.players:
                try:
                    await db.execute(ADD_PLAYER, entrant.tournament_id, player,
                                     entrant.user_id)
                except DuplicateKeyError:
                    raise EntrantTakenError(player) from None
            return True

    async def drop_entrant(self, tournament_id: int, user_id: int) -> bool:
        async with self._write() as db:
            if not await _signing_up(db, tournament_id):
                return False
            await db.execute(DROP_PLAYERS, tournament_id, user_id)
            return await db.execute(DROP_ENTRANT, tournament_id, user_id) == 1

    async def entrants(self, tournament_id: int, limit: int) -> tuple[Entrant, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(ENTRANTS, tournament_id, limit)
        return tuple(entrant(row) for row in found)

    async def withdraw_entrant(self, tournament_id: int, user_id: int) -> bool:
        async with self._write() as db:
            if await db.execute(WITHDRAW, True, tournament_id, user_id, False) != 1:
                return False
            await db.execute(LOOK, tournament_id)
            return True

    async def pair_round(self, tournament_id: int, games: Sequence[TournamentGame], *, round: int,
                         was_round: int) -> tuple[TournamentGame, ...] | None:
        stored = []
        running = TournamentStatus.RUNNING.value
        async with self._write() as db:
            if await db.execute(SET_TOURNAMENT, running, round, 0, tournament_id,
                                running,
                                was_round) != 1:
                return None
            for game in games:
                stored.append(tournament_game(
                    await db.fetch_one(ADD_GAME, *game_row(tournament_id,
                                                                                   game))))
        return tuple(game for game in stored if game is not None)

    async def tournament_games(self, tournament_id: int, limit: int) -> tuple[TournamentGame, ...]:
        async with self._read_one() as db:
            found = [tournament_game(row)
                     for row in await db.fetch_all(GAMES, tournament_id, limit)]
        return tuple(game for game in found if game is not None)

    async def tournament_game_of(self, game_id: int) -> TournamentGame | None:
        async with self._read_one() as db:
            return tournament_game(await db.fetch_one(GAME_OF, game_id))

    async def ended_unscored(self, tournament_id: int, limit: int) -> tuple[int, ...]:
        async with self._read_one() as db:
            found = await db.fetch_all(ENDED_UNSCORED, tournament_id, limit)
        return tuple(row[0] for row in found)

    async def score_tournament_game(self, tournament_game_id: int, score: float,
                                    forfeit: bool) -> bool:
        async with self._write() as db:
            if await db.execute(SCORE_GAME, score, forfeit, tournament_game_id) != 1:
                return False
            await db.execute(LOOK_PAIRING, tournament_game_id)
            return True


async def _signing_up(db: Connection, tournament_id: int) -> bool:
    """Whether a tournament still takes sign-ups; the row is held, so that a start waits for the
    sign-ups under way, and they for it."""
    return await db.fetch_one(SIGNING_UP + db.for_share, tournament_id) is not None
