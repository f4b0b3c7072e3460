"""Before anything is collected: the Python running the tests must be the project's
environment, or every test module would fail on its first import with a traceback."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import AsyncIterator, Iterable, Iterator
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


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject.toml) starts two workers a core: much of the suite waits rather
    than computes (real `twixt` processes starting, fsynced commits, PostgreSQL servers,
    browsers drawing, the image's installs): on an idle 2-core machine four workers ran the
    suite in 5:17 where two took 5:34 (docs/benchmarks.md, the test suite)."""
    return 2 * len(os.sched_getaffinity(0))


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
