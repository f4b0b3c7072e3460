"""A finished (or any) game looked at after the fact: Red's chance in each position, what the
engine would have played there, and the turns that swung the game most.

`analyze_game` replays the game from its start and asks `think` about the position before
each move (a peg or a swap) and after the last one. Its `Limit` is what ONE position gets in
a game of up to `FULL_POSITIONS` positions; a longer game shares that many positions' worth
among all of its positions, each getting at least `MIN_NODES` nodes (and `MIN_SECONDS`, when
time bounds the search), so the work is bounded by about `FULL_POSITIONS` searches plus the
floors of at most `MAX_POSITIONS` positions. A game with more moves than that (classic
removals allow thousands of turns) is sampled evenly: a report then covers several moves,
and a swing names them all.

A swing is a move that cost its mover: their chance after it is below their chance before.
A rise of the mover's chance is never one (it only shows that the search had not yet seen
the opponent's previous mistake). The biggest swings are what a reader studies, so for each
of the `SWINGS` moves that cost their movers most the positions at both ends are searched
again, each with `DEEP` times the per-position limit and at least the fixed nodes of the
budget's `deep_level` for the board, and so is the position after the engine's own move
there: the swing's chances, the engine's move and the chance after it come from that deeper
search, the same for the move played and the engine's. A move is reported only when the
deeper search agrees that it cost its mover and that the engine's move (a different one) is
at least as good for the mover as the move played; so there may be fewer than `SWINGS`.
(A sampled game's swing covers several moves of both sides: it names no engine move, which
would replace only the first of them.) That is at most `3 * SWINGS` more searches,
`DEEP_SHARE` positions' worth of the per-position limit (the floor may make them more), which
a game of more than `FULL_POSITIONS - DEEP_SHARE` positions makes room for by sharing the
rest. The whole stays within about `FULL_POSITIONS` searches.

The default budget (`default_limit`, `BUDGETS`) is decided here, by the core that runs the
searches, for the bot's `analyze` and `twixt analyze` alike: the Python search keeps what it
was sized for, the compiled one (about 20 times as fast) searches far deeper in about the same
wall time. Both are node counts, so an analysis is the same every run; the seconds are only a
safety bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from twixt.engine import core
from twixt.engine.api import Limit, board_nodes, fixed_nodes, think
from twixt.rules import Colour, Game

#: positions that each get the whole per-position budget; a longer game shares this much
FULL_POSITIONS = 40
#: the most positions analysed in one game (its start and end included)
MAX_POSITIONS = 400
#: the least a position gets when a long game shares the budget
MIN_NODES = 16
MIN_SECONDS = 0.01
#: the swings reported (at most), and the least loss of the mover's chance that counts as one
SWINGS = 3
MIN_SWING = 0.01
#: the deeper search at the ends of the biggest swings: this many times a position's limit
#: (and at least the budget's `deep_level`, which is more for the default budgets)
DEEP = 2
#: … within this many times a position's seconds (a safety bound for a slow or busy machine:
#: the floor's nodes take the Python core about a second)
DEEP_SECONDS = 3
#: what those searches take of the `FULL_POSITIONS` positions' worth (at most): both ends of
#: each swing and the position after the engine's move
DEEP_SHARE = 3 * SWINGS * DEEP


#: the seconds a position's search may take by default (a longer game shares them, as it does
#: the nodes): a bound for a slow or busy machine, below every level's own cap; the nodes decide
POSITION_SECONDS = 1.0


@dataclass(frozen=True)
class Budget:
    """An analysis's default budget on one core: each position gets `level`'s nodes within
    `POSITION_SECONDS`, for the board as a level searches them when `by_board` (fewer on a
    bigger board, see `engine.api.board_nodes`), else as counted for 12×12 on every board;
    both ends of the biggest swings at least `deep_level`'s fixed nodes for the board
    (`fixed_nodes`: the compiled core's level 5, which searches until its time cap, would make
    an analysis differ from run to run)."""

    level: int
    deep_level: int
    by_board: bool


#: the default budget by core (`engine.CORE`), chosen from whole analyses of real games
#: (`benchmarks/engine_bench.py --parts analysis`; docs/engine.md, "Analysis"): the Python
#: search keeps the budget it was sized for; the compiled core's takes no longer on 24×24 and
#: 48×48 (level 4's 12×12 count on every board would take 40% longer on 48×48)
BUDGETS = {"python": Budget(level=2, deep_level=4, by_board=False),
           "compiled": Budget(level=4, deep_level=5, by_board=True)}


def budget() -> Budget:
    """The default budget of the core this process searches with."""
    return BUDGETS["compiled" if core.compiled else "python"]


def default_limit(game: Game) -> Limit:
    """What each position of an analysis of `game` gets by default (the bot's `analyze`,
    `twixt analyze`): its budget's level's nodes, so that an analysis is the same every run,
    within `POSITION_SECONDS`."""
    chosen = budget()
    nodes = fixed_nodes(chosen.level)
    return Limit(seconds=POSITION_SECONDS,
                 nodes=board_nodes(nodes, game) if chosen.by_board else nodes)


@dataclass(frozen=True)
class PositionReport:
    """One position: `turn` moves have been made (0: the start); `red_win` is Red's chance
    there (exact once the game is over); `preferred` the engine's move for the side to move
    ("" when over); `played` what was played from here to the next report, the moves joined
    by ", " ("" after the last)."""

    turn: int
    red_win: float
    preferred: str
    played: str


@dataclass(frozen=True)
class Swing:
    """Moves `turn` to `last_turn` (one move: the same number, counted from 1) changed Red's
    chance from `red_before` to `red_after`, for the worse for `mover`, who made the first of
    them; `preferred` is what the engine would have played instead ("" for a sampled game's
    swing of several moves), and `preferred_win` Red's chance after it, by the same search as
    `red_after` and at least as good for `mover` (`red_after` when no move is named)."""

    turn: int
    last_turn: int
    mover: Colour
    played: str
    preferred: str
    red_before: float
    red_after: float
    preferred_win: float

    @property
    def change(self) -> float:
        """How much Red's chance rose (negative: fell)."""
        return self.red_after - self.red_before

    @property
    def cost(self) -> float:
        """How much the mover's chance fell (above 0 for every swing)."""
        return _share(self.mover, self.red_before) - _share(self.mover, self.red_after)


@dataclass(frozen=True)
class GameAnalysis:
    """Every analysed position in order, and the biggest swings, biggest first. `step` is
    how many moves one report covers (1 unless the game was sampled); `nodes` the nodes of
    every search, `deep_nodes` those of each deeper search of a swing's end (a position
    already over is not searched), in the order searched: the work done, for a reader to
    check (the benchmark, the tests)."""

    reports: tuple[PositionReport, ...]
    swings: tuple[Swing, ...]
    step: int = 1
    nodes: int = 0
    deep_nodes: tuple[int, ...] = ()


def position_limit(limit: Limit, positions: int) -> Limit:
    """What each of `positions` positions gets of a per-position `limit` (see the module)."""
    share = min(1.0, FULL_POSITIONS / max(1, positions))
    nodes = None if limit.nodes is None else max(MIN_NODES, int(limit.nodes * share))
    seconds = None if limit.seconds is None else max(MIN_SECONDS, limit.seconds * share)
    return Limit(seconds=seconds, nodes=nodes)


def analyze_game(game: Game, limit: Limit, *, seed: int = 0) -> GameAnalysis:
    """Red's chance before the first move, after every move, and the three biggest swings;
    `game` is left as it was. Deterministic for a `limit` without seconds and a `seed`."""
    turns = game.history
    moves = [index for index, turn in enumerate(turns) if turn.command.is_move]
    step = max(1, math.ceil(len(moves) / (MAX_POSITIONS - 1)))
    marks = sorted({*range(0, len(moves), step), len(moves)})
    # the deeper searches take DEEP_SHARE positions' worth: the others share the rest
    each = position_limit(limit, math.ceil(len(marks) * FULL_POSITIONS
                                           / (FULL_POSITIONS - DEEP_SHARE)))
    board = game.copy()
    for _ in turns:  # back to the start, one undo a turn (`history` is a fresh tuple a read)
        board.undo()
    reports: list[PositionReport] = []
    positions: list[Game] = []
    nodes = 0
    applied = 0
    for number, mark in enumerate(marks):
        # the position right after move `mark` (draw offers and the like come after it)
        until = moves[mark - 1] + 1 if mark else 0
        for turn in turns[applied:until]:
            board.push(turn.command, by=turn.player)
        applied = until
        positions.append(board.copy())
        red, preferred, searched = _red_chance(board, each, seed)
        nodes += searched
        following = marks[number + 1] if number + 1 < len(marks) else mark
        played = ", ".join(turns[index].text for index in moves[mark:following])
        reports.append(PositionReport(mark, red, preferred, played))
    movers = _movers(game)
    candidates = _biggest(reports, movers)
    deep = deep_limit(limit, game)
    deep_nodes = []
    for number in sorted({n + end for n in candidates for end in (0, 1)}):
        red, preferred, searched = _red_chance(positions[number], deep, seed)
        if preferred:
            deep_nodes.append(searched)
        old = reports[number]
        reports[number] = PositionReport(old.turn, red, preferred, old.played)
    swings = []
    for number in candidates:
        before = reports[number]
        swing, searched = _swing(before, reports[number + 1], positions[number],
                                 positions[number + 1], movers[before.turn], step, deep, seed)
        if searched:
            deep_nodes.append(searched)
        if swing is not None:
            swings.append(swing)
    swings.sort(key=lambda swing: (-swing.cost, swing.turn))
    return GameAnalysis(tuple(reports), tuple(swings), step, nodes + sum(deep_nodes),
                        tuple(deep_nodes))


def deep_limit(limit: Limit, game: Game) -> Limit:
    """What each end of a big swing gets (see the module): `DEEP` times a position's limit,
    with at least the fixed nodes of the budget's `deep_level` for the board."""
    least = board_nodes(fixed_nodes(budget().deep_level), game)
    nodes = None if limit.nodes is None else max(limit.nodes * DEEP, least)
    seconds = None if limit.seconds is None else limit.seconds * DEEP_SECONDS
    return Limit(seconds=seconds, nodes=nodes)


def _share(colour: Colour, red_win: float) -> float:
    """`colour`'s chance when Red's is `red_win`."""
    return red_win if colour is Colour.RED else 1.0 - red_win


def _movers(game: Game) -> list[Colour]:
    """The colour of each move's mover as it moved (a swap: the colour swapped to)."""
    return [turn.colour for turn in game.history if turn.command.is_move]


def _biggest(reports: list[PositionReport], movers: list[Colour]) -> list[int]:
    """The report numbers where the `SWINGS` moves that cost their movers most start, most
    first (the earlier of two equal ones first); a loss under `MIN_SWING`, or a rise, is
    none."""
    losses = sorted((_share(movers[before.turn], after.red_win)
                     - _share(movers[before.turn], before.red_win), number)
                    for number, (before, after) in enumerate(pairwise(reports)))
    return [number for change, number in losses[:SWINGS] if -change >= MIN_SWING]


def _swing(before: PositionReport, after: PositionReport, start: Game, end: Game,
           mover: Colour, step: int, deep: Limit, seed: int) -> tuple[Swing | None, int]:
    """The swing from position `start` (reported as `before`) to `end` (`after`), both
    searched deeply, and the nodes of the search after the engine's move there (0: none).
    None when it is no swing: the deeper search saw no loss of the mover's, or the engine
    would have played the move played, or its move is worse for the mover by the same
    search as the move played."""
    if _share(mover, before.red_win) - _share(mover, after.red_win) < MIN_SWING:
        return None, 0
    if step > 1 or not before.preferred:
        return Swing(before.turn + 1, after.turn, mover, before.played, "", before.red_win,
                     after.red_win, after.red_win), 0
    suggested = start.copy()
    suggested.play(before.preferred)
    if _board(suggested) == _board(end):
        return None, 0   # the engine agrees with the move: the loss was seen late, not made
    red, _, searched = _red_chance(suggested, deep, seed)
    if _share(mover, red) < _share(mover, after.red_win):
        return None, searched
    return Swing(before.turn + 1, after.turn, mover, before.played, before.preferred,
                 before.red_win, after.red_win, red), searched


def _board(game: Game) -> tuple[frozenset[tuple[Colour, int, int]], frozenset[str], Colour]:
    """What a position is, whichever moves led to it: its pegs, its links, who is to move."""
    return (frozenset((peg.colour, peg.hole.col, peg.hole.row) for peg in game.pegs()),
            frozenset(str(link) for link in game.links()), game.colour_to_move)


def _red_chance(board: Game, limit: Limit, seed: int) -> tuple[float, str, int]:
    """Red's chance in a position, the engine's move there (exact and "" once over) and the
    nodes searched."""
    outcome = board.outcome
    if outcome is not None:
        return (0.5 if outcome.winner is None else float(outcome.winner is Colour.RED)), "", 0
    result = think(board, limit, seed=seed)
    win = min(1.0, max(0.0, result.win))
    return ((win if board.colour_to_move is Colour.RED else 1.0 - win), result.move,
            result.nodes)


