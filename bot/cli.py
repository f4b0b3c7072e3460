"""The `twixt` command line: one entry point, a subcommand per job.

Each subcommand lives beside the code it drives and registers itself here with
`add_parser(subparsers)`; the parser's `handler` returns the exit code.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rendering import cli as render_cli
from rules import Game
from rules.errors import RecordError
from rules.records import FORMATS, load


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="twixt", description="TwixT by correspondence.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    _add_replay(subparsers)
    render_cli.add_parser(subparsers)
    args = parser.parse_args(argv)
    return args.handler(args)


def _add_replay(subparsers: argparse._SubParsersAction) -> None:
    replay = subparsers.add_parser(
        "replay", help="check a game record and print its result as JSON",
        description="Replay a record; print one JSON object, or `line N: why` at the first "
                    "illegal line (exit 1).")
    replay.add_argument("file", help="a transcript, Little Golem .tsgf or T1 file")
    replay.add_argument("--format", choices=FORMATS,
                        help="the record's format (default: guessed from the file's ending)")
    replay.set_defaults(handler=_run_replay)


def replay_summary(game: Game) -> dict:
    """The JSON object of `twixt replay`, as RULES.md specifies it."""
    outcome = game.outcome
    return {
        "result": outcome.result if outcome else None,
        "reason": outcome.reason.value if outcome else None,
        "winners": list(outcome.winners) if outcome else [],
        "to_move": game.to_move,
        "turns": game.placements,
    }


def _run_replay(args: argparse.Namespace) -> int:
    try:
        game = load(args.file, args.format)
    except RecordError as error:
        print(error, file=sys.stderr)
        return 1
    print(json.dumps(replay_summary(game)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
