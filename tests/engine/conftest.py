"""Every engine test runs on both cores: the compiled one (engine/_core.c) and the Python
fallback (what runs without a compiler, or with TWIXT_ENGINE_CORE=python). The compiled one
must have been built: CI installs with a compiler, so a missing core is a failure, not a skip."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

from engine import core

CORES = ("compiled", "python")


@pytest.fixture(params=CORES, autouse=True)
def engine_core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The core the test's searches run on."""
    if request.param == "compiled" and importlib.util.find_spec("engine._core") is None:
        pytest.fail("engine._core is not built: install the project with a C compiler "
                    "(python -m pip install -e '.[dev]')")
    monkeypatch.setattr(core, "compiled", request.param == "compiled")
    yield request.param
