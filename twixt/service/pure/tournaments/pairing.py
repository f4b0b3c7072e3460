"""Who plays whom in a tournament: round robins (Berger tables), Swiss rounds, league groups.

Pure: entrants are ints (a player's user id or a team's id, as the service chooses), and the
functions see only what they are given — the entrants, the games so far, ratings — so the
service can recompute any round after a restart and get the same answer. Nothing here is
unbounded: at most `MAX_ENTRANTS` entrants, a round number at most their count, and the Swiss
search is polynomial (see `swiss_round`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from twixt.service.pure.tournaments.matching import Matching

#: the most entrants a tournament may have (a Swiss round of 256 pairs in well under a second)
MAX_ENTRANTS = 256
RED, BLACK = "R", "B"


class PairingError(ValueError):
    """No legal pairing exists (or the request itself is not one: too few or too many
    entrants, an entrant twice, a round out of range)."""


@dataclass(frozen=True)
class Pairing:
    """One game of a round: `red` moves first; `black` None is a bye (red scores a win
    without a game)."""

    round: int
    red: int
    black: int | None


@dataclass(frozen=True)
class PairingResult:
    """A finished (or forfeited) game of the tournament: `score` is red's (1, ½, 0; a bye: 1).
    `forfeit` marks a game decided without play (a withdrawal); a timeout counts as played."""

    round: int
    red: int
    black: int | None
    score: float
    forfeit: bool = False


def _check_entrants(entrants: Sequence[int], least: int = 2) -> None:
    if len(entrants) < least:
        raise PairingError(f"an event needs at least {least} entrants")
    if len(entrants) > MAX_ENTRANTS:
        raise PairingError(f"an event has at most {MAX_ENTRANTS} entrants")
    if len(set(entrants)) != len(entrants):
        raise PairingError("an entrant appears twice")


# --- round robin ----------------------------------------------------------------------------

def round_robin(entrants: Sequence[int], double: bool = False) -> tuple[tuple[Pairing, ...], ...]:
    """All rounds at once, as Berger tables: everyone meets everyone once (n-1 rounds for an
    even number n of entrants, n rounds with one bye each for an odd number); `double` adds a
    second cycle, the same rounds again with colours reversed.

    The entrants' order is their seeding (Berger numbers 1, 2, …). Berger's arrangement, not
    the plain circle method, because it alternates colours: a player sits on the Red side and
    the Black side of the table in turn, except once, around the game against the last
    number — so nobody has Red more than once more than Black, and nobody has the same colour
    three times in a row within a cycle.

    >>> for pairings in round_robin([1, 2, 3, 4]):
    ...     print([(p.red, p.black) for p in pairings])
    [(1, 4), (2, 3)]
    [(4, 3), (1, 2)]
    [(2, 4), (3, 1)]
    """
    _check_entrants(entrants)
    # an odd field gets a phantom last number: whoever meets it has the bye
    seats: list[int | None] = [*entrants, None] if len(entrants) % 2 else list(entrants)
    fixed = seats[-1]
    circle = len(seats) - 1          # odd: the numbers that move around the table
    step = len(seats) // 2           # Berger moves everyone on by half the table each round
    cycle: list[tuple[Pairing, ...]] = []
    for index in range(circle):
        # position k of the table holds number (k + index·step) mod circle; position 0 meets
        # the fixed number, positions k and circle-k meet with k (the first half) as Red
        at = [seats[(position + index * step) % circle] for position in range(circle)]
        games = [(fixed, at[0]) if index % 2 else (at[0], fixed)]
        games += [(at[k], at[circle - k]) for k in range(1, step)]
        cycle.append(tuple(_game(index + 1, red, black) for red, black in games))
    if not double:
        return tuple(cycle)
    second = tuple(tuple(_game(pairing.round + circle, pairing.black, pairing.red)
                         for pairing in pairings) for pairings in cycle)
    return (*cycle, *second)


def _game(round_number: int, red: int | None, black: int | None) -> Pairing:
    """A pairing of two seats, one of which may be the phantom: then the other has a bye."""
    if red is None:
        red, black = black, None
    assert red is not None
    return Pairing(round_number, red, black)


# --- Swiss ------------------------------------------------------------------------------------

@dataclass
class _Record:
    """What the Swiss pairing needs to know of one entrant's games so far."""

    score: float = 0.0
    colours: list[str] = field(default_factory=list)   # in round order, played games only
    met: set[int] = field(default_factory=set)
    had_bye: bool = False
    #: `faults` of each colour, worked out once the record is complete
    cost: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)

    def balance(self) -> int:
        return self.colours.count(RED) - self.colours.count(BLACK)

    def faults(self, colour: str) -> tuple[int, int, int, int]:
        """What giving `colour` now costs, worst first: the balance past ±2, a third same
        colour in a row, a balance moving away from zero, the last colour repeated."""
        balance = self.balance() + (1 if colour == RED else -1)
        return (int(abs(balance) > 2),
                int(self.colours[-2:] == [colour, colour]),
                int(abs(balance) > abs(self.balance())),
                int(self.colours[-1:] == [colour]))


def _records(entrants: Sequence[int], played: Sequence[PairingResult]) -> dict[int, _Record]:
    records = {entrant: _Record() for entrant in entrants}
    for game in sorted(played, key=lambda game: game.round):
        if game.black is None:
            if game.red in records:
                records[game.red].score += game.score
                records[game.red].had_bye = True
            continue
        for entrant, opponent, colour, score in ((game.red, game.black, RED, game.score),
                                                 (game.black, game.red, BLACK, 1 - game.score)):
            if entrant in records:
                record = records[entrant]
                record.score += score
                record.met.add(opponent)
                if not game.forfeit:
                    record.colours.append(colour)
    for record in records.values():
        record.cost = {colour: record.faults(colour) for colour in (RED, BLACK)}
    return records


#: how strictly colours bind, tried in this order: balance within ±2 and no third colour in
#: a row; then only the balance; then colours give way entirely to "no rematch"
_COLOUR_TIERS = (2, 1, 0)


def swiss_round(entrants: Sequence[int], played: Sequence[PairingResult], round: int,
                ratings: Mapping[int, float]) -> tuple[Pairing, ...]:
    """The next Swiss round. Deterministic; `entrants` are those still in (withdrawn left
    out, their games still in `played`). Raises `PairingError` only when no legal pairing
    exists: nobody meets anyone twice, nobody has a second bye (both absolute).

    Rank is score, then rating (unrated last), then the order of `entrants`. An odd field's
    bye goes to the lowest-ranked entrant without one. Then the highest-ranked unpaired
    entrant is paired first, with the best opponent by: the smallest score difference, the
    fewest colour faults, and within the score group the Dutch system's "top half meets
    bottom half" (1st–(k/2+1)th). Colours bind first strictly (nobody past Red−Black = ±2,
    nobody the same colour three times in a row), and if no round can be paired so, only by
    the ±2 rule, and then not at all — they never stop a round that "no rematch" allows.

    The search: greedy in rank order with repair. Each pairing it would make is accepted
    only if everyone else can still be paired, which Edmonds' matching decides exactly with
    one augmenting-path search (`twixt.service.pure.tournaments.matching`). So it never dead-ends,
    needs no step limit, costs polynomial time (a few hundred searches), and fails only when no
    pairing exists. It is not an optimal weighted matching: an early player takes his best opponent
    even if that costs later players more — the Dutch system's own order of priorities.

    >>> ratings = {1: 1800, 2: 1700, 3: 1600, 4: 1500, 5: 1400}
    >>> [(p.red, p.black) for p in swiss_round([1, 2, 3, 4, 5], [], 1, ratings)]
    [(1, 3), (4, 2), (5, None)]
    """
    _check_entrants(entrants)
    # withdrawn entrants count: a field that shrank may still be in a late round
    field = {*entrants, *(game.red for game in played), *(game.black for game in played)}
    if not 1 <= round <= len(field - {None}):
        raise PairingError(f"round {round} is not between 1 and the number of entrants")
    records = _records(entrants, played)
    order = {entrant: index for index, entrant in enumerate(entrants)}
    ranked = sorted(entrants, key=lambda entrant: (
        -records[entrant].score, -ratings.get(entrant, float("-inf")), order[entrant]))
    for tier in _COLOUR_TIERS:
        pairs = _pair_tier(ranked, records, tier)
        if pairs is not None:
            return _colour(pairs, records, round)
    raise PairingError("no pairing without a rematch or a second bye exists")


def _pair_tier(ranked: list[int], records: dict[int, _Record], tier: int
               ) -> list[tuple[int, int | None]] | None:
    """The pairs (top-ranked first, a bye last) under one colour tier, or None."""
    def may_meet(first: int, second: int) -> bool:
        one, other = records[first], records[second]
        if second in one.met:
            return False
        return any(sum(a[:tier]) == 0 and sum(b[:tier]) == 0
                   for a, b in ((one.cost[RED], other.cost[BLACK]),
                                (one.cost[BLACK], other.cost[RED])))

    adjacent = [[j for j, other in enumerate(ranked) if j != i and may_meet(entrant, other)]
                for i, entrant in enumerate(ranked)]
    matching = Matching(adjacent)
    left_out = matching.grow()
    bye: int | None = None
    if len(ranked) % 2:
        bye = _bye(ranked, records, matching, left_out)
        if bye is None:
            return None
    elif left_out:
        return None
    pairs: list[tuple[int, int | None]] = []
    unpaired = [index for index in range(len(ranked)) if index != bye]
    while unpaired:
        top = unpaired[0]
        for other in _candidates(top, unpaired, ranked, records, adjacent):
            if _fix(matching, top, other):
                break
        else:  # pragma: no cover - the matching proves the top entrant has a partner
            raise AssertionError("a perfect matching lost its pair")
        pairs.append((ranked[top], ranked[other]))
        unpaired = [index for index in unpaired if index not in (top, other)]
    if bye is not None:
        pairs.append((ranked[bye], None))
    return pairs


def _bye(ranked: list[int], records: dict[int, _Record], matching: Matching,
         left_out: int) -> int | None:
    """Take out the lowest-ranked entrant without a bye who leaves a pairable field (the
    maximum matching must then cover all but one); None if nobody does."""
    if left_out != 1:
        return None
    for index in reversed(range(len(ranked))):
        if records[ranked[index]].had_bye:
            continue
        free = matching.free()[0]
        partner = matching.remove(index)
        if index == free or matching.augment(partner):
            return index
        matching.restore(index, partner)
    return None


def _fix(matching: Matching, top: int, other: int) -> bool:
    """Pair `top` with `other` for good if everyone else can still be paired: then both
    leave the matching, which stays perfect on the rest."""
    if matching.mate(top) == other:
        matching.remove(top)
        matching.remove(other)
        return True
    partner_of_top = matching.remove(top)
    partner_of_other = matching.remove(other)
    if matching.augment(partner_of_top):
        return True
    matching.restore(other, partner_of_other)
    matching.restore(top, partner_of_top)
    return False


def _candidates(top: int, unpaired: list[int], ranked: list[int],
                records: dict[int, _Record], adjacent: list[list[int]]) -> list[int]:
    """The allowed opponents of the highest-ranked unpaired entrant, best first."""
    score = records[ranked[top]].score
    group = [index for index in unpaired if records[ranked[index]].score == score]
    # the Dutch order within the score group: the top half meets the bottom half
    place = {index: abs(at - len(group) // 2) for at, index in enumerate(group)}
    allowed = set(adjacent[top])

    def key(index: int) -> tuple[float, tuple[int, ...], int]:
        other = records[ranked[index]].score
        faults = min(_allocation_faults(records[ranked[top]], records[ranked[index]]))
        return abs(score - other), faults, place.get(index, index)

    return sorted((index for index in unpaired if index in allowed), key=key)


def _allocation_faults(first: _Record, second: _Record
                       ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The colour faults of the pair with `first` on Red, and with `first` on Black."""
    def added(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(x + y for x, y in zip(a, b, strict=True))

    return (added(first.cost[RED], second.cost[BLACK]),
            added(first.cost[BLACK], second.cost[RED]))


def _colour(pairs: list[tuple[int, int | None]], records: dict[int, _Record],
            round_number: int) -> tuple[Pairing, ...]:
    """Give each pair its colours: the fewer faults; on a tie, the players' histories read
    back from the last round until they differ, each then taking the colour they did not
    have there (FIDE); identical histories: the higher-ranked alternates, and on a first
    game the boards alternate, the top board's higher-ranked taking Red."""
    pairings = []
    for board, (high, low) in enumerate(pairs):
        if low is None:
            pairings.append(Pairing(round_number, high, None))
            continue
        on_red, on_black = _allocation_faults(records[high], records[low])
        if on_red != on_black:
            high_red = on_red < on_black
        else:
            high_red = _high_takes_red(records[high].colours, records[low].colours, board)
        red, black = (high, low) if high_red else (low, high)
        pairings.append(Pairing(round_number, red, black))
    return tuple(pairings)


def _high_takes_red(high: list[str], low: list[str], board: int) -> bool:
    """Whether the higher-ranked of two players whose colour faults tie takes Red."""
    for mine, theirs in zip(reversed(high), reversed(low), strict=False):
        if mine != theirs:
            return mine == BLACK
    if high:
        return high[-1] == BLACK
    return board % 2 == 0


# --- leagues ----------------------------------------------------------------------------------

def league_groups(entrants_by_rating: Sequence[int], group_size: int = 10
                  ) -> tuple[tuple[int, ...], ...]:
    """Groups of about `group_size` — Little Golem's 9–11 for the default 10 — strongest
    first, sizes as equal as possible (the larger groups at the bottom, where newcomers go).
    The number of groups is the one whose sizes stray least from `group_size`; fewer
    entrants than that make one group.

    >>> [len(group) for group in league_groups(range(45))]
    [9, 9, 9, 9, 9]
    >>> league_groups([5, 4, 3, 2, 1], group_size=2)
    ((5, 4), (3, 2, 1))
    """
    if group_size < 2:
        raise PairingError("a group needs at least 2 entrants")
    _check_entrants(entrants_by_rating, least=1)
    count = len(entrants_by_rating)

    def stray(groups: int) -> int:
        return max(abs(count // groups - group_size), abs(-(-count // groups) - group_size))

    groups = min(range(1, max(1, count // 2) + 1), key=stray)
    small, larger = divmod(count, groups)
    result, start = [], 0
    for index in range(groups):
        size = small + (index >= groups - larger)
        result.append(tuple(entrants_by_rating[start:start + size]))
        start += size
    return tuple(result)


def next_season(groups: Sequence[Sequence[int]], promote: int = 2, relegate: int = 2,
                joining: Sequence[int] = (), leaving: Collection[int] = (),
                group_size: int = 10) -> tuple[tuple[int, ...], ...]:
    """The next season's groups, top group first, from this season's (each in final rank
    order): the top `promote` of each group go up one group and the bottom `relegate` down
    one — not past the top or the bottom group, and in a group too small for both, promotion
    comes first. Within a new group the relegated come first, then who stayed (in rank
    order), then the promoted. Leavers are removed; newcomers (strongest first) join the
    bottom group, and if that then holds more than `group_size` + 1 it is split again into
    groups of about `group_size`. A group left with fewer than two entrants joins the one
    above it (no game can be played in it).

    >>> next_season([[1, 2, 3, 4], [5, 6, 7, 8]], promote=1, relegate=1)
    ((1, 2, 3, 5), (4, 6, 7, 8))
    """
    every = [entrant for group in groups for entrant in group]
    _check_entrants([*every, *joining], least=1)
    if promote < 0 or relegate < 0:
        raise PairingError("promotion and relegation are not negative")
    last = len(groups) - 1
    up: list[list[int]] = []
    down: list[list[int]] = []
    stay: list[list[int]] = []
    for index, group in enumerate(groups):
        rising = list(group[:min(promote, len(group))]) if index > 0 else []
        falling_count = min(relegate, len(group) - len(rising)) if index < last else 0
        falling = list(group[len(group) - falling_count:]) if falling_count else []
        up.append(rising)
        down.append(falling)
        stay.append([entrant for entrant in group if entrant not in rising + falling])
    new: list[list[int]] = []
    for index in range(len(groups)):
        above = down[index - 1] if index > 0 else []
        below = up[index + 1] if index < last else []
        new.append([e for e in above + stay[index] + below if e not in leaving])
    tail = (new.pop() if new else []) + [entrant for entrant in joining if entrant not in leaving]
    if len(tail) > group_size + 1:
        new.extend(list(group) for group in league_groups(tail, group_size))
    else:
        new.append(tail)
    return _merge_small(new)


def _merge_small(groups: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """Drop empty groups and join a group of one to the group above (below, for the top)."""
    kept = [group for group in groups if group]
    merged: list[list[int]] = []
    for group in kept:
        if merged and (len(group) < 2 or len(merged[-1]) < 2):
            merged[-1].extend(group)
        else:
            merged.append(list(group))
    return tuple(tuple(group) for group in merged)

