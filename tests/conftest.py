"""Before anything is collected: the Python running the tests must be the project's
environment, or every test module would fail on its first import with a traceback."""

from __future__ import annotations

import fcntl
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Generator, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

#: what the project and its tests import, by module name (see pyproject.toml)
NEEDED = ("aiosqlite", "asyncpg", "babel", "discord", "dotenv", "PIL", "pytest_asyncio",
          "hypothesis", "xdist")


def environment_problem(names: Iterable[str] = NEEDED) -> str | None:
    """One line saying what to do when this Python lacks the project's dependencies."""
    missing = [name for name in names if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return (f"{', '.join(missing)} not installed for {sys.executable}: this is not the "
            "project's environment. Run `python -m pip install -e '.[dev]'` with this Python "
            "(in a virtual environment, see the README's Set up), then `python -m pytest`.")


def pytest_addoption(parser: pytest.Parser) -> None:
    """Without pytest-xdist, its options in addopts (pyproject.toml) are taken here, so that
    `pytest_configure` can say what is missing instead of a usage error."""
    if importlib.util.find_spec("xdist") is None:
        group = parser.getgroup("xdist")
        group._addoption("-n", dest="numprocesses")
        group._addoption("--dist", dest="dist")


def pytest_configure(config: pytest.Config) -> None:
    problem = environment_problem()
    if problem is not None:
        raise pytest.UsageError(problem)
    if not hasattr(config, "workerinput"):   # the run's first process (xdist's or -n 0's)
        keep_bytecode_for_the_run(config)
        one_thread_a_library()


def one_thread_a_library() -> None:
    """The run's processes (inheriting it) give PyTorch's and OpenBLAS's thread pools one
    thread each, unless told otherwise: the run already has three workers for two cores
    (`pytest_xdist_auto_num_workers`), and a pool of a thread a core, whose threads spin while
    they wait for each other, then fights the other workers for the cores (the learned
    network's tests: 27 → 19 s of CPU). The numbers computed are the same."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def keep_bytecode_for_the_run(config: pytest.Config) -> None:
    """Where bytecode is not to be written beside the sources (PYTHONDONTWRITEBYTECODE, as on
    this project's machines), every process of the run would compile each module it imports
    from source: each worker the whole project and its tests (about half of a worker's
    collection), each `twixt` process and engine worker a test starts its modules again. The
    run keeps the bytecode in a folder of its own instead (PYTHONPYCACHEPREFIX, inherited by
    the workers and every process a test starts), removed when the run ends: nothing is
    written beside the sources, and each module is compiled once a run."""
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    folder = tempfile.mkdtemp(prefix="twixt-tests-bytecode-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    sys.pycache_prefix = folder
    sys.dont_write_bytecode = False


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """The first pytest-xdist worker to start collects alone, so that its compiled modules
    and rewritten tests (`keep_bytecode_for_the_run`, or the usual __pycache__ of a fresh
    clone) serve the others, which would otherwise each compile all of them at the same
    moment; the others then collect side by side. Their temporary folders' parent is the
    run's own (as for tests/test_docker_context.py's installs)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return (yield)
    shared = session.config._tmp_path_factory.getbasetemp().parent  # type: ignore[attr-defined]
    with (shared / "collection.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        first = not (shared / "collected").exists()
        if not first:
            fcntl.flock(lock, fcntl.LOCK_UN)
        try:
            return (yield)
        finally:
            if first:
                (shared / "collected").touch()


#: the tests that take longest, longest first (5-20 s each on the idle 2-core machine, most
#: of them searches on the Python core or processes killed again and again), by file or by
#: test (all its parameters); tests/test_order.py checks that each still names one
LONGEST = (
    "tests/engine/test_analysis_budgets.py::"
    "test_the_swings_ends_are_searched_with_the_deep_nodes_and_the_same_twice",
    "tests/service/test_input_fuzzed.py::"
    "test_any_line_is_answered_or_refused_in_one_line_and_a_refusal_changes_nothing",
    "tests/storage/test_crash_postgres.py",
    "tests/storage/test_crash.py::test_acknowledged_turns_survive_sigkill_at_random_moments",
    "tests/engine/test_analysis.py::"
    "test_the_swings_are_the_deeper_looks_largest_losses_on_a_real_game",
    "tests/engine/test_analysis.py::test_the_largest_swing_is_a_turning_point_when_played_out",
    "tests/storage/test_shard_processes.py::test_shards_in_processes_fire_every_clock_once",
    "tests/benchmarks/test_train_policy.py",
    "tests/web/test_activity.py::"
    "test_a_sustained_flood_stays_within_the_budget_while_bob_plays",
    "tests/engine/test_memory_bound.py::"
    "test_a_full_tree_is_pruned_and_the_search_runs_all_its_nodes",
    "tests/engine/test_analysis.py::test_the_same_game_analysed_twice_gives_the_same_analysis",
    "tests/benchmarks/test_calibrate_chance.py::"
    "test_the_cache_searches_a_game_once_and_joins_its_looks",
    "tests/engine/test_engine.py::test_level_3_beats_level_1_on_12x12_every_time",
    "tests/web/test_connections.py::test_a_body_sent_too_slowly_is_refused",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests (`LONGEST`) run first, the others in their usual order after them.
    pytest-xdist's worksteal hands each worker a third of the run in this order and lets a
    worker that has run its share take the last half of what another has left: the long
    tests, at the front of the first worker's share, are begun early and never stolen, and
    the run ends on short tests shared among the workers instead of one worker alone on a
    long one while the others wait (the Python core's analyses had ended the run)."""
    rank = {name: place for place, name in enumerate(LONGEST)}

    def place(item: pytest.Item) -> int:
        test = item.nodeid.partition("[")[0]
        return rank.get(test, rank.get(test.partition("::")[0], len(LONGEST)))

    items.sort(key=place)


#: the tests whose set-up installs the project twice (`start_installs`)
IMAGE_TESTS = Path(__file__).with_name("test_docker_context.py")
#: the installs begun when the run began, ended with it if still going
_INSTALLING: list[subprocess.Popen[bytes]] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    """A run that takes in tests/test_docker_context.py (its paths hold it) begins the
    image's installs in the background, in the run's own folder, before any worker is up."""
    config = session.config
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    paths = [Path(str(arg).partition("::")[0]).resolve() for arg in config.args]
    if any(path == IMAGE_TESTS or path in IMAGE_TESTS.parents for path in paths):
        from tests.test_docker_context import start_installs

        _INSTALLING.extend(start_installs(config._tmp_path_factory.getbasetemp()))  # type: ignore[attr-defined]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An install still going when the run ends (its tests deselected or never reached)
    is stopped: nothing of a run outlives it."""
    for process in _INSTALLING:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)  # and pip's processes (a session each)
        process.wait()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject.toml) starts three workers for two cores: much of the suite waits
    rather than computes (real `twixt` processes starting, fsynced commits, PostgreSQL
    servers, browsers drawing, the image's installs), yet each worker starts its own
    PostgreSQL and Chromium. On the idle 2-core machine, from one clean clone: three workers
    3:50-4:15, four 4:22 and 4:24, two 4:25-4:54 (docs/benchmarks.md, the test suite)."""
    return max(1, 3 * len(os.sched_getaffinity(0)) // 2)


@pytest.fixture
async def fake_discord() -> AsyncIterator[Any]:
    """A Discord-shaped server on localhost (`support.fake_discord`), stopped after the test."""
    from support.fake_discord import FakeDiscord  # imported once the environment is checked

    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture(scope="session", autouse=True)
def _browsers_quit() -> Iterator[None]:
    """The Chromiums the web tests kept between tests (`support.browser.chromium`) quit with
    the session, where any were started."""
    yield
    browser = sys.modules.get("support.browser")
    if browser is not None:
        browser.quit_all()
