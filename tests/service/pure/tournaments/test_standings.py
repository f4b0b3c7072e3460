"""Standings: crosstables worked out by hand for Sonneborn-Berger and Buchholz (with byes,
forfeits and a withdrawal), shared ranks, and the table's invariants as properties."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import twixt.service.pure.tournaments.standings
from twixt.service.pure.tournaments.pairing import Pairing, PairingError, PairingResult, round_robin
from twixt.service.pure.tournaments.standings import Standing, TieBreak, standings, withdraw

SB, BH = TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ


def test_the_examples_in_the_docstrings_are_true() -> None:
    assert doctest.testmod(twixt.service.pure.tournaments.standings).failed == 0


def summary(table: tuple[Standing, ...]) -> list[tuple[int, int, float, float]]:
    return [(line.rank, line.entrant, line.points, line.tie_break) for line in table]


def test_sonneborn_berger_of_a_round_robin() -> None:
    #        A  B  C  D   points   SB
    #   A    ·  1  ½  0    1½      2 (B) + ½·1½ (C)   = 2¾
    #   B    0  ·  1  1    2       1½ (C) + 1 (D)     = 2½
    #   C    ½  0  ·  1    1½      ½·1½ (A) + 1 (D)   = 1¾
    #   D    1  0  0  ·    1       1½ (A)             = 1½
    a, b, c, d = 1, 2, 3, 4
    games = [PairingResult(1, a, b, 1), PairingResult(1, c, d, 1), PairingResult(2, d, a, 1),
             PairingResult(2, b, c, 1), PairingResult(3, a, c, 0.5), PairingResult(3, d, b, 0)]
    assert summary(standings([a, b, c, d], games, SB)) == [
        (1, b, 2.0, 2.5), (2, a, 1.5, 2.75), (3, c, 1.5, 1.75), (4, d, 1.0, 1.5)]


def test_a_double_round_robin_counts_both_games() -> None:
    # A beat B, then drew with B: A 1½ points, SB 1·½ + ½·½ = ¾; B ½, SB ½·1½ = ¾
    table = standings([1, 2], [PairingResult(1, 1, 2, 1), PairingResult(2, 2, 1, 0.5)], SB)
    assert summary(table) == [(1, 1, 1.5, 0.75), (2, 2, 0.5, 0.75)]
    assert (table[0].wins, table[0].draws, table[0].losses, table[0].played) == (1, 1, 0, 2)


def test_equal_points_and_tie_break_share_a_rank_in_the_entrants_order() -> None:
    # a cycle: 1 beats 2, 2 beats 3, 3 beats 1, and all beat 4 — 2 points and SB 2 each
    games = [PairingResult(1, 1, 2, 1), PairingResult(1, 3, 4, 1), PairingResult(2, 2, 3, 1),
             PairingResult(2, 4, 1, 0), PairingResult(3, 3, 1, 1), PairingResult(3, 2, 4, 1)]
    table = standings([3, 1, 2, 4], games, SB)
    assert [(line.rank, line.entrant) for line in table] == [(1, 3), (1, 1), (1, 2), (4, 4)]
    assert {line.points for line in table[:3]} == {2.0}


def test_buchholz_with_byes_forfeits_and_a_withdrawal() -> None:
    # five players, three rounds; 5 withdrew before round 3 (4 wins that game by forfeit)
    #   round 1: 1–2 1:0,  3–4 ½:½,  5 bye
    #   round 2: 5–1 0:1,  2–3 0:1,  4 bye
    #   round 3: 1–3 ½:½,  4–5 +:−,  2 bye
    #        points  opponents' points (a bye or forfeit: one's own)        Buchholz
    #   1    2½      2: 1,  5: 1,  3: 2                                      4
    #   2    1       1: 2½, 3: 2,  bye: 1                                    5½
    #   3    2       4: 2½, 2: 1,  1: 2½                                     6
    #   4    2½      3: 2,  bye: 2½, forfeit: 2½                             7
    #   5    1       bye: 1, 1: 2½, forfeit: 1                               4½
    games = [PairingResult(1, 1, 2, 1), PairingResult(1, 3, 4, 0.5), PairingResult(1, 5, None, 1),
             PairingResult(2, 5, 1, 0), PairingResult(2, 2, 3, 0), PairingResult(2, 4, None, 1),
             PairingResult(3, 1, 3, 0.5), PairingResult(3, 4, 5, 1, forfeit=True),
             PairingResult(3, 2, None, 1)]
    table = standings([1, 2, 3, 4, 5], games, BH)
    assert summary(table) == [(1, 4, 2.5, 7.0), (2, 1, 2.5, 4.0), (3, 3, 2.0, 6.0),
                              (4, 2, 1.0, 5.5), (5, 5, 1.0, 4.5)]
    counts = {line.entrant: (line.played, line.wins, line.draws, line.losses) for line in table}
    assert counts == {1: (3, 2, 1, 0), 2: (3, 1, 0, 2), 3: (3, 1, 2, 0), 4: (3, 2, 1, 0),
                      5: (3, 1, 0, 2)}


def test_a_withdrawal_scores_the_remaining_round_robin_games_as_forfeits() -> None:
    rounds = round_robin([1, 2, 3, 4])      # (1,4) (2,3) | (4,3) (1,2) | (2,4) (3,1)
    pairings = [pairing for pairings in rounds for pairing in pairings]
    played = [PairingResult(1, 1, 4, 0.5), PairingResult(1, 2, 3, 1)]
    forfeits = withdraw(4, pairings, played)
    assert forfeits == (PairingResult(2, 4, 3, 0.0, forfeit=True),
                        PairingResult(3, 2, 4, 1.0, forfeit=True))
    assert withdraw(4, pairings, [*played, *forfeits]) == ()
    played += [*forfeits, PairingResult(2, 1, 2, 1), PairingResult(3, 3, 1, 0.5)]
    #        1  2  3  4   points   SB
    #   1    ·  1  ½  ½    2       2 (2) + ½·1½ (3) + ½·½ (4) = 3
    #   2    0  ·  1  +    2       1½ (3) + ½ (4)             = 2
    #   3    ½  0  ·  +    1½      ½·2 (1) + ½ (4)            = 1½
    #   4    ½  −  −  ·    ½       ½·2 (1)                    = 1
    assert summary(standings([1, 2, 3, 4], played, SB)) == [
        (1, 1, 2.0, 3.0), (2, 2, 2.0, 2.0), (3, 3, 1.5, 1.5), (4, 4, 0.5, 1.0)]


def test_withdraw_skips_byes_and_other_entrants_games() -> None:
    pairings = [Pairing(1, 1, 2), Pairing(2, 3, None), Pairing(2, 1, 4), Pairing(3, 2, 3)]
    assert withdraw(3, pairings, []) == (PairingResult(3, 2, 3, 1.0, forfeit=True),)


def test_a_score_that_is_no_result_is_refused() -> None:
    with pytest.raises(PairingError):
        standings([1, 2], [PairingResult(1, 1, 2, 0.7)], SB)
    with pytest.raises(PairingError):
        standings([1, 1], [], SB)


results = st.lists(st.tuples(st.integers(1, 8), st.integers(1, 8),
                             st.sampled_from([0.0, 0.5, 1.0]), st.booleans()), max_size=40)


@settings(max_examples=200, deadline=None)
@given(results, st.sampled_from(list(TieBreak)))
def test_a_table_is_ordered_and_adds_up(games, tie_break):
    played = [PairingResult(number, red, black if black != red else None,
                            1.0 if black == red else score, forfeit)
              for number, (red, black, score, forfeit) in enumerate(games)]
    entrants = list(range(1, 9))
    table = standings(entrants, played, tie_break)
    assert sorted(line.entrant for line in table) == entrants
    assert sum(line.points for line in table) == sum(
        1 if game.black is not None else game.score for game in played)
    for line in table:
        assert line.points == line.wins + line.draws / 2
        assert line.played == line.wins + line.draws + line.losses
    for before, after in itertools.pairwise(table):
        assert (before.points, before.tie_break) >= (after.points, after.tie_break)
        same = (before.points, before.tie_break) == (after.points, after.tie_break)
        assert after.rank == (before.rank if same else table.index(after) + 1)
