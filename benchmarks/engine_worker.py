"""One engine version in its own process, for the head-to-head and the real-games benchmarks.

Run with PYTHONPATH set to a source tree (its `twixt`, or before the one package its `engine`,
`rules` and `language`): it answers JSON lines on stdin with JSON lines on stdout, so two
versions of the engine, each with the rules it was written against, can play each other from
one referee. It uses only the public API that every version the harness measures has:
`Game(players, size=, rules=, swap=)`, `game.play`, `engine.think(game, limit, seed=)`,
`Limit`, `level_limit`. Started by `engine_match.py`.

Its first line says which tree it imported (so a wrong PYTHONPATH shows at once); then each
request `{"size": "24x24", "rules": "pp", "swap": true, "moves": [...], "limit": {"seconds":
1.0} | {"nodes": N} | {"level": 5}, "seed": 7}` gets `{"move", "win", "pv", "nodes",
"seconds", "cpu"}` (`cpu`: the process's CPU seconds in the search, which a busy machine
does not inflate as it does the wall clock), or `{"error": "..."}`.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import time
from contextlib import redirect_stdout
from typing import Any

# stdout is the protocol's: whatever the engine prints (a start-up line) goes to stderr
with redirect_stdout(sys.stderr):
    # a tree from before the one package (fd1f811) has its engine and rules at the top
    _PREFIX = "twixt." if importlib.util.find_spec("twixt") else ""
    engine = importlib.import_module(_PREFIX + "engine")
    Game = importlib.import_module(_PREFIX + "rules").Game
    Limit, level_limit, think = engine.Limit, engine.level_limit, engine.think


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The engine's move in the position the request describes (anything it prints goes to
    stderr)."""
    game = Game(("red", "black"), size=request["size"], rules=request["rules"],
                swap=request["swap"])
    for move in request["moves"]:
        game.play(move)
    asked = request["limit"]
    limit = (level_limit(asked["level"]) if "level" in asked
             else Limit(seconds=asked.get("seconds"), nodes=asked.get("nodes")))
    cpu = time.process_time()
    result = think(game, limit, seed=request["seed"])
    return {"move": result.move, "win": result.win, "pv": list(result.pv),
            "nodes": result.nodes, "seconds": result.seconds,
            "cpu": time.process_time() - cpu}


def main() -> None:
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
