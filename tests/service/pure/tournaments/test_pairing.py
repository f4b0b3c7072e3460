"""Pairings keep their rules, checked as properties over many fields and results: round
robins (Berger tables), Swiss rounds, league groups and seasons; and the matching under the
Swiss search against a brute force."""

from __future__ import annotations

import doctest
import functools
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import twixt.service.pure.tournaments.pairing
from twixt.service.pure.tournaments.matching import UNMATCHED, Matching
from twixt.service.pure.tournaments.pairing import (
    MAX_ENTRANTS,
    Pairing,
    PairingError,
    PairingResult,
    league_groups,
    next_season,
    round_robin,
    swiss_round,
)


def fields(least: int, most: int) -> st.SearchStrategy[list[int]]:
    """Entrant ids as the service may choose them: distinct, in any order."""
    return st.lists(st.integers(1, 10**12), min_size=least, max_size=most, unique=True)


def test_the_examples_in_the_docstrings_are_true() -> None:
    assert doctest.testmod(twixt.service.pure.tournaments.pairing).failed == 0


# --- round robin ----------------------------------------------------------------------------

def test_six_players_get_the_fide_berger_table() -> None:
    table = [[(p.red, p.black) for p in rnd] for rnd in round_robin([1, 2, 3, 4, 5, 6])]
    assert table == [[(1, 6), (2, 5), (3, 4)],
                     [(6, 4), (5, 3), (1, 2)],
                     [(2, 6), (3, 1), (4, 5)],
                     [(6, 5), (1, 4), (2, 3)],
                     [(3, 6), (4, 2), (5, 1)]]


def colours_of(entrant: int, rounds: list[tuple[Pairing, ...]]) -> list[str]:
    return [("R" if p.red == entrant else "B") for rnd in rounds for p in rnd
            if p.black is not None and entrant in (p.red, p.black)]


@settings(max_examples=150, deadline=None)
@given(fields(2, 40), st.booleans())
def test_a_round_robin_pairs_everyone_once_per_cycle_in_balanced_colours(entrants, double):
    rounds = round_robin(entrants, double)
    n = len(entrants)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_cycle * (2 if double else 1)
    for number, pairings in enumerate(rounds, start=1):
        seated = [e for p in pairings for e in (p.red, p.black) if e is not None]
        assert sorted(seated) == sorted(entrants)          # everyone once, nobody twice
        assert {p.round for p in pairings} == {number}
        assert sum(p.black is None for p in pairings) == n % 2
    cycles = [list(rounds[:per_cycle]), list(rounds[per_cycle:])] if double else [list(rounds)]
    for cycle in cycles:
        games = Counter(frozenset((p.red, p.black)) for rnd in cycle for p in rnd
                        if p.black is not None)
        assert set(games) == {frozenset(pair) for pair in itertools.combinations(entrants, 2)}
        assert set(games.values()) == {1}
        byes = Counter(p.red for rnd in cycle for p in rnd if p.black is None)
        assert all(count == 1 for count in byes.values())
        assert len(byes) == n % 2 * n
        for entrant in entrants:
            colours = colours_of(entrant, cycle)
            assert abs(colours.count("R") - colours.count("B")) <= 1
            assert "RRR" not in "".join(colours) and "BBB" not in "".join(colours)
    if double:
        first = {(p.red, p.black) for rnd in cycles[0] for p in rnd if p.black is not None}
        second = {(p.black, p.red) for rnd in cycles[1] for p in rnd if p.black is not None}
        assert first == second


@pytest.mark.parametrize("entrants", [[], [7], [1, 2, 1], list(range(MAX_ENTRANTS + 1))])
def test_a_round_robin_of_too_few_too_many_or_repeated_entrants_is_refused(entrants):
    with pytest.raises(PairingError):
        round_robin(entrants)


# --- the matching -------------------------------------------------------------------------

def most_pairs(size: int, edges: frozenset[tuple[int, int]]) -> int:
    @functools.cache
    def best(left: int) -> int:
        if not left:
            return 0
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        found = best(rest)
        for other in range(size):
            if rest >> other & 1 and (first, other) in edges:
                found = max(found, 1 + best(rest & ~(1 << other)))
        return found
    return best((1 << size) - 1)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 11), st.randoms(use_true_random=False), st.floats(0, 1))
def test_the_matching_is_maximum(size, rng, density):
    edges = {(a, b) for a, b in itertools.combinations(range(size), 2)
             if rng.random() < density}
    adjacent: list[list[int]] = [[] for _ in range(size)]
    for a, b in edges:
        adjacent[a].append(b)
        adjacent[b].append(a)
    for neighbours in adjacent:
        rng.shuffle(neighbours)
    matching = Matching(adjacent)
    left_out = matching.grow()
    assert (size - left_out) // 2 == most_pairs(size, frozenset(edges | {(b, a) for a, b in edges}))
    for vertex in range(size):
        mate = matching.mate(vertex)
        assert mate == UNMATCHED or (matching.mate(mate) == vertex
                                     and (min(vertex, mate), max(vertex, mate)) in edges)


# --- Swiss --------------------------------------------------------------------------------

def ranking(entrants: list[int], played: list[PairingResult],
            ratings: dict[int, float]) -> list[int]:
    """The rank order as the contract says: score, rating, the entrants' order."""
    points = scores(entrants, played)
    return sorted(entrants, key=lambda e: (-points[e], -ratings.get(e, float("-inf")),
                                           entrants.index(e)))


def scores(entrants: list[int], played: list[PairingResult]) -> dict[int, float]:
    points = dict.fromkeys(entrants, 0.0)
    for game in played:
        points[game.red] = points.get(game.red, 0.0) + game.score
        if game.black is not None:
            points[game.black] = points.get(game.black, 0.0) + 1 - game.score
    return points


def history(entrant: int, played: list[PairingResult]) -> str:
    return "".join("R" if g.red == entrant else "B" for g in sorted(played, key=lambda g: g.round)
                   if g.black is not None and entrant in (g.red, g.black) and not g.forfeit)


def met(played: list[PairingResult]) -> set[frozenset[int]]:
    return {frozenset((g.red, g.black)) for g in played if g.black is not None}


def byes(played: list[PairingResult]) -> set[int]:
    return {g.red for g in played if g.black is None}


#: how strictly colours bind, as the Swiss pairing tries them: balance within ±2 and no third
#: colour in a row; only the balance; not at all
STRICT, BALANCE, LOOSE = 2, 1, 0


def colour_fits(colours: str, colour: str, tier: int) -> bool:
    after = colours + colour
    return not ((tier >= BALANCE and abs(after.count("R") - after.count("B")) > 2)
                or (tier >= STRICT and after.endswith(colour * 3)))


def pairable(entrants: list[int], played: list[PairingResult], tier: int = LOOSE) -> bool:
    """The brute force for small fields: does any round without rematch or second bye exist
    whose colours fit the tier?"""
    meetings, had = met(played), byes(played)
    colours = {e: history(e, played) for e in entrants}

    def may_meet(a: int, b: int) -> bool:
        return frozenset((a, b)) not in meetings and any(
            colour_fits(colours[x], "R", tier) and colour_fits(colours[y], "B", tier)
            for x, y in ((a, b), (b, a)))

    @functools.cache
    def pairs(left: frozenset[int]) -> bool:
        if not left:
            return True
        first = min(left)
        return any(may_meet(first, other) and pairs(left - {first, other})
                   for other in left - {first})

    everyone = frozenset(entrants)
    if len(entrants) % 2 == 0:
        return pairs(everyone)
    # an odd field: the bye goes to whoever can take it
    return any(pairs(everyone - {bye}) for bye in entrants if bye not in had)


def tier_of(entrants: list[int], played: list[PairingResult]) -> int:
    """The strictest colour tier in which the round can be paired (small fields only)."""
    assert len(entrants) <= 14, "a big field is expected to pair strictly"
    return next(tier for tier in (STRICT, BALANCE) if pairable(entrants, played, tier))


def play(pairings: tuple[Pairing, ...], rng: random.Random) -> list[PairingResult]:
    return [PairingResult(p.round, p.red, p.black, 1.0 if p.black is None
                   else rng.choice((0.0, 0.5, 1.0, 1.0, 0.0))) for p in pairings]


def forfeited(game: PairingResult, gone: int) -> PairingResult:
    if game.black is None or gone not in (game.red, game.black):
        return game
    return PairingResult(game.round, game.red, game.black, float(game.black == gone), forfeit=True)


swiss_fields = st.integers(4, 40).flatmap(lambda n: st.tuples(
    fields(n, n), st.lists(st.integers(1000, 2400), min_size=n, max_size=n),
    st.integers(1, min(n - 1, 9)), st.randoms(use_true_random=False)))


@settings(max_examples=150, deadline=None)
@given(swiss_fields)
def test_swiss_rounds_keep_the_rules(field):
    entrants, rating_list, rounds, rng = field
    ratings = dict(zip(entrants, rating_list, strict=True))
    played: list[PairingResult] = []
    for number in range(1, rounds + 1):
        try:
            pairings = swiss_round(entrants, played, number, ratings)
        except PairingError:
            assert len(entrants) <= 14 and not pairable(entrants, played)
            return
        assert pairings == swiss_round(entrants, played[::-1], number, ratings)  # deterministic
        check_round(entrants, played, pairings, ratings)
        check_colours(entrants, played, pairings)
        results = play(pairings, rng)
        if len(entrants) > 4 and rng.random() < 0.2:
            # someone withdraws during the round: their game is lost by forfeit
            gone = rng.choice(entrants)
            entrants = [e for e in entrants if e != gone]
            results = [forfeited(game, gone) for game in results]
        played += results


def check_colours(entrants, played, pairings) -> None:
    """Nobody past ±2 or with a third colour in a row — unless the round could not be
    paired without it."""
    for p in pairings:
        if p.black is None:
            continue
        for entrant, colour in ((p.red, "R"), (p.black, "B")):
            colours = history(entrant, played)
            if not colour_fits(colours, colour, STRICT):
                assert tier_of(entrants, played) < STRICT, colours + colour
            if not colour_fits(colours, colour, BALANCE):
                assert tier_of(entrants, played) < BALANCE, colours + colour


def check_round(entrants, played, pairings, ratings) -> None:
    seated = [e for p in pairings for e in (p.red, p.black) if e is not None]
    assert sorted(seated) == sorted(entrants)                       # everyone, once
    games = [frozenset((p.red, p.black)) for p in pairings if p.black is not None]
    assert not set(games) & met(played)                             # no rematch
    bye = [p.red for p in pairings if p.black is None]
    assert len(bye) == len(entrants) % 2
    order = ranking(entrants, played, ratings)
    if bye:
        assert bye[0] not in byes(played)                           # one bye each at most
        below = [e for e in order[order.index(bye[0]) + 1:] if e not in byes(played)]
        if below:                                                   # the lowest without one
            tier = tier_of(entrants, played)                        # … who leaves a round
            assert not any(pairable([e for e in entrants if e != lower], played, tier)
                           for lower in below)
    points = scores(entrants, played)
    top = next(e for e in order if e not in bye)
    opponent = next(p.red if p.black == top else p.black for p in pairings
                    if top in (p.red, p.black))
    rivals = [e for e in order if points[e] == points[top] and e != top and e not in bye
              and frozenset((e, top)) not in met(played)]
    if rivals and points[opponent] != points[top]:                  # the top score group
        # only if the colours forbid it, or (in a small field) no round gives the top
        # entrant a rival once the bye is given
        tier = STRICT if len(entrants) > 14 else tier_of(entrants, played)
        rivals = [rival for rival in rivals if pairable([top, rival], played, tier)]
        others = [e for e in entrants if e != top and e not in bye]
        assert not any(len(entrants) > 14 or pairable([e for e in others if e != rival],
                                                      played, tier) for rival in rivals)


def test_swiss_fails_only_when_everyone_has_met() -> None:
    entrants = [1, 2, 3, 4]
    played = [PairingResult(1, 1, 2, 1), PairingResult(1, 3, 4, 0), PairingResult(2, 1, 3, 1),
              PairingResult(2, 2, 4, 0), PairingResult(3, 1, 4, 1), PairingResult(3, 2, 3, 0)]
    with pytest.raises(PairingError):
        swiss_round(entrants, played, 4, {})
    # without the last round's games, the only round left is found
    fourth = swiss_round(entrants, played[:4], 3, {})
    assert {frozenset((p.red, p.black)) for p in fourth} == {frozenset((1, 4)),
                                                             frozenset((2, 3))}


def test_a_greedy_corner_is_escaped() -> None:
    """Ranked 1…6 with equal scores, the greedy would pair 1–2 and 3–4 and leave 5 and 6,
    who have met; the matching sees it and pairs around them."""
    entrants = [1, 2, 3, 4, 5, 6]
    played = [PairingResult(1, 5, 6, 0.5), PairingResult(1, 1, 4, 0.5), PairingResult(1, 2, 3, 0.5)]
    pairings = swiss_round(entrants, played, 2, {e: 2000 - e for e in entrants})
    games = {frozenset((p.red, p.black)) for p in pairings}
    assert frozenset((5, 6)) not in games and len(games) == 3


@pytest.mark.parametrize("number", [0, 5])
def test_a_round_out_of_range_is_refused(number) -> None:
    with pytest.raises(PairingError):
        swiss_round([1, 2, 3, 4], [], number, {})


# --- leagues ------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.integers(1, MAX_ENTRANTS))
def test_league_groups_are_even_and_of_nine_to_eleven_where_possible(count):
    entrants = list(range(count, 0, -1))
    groups = league_groups(entrants)
    assert [e for group in groups for e in group] == entrants        # strongest first
    sizes = [len(group) for group in groups]
    assert max(sizes) - min(sizes) <= 1
    if any(9 * k <= count <= 11 * k for k in range(1, count + 1)):
        assert min(sizes) >= 9 and max(sizes) <= 11
    if count < 9:
        assert len(groups) == 1


def league(sizes: list[int]) -> list[list[int]]:
    numbers = iter(range(1, sum(sizes) + 1))
    return [[next(numbers) for _ in range(size)] for size in sizes]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(5, 11), min_size=1, max_size=8), st.integers(0, 2),
       st.integers(0, 2))
def test_next_season_moves_the_top_up_and_the_bottom_down(sizes, promote, relegate):
    groups = league(sizes)
    new = next_season(groups, promote, relegate)
    if promote == relegate:
        assert [len(group) for group in new] == sizes
    where = {e: index for index, group in enumerate(new) for e in group}
    for index, group in enumerate(groups):
        for place, entrant in enumerate(group):
            rises = place < promote and index > 0
            falls = place >= len(group) - relegate and index < len(groups) - 1
            assert where[entrant] == index - rises + falls


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(2, 11), min_size=1, max_size=8), st.integers(0, 40),
       st.randoms(use_true_random=False))
def test_next_season_keeps_everyone_once_and_newcomers_at_the_bottom(sizes, joining, rng):
    groups = league(sizes)
    everyone = [e for group in groups for e in group]
    leaving = set(rng.sample(everyone, rng.randint(0, len(everyone) // 3)))
    newcomers = list(range(1000, 1000 + joining))
    new = next_season(groups, 2, 2, newcomers, leaving)
    placed = [e for group in new for e in group]
    assert sorted(placed) == sorted(set(everyone) - leaving | set(newcomers))
    assert all(len(group) >= 2 for group in new) or len(placed) < 2
    # newcomers keep their order, behind everyone who cannot have reached the bottom group
    arrived = [e for e in placed if e >= 1000]
    assert arrived == [e for e in newcomers if e not in leaving]
    upper = [e for group in groups[:-2] for e in group if e not in leaving]
    assert all(placed.index(e) < placed.index(n) for e in upper for n in arrived)


def test_a_small_league_season() -> None:
    groups = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]
    assert next_season(groups, 1, 1, joining=[16, 17], leaving={3, 12}) == (
        (1, 2, 4, 6), (5, 7, 8, 9, 11), (10, 13, 14, 15, 16, 17))
