"""Monte-Carlo tree search (PUCT) with an evaluation instead of playouts.

Each iteration walks down the tree by the PUCT rule (value plus a prior-weighted exploration
bonus), places the pegs on the search's one `Board`, evaluates the position it reaches with
`engine.evaluate` (both sides' connection distances), expands it with the holes of
`engine.candidates` (whose priors look at the last two pegs: the walk's last two moves, or
the game's), backs the value up and takes the pegs out again.

Tactics are settled at expansion instead of being searched for: a side with a winning peg
plays it (the node is a win), and a side whose opponent has a winning peg may only play the
pegs that take the threat away (none: the node is a loss). The tree holds one node per
iteration; children are plain lists until visited. When it would outgrow its memory bound,
it is pruned to its most visited part and the search goes on (`Search._prune`).

This is also the definition of the compiled core (twixt/engine/_core.c), which runs the same search
step for step; `engine.core` chooses which runs, and both answer with a `SearchOutcome`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from twixt.engine.board import Board
from twixt.engine.candidates import near, ranked
from twixt.engine.evaluate import UNREACHABLE, Side, side, win_chance
from twixt.engine.patterns import Recent
from twixt.rules import Colour

#: exploration weight of PUCT
C_PUCT = 1.4
#: holes a node looks at (the root a few more)
WIDTH = 20
ROOT_WIDTH = 32
#: what a first visit assumes of a child, below its parent's value
FIRST_PLAY_URGENCY = 0.1
#: the root's final choice: the move with the most visits × prior ** PRIOR_CHOICE (0: the
#: most visited). The root's prior is the policy network's, which foresees the players' move
#: more often than the visits do (the evaluation below the root values the network's move
#: lower than players find it): 3 makes the move the players' 31% of the time on real games
#: instead of 20.5%, at no cost at equal nodes, but then twice the nodes changes the move in
#: few positions and no longer wins against itself (docs/engine-measurements.md), so the
#: engine keeps 0; `benchmarks/search_agreement.py --prior-choice` measures others
PRIOR_CHOICE = 0.0
#: never more nodes than this in one search, on either core: a ceiling only, since memory is
#: bounded by pruning the tree (`MAX_BYTES`), so that a time limit is what ends a search
MAX_NODES = 10_000_000
#: the tree's size as both cores count it: the compiled core's node and listed move (its
#: `Node` and `Edge`, which it checks), so that both prune at the same moment
NODE_BYTES = 40
EDGE_BYTES = 16
#: the Python core's bound on its tree, in those units: its tree takes 6.8 times what is
#: counted (2.4 kB a node with its 20 moves listed, against 360 bytes; 12,000 nodes on
#: 24×24), so about 330 MB at most, for about 140,000 nodes on 24×24 before it is pruned
#: (the compiled core's bound is `engine.core.MAX_BYTES`)
MAX_BYTES = 48 * 1024 * 1024
#: the longest expected line a search reports
PV_LENGTH = 12


class Node:
    """A position in the tree, reached by `mover` placing at `move`; `to_move` moves next."""

    __slots__ = ("kids", "move", "mover", "moves", "priors", "terminal", "to_move", "value",
                 "visits")

    def __init__(self, move: int, mover: Colour, to_move: Colour) -> None:
        self.move = move
        self.mover = mover
        self.to_move = to_move
        self.visits = 0
        #: summed results for `mover`
        self.value = 0.0
        self.moves: list[int] | None = None
        self.priors: list[float] = []
        self.kids: list[Node | None] = []
        #: the game's value for `to_move` when it is decided here (win 1, loss 0, draw 0.5)
        self.terminal: float | None = None

    def q(self) -> float:
        """The mean result for `mover`."""
        return self.value / self.visits if self.visits else 0.5


def winning_holes(board: Board, colour: Colour, mine: Side) -> list[int]:
    """Holes where `colour`, to move, connects at once (checked by placing the peg)."""
    if mine.distance != 1:
        return []
    found = []
    for layer in mine.path_layers:
        bits = layer
        while bits:
            low = bits & -bits
            bits ^= low
            hole = low.bit_length() - 1
            links = board.place(hole, colour)
            won = board.connected_through(hole)
            board.take_back(hole, links)
            if won:
                found.append(hole)
    return found


def blocking_holes(board: Board, colour: Colour, theirs: Side) -> list[int]:
    """Holes where `colour`'s peg leaves its opponent (one peg from winning) further away:
    the threatened holes themselves, and holes near them whose links cut the threat."""
    geo, pos = board.geo, board.pos
    threat = theirs.path
    region = near(geo, threat)
    region = threat | ((region | near(geo, region)) & near(geo, pos.peg_bits[colour]))
    region &= board.free(colour)
    found = []
    opponent = colour.opponent
    while region:
        low = region & -region
        region ^= low
        hole = low.bit_length() - 1
        links = board.place(hole, colour)
        if side(pos, opponent, paths=False, cap=1).distance > 1:
            found.append(hole)
        board.take_back(hole, links)
    return found


class Search:
    """One search from one position; `run` it, then read `best`, `pv` and `win`."""

    def __init__(self, board: Board, to_move: Colour, *, noise: float = 0.0,
                 rng_values: list[float] | None = None, max_bytes: int | None = None,
                 root_scores: Sequence[float] | None = None) -> None:
        """`max_bytes`: the bound on the tree (None: `MAX_BYTES`), counted as the compiled
        core counts its tree; `root_scores`: per hole index, the logarithms the root's moves
        are ranked by (`engine.policy.root_scores`; None: the patterns', as below it)."""
        if max_bytes is None:
            max_bytes = MAX_BYTES
        holes = board.geo.cols * board.geo.rows
        if max_bytes < NODE_BYTES + (holes + 8) * EDGE_BYTES:
            raise ValueError("max_bytes holds the root and its moves")
        self.board = board
        self.root = Node(-1, to_move.opponent, to_move)
        self.nodes = 0
        self._max_bytes = max_bytes
        #: the moves an expansion may list at most (the compiled core's headroom)
        self._most_listed = holes + 8
        #: the tree's nodes and listed moves, counted as the compiled core counts them
        self._tree_nodes = 0
        self._tree_moves = 0
        #: how often the tree was pruned, and the largest tree a prune left (in bytes)
        self.prunes = 0
        self.kept_bytes = 0
        self._noise = noise
        self._root_scores = root_scores
        self._rng_values = rng_values or []
        self.root_eval = 0.5
        #: the root side's own last peg and its opponent's, oldest first
        root = board.recent(to_move)
        self._before = (root.own_last, root.last)

    # --- the loop ----------------------------------------------------------------------

    def run(self, nodes: int | None, deadline: float | None) -> None:
        """Iterate until `nodes` iterations or the `deadline` (perf_counter) is reached."""
        budget = min(nodes if nodes is not None else MAX_NODES, MAX_NODES)
        self._tree_nodes = 1
        self.root_eval = self._expand(self.root, self._recent([self.root]), root=True)
        self._backup([self.root], self.root_eval, self.root.to_move)
        self.nodes = 1
        if self.root.terminal is not None or len(self.root.moves or ()) <= 1:
            return
        board = self.board
        while self.nodes < budget:
            if deadline is not None and time.perf_counter() >= deadline:
                return
            if not self._fits() and not self._prune():
                return
            node = self.root
            path = [node]
            placed: list[tuple[int, list[int]]] = []
            while node.moves is not None and node.terminal is None:
                node = self._select(node)
                placed.append((node.move, board.place(node.move, node.mover)))
                path.append(node)
            value = node.terminal
            if value is None:
                value = self._expand(node, self._recent(path), root=False)
            self._backup(path, value, node.to_move)
            for hole, links in reversed(placed):
                board.take_back(hole, links)
            self.nodes += 1

    def _select(self, node: Node) -> Node:
        moves = node.moves
        assert moves is not None
        kids = node.kids
        priors = node.priors
        explore = C_PUCT * math.sqrt(node.visits)
        parent_q = 1.0 - node.q() if node.mover is not node.to_move else node.q()
        fpu = parent_q - FIRST_PLAY_URGENCY
        best_i = 0
        best_score = -1e9
        for i, prior in enumerate(priors):
            kid = kids[i]
            if kid is None or not kid.visits:
                score = fpu + explore * prior
            else:
                score = kid.value / kid.visits + explore * prior / (1 + kid.visits)
            if score > best_score:
                best_score = score
                best_i = i
        kid = kids[best_i]
        if kid is None:
            kid = Node(moves[best_i], node.to_move, node.to_move.opponent)
            kids[best_i] = kid
            self._tree_nodes += 1
        return kid

    def _recent(self, path: list[Node]) -> Recent:
        """The last two pegs before the end of `path` (the root first)."""
        if len(path) >= 3:
            return Recent(path[-1].move, path[-2].move)
        if len(path) == 2:
            return Recent(path[1].move, self._before[1])
        return Recent(self._before[1], self._before[0])

    @staticmethod
    def _backup(path: list[Node], value: float, to_move: Colour) -> None:
        for node in path:
            node.visits += 1
            node.value += value if node.mover is to_move else 1.0 - value

    # --- the memory bound ----------------------------------------------------------------

    def _fits(self) -> bool:
        """Whether one more node and the moves of one expansion stay within the bound."""
        return ((self._tree_nodes + 1) * NODE_BYTES
                + (self._tree_moves + self._most_listed) * EDGE_BYTES) <= self._max_bytes

    def _kept(self, min_count: int) -> list[Node]:
        """The nodes a prune with `min_count` keeps: the root, its children (whose visits
        choose the move) and every node visited at least `min_count` times (a connected
        tree, since a child is never visited more often than its parent)."""
        kept = [self.root]
        kept.extend(kid for kid in self.root.kids if kid is not None)
        at = 1
        while at < len(kept):
            kept.extend(kid for kid in kept[at].kids
                        if kid is not None and kid.visits >= min_count)
            at += 1
        return kept

    @staticmethod
    def _size(nodes: list[Node]) -> int:
        return sum(NODE_BYTES + len(node.moves or ()) * EDGE_BYTES for node in nodes)

    def _prune(self) -> bool:
        """When the tree is full, keep the root, its children and the nodes visited at least
        `min_count` times, `min_count` doubling from 2 until what is kept takes at most half
        the bound, and go on searching; as Fuego's SgUctSearch does when its tree is full
        (its PruneFullTree and PruneMinCount, copying with SgUctTree::CopyPruneLowCount;
        fuego.sourceforge.net/fuego-doc-1.1/smartgame-doc/classSgUctTree.html). A dropped
        child becomes an unvisited move of its parent again, its move and prior still
        listed; the parent keeps its visits and value, which the dropped subtree made. The
        nodes with few visits are the ones the search would least miss: the next walks
        through them are rare, and then rebuild them. False when even the root and its
        children leave no room (a bound too small to go on)."""
        half = self._max_bytes // 2
        min_count = 2
        kept = self._kept(min_count)
        size = self._size(kept)
        while size > half and min_count <= self.root.visits:
            min_count *= 2
            kept = self._kept(min_count)
            size = self._size(kept)
        keep = {id(node) for node in kept}
        for node in kept:
            node.kids = [kid if kid is not None and id(kid) in keep else None
                         for kid in node.kids]
        self._tree_nodes = len(kept)
        self._tree_moves = sum(len(node.moves or ()) for node in kept)
        self.prunes += 1
        self.kept_bytes = max(self.kept_bytes, size)
        return self._fits()

    # --- a new node --------------------------------------------------------------------

    def _expand(self, node: Node, recent: Recent, *, root: bool) -> float:
        """Evaluate the node's position and list its moves; its value for `to_move`."""
        board = self.board
        pos = board.pos
        colour = node.to_move
        opponent = colour.opponent
        theirs = side(pos, opponent)
        if theirs.distance == 0 and node.move >= 0 and board.connected_through(node.move):
            return self._decide(node, 0.0)
        free = board.free(colour)
        if not free:
            return self._decide(node, 0.5)
        mine = side(pos, colour)
        if mine.distance >= UNREACHABLE and theirs.distance >= UNREACHABLE:
            return self._decide(node, 0.5)
        wins = winning_holes(board, colour, mine)
        if wins:
            return self._decide(node, 1.0, wins[:1])
        if theirs.distance == 1:
            blocks = blocking_holes(board, colour, theirs)
            if not blocks:
                # lost whatever is played: block one threatened hole, in case of a mistake
                threatened = theirs.path & free
                fallback = [(threatened & -threatened).bit_length() - 1] if threatened else []
                return self._decide(node, 0.0, fallback)
            moves, priors = ranked(board, colour, recent, mine, theirs, free,
                                   len(blocks) + 4, everywhere=root,
                                   given=self._root_scores if root else None)
            allowed = set(blocks)
            pairs = [(m, p) for m, p in zip(moves, priors, strict=True) if m in allowed]
            listed = {m for m, _p in pairs}
            pairs += [(m, 0.01) for m in blocks if m not in listed]
            total = sum(p for _m, p in pairs)
            node.moves = [m for m, _p in pairs]
            node.priors = [p / total for _m, p in pairs]
        else:
            node.moves, node.priors = ranked(board, colour, recent, mine, theirs, free,
                                             ROOT_WIDTH if root else WIDTH, everywhere=root,
                                             given=self._root_scores if root else None)
        if root and self._noise and len(node.priors) > 1:
            self._perturb(node)
        node.kids = [None] * len(node.moves)
        self._tree_moves += len(node.moves)
        return win_chance(mine, theirs)

    def _decide(self, node: Node, value: float, moves: list[int] | None = None) -> float:
        node.terminal = value
        node.moves = moves or []
        node.priors = [1.0] * len(node.moves)
        node.kids = [None] * len(node.moves)
        self._tree_moves += len(node.moves)
        return value

    def _perturb(self, node: Node) -> None:
        """Mix a little seeded noise into the root's priors (different seeds, other games)."""
        values = self._rng_values
        mixed = [p * (1.0 - self._noise) + self._noise * values[i % len(values)]
                 for i, p in enumerate(node.priors)]
        total = sum(mixed)
        node.priors = [p / total for p in mixed]

    # --- the answer --------------------------------------------------------------------

    def best_child(self, node: Node) -> int | None:
        """The index of the most visited child (the better value, then the prior, on ties)."""
        if not node.moves:
            return None
        best_i = 0
        best_key = (-1, -1.0, -1.0)
        for i, kid in enumerate(node.kids):
            key = ((kid.visits, kid.q(), node.priors[i]) if kid is not None
                   else (0, 0.0, node.priors[i]))
            if key > best_key:
                best_key = key
                best_i = i
        return best_i

    def _line(self, node: Node | None) -> tuple[int, ...]:
        """The expected line after `node`'s move: the most visited children, at most
        `PV_LENGTH` - 1 of them."""
        line: list[int] = []
        while node is not None and node.visits and len(line) < PV_LENGTH - 1:
            i = self.best_child(node)
            if i is None or not node.moves:
                break
            line.append(node.moves[i])
            node = node.kids[i]
        return tuple(line)

    def outcome(self) -> SearchOutcome:
        """What the search found, in the form both cores give."""
        root = self.root
        kids = root.kids
        return SearchOutcome(
            nodes=self.nodes, root_eval=self.root_eval, terminal=root.terminal,
            moves=tuple(root.moves or ()), priors=tuple(root.priors),
            visits=tuple(kid.visits if kid is not None else 0 for kid in kids),
            values=tuple(kid.value if kid is not None else 0.0 for kid in kids),
            lines=tuple(self._line(kid) for kid in kids), prunes=self.prunes,
            kept_bytes=self.kept_bytes)


@dataclass(frozen=True)
class SearchOutcome:
    """A finished search, whichever core ran it (`Search.outcome`, or engine._core through
    `engine.core`): per root move its prior, visits, summed value (for the root's mover) and
    the expected line after it; everything `think` needs, and nothing of the tree."""

    nodes: int
    #: the root position's evaluation for the side to move
    root_eval: float
    #: the game's value for the side to move when it is decided at the root
    terminal: float | None
    moves: tuple[int, ...]
    priors: tuple[float, ...]
    visits: tuple[int, ...]
    values: tuple[float, ...]
    lines: tuple[tuple[int, ...], ...]
    #: how often the tree was pruned to stay within its memory bound, and the largest tree
    #: (in bytes, as both cores count them) a prune left
    prunes: int = 0
    kept_bytes: int = 0

    def best(self) -> int | None:
        """The index of the root's move: the most visits × prior ** `PRIOR_CHOICE` (the
        better value, then the prior, on ties); a move never visited is never chosen while
        another was."""
        if not self.moves:
            return None
        best_i = 0
        best_key = (-1.0, -1.0, -1.0)
        for i, (visits, value, prior) in enumerate(
                zip(self.visits, self.values, self.priors, strict=True)):
            key = (visits * prior ** PRIOR_CHOICE, value / visits if visits else 0.0, prior)
            if key > best_key:
                best_key = key
                best_i = i
        return best_i

    def choice(self, temperature: float, draw: float) -> int | None:
        """The root's move index: the most visited, or with a `temperature` one drawn with
        weights visits ** (1 / temperature), `draw` being a uniform number in [0, 1)."""
        best = self.best()
        if not temperature or best is None or self.terminal is not None:
            return best
        weights = [visits ** (1.0 / temperature) for visits in self.visits]
        total = sum(weights)
        if not total:
            return best
        point = draw * total
        for i, weight in enumerate(weights):
            point -= weight
            if point < 0:
                return i
        return best

    def principal_variation(self, first: int | None) -> list[int]:
        """The expected line: the root's move `first`, then the most visited children."""
        if first is None or not self.moves:
            return []
        return [self.moves[first], *self.lines[first]]

    def win(self, move: int) -> float:
        """The chance that the side to move at the root wins, playing `move`."""
        if self.terminal is not None:
            return self.terminal
        for hole, visits, value in zip(self.moves, self.visits, self.values, strict=True):
            if hole == move and visits:
                return value / visits
        return self.root_eval
