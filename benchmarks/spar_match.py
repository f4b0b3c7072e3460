"""The engine against a sparring partner that knows TwixT: T1j, a classic alpha-beta program.

    python benchmarks/spar_match.py --level ply:6 --seconds 2 --games 40 --jobs 1 --seed 0

Self-play cannot show what the engine does not know; T1j (Johannes Schwagereit's Java program,
GPL-3) can. It is not part of the project and never copied into it: this benchmark uses its
Python client `t1j.py` where it lies: in the folder `--sparring` names, else `shared/sparring`
in the folder that holds the checkout; and it says in one line why it cannot play when that
folder, `java` or `javac` is missing. Nothing in the project's tests or run time needs it.

T1j plays classic TwixT with automatic links and the pie rule, on boards of 12 to 36 holes. So
the referee here is the project's own rules (`twixt.rules`, classic, with swap): each of T1j's
pegs is played as `HOLE link all` (every legal link written out, as T1j itself assumes) and each
of the engine's moves as the engine wrote it (in classic the engine links every legal link too,
`twixt.engine.notation`), and T1j is given the pegs in the order placed, with their colours.

Game 2k has the engine in the first seat, game 2k+1 in the second. Openings (`--openings`):
`own` (the default) lets the first player choose its first peg as in a real game (T1j opens on
a few near-corner holes at random, the engine on a fair peg drawn from its seed), and the second
decides whether to swap; `drawn` gives pair k the same first peg, drawn from the seed anywhere off
the borders as engine_match.py does, so both colours meet the same openings. The engine (a git
revision or a source tree, `--engine`; this tree by default) runs in its own process
(`engine_worker.py`) with `--seconds` or `--nodes` a move; T1j with `--level` (`ply:N`, a fixed
depth, or `time:S`, seconds a move). The engine resigns as the bot does (third turn in a row
under 2%, `--play-out` plays on); T1j never resigns; a game that fills every hole is a draw.
An illegal move loses the game, and so does the engine's silence. T1j's fixed-depth search
takes what its depth needs (a minute or more at 7 plies on a busy machine), so it is given
`PARTNER_TIMEOUT` a move; a game in which it still gives no answer is *void*: printed, logged
and left out of the score (the referee's patience, not the engine, ended it).

Each game prints a line; the end prints the engine's score with its Wilson 95% interval, by
seat (first or second player) and by the colour it ended up with (after any swap), the swaps,
each side's time a move, and the engine's nodes and CPU seconds a move. On a busy machine the
engine's `--seconds` buys fewer nodes than on an idle one while T1j's `ply:N` is the same
search whatever the load: `--nodes` (what the engine searches in its seconds on an idle core,
the nodes a CPU second this summary prints times the seconds) keeps such a match fair.
`--log FILE` writes every game's moves as JSON lines.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import queue
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import IO, Protocol

from engine_match import (
    ANSWER_TIMEOUT,
    REPO,
    EngineProcess,
    Score,
    Setup,
    Version,
    first_peg,
    install,
    run_games,
)

from twixt.rules import Colour, Game, TwixtError
from twixt.service.cases.engine_player import HOPELESS_TURNS, RESIGN_BELOW

#: the seats' names in the referee's game
ENGINE, PARTNER = "engine", "t1j"
#: where the sparring partner lies when no --sparring is given: beside the checkout
DEFAULT_SPARRING = REPO.parent / "shared" / "sparring"
#: the boards T1j plays
PARTNER_SIZES = range(12, 37)
#: a first peg this few holes from an edge is T1j's kind of opening (it opens within two holes
#: of an edge and swaps nothing there)
EDGE_HOLES = 3


class Unavailable(Exception):
    """The sparring partner cannot play here; the message says why, in one line."""


class Partner(Protocol):
    """What the referee needs of a sparring partner (t1j.py's `T1j` has it): a move for a
    position given as the pegs in the order placed."""

    def think(self, cols: int, rows: int, level: str, pegs: list[tuple[str, str]],
              to_move: str, pie: bool = True, swap_ok: bool = False,
              timeout: float = 120) -> tuple[str | None, int, int]: ...

    def close(self) -> None: ...


#: how long T1j may think a move before its game is void: its `ply:N` has no clock, and at 7
#: plies under a load of 6 a move took over a minute
PARTNER_TIMEOUT = 600.0
#: the `winner` of a game T1j never answered in: not scored
VOID = "void"


def load_client(folder: Path) -> ModuleType:
    """The sparring folder's `t1j.py`, imported from where it lies (never copied)."""
    client = folder / "t1j.py"
    if not client.is_file():
        raise Unavailable(f"T1j not available: no {client} (the sparring partner lies in "
                          "shared/sparring beside the checkout's folder, or give --sparring PATH)")
    if not shutil.which("java") or not shutil.which("javac"):
        raise Unavailable("T1j not available: no java/javac on PATH (a JDK 11 or later is "
                          "needed)")
    spec = importlib.util.spec_from_file_location("sparring_t1j", client)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def partners(folder: Path) -> Iterator[Partner]:
    """New T1j processes, one a call (compiled once into a cache by its client)."""
    module = load_client(folder)
    try:
        classes = module.build()
    except module.Unavailable as error:
        raise Unavailable(str(error).splitlines()[0]) from None
    while True:
        yield module.T1j(classes)


# --- one game ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sparring:
    """What every game of a sparring match shares: the board and the engine's time (`setup`,
    always classic with swap), its nodes a move if bounded, T1j's level and the openings."""

    setup: Setup
    level: str = "ply:6"
    nodes: int | None = None
    openings: str = "own"

    def engine_limit(self) -> dict[str, float | int]:
        if self.nodes is not None:
            return {"nodes": self.nodes}
        return {"seconds": self.setup.seconds}


@dataclass
class SparResult:
    """One game: `winner` is `engine`, `t1j`, `draw` or `void`; `engine_colour` the colour the
    engine played after any swap; `swapped` whether the second player swapped."""

    number: int
    winner: str
    reason: str
    moves: list[str]
    engine_colour: Colour
    swapped: bool
    thinking: dict[str, list[float]] = field(default_factory=dict)
    #: the engine's searches: nodes and its process's CPU seconds, a move each
    searched: list[tuple[int, float]] = field(default_factory=list)
    #: where the first peg stood (`opening_kind`)
    opening: str = ""

    @property
    def engine_first(self) -> bool:
        return self.number % 2 == 0

    def line(self) -> str:
        times = ", ".join(f"{seat} {sum(t) / max(len(t), 1):.2f} s/move"
                          for seat, t in sorted(self.thinking.items()))
        seat = "first" if self.engine_first else "second"
        opening = self.moves[0].split()[0] if self.moves else "-"
        swap = ", swapped" if self.swapped else ""
        return (f"game {self.number + 1:3}: engine {seat} seat ({self.engine_colour.title}"
                f"{swap}), opening {opening:4} -> {self.winner:6} by {self.reason:11} after "
                f"{len(self.moves):3} moves ({times})")


def opening_kind(game: Game) -> str:
    """Where the first peg stands: near the first player's own border rows, beside a side
    column (within `EDGE_HOLES` of either), or inside; "" before it is placed. Whether the
    second player should swap such a peg is what the second seat's games by opening show."""
    first = next((turn.placed for turn in game.history if turn.placed is not None), None)
    if first is None:
        return ""
    cols, rows = game.geometry.cols, game.geometry.rows
    if min(first.row, rows - 1 - first.row) < EDGE_HOLES:
        return "near its border row"
    if min(first.col, cols - 1 - first.col) < EDGE_HOLES:
        return "beside a side column"
    return "inside"


def partner_pegs(game: Game) -> list[tuple[str, str]]:
    """The pegs on the board in the order placed, with their colours, as T1j takes them."""
    pegs = []
    for turn in game.history:
        if turn.placed is not None:
            peg = game.peg_at(turn.placed)
            assert peg is not None, "the classic pegs of this referee are never removed"
            pegs.append((str(turn.placed), peg.colour.value))
    return pegs


def play_game(sparring: Sparring, number: int, engine: EngineProcess,
              partner: Partner) -> SparResult:
    """Game `number` refereed by the project's rules: the engine in the first seat when it
    is even."""
    setup = sparring.setup
    seats = (ENGINE, PARTNER) if number % 2 == 0 else (PARTNER, ENGINE)
    game = setup.game(seats)
    moves: list[str] = []
    if sparring.openings == "drawn":
        moves.append(game.play(first_peg(setup, number // 2)).text)
    thinking: dict[str, list[float]] = {ENGINE: [], PARTNER: []}
    searched: list[tuple[int, float]] = []
    hopeless = 0   # the engine's own turns in a row under 2%
    cols, rows = game.geometry.cols, game.geometry.rows

    def result(winner: str, reason: str) -> SparResult:
        colour = game.colour_of_seat(game.seat_of(ENGINE))
        return SparResult(number, winner, reason, moves, colour, game.swapped, thinking,
                          searched, opening_kind(game))

    while not game.is_over and game.pegs_placed < cols * rows:
        seat = ENGINE if game.player_to_move == ENGINE else PARTNER
        other = PARTNER if seat == ENGINE else ENGINE
        asked = time.perf_counter()
        if seat == ENGINE:
            reply = engine.ask({
                "size": setup.size, "rules": "classic", "swap": True, "moves": moves,
                "limit": sparring.engine_limit(),
                "seed": setup.seed * 100_003 + number * 1000 + len(moves)},
                timeout=ANSWER_TIMEOUT + 10 * setup.seconds)
            thinking[seat].append(time.perf_counter() - asked)
            if "error" in reply:
                return result(other, f"error of the engine: {reply['error']}")
            searched.append((int(reply["nodes"]), float(reply["cpu"])))
            hopeless = hopeless + 1 if reply["win"] < RESIGN_BELOW else 0
            if setup.resign and hopeless >= HOPELESS_TURNS:
                return result(other, "resignation")
            move = str(reply["move"])
        else:
            hole, _, _ = partner.think(cols, rows, sparring.level, partner_pegs(game),
                                       game.colour_to_move.value, pie=True,
                                       swap_ok=game.can_swap(),
                                       timeout=PARTNER_TIMEOUT + 10 * setup.seconds)
            thinking[seat].append(time.perf_counter() - asked)
            if hole is None:
                return result(VOID, f"T1j's silence for {PARTNER_TIMEOUT:.0f} s")
            move = "swap" if hole == "swap" else f"{hole} link all"
        try:
            moves.append(game.play(move).text)
        except TwixtError as error:
            return result(other, f"illegal {move!r} of {seat}: {error.message}")
    outcome = game.outcome
    if outcome is None:
        return result("draw", "move cap")
    winner = outcome.winners[0] if outcome.winner is not None else "draw"
    return result(winner, outcome.reason.value)


# --- the match ---------------------------------------------------------------------------------


@dataclass
class Tally:
    """The engine's score overall, by seat and by the colour it played, and the swaps."""

    total: Score = field(default_factory=Score)
    by_seat: dict[str, Score] = field(default_factory=lambda: {"first": Score(),
                                                                 "second": Score()})
    by_colour: dict[Colour, Score] = field(default_factory=lambda: {Colour.RED: Score(),
                                                                      Colour.BLACK: Score()})
    swaps: dict[str, int] = field(default_factory=lambda: {ENGINE: 0, PARTNER: 0})
    counts: dict[str, int] = field(default_factory=lambda: {ENGINE: 0, PARTNER: 0, "draw": 0,
                                                            VOID: 0})
    thinking: dict[str, list[float]] = field(default_factory=lambda: {ENGINE: [], PARTNER: []})
    searched: list[tuple[int, float]] = field(default_factory=list)
    #: the engine's games in the second seat by T1j's opening and whether the engine swapped
    second_seat: dict[tuple[str, bool], Score] = field(default_factory=dict)

    def add(self, game: SparResult) -> None:
        self.counts[game.winner] += 1
        if game.winner == VOID:
            return
        self.total.add(game.winner, ENGINE)
        self.by_seat["first" if game.engine_first else "second"].add(game.winner, ENGINE)
        self.by_colour[game.engine_colour].add(game.winner, ENGINE)
        if game.swapped:   # the second player swapped
            self.swaps[PARTNER if game.engine_first else ENGINE] += 1
        if not game.engine_first and game.opening:
            self.second_seat.setdefault((game.opening, game.swapped), Score()).add(
                game.winner, ENGINE)
        for seat, times in game.thinking.items():
            self.thinking[seat].extend(times)
        self.searched.extend(game.searched)

    def lines(self) -> list[str]:
        def mean(seat: str) -> float:
            return sum(self.thinking[seat]) / max(1, len(self.thinking[seat]))

        moves = max(1, len(self.searched))
        nodes, cpu = sum(n for n, _ in self.searched), sum(c for _, c in self.searched)

        return [
            f"engine wins {self.counts[ENGINE]}, loses {self.counts[PARTNER]}, draws "
            f"{self.counts['draw']}; score {self.total.text()}"
            + (f"; void (not scored) {self.counts[VOID]}" if self.counts[VOID] else ""),
            f"  engine first player:  {self.by_seat['first'].text()}",
            f"  engine second player: {self.by_seat['second'].text()}",
            f"  engine as Red:        {self.by_colour[Colour.RED].text()}",
            f"  engine as Black:      {self.by_colour[Colour.BLACK].text()}",
            f"  swaps: engine {self.swaps[ENGINE]}, T1j {self.swaps[PARTNER]}; time a move: "
            f"engine {mean(ENGINE):.2f} s, T1j {mean(PARTNER):.2f} s",
            f"  the engine's searches: {nodes / moves:,.0f} nodes and {cpu / moves:.2f} CPU "
            f"seconds a move, {nodes / max(cpu, 1e-9):,.0f} nodes a CPU second",
            *(f"  engine second, T1j opened {kind}, {'swapped' if swapped else 'kept'}: "
              f"{score.text()}" for (kind, swapped), score in sorted(self.second_seat.items())),
        ]


def spar(version: Version, sparring: Sparring, games: int, jobs: int,
         new_partner: Iterator[Partner], log: IO[str] | None = None) -> Tally:
    """Play the games (`jobs` at once, each with its own engine process and T1j), print a line
    each as it ends and the tally at the end."""
    seats: queue.SimpleQueue[tuple[EngineProcess, Partner]] = queue.SimpleQueue()
    started: list[EngineProcess] = []
    opened: list[Partner] = []
    for _ in range(min(jobs, games)):
        started.append(EngineProcess(version))
        opened.append(next(new_partner))
        seats.put((started[-1], opened[-1]))
    setup = sparring.setup
    print(f"engine: {version.label}, core {started[0].core}, "
          f"{sparring.engine_limit()} a move; T1j {sparring.level}; classic {setup.size} "
          f"with swap, openings {sparring.openings}, seed {setup.seed}", flush=True)
    tally = Tally()
    lock = threading.Lock()

    def one(number: int) -> None:
        engine, partner = seats.get()
        try:
            game = play_game(sparring, number, engine, partner)
        finally:
            if not engine.alive:   # a worker that died starts again
                engine.close()
                engine = EngineProcess(engine.version)
                with lock:
                    started.append(engine)
            seats.put((engine, partner))
        with lock:
            tally.add(game)
            print(game.line(), flush=True)
            if log is not None:
                log.write(json.dumps({"game": number + 1, "winner": game.winner,
                                      "reason": game.reason, "moves": game.moves,
                                      "engine_colour": game.engine_colour.value}) + "\n")
                log.flush()

    began = time.perf_counter()
    run_games(games, jobs, one, started, opened)
    for line in tally.lines():
        print(line, flush=True)
    print(f"[{time.perf_counter() - began:.0f} s]", flush=True)
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--engine", default=None,
                        help="revision or source tree of the engine (default: this tree)")
    parser.add_argument("--seconds", type=float, default=2.0, help="the engine's time a move")
    parser.add_argument("--nodes", type=int, default=None,
                        help="the engine's nodes a move instead of its time")
    parser.add_argument("--level", default="ply:6",
                        help="T1j's strength: ply:N (fixed depth) or time:S (default ply:6)")
    parser.add_argument("--games", type=int, default=40, help="games (even: both seats)")
    parser.add_argument("--size", default="24", help="board: 24 or 24x18 (12 to 36)")
    parser.add_argument("--openings", default="own", choices=("own", "drawn"))
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--seed", type=int, default=0, help="openings and engine seeds")
    parser.add_argument("--play-out", action="store_true",
                        help="the engine never resigns: every game to its end")
    parser.add_argument("--sparring", type=Path, default=DEFAULT_SPARRING,
                        help="the folder with T1j's client t1j.py (default: shared/sparring "
                             "beside the checkout's folder)")
    parser.add_argument("--log", type=Path, default=None, help="write each game's moves here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.seconds <= 0 or (args.nodes or 1) < 1:
        raise SystemExit("--games, --jobs, --seconds and --nodes must be above 0")
    kind, _, amount = args.level.partition(":")
    if kind not in ("ply", "time") or not amount.isdigit() or int(amount) < 1:
        raise SystemExit(f"--level {args.level}: give ply:N or time:S (whole numbers above 0)")
    setup = Setup(args.size, "classic", True, args.seconds, args.seed, resign=not args.play_out)
    cols, rows = (setup.game((ENGINE, PARTNER)).geometry.cols,
                  setup.game((ENGINE, PARTNER)).geometry.rows)
    if cols not in PARTNER_SIZES or rows not in PARTNER_SIZES:
        raise SystemExit(f"--size {args.size}: T1j plays boards of 12 to 36 holes a side")
    try:
        new_partner = partners(args.sparring)
        first = next(new_partner)
    except Unavailable as error:
        raise SystemExit(str(error)) from None

    def reuse_first() -> Iterator[Partner]:
        yield first
        yield from new_partner

    version = install(args.engine)
    sparring = Sparring(setup, args.level, args.nodes, args.openings)
    with contextlib.ExitStack() as stack:
        log = None if args.log is None else stack.enter_context(args.log.open("w"))
        spar(version, sparring, args.games, args.jobs, reuse_first(), log)


if __name__ == "__main__":
    main()
