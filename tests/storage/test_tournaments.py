"""Tournaments and leagues as stored facts (SQLite's migrations 0011 to 0013, PostgreSQL's 0008
to 0010), on both back ends: tournaments, their entrants and their pairings, read back as they were
stored, and the looks the clocks' tick owes each running tournament."""

import asyncio
import sqlite3
from contextlib import closing
from dataclasses import replace
from datetime import timedelta

import pytest

from tests.storage.storage_helpers import SMALL, T0
from twixt.storage import (
    Entrant,
    EntrantTakenError,
    GameResult,
    NotFoundError,
    PairingOpenedError,
    Player,
    Result,
    SqliteStorage,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
    tournaments,
)
from twixt.storage.schema import apply_migrations, migrations

TOURNAMENT = Tournament(0, 100, 7, "Autumn Cup", TournamentFormat.SWISS,
              replace(SMALL, time_control="10d+36h", vacation=False), 4, False, False,
              T0 + timedelta(days=3), TournamentStatus.SIGNUP, 0, 1, None, 1, T0)


async def test_an_tournament_reads_back_as_stored_and_is_listed_newest_first(store):
    first = await store.create_tournament(TOURNAMENT)
    second = await store.create_tournament(replace(TOURNAMENT, name="Winter League", season=2,
                                              format=TournamentFormat.LEAGUE, previous_id=first.id,
                                              double=True, teams=True))
    assert replace(first, id=0) == TOURNAMENT
    assert await store.get_tournament(second.id) == second
    assert (second.previous_id, second.season, second.double, second.teams) == (
        first.id, 2, True, True)
    assert [e.id for e in await store.tournaments(100)] == [second.id, first.id]
    assert [e.id for e in await store.tournaments(100, limit=1)] == [second.id]
    assert await store.tournaments(101) == ()
    with pytest.raises(NotFoundError):
        await store.get_tournament(second.id + 100)


async def due(store, days=6):
    """The due tournaments' ids and looks owed, `days` after T0."""
    return [(e.id, e.looks) for e in await store.due_tournaments(T0 + timedelta(days=days))]


async def test_tournaments_past_their_sign_up_and_running_ones_owed_a_look_are_due(store):
    early = await store.create_tournament(TOURNAMENT)
    late = await store.create_tournament(replace(TOURNAMENT, signup_until=T0 + timedelta(days=5)))
    assert await store.due_tournaments(T0) == ()
    assert await due(store) == [(early.id, 0), (late.id, 0)]
    assert await store.move_tournament(early.id, TournamentStatus.RUNNING, 0,
                                       was=TournamentStatus.SIGNUP,
                                  was_round=0)
    # a second start (another process, a restart) finds it moved on
    assert not await store.move_tournament(early.id, TournamentStatus.RUNNING, 0,
                                      was=TournamentStatus.SIGNUP, was_round=0)
    # claimed: owed a look (a start cut short), paired or not, until the tick has looked
    assert await due(store) == [(early.id, 1), (late.id, 0)]
    (pairing,) = await store.pair_round(early.id, [TournamentGame(0, 0, 1, 0, 11, 12)], round=1,
                                        was_round=0) or ()
    assert await due(store) == [(early.id, 1), (late.id, 0)]
    assert await store.tournament_looked(early.id, 1)
    assert await due(store) == [(late.id, 0)]
    assert [e.id for e in await store.tournaments(100,
                                                  status=TournamentStatus.RUNNING)] == [early.id]
    assert (await store.get_tournament(early.id)).round == 1
    # its game ends, unscored (a crash before the next round): owed a look again
    game = await link(store, pairing.id)
    assert await due(store) == [(late.id, 0)]  # a game opened owes nothing
    await store.finish_game(game.id, game.version, GameResult(Result.DRAW, "agreed"))
    assert await due(store) == [(early.id, 1), (late.id, 0)]
    assert await store.score_tournament_game(pairing.id, 0.5, False)
    assert not await store.score_tournament_game(pairing.id, 1.0, True)  # no score: no look
    assert await due(store) == [(early.id, 2), (late.id, 0)]
    assert await store.move_tournament(early.id, TournamentStatus.FINISHED, 1,
                                       was=TournamentStatus.RUNNING,
                                  was_round=1)
    assert await due(store) == [(late.id, 0)]  # over: never looked at again


async def test_an_tournament_games_end_owes_a_look_in_its_own_transaction(store):
    tournament = await running(store)
    assert await store.tournament_looked(tournament.id, 1)
    (pairing,) = await store.pair_round(tournament.id, [TournamentGame(0, 0, 1, 0, 11, 12)],
                                        round=1,
                                        was_round=0) or ()
    game = await link(store, pairing.id)
    other = await store.create_game(guild_id=100, channel_id=30,
                                    players=[Player(1, "one"), Player(2, "two")], setup=SMALL)
    await store.finish_game(other.id, other.version, GameResult(Result.DRAW, "agreed"))
    assert await due(store, 0) == []  # a game of no tournament owes no tournament a look
    # a finish that fails (a winner without a seat) is rolled back with its look
    with pytest.raises(ValueError):
        await store.finish_game(game.id, game.version, GameResult(Result.RED, "resignation",
                                                                  (99,)))
    assert (await store.get_game(game.id)).is_active
    assert await due(store, 0) == []
    await store.finish_game(game.id, game.version, GameResult(Result.RED, "resignation", (1,)))
    assert await due(store, 0) == [(tournament.id, 1)]


async def test_clearing_a_look_keeps_a_write_that_came_after_it_was_read(store):
    tournament = await running(store, entrants=(11, 12, 13, 14))
    pairings = await store.pair_round(tournament.id, [TournamentGame(0, 0, 1, 0, 11, 12),
                                                 TournamentGame(0, 0, 1, 0, 13, 14)],
                                      round=1, was_round=0) or ()
    first, second = [await link(store, p.id, channel_id=20 + n)
                     for n, p in enumerate(pairings)]
    await store.finish_game(first.id, first.version, GameResult(Result.DRAW, "agreed"))
    [(_, read)] = await due(store, 0)  # the tick reads the tournament …
    await store.finish_game(second.id, second.version, GameResult(Result.DRAW, "agreed"))
    assert not await store.tournament_looked(tournament.id, read)  # … a game ends meanwhile: kept
    [(_, owed)] = await due(store, 0)
    assert owed == read + 1
    assert await store.tournament_looked(tournament.id, owed)
    assert await due(store, 0) == []
    # a withdrawal owes a look too, once
    assert await store.withdraw_entrant(tournament.id, 11)
    assert not await store.withdraw_entrant(tournament.id, 11)
    assert await due(store, 0) == [(tournament.id, 1)]


@pytest.mark.sqlite_only
async def test_due_tournaments_is_two_index_looks_and_reads_no_pairing(store, db_path):
    await running(store)
    with closing(sqlite3.connect(db_path)) as db:  # no ANALYZE: the storage runs none
        plan = [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + tournaments.DUE_TOURNAMENTS,
                                             (T0.isoformat(), 10))]
    assert any("events_by_deadline" in step for step in plan), plan
    assert any("events_by_looks" in step for step in plan), plan
    assert not any("event_games" in step or step == "SCAN events" for step in plan), plan


async def test_entrants_join_confirm_leave_and_withdraw(store):
    tournament = await store.create_tournament(replace(TOURNAMENT, teams=True))
    await store.save_entrant(Entrant(tournament.id, 1, partner_id=2, confirmed=False, joined_at=T0))
    await store.save_entrant(Entrant(tournament.id, 3, joined_at=T0 + timedelta(hours=1)))
    await store.save_entrant(Entrant(tournament.id, 1, partner_id=2, confirmed=True, joined_at=T0))
    found = await store.entrants(tournament.id, limit=10)
    assert [(e.user_id, e.partner_id, e.confirmed, e.players) for e in found] == [
        (1, 2, True, (1, 2)), (3, None, True, (3,))]
    assert len(await store.entrants(tournament.id, limit=1)) == 1
    assert await store.withdraw_entrant(tournament.id, 3)
    assert not await store.withdraw_entrant(tournament.id, 3)
    assert [e.withdrawn for e in await store.entrants(tournament.id, limit=10)] == [False, True]
    assert await store.drop_entrant(tournament.id, 1)
    assert not await store.drop_entrant(tournament.id, 1)
    assert [e.user_id for e in await store.entrants(tournament.id, limit=10)] == [3]


async def running(store, tournament=TOURNAMENT, entrants=()):
    """A tournament claimed for its start: running, its first round not yet paired."""
    stored = await store.create_tournament(tournament)
    for user_id in entrants:
        assert await store.save_entrant(Entrant(stored.id, user_id, joined_at=T0))
    assert await store.move_tournament(stored.id, TournamentStatus.RUNNING, 0,
                                       was=TournamentStatus.SIGNUP,
                                  was_round=0)
    return stored


async def link(store, tournament_game_id, channel_id=20):
    return await store.create_game(guild_id=100, channel_id=channel_id,
                                   players=[Player(1, "one"), Player(2, "two")], setup=SMALL,
                                   tournament_game_id=tournament_game_id)


async def test_pairings_are_linked_to_games_and_scored_once(store):
    tournament = await running(store)
    stored = await store.pair_round(tournament.id, [
        TournamentGame(0, 0, 1, 0, 11, 12), TournamentGame(0, 0, 1, 0, 13, None, score=1.0),
        TournamentGame(0, 0, 2, 1, 12, 13)], round=1, was_round=0)
    assert stored is not None
    assert [(g.round, g.group, g.red, g.black, g.score) for g in stored] == [
        (1, 0, 11, 12, None), (1, 0, 13, None, 1.0), (2, 1, 12, 13, None)]
    game = await link(store, stored[0].id)
    # a second game for the same pairing (another process, a retry) is not stored at all
    with pytest.raises(PairingOpenedError):
        await link(store, stored[0].id, channel_id=21)
    assert await store.active_game(21) is None
    assert await store.tournament_game_of(game.id) == replace(stored[0], game_id=game.id)
    assert await store.tournament_game_of(game.id + 1) is None
    assert await store.score_tournament_game(stored[0].id, 0.5, False)
    assert not await store.score_tournament_game(stored[0].id, 1.0, True)  # the first one stands
    assert await store.score_tournament_game(stored[2].id, 0.0, True)
    games = await store.tournament_games(tournament.id, limit=10)
    assert [(g.score, g.forfeit) for g in games] == [(0.5, False), (1.0, False), (0.0, True)]
    assert len(await store.tournament_games(tournament.id, limit=2)) == 2


async def test_a_round_is_moved_on_and_paired_in_one_transaction(store):
    tournament = await running(store)
    # a round whose pairings cannot be stored (here: one without a Red) moves nothing on
    with pytest.raises(Exception):  # noqa: B017 - the database's own integrity error
        await store.pair_round(tournament.id, [TournamentGame(0, 0, 1, 0, 11, 12),
                                          TournamentGame(0, 0, 1, 0, None, 13)],  # type: ignore[arg-type]
                               round=1, was_round=0)
    assert (await store.get_tournament(tournament.id)).round == 0
    assert await store.tournament_games(tournament.id, 10) == ()
    # the start cut short is due again, and paired once
    assert [e.id for e in await store.due_tournaments(T0)] == [tournament.id]
    first = await store.pair_round(tournament.id, [TournamentGame(0, 0, 1, 0, 11, 12)], round=1,
                                   was_round=0)
    assert first is not None and len(first) == 1
    assert await store.pair_round(tournament.id, [TournamentGame(0, 0, 1, 0, 11, 12)], round=1,
                                  was_round=0) is None
    assert len(await store.tournament_games(tournament.id, 10)) == 1
    assert await store.tournament_looked(tournament.id, 1)  # the tick's look, once paired
    assert await store.due_tournaments(T0) == ()


async def test_sign_ups_are_refused_once_the_tournament_has_started(store):
    tournament = await store.create_tournament(TOURNAMENT)
    assert await store.save_entrant(Entrant(tournament.id, 1, joined_at=T0))
    assert await store.move_tournament(tournament.id, TournamentStatus.RUNNING, 0,
                                       was=TournamentStatus.SIGNUP,
                                  was_round=0)
    assert not await store.save_entrant(Entrant(tournament.id, 2, joined_at=T0))
    assert not await store.drop_entrant(tournament.id, 1)
    assert [e.user_id for e in await store.entrants(tournament.id, limit=10)] == [1]


async def test_a_player_is_in_one_team_of_an_tournament_even_when_two_sign_up_at_once(store):
    tournament = await store.create_tournament(replace(TOURNAMENT, teams=True))
    # two players ask the same partner at the same moment (two processes): one team stands
    asked = await asyncio.gather(*(
        store.save_entrant(Entrant(tournament.id, user, partner_id=3, confirmed=False,
                                   joined_at=T0)) for user in (1, 2)),
        return_exceptions=True)
    assert sorted(type(result).__name__ for result in asked) == ["EntrantTakenError", "bool"]
    found = await store.entrants(tournament.id, limit=10)
    assert [e.partner_id for e in found] == [3]
    with pytest.raises(EntrantTakenError) as taken:  # nor as a player of their own
        await store.save_entrant(Entrant(tournament.id, 3, partner_id=4, joined_at=T0))
    assert taken.value.user_id == 3
    # once the team is dropped, its players are free again
    assert await store.drop_entrant(tournament.id, found[0].user_id)
    assert await store.save_entrant(Entrant(tournament.id, 3, partner_id=4, joined_at=T0))


@pytest.mark.sqlite_only
async def test_an_upgrade_owes_each_running_tournament_one_look_and_no_other(db_path):
    apply_migrations(db_path, migrations()[:12])  # a database from before the looks
    stamp = T0.isoformat(timespec="microseconds")
    with closing(sqlite3.connect(db_path)) as conn, conn:
        for status in ("signup", "running", "finished"):
            conn.execute("INSERT INTO events (guild_id, channel_id, name, format, size, rules, "
                         "vacation, rounds, both_colours, teams, signup_until, status, round, "
                         "created_by, created_at) VALUES (100, 7, ?, 'swiss', '8x8', 'pp', 0, "
                         "3, 0, 0, ?, ?, 1, 1, ?)", (status, stamp, status, stamp))
    async with await SqliteStorage.open(db_path) as store:
        assert sorted((e.name, e.looks) for e in await store.due_tournaments(T0)) == [
            ("running", 1), ("signup", 0)]
        assert await store.tournament_looked(2, 1)
        assert [e.name for e in await store.due_tournaments(T0)] == ["signup"]


async def test_ended_unscored_names_only_the_games_that_ended_without_a_score(store):
    tournament = await running(store)
    pairings = await store.pair_round(tournament.id, [
        TournamentGame(0, 0, 1, 0, 11, 12), TournamentGame(0, 0, 1, 0, 13, 14),
        TournamentGame(0, 0, 1, 0, 15, 16)], round=1, was_round=0) or ()
    games = [await link(store, p.id, channel_id=40 + n) for n, p in enumerate(pairings)]
    assert await store.ended_unscored(tournament.id, 10) == ()
    for game in games[:2]:
        await store.finish_game(game.id, game.version, GameResult(Result.DRAW, "agreed"))
    assert await store.ended_unscored(tournament.id, 10) == (games[0].id, games[1].id)
    assert await store.score_tournament_game(pairings[0].id, 0.5, False)
    assert await store.ended_unscored(tournament.id, 10) == (games[1].id,)  # games[2] still on
