"""The table of a tournament: points, a tie-break, shared ranks; and withdrawals as forfeits.

Pure, like `pairing`: computed afresh from the games played whenever the
service wants it (after each game, after a restart), so nothing about it needs storing.

Counting: a win is 1, a draw ½, a loss 0, for every game whether played, timed out or
forfeited; a bye is the point its `PairingResult.score` says (the service gives 1) and counts as a
win. So `points == wins + draws / 2`, and `played` counts byes and forfeits too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from twixt.service.pure.tournaments.pairing import (
    MAX_ENTRANTS,
    Pairing,
    PairingError,
    PairingResult,
)

SCORES = (0.0, 0.5, 1.0)


class TieBreak(StrEnum):
    """Which tie-break orders equal points."""

    SONNEBORN_BERGER = "sonneborn-berger"   # round robin and league groups
    BUCHHOLZ = "buchholz"                   # Swiss


@dataclass(frozen=True)
class Standing:
    """One line of the table: `rank` is 1-based, shared by equal points and tie-break."""

    entrant: int
    rank: int
    points: float
    tie_break: float
    played: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class _Result:
    """One entrant's side of a game: the opponent (None for a bye) and the score."""

    opponent: int | None
    score: float
    forfeit: bool


def _results(played: Sequence[PairingResult]) -> dict[int, list[_Result]]:
    results: dict[int, list[_Result]] = defaultdict(list)
    for game in played:
        if game.score not in SCORES:
            raise PairingError(f"a game's score is 0, 0.5 or 1, not {game.score}")
        results[game.red].append(_Result(game.black, game.score, game.forfeit))
        if game.black is not None:
            results[game.black].append(_Result(game.red, 1 - game.score, game.forfeit))
    return results


def standings(entrants: Sequence[int], played: Sequence[PairingResult],
              tie_break: TieBreak) -> tuple[Standing, ...]:
    """The table, best first: points, then the tie-break, then (for a stable order) the
    entrant's order in `entrants`. Games against entrants not listed still count.

    Sonneborn-Berger: the points of each opponent beaten plus half the points of each one
    drawn (a double tournament counts each game); a bye adds nothing. Buchholz: the sum of the
    opponents' points, where a bye or a forfeit (won or lost) counts as a game against
    oneself — it adds the entrant's own points — so that neither a bye nor an opponent who
    walked away lifts or sinks anyone's Buchholz. (FIDE's "virtual opponent" is finer, but
    needs the number of rounds and says much the same.)

    >>> games = [PairingResult(1, 1, 2, 1), PairingResult(1, 3, None, 1),
    ...          PairingResult(2, 2, 3, 0.5), PairingResult(2, 1, None, 1),
    ...          PairingResult(3, 3, 1, 0.5), PairingResult(3, 2, None, 1)]
    >>> for line in standings([1, 2, 3], games, TieBreak.SONNEBORN_BERGER):
    ...     print(line.rank, line.entrant, line.points, line.tie_break)
    1 1 2.5 2.5
    2 3 2.0 2.0
    3 2 1.5 1.0
    """
    if len(entrants) > MAX_ENTRANTS or len(set(entrants)) != len(entrants):
        raise PairingError(f"entrants are distinct and at most {MAX_ENTRANTS}")
    results = _results(played)
    points = {entrant: sum(result.score for result in lines)
              for entrant, lines in results.items()}

    def breaker(entrant: int) -> float:
        own = points.get(entrant, 0.0)
        if tie_break is TieBreak.SONNEBORN_BERGER:
            return sum(result.score * points[result.opponent] for result in results[entrant]
                       if result.opponent is not None)
        return sum(own if result.opponent is None or result.forfeit
                   else points[result.opponent] for result in results[entrant])

    lines = [(entrant, points.get(entrant, 0.0), breaker(entrant)) for entrant in entrants]
    order = sorted(range(len(lines)), key=lambda index: (-lines[index][1], -lines[index][2],
                                                         index))
    table: list[Standing] = []
    for place, index in enumerate(order):
        entrant, score, tie = lines[index]
        rank = place + 1
        if table and (table[-1].points, table[-1].tie_break) == (score, tie):
            rank = table[-1].rank
        mine = [result.score for result in results.get(entrant, [])]
        table.append(Standing(entrant, rank, score, tie, len(mine), mine.count(1.0),
                              mine.count(0.5), mine.count(0.0)))
    return tuple(table)


def withdraw(entrant: int, pairings: Sequence[Pairing], played: Sequence[PairingResult]
             ) -> tuple[PairingResult, ...]:
    """The withdrawn entrant's remaining games — every pairing of theirs with an opponent
    that `played` has no result for (same round, same two entrants) — as forfeit losses for
    them: the opponent wins 1–0, `forfeit=True`. Their byes to come are simply dropped.

    >>> withdraw(3, [Pairing(1, 1, 3), Pairing(2, 3, 2), Pairing(3, 3, None)],
    ...          [PairingResult(1, 1, 3, 0.5)])
    (PairingResult(round=2, red=3, black=2, score=0.0, forfeit=True),)
    """
    done = {(game.round, frozenset((game.red, game.black))) for game in played}
    return tuple(
        PairingResult(pairing.round, pairing.red, pairing.black,
               0.0 if pairing.red == entrant else 1.0, forfeit=True)
        for pairing in pairings
        if pairing.black is not None and entrant in (pairing.red, pairing.black)
        and (pairing.round, frozenset((pairing.red, pairing.black))) not in done)
