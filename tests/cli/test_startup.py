"""`twixt` starts with what it uses: a help imports no engine, fonts, service, database or
message class, and what it shows of the layers (the levels, the themes, the widths) comes from
their small `about` modules; `think` imports the engine and the rules only, and
`--seconds` count from the process's start. Each command runs in a process of its own, whose
modules are read after it ran (how fast it starts is benchmarks/startup_bench.py's)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest

from tests.cli.test_engine_commands import OPEN
from twixt import engine
from twixt.cli import main, subcommands

#: runs the command line in this process and then lists every module it imported, on stderr
LIST_MODULES = """
import sys
from twixt.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(*sorted(sys.modules), file=sys.stderr)
"""
#: lists what Python itself imports here before a help's first line (the parser, and whatever
#: this environment's start loads), which a help cannot leave out
LIST_PYTHON_S_OWN = "import argparse, sys; print(*sorted(sys.modules), file=sys.stderr)"
#: what no help imports: the layers' big modules, the libraries they load, `dataclasses` (a
#: third of Python's own start: the messages of `twixt.language` and most of the rules are
#: dataclasses) and `typing` (a tenth: the modules a help reads say `TYPE_CHECKING = False`)
HEAVY = {"twixt.language", "twixt.service", "twixt.storage", "twixt.terminal", "twixt.web",
         "twixt.discord", "twixt.app", "twixt.config", "discord", "numpy", "PIL", "babel",
         "dataclasses", "typing", "asyncio", "aiosqlite", "asyncpg", "aiohttp"}
#: the modules of the layers below the command line that a help may import: the packages
#: (which import their names when used) and the small modules of what helps show (the record
#: formats, the engine's levels, core and analysis budget, the pictures' themes and widths)
LIGHT = {"twixt.rules", "twixt.rules.later", "twixt.rules.formats", "twixt.engine",
         "twixt.engine.about", "twixt.engine._core", "twixt.rendering", "twixt.rendering.about"}
#: what `think` never imports (the rules it reads a record with speak through the language)
NOT_THINKING = HEAVY - {"twixt.language", "dataclasses", "typing", "numpy"} | {"twixt.rendering"}


def modules_of(*argv: str, code: str = LIST_MODULES) -> set[str]:
    """The modules `twixt ARGV` imports (or the process `code` runs): each library by its
    top-level package, each of `twixt`'s modules by its name and by its layer
    (`twixt.engine.api` is also `twixt.engine`)."""
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                          text=True, timeout=120, check=False)
    names = done.stderr.split()
    assert names, done.stderr
    return {name if name.startswith("twixt.") else name.partition(".")[0] for name in names} | {
        ".".join(name.split(".")[:2]) for name in names if name.startswith("twixt.")}


@cache
def pythons_own() -> frozenset[str]:
    """The modules Python imports before a help begins, in this environment."""
    return frozenset(modules_of(code=LIST_PYTHON_S_OWN))


def _below_the_command_line(found: set[str]) -> set[str]:
    return {name for name in found
            if name.startswith("twixt.") and not name.startswith("twixt.cli")}


def test_twixt_help_imports_none_of_the_layers():
    found = modules_of("--help") - pythons_own()
    assert found & HEAVY == set()
    assert _below_the_command_line(found) == set()


@pytest.mark.parametrize("name", subcommands())
def test_a_subcommands_help_imports_only_what_says_what_it_shows(name: str):
    found = modules_of(name, "--help") - pythons_own()
    assert found & HEAVY == set()
    assert _below_the_command_line(found) <= LIGHT


def test_think_imports_the_engine_and_the_rules_only(tmp_path: Path):
    record = tmp_path / "game.twixt"
    record.write_text(OPEN)
    found = modules_of("think", "--level", "1", str(record))
    assert {"twixt.engine", "twixt.rules"} <= found
    assert found & NOT_THINKING == set()


@pytest.fixture
def limits(monkeypatch: pytest.MonkeyPatch) -> list[engine.Limit]:
    """The limits `think` is given, in place of thinking."""
    given: list[engine.Limit] = []

    def think(game, limit, *, seed=0):
        given.append(limit)
        return engine.PlayResult("D4", 0.5, ("D4",), 1, 0.0)

    monkeypatch.setattr(engine, "think", think)
    return given


def test_seconds_count_from_the_process_start(tmp_path, monkeypatch, limits, capsys):
    """Run as the program (no arguments given), 60 seconds asked 50 seconds after the
    process started leave the engine 10."""
    record = tmp_path / "game.twixt"
    record.write_text(OPEN)
    started = time.perf_counter() - 50
    monkeypatch.setattr("twixt.cli.clock.process_start", lambda: started)
    monkeypatch.setattr(sys, "argv", ["twixt", "think", "--seconds", "60", str(record)])
    assert main() == 0
    assert capsys.readouterr().out == "D4\n"
    [limit] = limits
    assert 9 < limit.seconds <= 10 and limit.nodes is None


def test_seconds_count_from_the_call_when_arguments_are_given(tmp_path, limits, capsys):
    record = tmp_path / "game.twixt"
    record.write_text(OPEN)
    assert main(["think", "--seconds", "60", str(record)]) == 0
    [limit] = limits
    assert 59 < limit.seconds <= 60


@pytest.mark.skipif(sys.platform != "linux", reason="the process's start is read from /proc "
                    "on Linux; elsewhere it is the first import of the command line")
def test_the_process_start_is_before_python_ran_any_of_it():
    """The clock starts with the process, not with the import of the command line: a process
    that sleeps before importing it has been running at least that long."""
    code = ("import time; time.sleep(0.3); from twixt.cli import clock; "
            "print(time.perf_counter() - clock.process_start())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert 0.3 <= float(done.stdout) < 60


@pytest.mark.parametrize("package", ["twixt.rules", "twixt.engine"])
def test_a_package_that_imports_its_names_when_used_gives_each_it_lists(package: str):
    """`twixt.rules` and `twixt.engine` import their modules when a name is first used: each
    name they list is there, and is the one its module defines."""
    found = importlib.import_module(package)
    for name in found.__all__:
        value = getattr(found, name)
        homes = [module for module in sys.modules.values()
                 if module is not None and module.__name__.startswith(f"{package}.")
                 and getattr(module, name, None) is value]
        assert homes, name
    with pytest.raises(AttributeError):
        found.nothing_of_that_name  # noqa: B018


def test_a_started_server_collects_its_youngest_objects_ten_times_more_rarely():
    """`freeze_start_up` (run in a process of its own: the collector is the process's)
    freezes what start-up made, turns the collector on again after `hold_collection`, and
    collects the youngest generation after `YOUNG_COLLECTION` new objects, the older ones as
    Python does."""
    run = subprocess.run([sys.executable, "-c", (
        "import gc\n"
        "from twixt.app import YOUNG_COLLECTION, freeze_start_up, hold_collection\n"
        "before = gc.get_threshold()\n"
        "hold_collection()\n"
        "held = gc.isenabled()\n"
        "freeze_start_up()\n"
        "print(before, held, gc.isenabled(), gc.get_freeze_count() > 0, gc.get_threshold(),"
        " YOUNG_COLLECTION)\n")], capture_output=True, text=True, check=True)
    assert run.stdout.split("\n")[0] == "(700, 10, 10) False True True (10000, 10, 10) 10000"
