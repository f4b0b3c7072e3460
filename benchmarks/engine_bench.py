"""Strength and speed of the TwixT engine.

One run prints:
1. nodes per second (wall and CPU) and time per move of each level on each board size, with
   each core (the Python fallback, and the compiled core when it is built) and their ratio;
2. each level against the one below it (both colours, a win rate with its Wilson 95%
   confidence interval; a level must win at least 70%);
3. each level against a plain UCT engine with random playouts that gets the same time per
   move (it lives here, below; level 5 must win at least 90%);
4. (`--parts analysis`, not run by default) the wall and CPU time of whole analyses
   (`engine.analysis`) of fixed real games, 24×24 and the same pegs on 48×48, with each core
   and each analysis budget (`engine.analysis.BUDGETS`): the nodes of all searches and of
   each deeper search of a swing's end.

Games start from a seeded two-peg opening (one random peg a side near the middle), played once
with each colour, swap off; a game that reaches the move cap, or that the rules end in a
draw, is a draw (half a point). `--time-scale` shrinks every budget (nodes and seconds) in
proportion for a quick run: `python benchmarks/engine_bench.py --games 4 --time-scale 0.05`.

Two more instruments measure one version of the engine against another:
`engine_bench.py match ...` is `engine_match.py ...` (a head-to-head at equal time against an
earlier commit) and `engine_bench.py games ...` is `engine_games.py ...` (move prediction,
calibration and nodes a second on real games); see their own help.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

import engine_games
import engine_match
from engine_match import Score

from twixt.engine import LEVELS, LevelLimit, Limit, core, level_limit, think
from twixt.engine import analysis as game_analysis
from twixt.rules import Colour, Game, Hole, RuleSet
from twixt.rules.position import Position
from twixt.rules.records import load

#: a player: the move text for the side to move, and the seconds it thought
Player = Callable[[Game], tuple[str, float]]


# --- the opponent: plain UCT with random playouts ----------------------------------------------


class _UctNode:
    __slots__ = ("children", "hole", "untried", "visits", "wins")

    def __init__(self, hole: int, untried: list[int]) -> None:
        self.hole = hole
        self.untried = untried
        self.children: list[_UctNode] = []
        self.visits = 0
        self.wins = 0.0   # for the side that moved into this node


def _place(pos: Position, index: int, colour: Colour, rules: RuleSet) -> None:
    """Put a peg in with every link it may have (the same links the engine's moves add)."""
    pos.place_peg(index, colour, 0)
    for neighbour, lid, _step in pos.geo.neighbours[index]:
        if (pos.peg_colour[neighbour] is colour and lid not in pos.links
                and pos.blocking_link(lid, colour, rules) is None):
            pos.add_link(lid, colour)


def _free(pos: Position, colour: Colour) -> list[int]:
    bits = pos.geo.placeable[colour] & ~pos.occupied
    return [i for i in range(bits.bit_length()) if (bits >> i) & 1]


def uct_move(game: Game, seconds: float, rng: random.Random) -> str:
    """Plain UCT (UCB1, every legal hole a child) with uniformly random playouts to the end
    of the game, for `seconds`; returns the most visited hole with every legal link."""
    deadline = time.perf_counter() + seconds
    me = game.colour_to_move
    rules = game.rules
    root = _UctNode(-1, _free(game.position, me))
    rng.shuffle(root.untried)
    while True:
        pos = game.position.copy()
        colour = me
        node = root
        path = [root]
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(node.children, key=lambda c: c.wins / c.visits
                       + 1.4 * math.sqrt(log_n / c.visits))
            _place(pos, node.hole, colour, rules)
            colour = colour.opponent
            path.append(node)
        winner: Colour | None = None
        if node.untried and not (path[-1].hole >= 0 and pos.connected(colour.opponent)):
            index = node.untried.pop()
            _place(pos, index, colour, rules)
            child_free = _free(pos, colour.opponent)
            rng.shuffle(child_free)
            child = _UctNode(index, child_free)
            node.children.append(child)
            path.append(child)
            colour = colour.opponent
        if path[-1].hole >= 0 and pos.connected(colour.opponent):
            winner = colour.opponent
        else:
            winner = _playout(pos, colour, rules, rng)
        mover = me
        for visited in path:
            visited.visits += 1
            if visited is not root:
                visited.wins += 1.0 if winner is mover else 0.5 if winner is None else 0.0
                mover = mover.opponent
        if time.perf_counter() >= deadline and root.children:
            break
    best = max(root.children, key=lambda c: c.visits)
    hole = game.geometry.hole(best.hole)
    return f"{hole} link all" if rules is RuleSet.CLASSIC else str(hole)


def _playout(pos: Position, colour: Colour, rules: RuleSet, rng: random.Random) -> Colour | None:
    """Random pegs until a side connects (its colour) or the mover has no hole (None)."""
    free = {c: _free(pos, c) for c in (Colour.RED, Colour.BLACK)}
    for holes in free.values():
        rng.shuffle(holes)
    while True:
        holes = free[colour]
        while holes and (pos.occupied >> holes[-1]) & 1:
            holes.pop()
        if not holes:
            return None
        hole = holes.pop()
        _place(pos, hole, colour, rules)
        if pos.connected(colour):
            return colour
        colour = colour.opponent


# --- players and games -------------------------------------------------------------------------


def scaled(level: int, scale: float) -> Limit:
    """A level's budget with nodes and seconds shrunk by `scale` (its looseness kept)."""
    limit = level_limit(level)
    return LevelLimit(seconds=None if limit.seconds is None else limit.seconds * scale,
                      nodes=None if limit.nodes is None else max(1, round(limit.nodes * scale)),
                      level=level)


def engine_player(level: int, scale: float, seed: int) -> Player:
    def play(game: Game) -> tuple[str, float]:
        result = think(game, scaled(level, scale), seed=seed + game.pegs_placed)
        return result.move, result.seconds
    return play


def uct_player(times: list[float], seed: int) -> Player:
    """UCT that thinks as long as its opponent did on average so far (`times`)."""
    rng = random.Random(seed)

    def play(game: Game) -> tuple[str, float]:
        seconds = statistics.fmean(times) if times else 0.05
        started = time.perf_counter()
        move = uct_move(game, seconds, rng)
        return move, time.perf_counter() - started
    return play


def opening(size: int, rules: str, seed: int) -> Game:
    """A game with one seeded random peg a side in the middle half of the board."""
    rng = random.Random(seed)
    game = Game(("red", "black"), size=size, rules=rules, swap=False)
    low, high = size // 4, size - size // 4 - 1
    for _ in range(2):
        while True:
            hole = Hole(rng.randint(low, high), rng.randint(low, high))
            if game.can_place(hole):
                game.play(str(hole))
                break
    return game


def play_game(game: Game, red: Player, black: Player) -> str:
    """Play to the end (or the move cap) and return `red`, `black` or `draw`."""
    cap = game.geometry.cols * game.geometry.rows
    while not game.is_over and game.pegs_placed < cap:
        move, _seconds = (red if game.colour_to_move is Colour.RED else black)(game)
        game.play(move)
    outcome = game.outcome
    return outcome.result if outcome is not None else "draw"


# --- the report --------------------------------------------------------------------------------


def speed(sizes: list[int], levels: list[int], rules_list: list[str], scale: float,
          positions: int) -> None:
    print("\n== speed: nodes per second and time per move, of each core ==")
    # both cores on the same positions: the Python fallback, then the compiled one if built
    started = core.compiled
    cores = [False, True] if started else [False]
    for rules in rules_list:
        for size in sizes:
            games = []
            for seed in range(positions):
                game = opening(size, rules, 1000 + seed)
                for _ in range(size // 2):
                    if game.is_over:
                        break
                    game.play(think(game, scaled(1, 1.0), seed=seed).move)
                if not game.is_over:
                    games.append(game)
            for level in levels:
                rates = []
                for compiled in cores:
                    core.compiled = compiled
                    cpu = time.process_time()
                    results = [think(game, scaled(level, scale), seed=0) for game in games]
                    cpu = time.process_time() - cpu
                    nodes = sum(r.nodes for r in results)
                    seconds = sum(r.seconds for r in results)
                    rates.append((nodes / max(seconds, 1e-9), nodes / max(cpu, 1e-9)))
                    print(f"{rules:7} {size}x{size} level {level} "
                          f"{'compiled' if compiled else 'python':8}: "
                          f"{rates[-1][0]:8.0f} nodes/s, {rates[-1][1]:8.0f} nodes/CPU s, "
                          f"{seconds / len(results):6.3f} s/move, "
                          f"{nodes / len(results):7.0f} nodes/move ({len(results)} positions)")
                if len(rates) == 2:
                    print(f"{rules:7} {size}x{size} level {level} compiled / python: "
                          f"{rates[1][0] / rates[0][0]:.1f} (wall), "
                          f"{rates[1][1] / rates[0][1]:.1f} (CPU)")
    core.compiled = started


#: the real games the analysis part looks at (benchmarks/games/), and how far the 48×48 copy
#: shifts their pegs (to the middle of the board)
ANALYSED = ("0109.twixt", "0114.twixt")
SHIFT = 12


def on_48(game: Game) -> Game:
    """The pegs of a 24×24 game, in order, in the middle of a 48×48 board (classic: each
    with every link it may have), as far as they go without ending the game."""
    copy = Game(("red", "black"), size=48, rules=game.rules.value, swap=False)
    for turn in game.history:
        if turn.placed is None or copy.is_over:
            continue
        hole = Hole(turn.placed.col + SHIFT, turn.placed.row + SHIFT)
        copy.play(f"{hole} link all" if game.rules is RuleSet.CLASSIC else str(hole))
    return copy


def analysis(names: tuple[str, ...]) -> None:
    """Whole analyses of real games by each core with each budget, in one process."""
    print("\n== analysis: whole games, each core and budget ==")
    games = [load(engine_games.GAMES / name) for name in names]
    games += [on_48(game) for game in games]
    started, budgets = core.compiled, game_analysis.BUDGETS
    runs = [("python", "python"), ("compiled", "python"), ("compiled", "compiled")]
    for game in games:
        for core_name, budget_name in runs:
            if core_name == "compiled" and not started:
                continue
            core.compiled = core_name == "compiled"
            game_analysis.BUDGETS = {name: budgets[budget_name] for name in budgets}
            wall, cpu = time.perf_counter(), time.process_time()
            done = game_analysis.analyze_game(game, game_analysis.default_limit(game))
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"{game.options.size_text:5} {game.moves_made:3} moves, {core_name:8} core, "
                  f"{budget_name:8} budget {budgets[budget_name]}: {wall:6.2f} s "
                  f"({cpu:6.2f} CPU s), {done.nodes:7} nodes, deep searches "
                  f"{list(done.deep_nodes)}", flush=True)
    core.compiled, game_analysis.BUDGETS = started, budgets


def match(size: int, rules: str, games: int, make: Callable[[int], tuple[Player, Player]],
          ) -> Score:
    """`games` games (pairs of one opening, each side once); the first player's score."""
    score = Score()
    for number in range(games):
        mine = Colour.RED if number % 2 == 0 else Colour.BLACK
        first, second = make(number)
        red, black = (first, second) if mine is Colour.RED else (second, first)
        score.add(play_game(opening(size, rules, number // 2), red, black), mine.value)
    return score


def series(sizes: list[int], levels: list[int], rules_list: list[str], games: int,
           against: str, pairing: Callable[[int, int], tuple[Player, Player]]) -> None:
    """A match per rule set, size and level; `pairing(level, game number)` gives the level's
    player and its opponent's."""
    for rules in rules_list:
        for size in sizes:
            for level in levels:
                started = time.perf_counter()
                score = match(size, rules, games, partial(pairing, level))
                print(f"{rules:7} {size}x{size} level {level} vs {against or level - 1}: "
                      f"{score.text()}  [{time.perf_counter() - started:.0f} s]", flush=True)


def ladder(sizes: list[int], levels: list[int], rules_list: list[str], scale: float,
           games: int) -> None:
    print("\n== each level against the one below (must win >= 70%) ==")

    def pairing(level: int, number: int) -> tuple[Player, Player]:
        return (engine_player(level, scale, number),
                engine_player(level - 1, scale, number + 500))
    series(sizes, [level for level in levels if level - 1 in LEVELS], rules_list, games, "",
           pairing)


def versus_uct(sizes: list[int], levels: list[int], rules_list: list[str], scale: float,
               games: int) -> None:
    print("\n== each level against plain UCT with random playouts, same time a move ==")

    def pairing(level: int, number: int) -> tuple[Player, Player]:
        times: list[float] = []
        inner = engine_player(level, scale, number)

        def timed(game: Game) -> tuple[str, float]:
            move, seconds = inner(game)
            times.append(seconds)
            return move, seconds
        return timed, uct_player(times, number)
    series(sizes, levels, rules_list, games, "UCT", pairing)


def main() -> None:
    if sys.argv[1:2] == ["match"]:
        engine_match.main(sys.argv[2:])
        return
    if sys.argv[1:2] == ["games"]:
        engine_games.main(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="games per pairing (even)")
    parser.add_argument("--sizes", default="12,24", help="board sizes, e.g. 12,24")
    parser.add_argument("--levels", default="1,2,3,4,5", help="levels, e.g. 3,4,5")
    parser.add_argument("--rules", default="pp,classic", help="rule sets: pp,classic")
    parser.add_argument("--time-scale", type=float, default=1.0,
                        help="multiply every budget (nodes and seconds) by this")
    parser.add_argument("--parts", default="speed,ladder,uct",
                        help="which parts to run: speed,ladder,uct,analysis")
    parser.add_argument("--positions", type=int, default=4, help="positions for the speed part")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    levels = [int(s) for s in args.levels.split(",")]
    rules_list = args.rules.split(",")
    parts = args.parts.split(",")
    print(f"settings: games={args.games} sizes={sizes} levels={levels} rules={rules_list} "
          f"time-scale={args.time_scale}")
    for level in levels:
        limit = scaled(level, args.time_scale)
        print(f"level {level}: nodes={limit.nodes} time cap={limit.seconds:.2f} s")
    if "speed" in parts:
        speed(sizes, levels, rules_list, args.time_scale, args.positions)
    if "ladder" in parts:
        ladder(sizes, levels, rules_list, args.time_scale, args.games)
    if "uct" in parts:
        versus_uct(sizes, levels, rules_list, args.time_scale, args.games)
    if "analysis" in parts:
        analysis(ANALYSED)


if __name__ == "__main__":
    main()
