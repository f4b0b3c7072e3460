"""Tournaments through the service, over a real SQLite file on a clock moved by hand: a
6-player round robin and an 8-player Swiss played to their final standings (with a timeout,
a withdrawal and restarts in the middle), a league season and the next, and the refusals."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta

import pytest

from tests.service.cases.tournaments.helpers import (
    PLAYERS,
    everything,
    lose,
    open_games,
    picture,
    play_out,
    tournament_id_of,
    user,
)
from tests.service.helpers import press
from tests.service.people import GUILD, asking
from tests.typed import enter
from twixt.language import translation
from twixt.service import ButtonKind, Port, TwixtService, User
from twixt.service import commands as cmd
from twixt.service import errors as kinds
from twixt.service.cases.tournaments.crosstables import crosstables
from twixt.storage import GameResult, Result, TournamentStatus

P1, P2, P3, P4, P5, P6, P7, P8 = PLAYERS[:8]
MANAGER = asking(P1, manager=True)


async def create(service: TwixtService, options: str) -> int:
    reply = await enter(service, MANAGER, f"tournament create Autumn Cup {options}")
    return tournament_id_of(reply)


async def sign_up(service: TwixtService, tournament_id: int, players) -> None:
    for number, player in enumerate(players):
        if number % 2:  # half press the announcement's button, half write the command
            await press(service, asking(player), ButtonKind.JOIN_TOURNAMENT, tournament_id)
        else:
            await enter(service, asking(player), "tournament join")


def restarted(service: TwixtService, clock, threads) -> TwixtService:
    """A new service over the same storage, as after a restart."""
    return TwixtService(service.desk.storage, Port(threads=threads), clock=clock,
                        rng=random.Random(2))


async def test_a_round_robin_of_six_with_a_timeout_and_a_withdrawal(service, storage, clock,
                                                                   threads):
    tournament_id = await create(service, "format roundrobin size 8 rules pp time 1d "
                                     "vacation no signup 2d")
    await sign_up(service, tournament_id, PLAYERS[:6])
    clock.now += timedelta(days=2, minutes=1)
    said = await service.tick()  # the deadline: the tournament starts by itself
    assert any("15 games opened" in r.plain for r in said)
    assert len(threads.opened) == 15 and all(parent == 100 for parent, _ in threads.opened)
    assert all(r.channel_id and r.channel_id > 1000 for r in said if "round" in r.plain)
    tournament = await storage.get_tournament(tournament_id)
    assert (tournament.status, tournament.setup.vacation) == (TournamentStatus.RUNNING, False)
    games = await open_games(storage, tournament_id)
    assert len(games) == 15
    stored = await storage.get_game(games[0].game_id)
    assert (stored.setup.size, stored.setup.rules, stored.setup.time_control,
            stored.setup.vacation) == ("8x8", "pp", "1d", False)

    # p6 resigns against p5, then withdraws: the rest of p6's games are forfeits
    p5_p6 = next(g for g in games if {g.red, g.black} == {P5.id, P6.id})
    await lose(service, P6, p5_p6)
    reply = await enter(service, asking(P6), "tournament withdraw")
    assert "withdraws" in reply.plain
    assert [r.plain for r in reply.followups] == ["Standings of Autumn Cup."]  # posted once
    forfeits = [g for g in await storage.tournament_games(tournament_id, 100) if g.forfeit]
    assert len(forfeits) == 4 and all(
        g.score == (0.0 if g.red == P6.id else 1.0) for g in forfeits)
    for game in forfeits:  # their games in progress are called off, unrated
        assert not (await storage.get_game(game.game_id)).is_active

    # p2 runs out of time against p1, who claims the win
    service = restarted(service, clock, threads)
    p1_p2 = next(g for g in games if {g.red, g.black} == {P1.id, P2.id})
    thread = (await storage.get_game(p1_p2.game_id)).channel_id
    to_move = user(p1_p2.red)
    clock.now += timedelta(days=1, hours=1)
    claimer = P1 if to_move is P2 else P2
    claimed = await enter(service, asking(claimer, thread), "claim")
    assert "ran out of time" in claimed.plain

    # the rest: the stronger player wins, with a restart in the middle
    later = await open_games(storage, tournament_id)
    await lose(service, user(max(later[0].red, later[0].black)), later[0])
    service = restarted(service, clock, threads)
    said = everything(await play_out(service, tournament_id))
    assert any("final standings" in r.plain for r in said)
    posted = [r for r in said if r.image is not None and r.channel_id == 100]
    assert posted and picture(posted[-1].image).width > 0

    tournament = await storage.get_tournament(tournament_id)
    assert tournament.status is TournamentStatus.FINISHED
    reply = await enter(service, asking(P3), "tournament standings")
    assert picture(reply.image).height > 0
    with pytest.raises(kinds.ConflictError, match="is over: there is nothing left to withdraw"):
        await enter(service, asking(P3), "tournament withdraw")
    table = (await storage.tournament_games(tournament_id, 100))
    points = {p.id: 0.0 for p in PLAYERS[:6]}
    for game in table:
        points[game.red] += game.score
        points[game.black] += 1 - game.score
    winner_of_p1_p2 = 1.0 if to_move is P2 else 0.0  # who was to move lost on time
    assert points[P1.id] == 4 + winner_of_p1_p2
    assert points[P6.id] == 0 and points[P5.id] == 1 and points[P3.id] == 3
    assert sum(points.values()) == 15


async def test_a_swiss_of_eight_over_four_rounds_with_a_withdrawal(service, storage, clock,
                                                                  threads):
    tournament_id = await create(service, "format swiss rounds 4 size 8 rules pp")
    await sign_up(service, tournament_id, PLAYERS[:8])
    reply = await enter(service, MANAGER, "tournament start")  # a manager starts it early
    assert "8 entrants" in reply.plain
    assert any("4 games opened" in r.plain and "Round 1" in r.plain for r in reply.followups)
    await play_out(service, tournament_id)
    assert (await storage.get_tournament(tournament_id)).round == 2
    service = restarted(service, clock, threads)
    # p8 withdraws before round 2 is played: their game is forfeited, round 3 has a bye
    await enter(service, asking(P8), "tournament withdraw")
    await play_out(service, tournament_id)
    for _ in range(2):
        service = restarted(service, clock, threads)
        await play_out(service, tournament_id)
    tournament = await storage.get_tournament(tournament_id)
    assert (tournament.status, tournament.round) == (TournamentStatus.FINISHED, 4)
    games = await storage.tournament_games(tournament_id, 100)
    assert [sum(g.round == r for g in games) for r in (1, 2, 3, 4)] == [4, 4, 4, 4]
    pairs = [frozenset((g.red, g.black)) for g in games if g.black is not None]
    assert len(pairs) == len(set(pairs))  # no rematch
    byes = [g.red for g in games if g.black is None]
    assert len(byes) == 2 and len(set(byes)) == 2 and P8.id not in byes
    assert not any(P8.id in (g.red, g.black) for g in games if g.round > 2)
    points = {p.id: 0.0 for p in PLAYERS[:8]}
    for g in games:
        points[g.red] += g.score
        if g.black is not None:
            points[g.black] += 1 - g.score
    assert points[P1.id] == 4  # the strongest wins every game
    reply = await enter(service, asking(P2), "tournament standings")
    assert picture(reply.image).width > 0


async def test_a_league_season_carries_promotion_and_relegation_into_the_next(
        service, storage, clock, threads):
    tournament_id = await create(service, "format league group 4 size 8 rules pp")
    await sign_up(service, tournament_id, PLAYERS[:8])
    await enter(service, MANAGER, "tournament start")
    games = await storage.tournament_games(tournament_id, 100)
    groups = {}
    for g in games:
        groups.setdefault(g.group, set()).update({g.red, g.black})
    assert len(groups) == 2 and all(len(members) == 4 for members in groups.values())
    # everyone is unrated: the groups follow the order of sign-up
    top = groups[0]
    # the weaker (higher id) player wins every game: the group's last goes up
    for game in await open_games(storage, tournament_id):
        await lose(service, user(min(game.red, game.black)), game)
    assert (await storage.get_tournament(tournament_id)).status is TournamentStatus.FINISHED
    reply = await enter(service, asking(P2), "tournament standings")
    assert picture(reply.image).width > 0 and len(reply.attachments) == 1

    reply = await enter(service, MANAGER, f"tournament next-season {tournament_id}")
    season = tournament_id_of(reply)
    assert (await storage.get_tournament(season)).season == 2
    assert len(await storage.entrants(season, 20)) == 8
    await enter(service, asking(P9 := PLAYERS[8]), f"tournament join {season}")
    await enter(service, asking(P5), f"tournament leave {season}")
    await enter(service, MANAGER, f"tournament start {season}")
    new_groups = {}
    for g in await storage.tournament_games(season, 100):
        new_groups.setdefault(g.group, set()).update({g.red, g.black})
    top_bottom = max(top)  # won its group: stays up; the top group's winner is its weakest
    bottom_winner = max(groups[1])
    assert top_bottom in new_groups[0] and bottom_winner in new_groups[0]
    assert min(top) in new_groups[1]  # the top group's last went down
    assert P9.id in new_groups[1] and P5.id not in set().union(*new_groups.values())


async def test_refusals_say_one_line_and_change_nothing(service, storage):
    with pytest.raises(kinds.NotAllowedError, match="only a channel manager"):
        await enter(service, asking(P2), "tournament create Cup format swiss")
    for options, words in [("format knockout", "format is roundrobin, swiss or league"),
                           ("", "needs a format"),
                           ("format swiss rounds 99", "rounds is a number from 1 to 20"),
                           ("format roundrobin rounds 3", "rounds is for a swiss"),
                           ("format league rounds 3", "a league's groups play everyone"),
                           ("format swiss double yes", "double is for round robins"),
                           ("format swiss size 99", "a board is 5 to 48"),
                           ("format swiss signup forever", "signup is a time"),
                           ("format swiss colour red", "unknown tournament option")]:
        with pytest.raises(kinds.MalformedError, match=words):
            await enter(service, MANAGER, f"tournament create Cup {options}")
    assert await storage.tournaments(GUILD) == ()
    with pytest.raises(kinds.MissingError, match="no tournament in this channel"):
        await enter(service, asking(P2), "tournament join")
    tournament_id = await create(service, "format swiss")
    await enter(service, asking(P2), "tournament join")
    with pytest.raises(kinds.ConflictError, match="already signed up"):
        await press(service, asking(P2), ButtonKind.JOIN_TOURNAMENT, tournament_id)
    with pytest.raises(kinds.ConflictError, match="at least two"):
        await enter(service, MANAGER, "tournament start")
    with pytest.raises(kinds.NotAllowedError, match="only a channel manager"):
        await enter(service, asking(P2), "tournament start")
    with pytest.raises(kinds.ConflictError, match="not started yet"):
        await enter(service, asking(P2), "tournament standings")
    with pytest.raises(kinds.MalformedError, match="single players"):
        await service.execute(asking(P3), cmd.TournamentAction("join", tournament_id, partner=P4))
    with pytest.raises(kinds.MissingError, match="no such tournament"):
        await enter(service, asking(P3), f"tournament join {tournament_id + 5}")


async def test_a_double_twixt_tournament_pairs_teams_that_signed_up_together(service, storage,
                                                                       threads):
    tournament_id = await create(service, "format roundrobin teams yes size 8 rules pp")
    with pytest.raises(kinds.MalformedError, match="join with your partner"):
        await enter(service, asking(P1), "tournament join")
    for first, second in [(P1, P2), (P3, P4), (P5, P6)]:
        reply = await service.execute(asking(first), cmd.TournamentAction("join", partner=second))
        assert reply.mentions == (second.id,)
        await enter(service, asking(second), "tournament join")
    info = await enter(service, asking(P1), "tournament info")
    assert "p1 & p2" in info.plain and info.ephemeral
    await enter(service, MANAGER, "tournament start")
    games = await open_games(storage, tournament_id)
    assert len(games) == 3
    stored = await storage.get_game(games[0].game_id)
    assert len(stored.seats) == 4


async def test_a_game_that_ended_unseen_is_scored_when_next_looked_at(service, storage,
                                                                      clock):
    tournament_id = await create(service, "format roundrobin size 8 rules pp")
    await sign_up(service, tournament_id, PLAYERS[:3])
    await enter(service, MANAGER, "tournament start")
    first, second, _third = await open_games(storage, tournament_id)
    # a game ends behind the service's back (a crash between the end and its score)
    stored = await storage.get_game(first.game_id)
    await storage.finish_game(stored.id, stored.version, GameResult(
        Result.RED, "resign", (first.red,), ((first.red,), (first.black,))))
    assert [g.score for g in await storage.tournament_games(tournament_id,
                                                            10) if g.id == first.id] == [None]
    reply = await enter(service, asking(P3), "tournament standings")
    assert picture(reply.image).width > 0
    scored = {g.id: g for g in await storage.tournament_games(tournament_id, 10)}
    assert (scored[first.id].score, scored[first.id].forfeit) == (1.0, False)
    # a manager calls a game off in its thread: an unplayed draw
    thread = (await storage.get_game(second.game_id)).channel_id
    await enter(service, asking(P1, thread, manager=True), "abort")
    scored = {g.id: g for g in await storage.tournament_games(tournament_id, 10)}
    assert (scored[second.id].score, scored[second.id].forfeit) == (0.5, True)
    assert (await storage.player_stats(GUILD, first.red)).rating is not None  # rated


async def test_a_game_whose_thread_failed_is_opened_by_starting_again(service, storage,
                                                                     threads, monkeypatch):
    tournament_id = await create(service, "format roundrobin size 8 rules pp")
    await sign_up(service, tournament_id, PLAYERS[:2])
    opening = threads.open_thread

    async def refused(channel_id: int, name: str) -> int:
        raise kinds.BusyError("Discord did not open the game's thread; try again")

    monkeypatch.setattr(threads, "open_thread", refused)
    reply = await enter(service, MANAGER, "tournament start")
    assert any("0 games opened" in r.plain for r in reply.followups)
    assert await open_games(storage, tournament_id) == []
    monkeypatch.setattr(threads, "open_thread", opening)
    reply = await enter(service, MANAGER, "tournament start")
    assert reply.plain == "1 game opened."
    assert len(await open_games(storage, tournament_id)) == 1
    assert (await enter(service, MANAGER, "tournament start")).plain == (
        "Autumn Cup is running already, and each of its games is open.")


async def test_in_a_game_thread_the_commands_mean_that_games_tournament(service, storage):
    first = await create(service, "format roundrobin size 8 rules pp")
    await sign_up(service, first, PLAYERS[:2])
    await enter(service, MANAGER, "tournament start")
    await create(service, "format swiss size 8 rules pp")  # the channel's newest now
    (game,) = await open_games(storage, first)
    thread = (await storage.get_game(game.game_id)).channel_id
    reply = await enter(service, asking(P2, thread), "tournament info")
    assert f"Tournament #{first} " in reply.plain
    reply = await enter(service, asking(P2, thread), "tournament standings")
    assert reply.image is not None


async def test_a_swiss_round_names_the_entrant_who_has_the_bye(service, storage):
    tournament_id = await create(service, "format swiss rounds 2 size 8 rules pp")
    await sign_up(service, tournament_id, PLAYERS[:5])
    reply = await enter(service, MANAGER, "tournament start")
    (bye,) = [g.red for g in await storage.tournament_games(tournament_id, 10) if g.black is None]
    [opened] = [r.plain for r in reply.followups if "games opened" in r.plain]
    assert f"{user(bye).name} has a bye (a win)." in opened
    assert sum(p.name in opened for p in PLAYERS[:5]) == 1  # only the bye is named


async def test_standings_named_from_another_channel_are_for_the_asker_alone(service, storage):
    tournament_id = await create(service, "format roundrobin size 8 rules pp")  # a private channel
    await sign_up(service, tournament_id, PLAYERS[:2])
    await enter(service, MANAGER, "tournament start")
    elsewhere = 300
    reply = await enter(service, asking(P3, elsewhere), f"tournament standings {tournament_id}")
    assert reply.ephemeral and reply.image is not None
    assert not (await enter(service, asking(P3), "tournament standings")).ephemeral
    with pytest.raises(kinds.NotAllowedError, match="a reply here is public: use "
                                                    "`/twixt-tournament standings`"):
        await enter(service, replace(asking(P3, elsewhere), private_replies=False),
                          f"tournament standings {tournament_id}")


async def test_a_round_robin_of_three_scores_only_what_its_table_shows(service):
    manager = asking(User(1, "td"), manager=True)
    tournament_id = tournament_id_of(await enter(service, manager, "tournament create Trio format "
                                                      "roundrobin size 8"))
    for player in PLAYERS[:3]:
        await enter(service, asking(player), "tournament join")
    await enter(service, manager, "tournament start")
    await play_out(service, tournament_id)  # p1 beats p2 and p3, p2 beats p3; each has a bye
    storage = service.desk.storage
    tournament = await storage.get_tournament(tournament_id)
    games = await storage.tournament_games(tournament_id, 100)
    assert sum(game.black is None for game in games) == 3
    entrants = await storage.entrants(tournament_id, 100)
    names = {player.id: player.name for player in PLAYERS[:3]}
    [table] = crosstables(tournament, games, entrants, names, translation("en"), "")
    shown = {row.name: sum(float(cell) for cell in row.cells if cell != "■")
             for row in table.rows}
    assert {row.name: row.points for row in table.rows} == shown == {
        "p1": 2.0, "p2": 1.0, "p3": 0.0}


@pytest.mark.parametrize("action", ["start", "next-season"])
async def test_a_tournament_is_managed_only_in_its_own_channel(service, storage, action):
    """A manager of another channel (their own, say) names the event by number: refused,
    and nothing changes; the managers of the event's channel manage it."""
    event_id = await create(service, "format league group 4 size 8")
    await sign_up(service, event_id, PLAYERS[:2])
    with pytest.raises(kinds.NotAllowedError, match="in its own channel"):
        await enter(service, asking(P3, channel=200, manager=True),
                          f"tournament {action} {event_id}")
    assert (await storage.get_tournament(event_id)).status is TournamentStatus.SIGNUP
    assert len(await storage.tournaments(GUILD)) == 1
