"""How fast the `twixt` command starts: its help, each subcommand's help and the engine's
quick answers, each beside the floor of Python itself, measured in one run.

    python benchmarks/startup_bench.py [--rounds 15] [--think-rounds 5] [--source FOLDER]
                                        [--before FOLDER]

Every command runs as its own process, as a user or a referee runs it: the installed `twixt`
script (else `python -m twixt.cli`) with this interpreter. The floor is `python -c "import
argparse"` (the interpreter's start and the parser, which every help needs); numpy's import
is printed beside it as the engine's share of `think`. The commands take turns round by
round, so that the machine's load falls on all of them alike; the figures are medians over
the rounds (wall and CPU, the process's user + system time) and their ratios to the floor's.
`think` runs on a 24×24 record of a real game after 20 moves. The aims (issue 46, item 1),
each printed at the end beside its floor: every help at most 2× the floor's CPU; `think`
imports the engine and the rules only (listed from a run of its own); `think --level 1`
under 0.5 s whole on an idle core, judged by its CPU time (it waits for nothing, so on an
idle core its wall time is its CPU time and Python's start; under load only the CPU can be
read); `think --seconds 2` answers within 2.3 s of its start on an idle core. The load
average is printed before and after: on a busy machine the wall times grow, the CPU ratios
much less.

The children are run with bytecode caching on, as an installed package has its compiled
modules (a first round, not counted, writes them where they are missing). `--source` runs
the `twixt` of another source tree instead (put first on the children's PYTHONPATH; its
compiled core built or copied in); `--before` runs another tree's `twixt` too, each command
right after this one's in every round, and prints its CPU in a column of its own, so that a
before and an after are measured under the same load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from twixt.cli import subcommands

ROOT = Path(__file__).resolve().parents[1]
#: the real game whose first moves `think` is asked about (24×24)
GAME = ROOT / "benchmarks" / "games" / "0002.twixt"
MOVES = 20
THINK_SECONDS = 2.0
#: the aims: CPU of a help against the floor's; level 1's whole answer; --seconds's grace
HELP_RATIO, LEVEL_1_SECONDS, SECONDS_GRACE = 2.0, 0.5, 0.3
#: the layers `think` must not import (it imports the engine and the rules, which speak
#: through the language)
NOT_THINKING = ("twixt.service", "twixt.storage", "twixt.rendering", "twixt.app", "twixt.web",
                "twixt.discord", "twixt.terminal", "discord", "PIL")
#: runs `twixt ARGS` in this process, then prints the layers and libraries it imported
LIST_IMPORTS = """
import sys
from twixt.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(*sorted({".".join(name.split(".")[:2]) if name.startswith("twixt.") else
               name.partition(".")[0] for name in sys.modules}))
"""


def twixt() -> list[str]:
    """How this interpreter's `twixt` is started."""
    script = Path(sys.executable).with_name("twixt")
    return [str(script)] if script.exists() else [sys.executable, "-m", "twixt.cli"]


def record(folder: Path) -> Path:
    """The first `MOVES` moves of `GAME`, with its header, as a transcript file."""
    lines = GAME.read_text(encoding="utf-8").splitlines()
    header = [line for line in lines if line.startswith("[")]
    moves = [line for line in lines if line and not line.startswith("[")][:MOVES]
    path = folder / "game.twixt"
    path.write_text("\n".join([*header, *moves]) + "\n", encoding="utf-8")
    return path


def run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall and CPU seconds (user + system) of one run of `command`, which must exit 0."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=env)
    assert child.stderr is not None
    err = child.stderr.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({child.returncode}): {err.decode()}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--rounds", type=int, default=15, help="runs of each help (default 15)")
    options.add_argument("--think-rounds", type=int, default=5,
                         help="runs of each think (default 5)")
    options.add_argument("--source", type=Path,
                         help="a source tree whose `twixt` to run (default: the installed one)")
    options.add_argument("--before", type=Path, metavar="FOLDER",
                         help="a source tree whose `twixt` to measure beside, round by round")
    args = options.parse_args()
    env = {name: value for name, value in os.environ.items()
           if name != "PYTHONDONTWRITEBYTECODE"}
    if args.source:
        env["PYTHONPATH"] = str(args.source.resolve())
    before_env = None if args.before is None else {**env,
                                                   "PYTHONPATH": str(args.before.resolve())}
    with tempfile.TemporaryDirectory() as folder:
        game = str(record(Path(folder)))
        floor = [sys.executable, "-c", "import argparse"]
        helps = {"twixt --help": [*twixt(), "--help"]}
        helps.update({f"twixt {name} --help": [*twixt(), name, "--help"]
                      for name in subcommands()})
        thinks = {LEVEL_1: [*twixt(), "think", "--level", "1", game],
                  SECONDS: [*twixt(), "think", "--seconds", f"{THINK_SECONDS:g}", game]}
        commands = {FLOOR: floor, NUMPY: [sys.executable, "-c", "import numpy"],
                    **helps, **thinks}
        print(f"{os.cpu_count()} cores; load average before: {_load()}", flush=True)
        for command in commands.values():  # writes the compiled modules, not counted
            run(command, env)
            if before_env is not None:
                run(command, before_env)
        imported = subprocess.run([sys.executable, "-c", LIST_IMPORTS, "think", "--level", "1",
                                   game], env=env, cwd=folder, capture_output=True, text=True,
                                  check=True).stdout.split()
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        before: dict[str, list[float]] = {name: [] for name in commands}
        for round_ in range(args.rounds):
            for name, command in commands.items():
                if name in thinks and round_ >= args.think_rounds:
                    continue
                took, used = run(command, env)
                walls[name].append(took)
                cpus[name].append(used)
                if before_env is not None and name not in (FLOOR, NUMPY):
                    before[name].append(run(command, before_env)[1])
    print(f"load average after: {_load()}")
    print(f"medians of {args.rounds} rounds ({args.think_rounds} for think)\n")
    cpu = {name: statistics.median(found) for name, found in cpus.items()}
    wall = {name: statistics.median(found) for name, found in walls.items()}
    print(f"{'command':36} {'CPU ms':>8} {'× floor':>8} {'wall ms':>8} {'× floor':>8}  "
          f"{'max wall':>8}" + ("  before: CPU ms, × floor" if before_env else ""))
    for name in commands:
        then = (f"  {statistics.median(before[name]) * 1000:8.1f} "
                f"{statistics.median(before[name]) / cpu[FLOOR]:8.2f}" if before[name] else "")
        print(f"{name:36} {cpu[name] * 1000:8.1f} {cpu[name] / cpu[FLOOR]:8.2f} "
              f"{wall[name] * 1000:8.1f} {wall[name] / wall[FLOOR]:8.2f}  "
              f"{max(walls[name]) * 1000:8.1f}{then}")
    _aims(cpu, wall, list(helps), imported)


#: the commands the aims name, and numpy's import (the engine's share of `think`)
FLOOR = "floor: python -c 'import argparse'"
NUMPY = "python -c 'import numpy'"
LEVEL_1 = "twixt think --level 1"
SECONDS = f"twixt think --seconds {THINK_SECONDS:g}"


def _aims(cpu: dict[str, float], wall: dict[str, float], helps: list[str],
          imported: list[str]) -> None:
    """Issue 46 item 1's figures, each beside its floor and its aim."""
    floor = cpu[FLOOR]
    worst = max(helps, key=cpu.__getitem__)
    ratio = cpu[worst] / floor
    print(f"\naims (issue 46, item 1), floor {floor * 1000:.1f} ms CPU:")
    print(f"  every help: at most {ratio:.2f}× the floor's CPU ({worst}); aim ≤ "
          f"{HELP_RATIO:g}×: {_met(ratio <= HELP_RATIO)}")
    layers = [name for name in imported if name.startswith("twixt.")]
    wrong = [name for name in NOT_THINKING if name in imported]
    print(f"  think imports {', '.join(layers)}; of the service, storage, rendering, front "
          f"ends, discord and Pillow: {', '.join(wrong) or 'none'}: {_met(not wrong)}")
    level_1 = cpu[LEVEL_1]
    print(f"  think --level 1: {level_1 * 1000:.0f} ms CPU ({level_1 / floor:.1f}× the floor), "
          f"{wall[LEVEL_1] * 1000:.0f} ms by the clock; aim under "
          f"{LEVEL_1_SECONDS * 1000:.0f} ms whole on an idle core, where the clock ≈ CPU: "
          f"by CPU {_met(level_1 < LEVEL_1_SECONDS)}, by the clock "
          f"{_met(wall[LEVEL_1] < LEVEL_1_SECONDS)} (which counts this load's waits)")
    over = wall[SECONDS] - THINK_SECONDS
    print(f"  think --seconds {THINK_SECONDS:g}: answered {over * 1000:+.0f} ms past "
          f"{THINK_SECONDS:g} s of its start by the clock (CPU {cpu[SECONDS] * 1000:.0f} ms); "
          f"aim within {SECONDS_GRACE * 1000:.0f} ms on an idle core: "
          f"{_met(over <= SECONDS_GRACE)} under this load")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _met(met: bool) -> str:
    return "met" if met else "NOT met"


if __name__ == "__main__":
    main()
