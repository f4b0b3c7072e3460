"""How fast the `twixt` command starts: its help, each subcommand's help and the engine's
quick answers, each beside the floor of Python itself, measured in one run.

    python benchmarks/startup_bench.py [--rounds 15] [--think-rounds 5] [--source FOLDER]

Every command runs as its own process, as a user or a referee runs it: the installed `twixt`
script (else `python -m twixt.cli`) with this interpreter. The floor is `python -c "import
argparse"` (the interpreter's start and the parser, which every help needs); numpy's import
is printed beside it as the engine's share of `think`. The commands take turns round by
round, so that the machine's load falls on all of them alike; the figures are medians over
the rounds (wall and CPU, the process's user + system time) and their ratios to the floor's.
`think` runs on a 24×24 record of a real game after 20 moves. The aims (issue 46): every
help at most 2× the floor's CPU; `think --level 1` under 0.5 s whole; `think --seconds 2`
answers within 2.3 s of its start on an idle core. The load average is printed before and
after: on a busy machine the wall times grow, the CPU ratios much less.

The children are run with bytecode caching on, as an installed package has its compiled
modules (a first round, not counted, writes them where they are missing). `--source` runs
the `twixt` of another source tree instead (put first on the children's PYTHONPATH; its
compiled core built or copied in), to compare with an older version in the same run of time.
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
HELP_RATIO, LEVEL_1_WALL, SECONDS_GRACE = 2.0, 0.5, 0.3


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
    args = options.parse_args()
    env = {name: value for name, value in os.environ.items()
           if name != "PYTHONDONTWRITEBYTECODE"}
    if args.source:
        env["PYTHONPATH"] = str(args.source.resolve())
    with tempfile.TemporaryDirectory() as folder:
        game = str(record(Path(folder)))
        floor = [sys.executable, "-c", "import argparse"]
        helps = {"twixt --help": [*twixt(), "--help"]}
        helps.update({f"twixt {name} --help": [*twixt(), name, "--help"]
                      for name in subcommands()})
        thinks = {"twixt think --level 1": [*twixt(), "think", "--level", "1", game],
                  f"twixt think --seconds {THINK_SECONDS:g}":
                      [*twixt(), "think", "--seconds", f"{THINK_SECONDS:g}", game]}
        commands = {"floor: python -c 'import argparse'": floor,
                    "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
                    **helps, **thinks}
        print(f"{os.cpu_count()} cores; load average before: "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
        for command in commands.values():  # writes the compiled modules, not counted
            run(command, env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for round_ in range(args.rounds):
            for name, command in commands.items():
                if name in thinks and round_ >= args.think_rounds:
                    continue
                wall, cpu = run(command, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    floor_name = next(iter(commands))
    floor_wall = statistics.median(walls[floor_name])
    floor_cpu = statistics.median(cpus[floor_name])
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"medians of {args.rounds} rounds ({args.think_rounds} for think)\n")
    print(f"{'command':36} {'CPU ms':>8} {'× floor':>8} {'wall ms':>8} {'× floor':>8}  "
          f"{'max wall':>8}  aim")
    for name in commands:
        cpu, wall = statistics.median(cpus[name]), statistics.median(walls[name])
        if name in helps:
            aim = f"CPU ≤ {HELP_RATIO:g}× floor: {_met(cpu <= HELP_RATIO * floor_cpu)}"
        elif name.endswith("--level 1"):
            aim = f"wall < {LEVEL_1_WALL:g} s: {_met(wall < LEVEL_1_WALL)}"
        elif name in thinks:
            over = wall - THINK_SECONDS
            aim = (f"{over * 1000:+.0f} ms past {THINK_SECONDS:g} s (within "
                   f"{SECONDS_GRACE * 1000:.0f} ms on an idle core)")
        else:
            aim = ""
        print(f"{name:36} {cpu * 1000:8.1f} {cpu / floor_cpu:8.2f} {wall * 1000:8.1f} "
              f"{wall / floor_wall:8.2f}  {max(walls[name]) * 1000:8.1f}  {aim}")


def _met(met: bool) -> str:
    return "met" if met else "NOT met"


if __name__ == "__main__":
    main()
