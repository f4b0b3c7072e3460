"""Head-to-head at equal time between two versions of the engine.

    python benchmarks/engine_match.py --baseline 79d3449 --candidate engine --seconds 1 \\
        --games 20 --rules pp --size 24 --swap yes --jobs 1 --seed 0

A version is a git revision (a branch or a commit of this repository) or the path of a source
tree (to measure uncommitted work); the candidate defaults to the tree this file is in. A
revision is unpacked with `git archive` (its engine with the rules and words it was written
with: `twixt/` since fd1f811, `engine/`, `rules/` and `language/` at the top before) into a
cache folder named by the commit id, built in place when it has a `setup.py` (a compiled
core), and each version runs in its own long-lived
process (`engine_worker.py`) that gets the moves so far and answers `engine.think(game,
Limit(seconds=…), seed=…)`. The referee is this tree's rules: it checks each move, ends the
game (connection, blockade draw) and caps it at one move a hole (a draw). Only one engine
thinks at a time in a game, so both get the same time a move.

Game 2k and 2k+1 start from the same first peg (Red's, drawn for pair k from the seed: one
near the middle without swap; anywhere off the borders with swap, where the second player
then decides whether to swap), the candidate in the first seat once and in the second once.
A side resigns as the engine player does (`twixt.service.cases.engine_player`): at the third
of its turns in a row at which its own engine gives it under 2% (`--play-out` plays every
game to its end instead).
Each game prints a line; the end prints wins, losses, draws and the candidate's score (a draw
counts half) with its Wilson 95% interval. An illegal move or an engine's error loses the
game. engine_games.py measures versions on real games (and their nodes a second).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import queue
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Protocol

from twixt.rules import Game, Hole, TwixtError
from twixt.service.cases.engine_player import HOPELESS_TURNS, RESIGN_BELOW

REPO = Path(__file__).resolve().parents[1]
WORKER = Path(__file__).with_name("engine_worker.py")
#: what a version needs to run: its engine, the rules it imports, the messages they import
#: (one package `twixt` since fd1f811; three top-level folders before); and a setup.py when
#: the version compiles a core of its own
PARTS = ("twixt", "engine", "rules", "language", "setup.py")
#: how long past ten times its time a move a worker may take before it counts as hung
ANSWER_TIMEOUT = 60.0
#: the seats' names in the referee's game
CANDIDATE, BASELINE = "candidate", "baseline"


# --- versions: installed from git or a path, run in their own process -------------------------


@dataclass(frozen=True)
class Version:
    """An engine version ready to run: `label` for the report, `path` for PYTHONPATH, and
    `core` the core its worker is made to use (TWIXT_ENGINE_CORE, e.g. "python" for the
    fallback of a version with a compiled core), or None for its own choice."""

    label: str
    path: Path
    core: str | None = None


def cache_root() -> Path:
    """Where unpacked revisions live (TWIXT_ENGINE_CACHE, else the system's temp folder)."""
    return Path(os.environ.get("TWIXT_ENGINE_CACHE")
                or Path(tempfile.gettempdir()) / "twixt-engine-versions")


def install(source: str | None) -> Version:
    """The version `source` names: None (this tree), a source tree's path, or a revision."""
    if source is None:
        return Version(f"this tree ({REPO})", REPO)
    path = Path(source)
    if path.is_dir():
        if engine_folder(path) is None:
            raise SystemExit(f"{source}: no twixt/engine/api.py (nor engine/api.py) in that "
                             "folder")
        return Version(str(path), path.resolve())
    found = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet",
                            f"{source}^{{commit}}"], capture_output=True, text=True)
    if found.returncode:
        raise SystemExit(f"{source}: neither a folder nor a revision of {REPO}")
    commit = found.stdout.strip()
    target = cache_root() / commit
    if not target.is_dir():
        _unpack(commit, target)
    return Version(f"{source} ({commit[:7]})", target)


def engine_folder(tree: Path) -> Path | None:
    """The engine package of a source tree in either layout (`twixt/engine`, or `engine` at the
    top before fd1f811), or None when it has neither."""
    for folder in (tree / "twixt" / "engine", tree / "engine"):
        if (folder / "api.py").is_file():
            return folder
    return None


def _unpack(commit: str, target: Path) -> None:
    """`git archive` the revision's parts into `target` (whole or not at all)."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-tree", "--name-only", commit],
                            capture_output=True, text=True, check=True).stdout.split()
    parts = [part for part in PARTS if part in listed]
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{commit[:12]}."))
    try:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, *parts],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(temp, filter="data")
        if "setup.py" in parts:
            built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                                   cwd=temp, capture_output=True, text=True)
            if built.returncode:   # the version's own fallback runs; the worker says which
                print(f"{commit[:7]}: building its core failed, it runs without:\n"
                      f"{built.stderr[-2000:]}", file=sys.stderr)
        temp.rename(target)
    except OSError:
        if not target.is_dir():
            raise
    finally:
        shutil.rmtree(temp, ignore_errors=True)


class EngineProcess:
    """A version's worker process: one request at a time, a JSON line each way."""

    def __init__(self, version: Version) -> None:
        env = dict(os.environ, PYTHONPATH=str(version.path))
        env.pop("TWIXT_ENGINE_CORE", None)
        if version.core is not None:
            env["TWIXT_ENGINE_CORE"] = version.core
        self.version = version
        self.process = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env,
                                        cwd=version.path)
        hello = self._read()
        if not Path(hello["engine"]).resolve().is_relative_to(version.path):
            self.close()
            raise SystemExit(f"{version.label}: the worker imported {hello['engine']}")
        self.core: str = hello["core"]

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout

    def _read(self) -> dict[str, Any]:
        line = self._pipes()[1].readline()
        if not line:
            raise RuntimeError(f"{self.version.label}: the engine's process ended")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def ask(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """The worker's answer to one request (its `error` key set when it failed). A worker
        that has not answered after `timeout` seconds is killed (a hung engine must not hang
        the match); a dead worker's answer is an error and `alive` turns False."""
        watchdog = None if timeout is None else threading.Timer(timeout, self.process.kill)
        try:
            if watchdog is not None:
                watchdog.start()
            stdin = self._pipes()[0]
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            return self._read()
        except (OSError, RuntimeError) as error:
            self.process.kill()   # whatever it was doing, it is done now
            return {"error": f"no answer ({error}, exit code {self.process.wait()})"}
        finally:
            if watchdog is not None:
                watchdog.cancel()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        with contextlib.suppress(OSError):   # it died with our request unread
            self._pipes()[0].close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# --- statistics --------------------------------------------------------------------------------


def wilson(points: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (draws count half)."""
    if not games:
        return 0.0, 1.0
    p = points / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


@dataclass
class Score:
    """A player's points over games: 1 a win, half a draw."""

    games: int = 0
    points: float = 0.0

    def add(self, result: str, mine: str) -> None:
        self.games += 1
        self.points += 1.0 if result == mine else 0.5 if result == "draw" else 0.0

    def text(self) -> str:
        low, high = wilson(self.points, self.games)
        rate = self.points / self.games if self.games else 0.0
        return f"{rate:6.1%} [{low:5.1%}, {high:5.1%}] ({self.points:g}/{self.games})"


# --- games -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What every game of a match shares."""

    size: str
    rules: str
    swap: bool
    seconds: float
    seed: int
    #: a side resigns as the bot does (else every game is played to its end)
    resign: bool = True
    #: a fixed number of nodes a move instead of the time (the same work whatever the load)
    nodes: int | None = None
    #: the candidate's budget is this many times the baseline's (a test of scaling: the
    #: same version against itself at twice the time)
    factor: float = 1.0

    def limit(self, seat: str) -> dict[str, float]:
        """What the engine in `seat` is given a move."""
        times = self.factor if seat == CANDIDATE else 1.0
        if self.nodes is not None:
            return {"nodes": round(self.nodes * times)}
        return {"seconds": self.seconds * times}

    def game(self, players: tuple[str, str]) -> Game:
        return Game(players, size=self.size, rules=self.rules, swap=self.swap)


def first_peg(setup: Setup, pair: int) -> str:
    """Red's first peg of pair `pair`, the same for every run with this seed and no two alike
    until every hole has had its turn: near the middle without swap (a plain opening);
    anywhere off the borders with swap (whether it is worth swapping is then the second
    player's to judge)."""
    game = setup.game((CANDIDATE, BASELINE))
    cols, rows = game.geometry.cols, game.geometry.rows
    if setup.swap:
        region = [Hole(col, row) for row in range(2, rows - 2) for col in range(1, cols - 1)]
    else:
        region = [Hole(col, row) for row in range(rows // 4, rows - rows // 4)
                  for col in range(cols // 4, cols - cols // 4)]
    holes = [hole for hole in region if game.can_place(hole)]
    random.Random(setup.seed).shuffle(holes)
    return str(holes[pair % len(holes)])


@dataclass
class GameResult:
    """One game: who won (`candidate`, `baseline` or `draw`) and why, as one line."""

    number: int
    winner: str
    reason: str
    moves: list[str]
    thinking: dict[str, list[float]] = field(default_factory=dict)
    #: each side's nodes a move, as its engine said
    nodes: dict[str, list[int]] = field(default_factory=dict)

    def line(self) -> str:
        times = ", ".join(f"{seat} {sum(t) / max(len(t), 1):.2f} s/move"
                          f" {sum(self.nodes.get(seat, [])) / max(len(t), 1):,.0f} nodes/move"
                          for seat, t in sorted(self.thinking.items()))
        seat = "first" if self.number % 2 == 0 else "second"
        return (f"game {self.number + 1:3}: candidate {seat} seat, opening {self.moves[0]:4}"
                f" -> {self.winner:9} by {self.reason:10} after {len(self.moves):3} moves"
                f" ({times})")


def play_game(setup: Setup, number: int, engines: dict[str, EngineProcess]) -> GameResult:
    """Game `number`: the candidate in the first seat when it is even. The referee's seats are
    named after the engines, so a swap changes their colours and not who is who."""
    seats = (CANDIDATE, BASELINE) if number % 2 == 0 else (BASELINE, CANDIDATE)
    game = setup.game(seats)
    game.play(first_peg(setup, number // 2))
    moves = [game.history[-1].text]
    thinking: dict[str, list[float]] = {CANDIDATE: [], BASELINE: []}
    nodes: dict[str, list[int]] = {CANDIDATE: [], BASELINE: []}
    hopeless = {CANDIDATE: 0, BASELINE: 0}   # the side's own turns in a row under 2%
    cap = game.geometry.cols * game.geometry.rows
    while not game.is_over and game.pegs_placed < cap:
        seat = game.player_to_move
        assert seat is not None
        other = BASELINE if seat == CANDIDATE else CANDIDATE
        asked = time.perf_counter()
        reply = engines[seat].ask({
            "size": setup.size, "rules": setup.rules, "swap": setup.swap, "moves": moves,
            "limit": setup.limit(seat), "seed": setup.seed * 100_003 + number * 1000
            + len(moves)}, timeout=ANSWER_TIMEOUT + 10 * setup.seconds * setup.factor)
        # the referee's clock, not the engine's word: what equal time means
        thinking[seat].append(time.perf_counter() - asked)
        if "error" in reply:
            return GameResult(number, other, f"error of {seat}: {reply['error']}", moves,
                              thinking, nodes)
        nodes[seat].append(reply["nodes"])
        hopeless[seat] = hopeless[seat] + 1 if reply["win"] < RESIGN_BELOW else 0
        if setup.resign and hopeless[seat] >= HOPELESS_TURNS:
            return GameResult(number, other, "resignation", moves, thinking, nodes)
        try:
            moves.append(game.play(reply["move"]).text)
        except TwixtError as error:
            return GameResult(number, other, f"illegal {reply['move']!r} of {seat}: "
                              f"{error.message}", moves, thinking, nodes)
    outcome = game.outcome
    if outcome is None:
        return GameResult(number, "draw", "move cap", moves, thinking, nodes)
    winner = outcome.winners[0] if outcome.winner is not None else "draw"
    return GameResult(number, winner, outcome.reason.value, moves, thinking, nodes)


class Closable(Protocol):
    def close(self) -> None: ...


def run_games(games: int, jobs: int, one: Callable[[int], None],
              *processes: Sequence[Closable]) -> None:
    """`one(number)` for every game, `jobs` at once; then every process in `processes` (lists
    that may grow meanwhile, as a dead worker is replaced) is closed, whatever happened."""
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for done in [pool.submit(one, number) for number in range(games)]:
                done.result()
    finally:
        for started in processes:
            for process in started:
                process.close()


def match(baseline: Version, candidate: Version, setup: Setup, games: int,
          jobs: int) -> Score:
    """Play the games (`jobs` at once, each with its own pair of engine processes), print a
    line each as it ends and the candidate's score at the end."""
    pairs: queue.SimpleQueue[dict[str, EngineProcess]] = queue.SimpleQueue()
    started: list[EngineProcess] = []
    for _ in range(min(jobs, games)):
        pair = {CANDIDATE: EngineProcess(candidate), BASELINE: EngineProcess(baseline)}
        started.extend(pair.values())
        pairs.put(pair)
    print(f"candidate: {candidate.label}, core {started[0].core}\n"
          f"baseline:  {baseline.label}, core {started[1].core}", flush=True)
    score = Score()
    tally = {CANDIDATE: 0, BASELINE: 0, "draw": 0}
    lock = threading.Lock()

    def one(number: int) -> None:
        engines = pairs.get()
        try:
            result = play_game(setup, number, engines)
        finally:
            for seat, engine in engines.items():   # a worker that died starts again
                if not engine.alive:
                    engine.close()
                    engines[seat] = EngineProcess(engine.version)
                    with lock:
                        started.append(engines[seat])
            pairs.put(engines)
        with lock:
            score.add(result.winner, CANDIDATE)
            tally[result.winner] += 1
            print(result.line(), flush=True)

    began = time.perf_counter()
    run_games(games, jobs, one, started)
    print(f"{setup.rules} {setup.size} swap {'yes' if setup.swap else 'no'}, "
          f"{setup.limit(BASELINE)} a move for the baseline, {setup.limit(CANDIDATE)} for the"
          f" candidate: candidate wins {tally[CANDIDATE]}, loses "
          f"{tally[BASELINE]}, draws {tally['draw']}; score {score.text()} "
          f"[{time.perf_counter() - began:.0f} s]", flush=True)
    return score


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add_arguments(parser)
    run(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The match's options (engine_bench.py takes the same for its `match` part)."""
    parser.add_argument("--baseline", default="79d3449",
                        help="revision or source tree to measure against (default 79d3449)")
    parser.add_argument("--candidate", default=None,
                        help="revision or source tree to measure (default: this tree)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time a move, each side")
    parser.add_argument("--games", type=int, default=20, help="games (even: both seats)")
    parser.add_argument("--rules", default="pp", choices=("pp", "classic"))
    parser.add_argument("--size", default="24", help="board: 24 or 24x18")
    parser.add_argument("--swap", default="yes", choices=("yes", "no"))
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--seed", type=int, default=0, help="openings and engine seeds")
    parser.add_argument("--play-out", action="store_true",
                        help="no resigning: every game to its end")
    parser.add_argument("--nodes", type=int, default=None,
                        help="nodes a move instead of --seconds (the same work under any load)")
    parser.add_argument("--factor", type=float, default=1.0,
                        help="the candidate's budget times the baseline's (scaling: 2)")
    parser.add_argument("--core", default=None, choices=("python",),
                        help="both versions on this core (python: the fallback of a version "
                             "with a compiled core); default: each its own")


def versions(args: argparse.Namespace) -> tuple[Version, Version]:
    """The baseline and the candidate, each on the core `--core` names (None: its own)."""
    return (replace(install(args.baseline), core=args.core),
            replace(install(args.candidate), core=args.core))


def run(args: argparse.Namespace) -> None:
    baseline, candidate = versions(args)
    if args.games < 1 or args.jobs < 1 or args.seconds <= 0:
        raise SystemExit("--games, --jobs and --seconds must be above 0")
    setup = Setup(args.size, args.rules, args.swap == "yes", args.seconds, args.seed,
                  resign=not args.play_out, nodes=args.nodes,
                  factor=args.factor)
    match(baseline, candidate, setup, args.games, args.jobs)


if __name__ == "__main__":
    main()
