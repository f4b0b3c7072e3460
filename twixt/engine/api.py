"""The engine's whole interface: what the caller asks (`Limit`) and what it gets (`PlayResult`)."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from twixt.engine import core
from twixt.engine.about import LEVELS
from twixt.engine.board import Board
from twixt.engine.chance import calibrated
from twixt.engine.core import search
from twixt.engine.evaluate import side
from twixt.engine.notation import line_text, move_text
from twixt.engine.opening import fair_first_peg, should_swap
from twixt.engine.policy import root_scores
from twixt.engine.search import MAX_NODES, ROOT_WIDTH, blocking_holes, winning_holes
from twixt.rules import Colour, Game, IllegalMoveError, TwixtError


@dataclass(frozen=True)
class Limit:
    """How much the engine may think: at most `seconds` of wall time and at most `nodes`
    search nodes, whichever comes first (None: no bound of that kind; at least one is set)."""

    seconds: float | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class PlayResult:
    """The engine's answer: `move` as a player would type it (`G6 link E5`, `swap`,
    `G6; privilege`), `win` the chance (0–1) that the side to move wins (calibrated on real
    games: `engine.chance`), `pv` the expected line starting with `move`, the work done, and
    `searched`, the search's own value for the side to move that `win` was calibrated from
    (None where no search ran: a swap or an opening peg); `root_moves` every move the search
    tried at the root (none where no search ran)."""

    move: str
    win: float
    pv: tuple[str, ...]
    nodes: int
    seconds: float
    searched: float | None = None
    root_moves: tuple[RootMove, ...] = ()


@dataclass(frozen=True)
class RootMove:
    """A move the search tried at the root: the `hole` of its peg (`G6`), how often it was
    `visits`ited and its `searched` value, the search's own mean for the side to move after
    it. The analysis reads the move played and the engine's choice there as a second,
    earlier look at the position each leads to (`engine.analysis`)."""

    hole: str
    visits: int
    searched: float


@dataclass(frozen=True)
class LevelLimit(Limit):
    """A level's budget (what `level_limit` gives): a `Limit` that also says which level it
    is for, so that the search plays as loosely as that level should."""

    level: int = 5


#: per level: search nodes (level 5's with the Python core: compiled, it searches until its
#: time cap, see `_level_nodes_on_12`); the time cap that keeps a slow machine or a huge
#: board in bounds (seconds); the share of seeded noise in the root's priors; and the
#: temperature of the final choice (0: the most searched move; above 0: a move drawn by how
#: much each was searched, so a lower level errs now and then and each level stays clearly
#: ahead of the one below)
_LEVELS = {
    1: (12, 0.5, 0.6, 1.0),
    2: (150, 2.0, 0.1, 0.9),
    3: (600, 4.0, 0.05, 0.85),
    4: (2500, 7.0, 0.03, 0.7),
    5: (30000, 10.0, 0.02, 0.0),
}
#: the board (in holes) a level's nodes are counted for: 12×12
_LEVEL_BOARD = 144
#: the budget when a Limit bounds neither nodes nor time
_DEFAULT_NODES = 800
#: prior noise and temperature of any other limit: nearly by the book
_PLAIN = (0.02, 0.0)
#: an opponent this many pegs or fewer from connecting is a threat anyone sees: every level
#: then answers it by the book (a beginner blocks a chain that is nearly through, too; a
#: low level plays loosely only while nothing presses)
PLAIN_THREAT_PEGS = 3


def level_limit(level: int) -> Limit:
    """The budget of a level (1 answers at once, 5 thinks up to ten seconds): a number of
    nodes, so that a level and a seed always give the same move, and a time cap for safety
    (which the compiled core's level 5 is meant to reach: it plays as well as time allows)."""
    if level not in LEVELS:
        raise TwixtError("{level} is not a level: choose 1 to 5", level=level)
    seconds = _LEVELS[level][1]
    return LevelLimit(seconds=seconds, nodes=_level_nodes_on_12(level), level=level)


def _level_nodes_on_12(level: int) -> int:
    """A level's nodes on 12×12. The strongest level searches as long as its time cap allows
    when the core is compiled (its nodes would take a fraction of the cap); the others keep
    their nodes, by which their strength ladder is measured, on both cores."""
    if level == LEVELS[-1] and core.compiled:
        return MAX_NODES
    return fixed_nodes(level)


def fixed_nodes(level: int) -> int:
    """A level's nodes on 12×12 as the Python core searches them: a fixed number for every
    level (the compiled core's level 5 searches until its time cap instead), for a caller
    that wants a level's strength and the same answer every run."""
    return _LEVELS[level][0]


def _node_budget(limit: Limit, game: Game) -> int | None:
    """The nodes this search may use. A level's nodes are what it searches on 12×12; a bigger
    board costs more a node (longer flood fills, more candidates), so a level searches fewer
    there, in proportion to the board's side, to stay inside its time cap: otherwise 24×24,
    the standard board, would hit the cap and its moves would depend on the machine's speed."""
    if limit.nodes is None:
        return _DEFAULT_NODES if limit.seconds is None else None
    if not isinstance(limit, LevelLimit):
        return limit.nodes
    return level_nodes(limit.level, game)


def level_nodes(level: int, game: Game) -> int:
    """The nodes a level searches on `game`'s board (see `_node_budget`)."""
    return board_nodes(_level_nodes_on_12(level), game)


def board_nodes(nodes: int, game: Game) -> int:
    """`nodes` counted for 12×12, for `game`'s board: fewer on a bigger one, in proportion to
    its side (see `_node_budget`)."""
    holes = game.geometry.cols * game.geometry.rows
    return max(1, round(nodes * min(1.0, math.sqrt(_LEVEL_BOARD / holes))))


def _looseness(limit: Limit, board: Board, colour: Colour) -> tuple[float, float]:
    """Prior noise and choice temperature: a level's own, or none to speak of; none either
    when the opponent is a plain threat (see `PLAIN_THREAT_PEGS`), so that a low level plays
    on loosely and still blocks what a beginner would."""
    if not isinstance(limit, LevelLimit) or limit.level not in _LEVELS:
        return _PLAIN
    if _pegs_to_connect(board, colour.opponent) <= PLAIN_THREAT_PEGS:
        return _PLAIN
    return _LEVELS[limit.level][2:]


def pegs_to_connect(game: Game, colour: Colour) -> int:
    """The fewest pegs `colour` still has to place to join its borders (its own pegs cost
    nothing; a large number when it cannot any more): what a player sees of how near a side
    is to winning."""
    return side(Board(game).pos, colour, paths=False).distance


def _pegs_to_connect(board: Board, colour: Colour) -> int:
    """`pegs_to_connect`, counted only as far as a plain threat (beyond: a large number)."""
    return side(board.pos, colour, paths=False, cap=PLAIN_THREAT_PEGS).distance


def _search_start(limit: Limit, board: Board, started: float) -> float:
    """When a limit's seconds start: a level's (a cap for safety; its nodes decide its move)
    once the process's one-time preparation is done, so that the same level and position
    give the same move on a loaded machine's first search too; a time asked for
    (`Limit(seconds=…)`) from the call, preparation included."""
    if not isinstance(limit, LevelLimit):
        return started
    core.prepare(board)
    return time.perf_counter()


def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
    """Choose the action for the side to move; `game` is left as it was. The same position,
    limit (without a time bound) and seed always give the same move."""
    if game.is_over:
        raise TwixtError("the game is over")
    started = time.perf_counter()
    rng = random.Random(seed)
    colour = game.colour_to_move
    board = Board(game)

    def answer(move: str, win: float, pv: list[str], nodes: int, searched: float | None = None,
               tried: tuple[RootMove, ...] = ()) -> PlayResult:
        return PlayResult(move, win, tuple([move, *pv[1:]]), nodes,
                          time.perf_counter() - started, searched, tried)

    if game.can_swap() and should_swap(game):
        return answer("swap", 0.5, ["swap"], 1)
    if game.options.swap and game.moves_made == 0:
        hole = fair_first_peg(game, rng)
        return answer(move_text(board, hole, colour), 0.5, [], 1)
    nodes = _node_budget(limit, game)
    scores = root_scores(board, colour)
    deadline = (None if limit.seconds is None
                else _search_start(limit, board, started) + limit.seconds)
    noise, temperature = _looseness(limit, board, colour)
    found = search(board, colour, nodes, deadline, noise=noise,
                   rng_values=[rng.random() for _ in range(ROOT_WIDTH)], root_scores=scores)
    line = found.principal_variation(found.choice(temperature, rng.random()))
    if not line or line[0] < 0:
        line = [(board.free(colour) & -board.free(colour)).bit_length() - 1]
    move = move_text(board, line[0], colour)
    if _calls_privilege(game, board, line[0], colour):
        # the searched line assumed the opponent moves next: it no longer holds
        move += "; privilege"
        line = line[:1]
    move = _checked(game, move, str(board.geo.hole(line[0])))
    value = found.win(line[0])
    tried = tuple(RootMove(str(board.geo.hole(hole)), visits, total / visits)
                  for hole, visits, total in zip(found.moves, found.visits, found.values,
                                                 strict=True) if visits)
    return answer(move, calibrated(value), line_text(board, line, colour), found.nodes, value,
                  tried)


def _calls_privilege(game: Game, board: Board, hole: int, colour: Colour) -> bool:
    """Whether the team should spend its privilege (the partner moves next, skipping an
    opponent) after the peg at `hole`: when that turns a threat into a win, or saves the game
    from an opponent's winning peg the one move could not stop and the partner's can (a
    privilege after which the opponent wins anyway is wasted)."""
    if not game.is_double or not game.privilege_available(colour):
        return False
    links = board.place(hole, colour)
    try:
        if board.connected_through(hole):
            return False
        mine = side(board.pos, colour)
        if winning_holes(board, colour, mine):
            return True
        theirs = side(board.pos, colour.opponent)
        return theirs.distance <= 1 and bool(blocking_holes(board, colour, theirs))
    finally:
        board.take_back(hole, links)


def _checked(game: Game, move: str, plain: str) -> str:
    """The move if the rules take it, else the bare peg (which they always take)."""
    for text in (move, plain):
        try:
            game.copy().play(text)
        except IllegalMoveError:
            continue
        return text
    raise AssertionError(f"the engine found no legal move ({move})")
