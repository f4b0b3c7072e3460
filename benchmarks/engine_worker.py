"""One engine version in its own process, for the head-to-head and the real-games benchmarks.

Run with PYTHONPATH set to a source tree (its `twixt` package, or before fd1f811 its `engine`,
`rules` and `language` at the top) and that tree as the working folder: it answers JSON lines
on stdin with JSON lines on stdout, so two versions of the engine, each with the rules it was
written against, can play each other from one referee. It uses only the public API that every
version the harness measures has: `Game(players, size=, rules=, swap=)`, `game.play`,
`engine.think(game, limit, seed=)`, `Limit`, `level_limit`. Started by `engine_match.py`.

`TWIXT_BENCH_MAX_BYTES` (benchmarks only) sets the bound on the search's tree, in bytes as
the compiled core counts them, for both cores of the tree (`engine.core.MAX_BYTES`, and
`engine.search.MAX_BYTES` where the Python core has one): a small bound shows at a few
seconds a move what a full tree does at many (before pruning, the search stopped there).

Its first line says which tree it imported (so a wrong PYTHONPATH shows at once); then each
request `{"size": "24x24", "rules": "pp", "swap": true, "moves": [...], "limit": {"seconds":
1.0} | {"nodes": N} | {"level": 5}, "seed": 7}` gets `{"move", "win", "pv", "nodes",
"seconds", "cpu"}` (`cpu`: the process's CPU seconds in the search, which a busy machine
does not inflate as it does the wall clock), or `{"error": "..."}`.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

# stdout is the protocol's: whatever the engine prints (a start-up line) goes to stderr. The
# layout is the tree's (the working folder), never whatever `twixt` the interpreter has installed
# (before fd1f811 `engine` and `rules` were top-level packages)
PACKAGE = "twixt." if (Path.cwd() / "twixt" / "engine").is_dir() else ""
with redirect_stdout(sys.stderr):
    engine = importlib.import_module(PACKAGE + "engine")
    Game = importlib.import_module(PACKAGE + "rules").Game
#: the benchmark's bound on the tree, if it sets one
BOUND = "TWIXT_BENCH_MAX_BYTES"


def bound_the_tree(text: str) -> None:
    """Give both of the tree's cores the bound `text` (bytes); a tree without one refuses."""
    bound = int(text)
    modules = [importlib.import_module(PACKAGE + "engine." + name) for name in ("core", "search")]
    if not hasattr(modules[0], "MAX_BYTES"):
        raise SystemExit(f"{BOUND}: this tree's engine has no core.MAX_BYTES")
    for module in modules:
        if hasattr(module, "MAX_BYTES"):
            setattr(module, "MAX_BYTES", bound)  # noqa: B010 - whichever tree is loaded


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The engine's move in the position the request describes (anything it prints goes to
    stderr)."""
    game = Game(("red", "black"), size=request["size"], rules=request["rules"],
                swap=request["swap"])
    for move in request["moves"]:
        game.play(move)
    asked = request["limit"]
    limit = (engine.level_limit(asked["level"]) if "level" in asked
             else engine.Limit(seconds=asked.get("seconds"), nodes=asked.get("nodes")))
    cpu = time.process_time()
    result = engine.think(game, limit, seed=request["seed"])
    return {"move": result.move, "win": result.win, "pv": list(result.pv),
            "nodes": result.nodes, "seconds": result.seconds,
            "cpu": time.process_time() - cpu}


def main() -> None:
    if os.environ.get(BOUND):
        bound_the_tree(os.environ[BOUND])
    # the core is whatever the tree's engine says it uses, if it says (later versions may)
    print(json.dumps({"engine": engine.__file__,
                      "core": str(getattr(engine, "CORE", "python"))}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            with redirect_stdout(sys.stderr):
                reply = answer(json.loads(line))
        except Exception as error:  # a wrong answer is the referee's to judge, not a crash
            reply = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
