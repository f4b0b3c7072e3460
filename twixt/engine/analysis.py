"""A finished (or any) game looked at after the fact: Red's chance after every move, what the
engine would have played at each move instead and Red's chance after that, and the moves that
cost their movers most (the swings).

`analyze_game` replays the game from its start and asks `think` about every position: the
start, and the position after each move (a peg or a swap), where the mover's opponent is to
move. Red's chance there is the engine's calibrated chance (`engine.chance`), so a point of the
curve means the same whichever side is to move; where the search of the position before tried
the move played, its value of it is weighed in, and so is the value the search of the position
after the next move gives what that move kept (`engine.chance.CurveLooks`: three looks at the same
position, the earlier one sharing its errors with the point before and the later one with the
point after, so the curve zigzags less with the turn). For each move it also asks about the
position
after the engine's own choice at the same position (when that is another move), again with the
opponent to move: a move's *loss* is how much worse it left its mover than the engine's choice
would have, both judged alike (each position's own search and the search before's look at it,
not the later look, which knows the next move played where the engine's choice has none), and
not the drop from the position before (the drop compares a position with the mover to move
with one with the opponent to move).

The swings are the moves that lost most by a deeper look (`deep_limit`: `DEEP` times the
nodes), each at least `MIN_SWING`. The deeper look searches every position of the game on its
own (with no earlier look: the earlier search's look at its own choice is drawn upwards by its
maximum), which gives its own choice before each move and its value of the position after
it; the moves with the largest drops by it (`SCREEN`) are judged against its own choice by a
search of the position after that choice, and the `SWINGS` largest losses so judged are
listed. A move that cost nothing by it (its choice, or one as good) is never listed. The
deeper figures (its choice, Red's chance after both) replace the first look's in the report.
The screen spares a deeper search of the position after the deeper look's choice at every
move; how often the deeper look's largest loss falls outside it on real games is measured by
`benchmarks/analysis_swings.py` (docs/engine-measurements.md, "Swings judged by the deeper
look"). A screen on the first look's losses missed it: the first look's choice is often the
move played where the deeper look's is another.

A position's search gets `limit` (the default: `default_limit`) while the game has at most
`FULL_SEARCHES` searches; a longer game shares that many searches' worth, each getting at
least `MIN_NODES` (and `MIN_SECONDS`). A game with more than `MAX_POSITIONS` moves (classic
removals allow thousands of turns) is sampled evenly: a report then covers several moves, and
with no engine's choice for them there are no swings. `total_seconds` bounds the whole
analysis instead: each search gets the time left over the searches left, and once it has
passed only the curve's positions are still searched (each at least the root network's pass),
with no engine's choice and no deeper look (each search's share weighs a deeper one as
`DEEP_COST`). `progress` is told how far the analysis has come as "move n of N": the share of
its searches' cost done, in moves, so that N of N comes only after the deeper look.

The default budget (`default_limit`, `BUDGETS`) is decided here, by the core that runs the
searches, for the bot's `analyze` and `twixt analyze` alike: the Python search keeps what it
was sized for, the compiled one (about 20 times as fast) searches far deeper in about the same
wall time. Both are node counts, so an analysis is the same every run; the seconds are only a
safety bound.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from twixt.engine import core
from twixt.engine.api import Limit, PlayResult, board_nodes, fixed_nodes, think
from twixt.engine.chance import looks
from twixt.rules import Colour, Game, Turn

#: searches that each get the whole per-position limit; a longer game shares this many
FULL_SEARCHES = 120
#: the most positions analysed in one game (its start and end included)
MAX_POSITIONS = 400
#: the least a search gets when a long game shares the budget
MIN_NODES = 16
MIN_SECONDS = 0.01
#: the swings listed (at most), and the least loss of the mover's chance that lists a move
SWINGS = 3
MIN_SWING = 0.10
#: the deeper search: this many times a position's nodes (and at least the budget's
#: `deep_level`'s fixed nodes for the board), within `DEEP_SECONDS` times its seconds; at four
#: times, three of five swings on real games were ones a search forty times as deep clears,
#: at ten times none (docs/engine-measurements.md, "Swings: a deeper look")
DEEP = 10
DEEP_SECONDS = 10
#: what a deeper search costs against a position's search in an analysis's progress and
#: shared time: its nodes cost ten times, the root network's pass the same; about six times
#: on 24×24 with the compiled core (docs/engine-measurements.md, "Swings judged by the
#: deeper look")
DEEP_COST = 6

#: the seconds a position's search may take by default (a longer game shares them, as it does
#: the nodes): a bound for a slow or busy machine, below every level's own cap; the nodes decide
POSITION_SECONDS = 1.0

#: the decimal places of a chance in the JSON
JSON_PLACES = 4
#: told (moves done, moves in all) as an analysis goes on
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Budget:
    """An analysis's default budget on one core: each position gets `level`'s nodes within
    `POSITION_SECONDS`, for the board as a level searches them when `by_board` (fewer on a
    bigger board, see `engine.api.board_nodes`), else as counted for 12×12 on every board;
    the swings' deeper look at least `deep_level`'s fixed nodes for the board (`fixed_nodes`:
    the compiled core's level 5, which searches until its time cap, would make an analysis
    differ from run to run)."""

    level: int
    deep_level: int
    by_board: bool


#: the default budget by core (`engine.CORE`): the Python search keeps the budget it was
#: sized for; the compiled core's searches level 4's nodes for the board
BUDGETS = {"python": Budget(level=2, deep_level=4, by_board=False),
           "compiled": Budget(level=4, deep_level=4, by_board=True)}


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
class Screen:
    """Which moves the deeper look judges against its own choice: the `most` with the largest
    drops by it (the mover's chance before the move, to move, less after it), each at least
    `least` (the earlier of two equal drops first). A drop is no loss (the side to move has
    its own bias, and the value before is that of the deeper look's choice by the search
    that chose it, drawn upwards by its maximum), but it ranks the moves for the search
    that tells the loss."""

    least: float
    most: int

    def candidates(self, drops: list[float | None]) -> list[int]:
        """The indices of the moves this screen lets through, largest of their `drops` first
        (None: no candidate)."""
        looked = [index for index, drop in enumerate(drops) if drop is not None]
        ranked = sorted(looked, key=lambda index: (-(drops[index] or 0.0), index))
        return [index for index in ranked[:self.most] if (drops[index] or 0.0) >= self.least]


#: the analysis's screen: the ten largest drops, however small (a drop runs some 1-9 points
#: under the loss on real games, so a floor would leave out real losses): on 16 real games
#: the deeper look's largest loss, where at least 15 points, ranked 1st-3rd among the drops,
#: and a game's largest loss never below 6th (docs/engine-measurements.md, "Swings judged by
#: the deeper look")
SCREEN = Screen(least=-1.0, most=10)


@dataclass(frozen=True)
class MoveReport:
    """Move `number` (counted from 1; to `last` when a sampled game's report covers several)
    by `colour` (the team in Double TwixT), `played` as typed (several joined by ", "), left
    Red with the chance `red`; `best` is the engine's choice at the same position ("" when
    none was searched) and `red_best` Red's chance after it (None with no `best`, or when a
    bound on the whole analysis had passed), both judged with the opponent to move.
    `best_colour` is the mover's colour after `best` (not `colour` when one of the two moves
    is a swap and the other is not). `alike` is Red's chance after the move judged as the
    engine's choice is (without the curve's later look; None: `red`): what `loss` compares."""

    number: int
    last: int
    colour: Colour
    played: str
    red: float
    best: str
    red_best: float | None
    best_colour: Colour | None = None
    alike: float | None = None

    @property
    def loss(self) -> float:
        """How much less the move left its mover than the engine's choice would have (0 with
        no choice; below 0 when the move played looked better)."""
        if self.red_best is None:
            return 0.0
        return (_share(self.best_colour or self.colour, self.red_best)
                - _share(self.colour, self.red if self.alike is None else self.alike))


@dataclass(frozen=True)
class GameAnalysis:
    """Red's chance before the first move (`start`), a report a move (or, when `step` > 1, a
    report every `step` moves), and the swings: the numbers of the listed moves, biggest loss
    first. `nodes` is every search's nodes, `deep_nodes` those of each of the deeper look's
    searches in order, `first_losses` each move's loss by the first look (before the deeper
    look replaced its figures), `drops` each move's drop by the deeper look (`Screen`'s
    measure; None: the deeper look's own choice, or not looked at) and `judged` the numbers of
    the moves the deeper look judged (by its drop, largest first): the work done, for a reader
    to check (the benchmark, the tests)."""

    start: float
    moves: tuple[MoveReport, ...]
    swings: tuple[int, ...]
    step: int = 1
    nodes: int = 0
    deep_nodes: tuple[int, ...] = ()
    first_losses: tuple[float, ...] = ()
    drops: tuple[float | None, ...] = ()
    judged: tuple[int, ...] = ()

    def move(self, number: int) -> MoveReport:
        """The report of the move `number`."""
        return next(report for report in self.moves if report.number == number)

    def red_before(self, number: int) -> float:
        """Red's chance before the move `number`: the curve's point before it."""
        earlier = [report.red for report in self.moves if report.number < number]
        return earlier[-1] if earlier else self.start

    def as_json(self) -> dict[str, object]:
        """The analysis as one JSON object (`twixt analyze --json`, see docs/command-line.md):
        Red's chances to `JSON_PLACES` places."""
        return {"start": round(self.start, JSON_PLACES), "step": self.step,
                "moves": [{"number": r.number, "colour": r.colour.value, "played": r.played,
                           "red": round(r.red, JSON_PLACES), "best": r.best or None,
                           "red_best": None if r.red_best is None
                           else round(r.red_best, JSON_PLACES)}
                          for r in self.moves],
                "swings": list(self.swings)}


def position_limit(limit: Limit, searches: int) -> Limit:
    """What each of `searches` searches gets of a per-position `limit` (see the module)."""
    share = min(1.0, FULL_SEARCHES / max(1, searches))
    nodes = None if limit.nodes is None else max(MIN_NODES, int(limit.nodes * share))
    seconds = None if limit.seconds is None else max(MIN_SECONDS, limit.seconds * share)
    return Limit(seconds=seconds, nodes=nodes)


def deep_limit(limit: Limit, game: Game) -> Limit:
    """What the deeper look at a candidate swing gets: `DEEP` times a position's limit, with at
    least the fixed nodes of the budget's `deep_level` for the board."""
    least = board_nodes(fixed_nodes(budget().deep_level), game)
    nodes = None if limit.nodes is None else max(limit.nodes * DEEP, least)
    seconds = None if limit.seconds is None else limit.seconds * DEEP_SECONDS
    return Limit(seconds=seconds, nodes=nodes)


class _Told:
    """An analysis's progress, told as "move n of N" (`Progress`): n is the share of the
    searches' cost done, in moves, so that the deeper look's searches after the last move's
    count too; told when it grows, and N of N at the end."""

    def __init__(self, progress: Progress | None, moves: int) -> None:
        self.progress = progress
        self.moves = moves
        self.said = 0

    def tell(self, done: float, planned: float) -> None:
        """Told `done` of the `planned` cost."""
        reached = min(self.moves, int(self.moves * done / max(planned, 1e-9) + 1e-9))
        if self.progress is not None and reached > self.said:
            self.said = reached
            self.progress(reached, self.moves)

    def finish(self) -> None:
        """The analysis is done: N of N, unless already told."""
        self.tell(1.0, 1.0)


class _Searches:
    """The analysis's searches: each position's limit, or the time left shared out when the
    whole analysis is bounded (`total_seconds`, by each search's cost: a deeper look's search
    `DEEP_COST`, another 1), the nodes searched and the progress told."""

    def __init__(self, limit: Limit, planned: int, cost: float, seed: int,
                 total_seconds: float | None, told: _Told) -> None:
        self.limit = position_limit(limit, planned)
        self.planned = cost
        self.done = 0.0
        self.seed = seed
        self.deadline = None if total_seconds is None else time.monotonic() + total_seconds
        self.nodes = 0
        self.told = told

    def plan(self, left: float) -> None:
        """What is left to search now costs `left` (the deeper look's candidates are known)."""
        self.planned = self.done + left

    def out_of_time(self) -> bool:
        """Whether a bound on the whole analysis has passed: what is not needed for the curve
        (the engine's choices, the deeper look) is then no longer searched."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def look(self, board: Game, earlier: PlayResult | None, last: Turn | None,
             limit: Limit | None = None, cost: float = 1.0) -> _Look:
        """Red's chance in a position (exact once it is over) and the engine's search there, of
        `limit` (the position's when None) and `cost`; `earlier` is the search of the position
        before, whose look at the move that led here (`last`) is weighed in
        (`engine.chance.CurveLooks`)."""
        outcome = board.outcome
        if outcome is not None:
            return _Look(0.5 if outcome.winner is None else float(outcome.winner is Colour.RED))
        chosen = self.limit if limit is None else limit
        if self.deadline is not None:
            left = max(cost, self.planned - self.done)
            share = max(MIN_SECONDS, (self.deadline - time.monotonic()) * cost / left)
            chosen = replace(chosen, seconds=min(chosen.seconds or share, share))
        result = think(board, chosen, seed=self.seed)
        self.done += cost
        self.told.tell(self.done, self.planned)
        self.nodes += result.nodes
        value, visits = _earlier_look(earlier, last, board.colour_to_move)
        look = _Look(0.0, result, board.colour_to_move, value, visits)
        return replace(look, red=look.red_with())


@dataclass(frozen=True)
class _Look:
    """Red's chance in a position, and the engine's search there (None once it is over) with
    the side then `to_move` and the search before's look at the position (`earlier`, for that
    side, of `visits` visits; None, 0: none)."""

    red: float
    result: PlayResult | None = None
    to_move: Colour = Colour.RED
    earlier: float | None = None
    visits: int = 0

    def red_with(self, later: _Look | None = None) -> float:
        """Red's chance by this search, its earlier look and the search of `later` (the
        position after the next move, when that search is there and the other side was to
        move in it: `engine.chance.CurveLooks`); by this search alone (`PlayResult.win`) when it
        has neither, as the swings' deeper look has."""
        if self.result is None:
            return self.red
        after = None if later is None or later.to_move is self.to_move else later.result
        value = None if after is None or after.searched is None else 1.0 - after.searched
        win = self.result.win
        if self.result.searched is not None and (self.earlier is not None or value is not None):
            win = looks().chance(self.result.searched, self.result.nodes, self.earlier,
                                 self.visits, value, 0 if after is None else after.nodes)
        win = min(1.0, max(0.0, win))
        return win if self.to_move is Colour.RED else 1.0 - win

    @property
    def move(self) -> str:
        """The engine's move ("" once the game is over)."""
        return "" if self.result is None else self.result.move


def _earlier_look(earlier: PlayResult | None, last: Turn | None,
                  to_move: Colour) -> tuple[float | None, int]:
    """The earlier search's value of the move `last`, for the side now to move (`to_move`),
    and its visits (None, 0: no earlier search, or it did not try that peg)."""
    if earlier is None or last is None or last.colour is to_move:
        return None, 0  # a privilege: the earlier search saw no such turn
    hole = None if last.placed is None else str(last.placed)
    for tried in earlier.root_moves:
        if tried.hole == hole:
            return 1.0 - tried.searched, tried.visits
    return None, 0


def analyze_game(game: Game, limit: Limit, *, seed: int = 0, total_seconds: float | None = None,
                 progress: Progress | None = None, screen: Screen | None = None) -> GameAnalysis:
    """Red's chance before the first move and after every move, the engine's choice at each
    and the swings (the moves `screen`, by default `SCREEN`, lets the deeper look judge);
    `game` is left as it was. Deterministic for a `limit` without seconds, no `total_seconds`
    and a `seed`."""
    chosen = SCREEN if screen is None else screen
    turns = game.history
    moves = [index for index, turn in enumerate(turns) if turn.command.is_move]
    step = max(1, math.ceil(len(moves) / (MAX_POSITIONS - 1)))
    marks = sorted({*range(0, len(moves), step), len(moves)})
    planned = len(marks) + (len(marks) - 1 if step == 1 else 0)
    deep_planned = len(marks) + chosen.most if step == 1 else 0
    searches = _Searches(limit, planned, planned + DEEP_COST * deep_planned, seed,
                         total_seconds, _Told(progress, len(moves)))
    board = game.copy()
    for _ in turns:  # back to the start, one undo a turn (`history` is a fresh tuple a read)
        board.undo()
    positions: list[Game] = []
    seen: list[_Look] = []
    reports: list[MoveReport] = []
    played_best: list[bool] = []   # a move a report: the engine's choice led to its position
    first_look = searches.look(board, None, None)
    start, best = first_look.red, first_look.move
    seen.append(first_look)
    applied = 0
    for number, mark in enumerate(marks):
        # the position right after move `mark` (draw offers and the like come after it)
        until = moves[mark - 1] + 1 if mark else 0
        for turn in turns[applied:until]:
            board.push(turn.command, by=turn.player)
        applied = until
        positions.append(board.copy())
        if not number:
            continue
        first = marks[number - 1]
        earlier = seen[-1].result if step == 1 else None
        looked = searches.look(board, earlier, turns[moves[mark - 1]])
        seen.append(looked)
        red, next_best = looked.red, looked.move
        red_best, same = None, False
        if step == 1 and best and not searches.out_of_time():
            found = _after(positions[-2], best, board, searches, earlier)
            red_best, same = (red, True) if found is None else (found, False)
        played_best.append(same)
        mover = turns[moves[first]]
        reports.append(MoveReport(first + 1, mark, mover.colour,
                                  ", ".join(turns[index].text for index in moves[first:mark]),
                                  red, best if step == 1 else "", red_best,
                                  _best_colour(positions[-2], best)))
        best = next_best
    if step == 1:  # the curve: each point with the search of the position after it too
        start = first_look.red_with(seen[1] if len(seen) > 1 else None)
        reports = [_on_curve(report, seen[place].red_with(
                       seen[place + 1] if place + 1 < len(seen) else None), played_best[place - 1])
                   for place, report in enumerate(reports, start=1)]
    first_losses = tuple(report.loss for report in reports)
    deeper = _Deeper(positions, searches, deep_limit(limit, game))
    drops: list[float | None] = [None] * len(reports)
    if step == 1 and not searches.out_of_time():
        drops = deeper.drops(reports)
    candidates = chosen.candidates(drops)
    searches.plan(DEEP_COST * len(candidates))
    for index in candidates:
        if searches.out_of_time():
            break
        reports[index] = deeper.report(index, reports[index])
    searches.told.finish()
    listed = listed_swings(reports, deeper.done)
    return GameAnalysis(start, tuple(reports), tuple(reports[i].number for i in listed), step,
                        searches.nodes, tuple(deeper.nodes), first_losses, tuple(drops),
                        tuple(reports[i].number for i in deeper.done))


def listed_swings(reports: Sequence[MoveReport], judged: Iterable[int]) -> list[int]:
    """The indices of the swings among the moves the deeper look `judged`: the `SWINGS`
    largest losses of at least `MIN_SWING`, largest first (the earlier of two equal ones)."""
    return sorted((index for index in judged if reports[index].loss >= MIN_SWING),
                  key=lambda index: (-reports[index].loss, index))[:SWINGS]


class _Deeper:
    """The deeper look (`deep_limit`): every position of the game searched on its own (no
    earlier look: the earlier search's look at its own choice is drawn upwards by its
    maximum), which gives its own choice before each move and its value of the position after
    it, and for the moves the screen lets through the position after that choice."""

    def __init__(self, positions: list[Game], searches: _Searches, limit: Limit) -> None:
        self.positions = positions
        self.searches = searches
        self.limit = limit
        self.looks: dict[int, _Look] = {}
        #: the indices of the moves judged, and each deeper search's nodes in order
        self.done: list[int] = []
        self.nodes: list[int] = []

    def look(self, place: int) -> _Look:
        """The deeper look at the position after `place` moves."""
        if place not in self.looks:
            done = self.searches.nodes
            self.looks[place] = self.searches.look(self.positions[place], None, None,
                                                   self.limit, DEEP_COST)
            self.nodes.append(self.searches.nodes - done)
        return self.looks[place]

    def drops(self, reports: list[MoveReport]) -> list[float | None]:
        """Each move's drop by the deeper look, the screen's measure: how much less the
        mover's chance is after the move (the opponent to move) than before it (the mover to
        move, by its own choice); None where that choice is the move played (it cost nothing)
        or a bound on the whole analysis stopped the look first."""
        for place in range(len(self.positions)):
            if self.searches.out_of_time():
                break
            self.look(place)
        found: list[float | None] = []
        for index, report in enumerate(reports):
            if index + 1 not in self.looks:
                found.append(None)
                continue
            before = self.positions[index]
            best = self.look(index).move
            suggested = before.copy()
            suggested.play(best)
            if _board(suggested) == _board(self.positions[index + 1]):
                found.append(None)   # its own choice: the move cost nothing
                continue
            found.append(_share(_best_colour(before, best), self.look(index).red)
                         - _share(report.colour, self.look(index + 1).red))
        return found

    def report(self, index: int, old: MoveReport) -> MoveReport:
        """The report of the move at `index` with the deeper look's figures: Red's chance
        after the move played and after the deeper look's own choice at the same position."""
        before = self.positions[index]
        best = self.look(index).move
        red = self.look(index + 1).red
        done = self.searches.nodes
        found = _after(before, best, self.positions[index + 1], self.searches, None, self.limit,
                       DEEP_COST)
        red_best = red if found is None else found
        if self.searches.nodes != done:
            self.nodes.append(self.searches.nodes - done)
        self.done.append(index)
        return replace(old, red=red, best=best, red_best=red_best,
                       best_colour=_best_colour(before, best), alike=None)


def _best_colour(before: Game, best: str) -> Colour:
    """The mover's colour after the move `best` in the position `before` (a swap takes the
    other colour)."""
    to_move = before.colour_to_move
    return to_move.opponent if best == "swap" else to_move


def _after(before: Game, best: str, played: Game, searches: _Searches,
           earlier: PlayResult | None, limit: Limit | None = None,
           cost: float = 1.0) -> float | None:
    """Red's chance after the engine's move `best` in the position `before` (whose search was
    `earlier`), searched with `limit` at `cost`; None when it leads to the position the move
    played did (`played`), whose chance is then the move's own."""
    suggested = before.copy()
    turn = suggested.play(best)
    if _board(suggested) == _board(played):
        return None
    return searches.look(suggested, earlier, turn, limit, cost).red


def _on_curve(report: MoveReport, red: float, played_best: bool) -> MoveReport:
    """`report` with Red's chance from the curve's three looks (`red`); its loss still
    compares the move with the engine's choice by the first two (`alike`). When the engine's
    choice led to the same position (`played_best`), its chance is the move's, the same
    figure, and the move lost nothing."""
    if played_best:
        return replace(report, red=red, red_best=red, alike=None)
    return replace(report, red=red, alike=report.red)


def _share(colour: Colour, red_win: float) -> float:
    """`colour`'s chance when Red's is `red_win`."""
    return red_win if colour is Colour.RED else 1.0 - red_win


def _board(game: Game) -> tuple[frozenset[tuple[Colour, int, int]], frozenset[str], Colour]:
    """What a position is, whichever moves led to it: its pegs, its links, who is to move."""
    return (frozenset((peg.colour, peg.hole.col, peg.hole.row) for peg in game.pegs()),
            frozenset(str(link) for link in game.links()), game.colour_to_move)
