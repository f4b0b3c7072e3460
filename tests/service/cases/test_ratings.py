"""Glicko-2 ratings through the service over a real SQLite file, on a controlled clock: what
`stats` and `leaderboard` show, a rating that is provisional (`1500?`) until enough games
narrow it, and again after months away; partners of a team moved by their own deviation."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from tests.fakes import Clock
from tests.service.people import ALICE, BOB, CAROL, DAVE, GUILD, asking
from twixt.service import TwixtService, User, build_options
from twixt.storage.ratings import Rating, rate_game

FOOTNOTE = "? provisional: too few recent games to be sure of the rating"


async def win(service: TwixtService, winner: User, loser: User) -> None:
    """A rated game in which `loser` resigns to `winner`."""
    await service.challenges.challenge(asking(winner), loser, build_options())
    await service.challenges.accept(asking(loser))
    await service.turns.resign(asking(loser), confirmed=True)


async def alternate(service: TwixtService, clock: Clock, games: int) -> tuple[Rating, Rating]:
    """alice and bob take turns winning, a game a day; their ratings as the games say."""
    alice, bob = Rating(), Rating()
    for number in range(games):
        clock.now += timedelta(days=1)
        if number % 2:
            await win(service, BOB, ALICE)
            [bob], [alice] = rate_game([bob], [alice], 1.0, clock.now)
        else:
            await win(service, ALICE, BOB)
            [alice], [bob] = rate_game([alice], [bob], 1.0, clock.now)
    return alice, bob


async def test_stats_show_the_deviation_as_it_grows_while_a_player_is_away(service, clock):
    await win(service, ALICE, BOB)
    [alice], _ = rate_game([Rating()], [Rating()], 1.0, clock.now)
    assert (await service.stats.stats(asking(ALICE))).plain.endswith(
        "rating 1662? ±290 (provisional) after 1 rated game.")
    clock.now += timedelta(days=120)
    grown = alice.at(clock.now).deviation
    assert 290.5 < grown < 350
    assert (await service.stats.stats(asking(ALICE))).plain.endswith(
        f"rating 1662? ±{grown:.0f} (provisional) after 1 rated game.")


async def test_a_regular_player_loses_the_mark_and_gets_it_back_after_months_away(
        service, storage, clock):
    alice, bob = await alternate(service, clock, 14)
    assert not alice.at(clock.now).provisional
    board = (await service.stats.leaderboard(asking(CAROL))).plain.splitlines()
    assert board[1:] == [f"1. bob — {bob.rating:.0f} (7–7–0)",
                         f"2. alice — {alice.rating:.0f} (7–7–0)"]
    assert (await service.stats.stats(asking(ALICE))).plain.endswith(
        f"rating {alice.rating:.0f} ±{alice.deviation:.0f} after 14 rated games.")
    # three months without a rated game: the ratings stand, but are no longer sure
    clock.now += timedelta(days=91)
    board = (await service.stats.leaderboard(asking(CAROL))).plain.splitlines()
    assert board[1:] == [f"1. bob — {bob.rating:.0f}? (7–7–0)",
                         f"2. alice — {alice.rating:.0f}? (7–7–0)", FOOTNOTE]
    grown = alice.at(clock.now).deviation
    assert grown > 110
    assert (await service.stats.stats(asking(ALICE))).plain.endswith(
        f"rating {alice.rating:.0f}? ±{grown:.0f} (provisional) after 14 rated games.")
    # the next game is rated from the grown deviation, and moves further for it
    await win(service, ALICE, BOB)
    [after], _ = rate_game([alice], [bob], 1.0, clock.now)
    [had_stayed], _ = rate_game([replace(alice, rated_at=clock.now)],
                                [replace(bob, rated_at=clock.now)], 1.0, clock.now)
    assert after.rating > had_stayed.rating
    stats = await storage.player_stats(GUILD, ALICE.id)
    assert stats.rating_at(clock.now) == after


async def test_the_leaderboard_marks_only_the_provisional(service, clock):
    alice, bob = await alternate(service, clock, 14)
    await win(service, CAROL, DAVE)
    lines = (await service.stats.leaderboard(asking(ALICE))).plain.splitlines()
    assert lines[1:] == ["1. carol — 1662? (1–0–0)", f"2. bob — {bob.rating:.0f} (7–7–0)",
                         f"3. alice — {alice.rating:.0f} (7–7–0)", "4. dave — 1338? (0–1–0)",
                         FOOTNOTE]


async def test_partners_of_different_ratings_move_by_their_own_deviation(service, storage,
                                                                        clock):
    alice, bob = await alternate(service, clock, 3)
    clock.now += timedelta(days=2)
    # alice (3 games) and carol (new) against bob (3 games) and dave (new); dave resigns
    await service.challenges.team(asking(ALICE), CAROL, (BOB, DAVE), build_options())
    for user in (BOB, CAROL, DAVE):
        await service.challenges.accept(asking(user))
    await service.turns.resign(asking(DAVE), confirmed=True)
    (new_alice, carol), (new_bob, dave) = rate_game([alice, Rating()], [bob, Rating()], 1.0,
                                                    clock.now)
    for user, expected in ((ALICE, new_alice), (CAROL, carol), (BOB, new_bob), (DAVE, dave)):
        stats = await storage.player_stats(GUILD, user.id)
        assert stats.rating_at(clock.now) == expected, user.name
    # the newcomer moves further than the partner with games behind them
    assert carol.rating - 1500 > new_alice.rating - alice.rating > 0
    assert 1500 - dave.rating > bob.rating - new_bob.rating > 0


async def test_ratings_in_german(service, storage, clock):
    await win(service, ALICE, BOB)
    german = replace(asking(CAROL), locale="de")
    assert (await service.stats.stats(german, ALICE)).plain.startswith(
        "**alice**: 1 Partie — 1 gewonnen, 0 verloren, 0 remis; "
        "Wertung 1662? ±290 (vorläufig) nach 1 gewerteten Partie.")
    assert (await service.stats.leaderboard(german)).plain.splitlines()[1:] == [
        "1. alice — 1662? (1–0–0)", "2. bob — 1338? (0–1–0)",
        "? vorläufig: zu wenige neuere Partien für eine sichere Wertung"]
    await alternate(service, clock, 14)
    stats = await storage.player_stats(GUILD, ALICE.id)
    shown = stats.rating_at(clock.now)
    assert shown is not None and not shown.provisional
    assert (await service.stats.stats(replace(asking(ALICE), locale="de"))).plain.endswith(
        f"Wertung {shown.rating:.0f} ±{shown.deviation:.0f} nach 15 gewerteten Partien.")
