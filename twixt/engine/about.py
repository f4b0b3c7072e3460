"""What can be said of the engine without loading it: the levels a player may ask for, which
core runs the search and the default budget of an analysis (a help text and the bot's start-up
line say these, and neither should wait for the search's tables or numpy).

The compiled core (twixt/engine/_core.c) runs when it was built and `TWIXT_ENGINE_CORE` does not
ask for the Python one; `engine.core` chooses by what is found here.
"""

from __future__ import annotations

import os

#: the levels a player may challenge, weakest first
LEVELS = (1, 2, 3, 4, 5)
#: the environment variable that forces the Python core
CHOICE = "TWIXT_ENGINE_CORE"


def _load() -> str | None:
    """Why the compiled core cannot run, or None when it can."""
    if os.environ.get(CHOICE, "").strip().lower() == "python":
        return f"{CHOICE}=python"
    try:
        from twixt.engine import _core  # noqa: F401 - loaded here once, used where it searches
    except ImportError as error:
        return f"twixt.engine._core is not built ({error})"
    return None


_WHY = _load()
#: "compiled" or "python": the core this process started with
CORE = "compiled" if _WHY is None else "python"
#: the same in one line for start-up, with the reason when it is the fallback
DESCRIPTION = ("engine core: compiled C" if _WHY is None
               else f"engine core: Python (no compiled core: {_WHY})")


#: the default budget of an analysis by core, as `twixt analyze --help` says it (decided by
#: `engine.analysis.BUDGETS` and `DEEP`, which tests/cli/test_shown.py holds equal to this):
#: the level whose nodes each position's search gets, whether those are counted for the
#: board (fewer on a bigger one) rather than for 12×12, how many times that the deeper look
#: at every position searches, and the least nodes it searches (counted for 12×12)
ANALYSIS_BUDGETS: dict[str, tuple[int, bool, int, int]] = {
    "python": (2, False, 10, 2500), "compiled": (4, True, 10, 2500)}
