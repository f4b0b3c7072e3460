"""Every engine test runs on both cores: the compiled one (twixt/engine/_core.c) and the Python
fallback (what runs without a compiler, or with TWIXT_ENGINE_CORE=python).

The compiled core must have been built (CI installs with a C compiler and Python's headers):
where it was not, its tests fail and say how to build it, as the storage tests do without
PostgreSQL. Only TWIXT_ENGINE_CORE=python, which asks for the Python core alone, leaves them
out (skipped, and said so)."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator

import pytest

from twixt.engine import core

CORES = ("compiled", "python")


def require_compiled() -> None:
    """Fail where the compiled core was not built, skip where the environment asks for the
    Python core alone."""
    if os.environ.get(core.CHOICE, "").strip().lower() == "python":
        pytest.skip(f"{core.CHOICE}=python: the compiled core is left out")
    if importlib.util.find_spec("twixt.engine._core") is None:
        pytest.fail("twixt.engine._core is not built: install a C compiler and Python's headers "
                    "(Debian: apt-get install gcc python3-dev), then python -m pip install "
                    f"-e '.[dev]' again; or run the tests with {core.CHOICE}=python")


@pytest.fixture(params=CORES, autouse=True)
def engine_core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The core the test's searches run on."""
    if request.param == "compiled":
        require_compiled()
    monkeypatch.setattr(core, "compiled", request.param == "compiled")
    yield request.param
