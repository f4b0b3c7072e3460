"""`twixt think` and `twixt analyze`: the engine on a game record, from the command line.

`think` prints the engine's action for the side to move as one line of the move language,
exactly as a player would type it (or, with `--json`, the engine's whole answer); `analyze`
draws the game's win-probability curve to a PNG and prints its biggest swings (or, with
`--json`, the whole analysis as one JSON object), telling its progress on standard error
when it takes more than `PROGRESS_AFTER` seconds. Both read every format `twixt replay`
reads, and `-` reads the record from standard input.

`think` imports the engine and the rules only (what a game over needs to say so aside). Its
`--seconds`, and `analyze`'s (the whole analysis's), count from the process's start (`clock`),
as whoever started it counts them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from twixt.cli import clock
from twixt.cli.arguments import (
    Subcommands,
    add_command,
    add_locale_argument,
    add_record_arguments,
    picture_ending,
    read_record,
)

#: `typing.TYPE_CHECKING` without importing typing, a tenth of Python's start that a help
#: text need not wait for (type checkers read any `TYPE_CHECKING` as true)
TYPE_CHECKING = False

if TYPE_CHECKING:
    from twixt.engine import Limit
    from twixt.engine.analysis import GameAnalysis, Progress
    from twixt.rules import Game

#: the level `think` uses when none is given: a quick answer (`analyze` has the engine's
#: default analysis budget, the bot's `analyze`'s)
THINK_LEVEL = 3
#: the thinking times `--seconds` may ask for
MIN_SECONDS, MAX_SECONDS = 0.01, 3600.0
MAX_SEED = 2**32 - 1
#: an analysis tells its progress once it has taken this long (seconds), and then at most
#: once every `PROGRESS_EVERY`
PROGRESS_AFTER = 2.0
PROGRESS_EVERY = 1.0


def add_parsers(subparsers: Subcommands) -> None:
    """Register `think` and `analyze` with the `twixt` command line."""
    add_command(subparsers, run_think, "think",
                "the engine's move for the side to move in a game record", _think_arguments)
    add_command(subparsers, run_analyze, "analyze",
                "draw a game's win-probability curve and print its biggest swings",
                _analyze_arguments)


def _think_arguments(thinking: argparse.ArgumentParser) -> None:
    from twixt.engine import DESCRIPTION

    thinking.epilog = DESCRIPTION
    add_record_arguments(thinking, stdin=True, optional=True)
    _add_budget(thinking, THINK_LEVEL, str(THINK_LEVEL),
                "think this many seconds instead of a level's budget")
    thinking.add_argument("--json", action="store_true",
                          help='print {"move", "win", "pv", "nodes", "seconds", "core"}: '
                               '"win" is the chance that the side to move wins, "core" the '
                               'engine\'s search: "compiled" or "python" (the fallback)')


def _analyze_arguments(analyzing: argparse.ArgumentParser) -> None:
    # what the help shows comes from modules that load neither numpy nor Pillow
    from twixt.engine.about import ANALYSIS_BUDGETS, CORE, DESCRIPTION
    from twixt.rendering.about import THEMES

    analyzing.epilog = DESCRIPTION
    add_record_arguments(analyzing, stdin=True)
    analyzing.add_argument("--out", "-o", type=Path, metavar="PATH.png",
                           help="where to write the picture (required without --json)")
    analyzing.add_argument("--json", action="store_true",
                           help='print the analysis as one JSON object: {"start", "moves": '
                                '[{"number", "colour", "played", "red", "best", "red_best"}], '
                                '"swings", "step"} (Red\'s chances 0-1)')
    level, by_board, deep_times, deep_nodes = ANALYSIS_BUDGETS[CORE]
    board = " (for the board)" if by_board else ""
    _add_budget(analyzing, None,
                f"the bot's: each search level {level}'s nodes{board}, the deeper look at "
                f"every position {deep_times} times that, at least {deep_nodes:,} "
                f"(counted for 12x12; {CORE} core)",
                "spend at most about this many seconds on the whole analysis instead of a "
                "level's budget")
    analyzing.add_argument("--theme", choices=THEMES, default=THEMES[0])
    add_locale_argument(analyzing, "the language of the picture and the swings")


def _add_budget(parser: argparse.ArgumentParser, level: int | None, default: str,
                seconds_help: str) -> None:
    """--level, --seconds and --seed; without --level or --seconds, `level` (None: the
    engine's default analysis budget, said as `default`)."""
    from twixt.engine import LEVELS

    group = parser.add_mutually_exclusive_group()
    group.add_argument("--level", type=_level, metavar="N",
                       help=f"the engine's level, {LEVELS[0]} (answers at once) to "
                            f"{LEVELS[-1]} (strongest) (default: {default})")
    group.add_argument("--seconds", type=_seconds, metavar="S", help=seconds_help)
    parser.add_argument("--seed", type=_seed, default=0, metavar="N",
                        help="the engine's random seed: with --level, the same record and "
                             "seed always give the same answer (default: 0)")
    parser.set_defaults(default_level=level)


def _level(text: str) -> int:
    from twixt.engine import LEVELS
    from twixt.rules.numbers import whole_number

    number = whole_number(text)
    if number not in LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a level: choose {LEVELS[0]} to "
                                         f"{LEVELS[-1]}")
    return number


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:  # a NaN fails this too
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from "
                                         f"{MIN_SECONDS} to {MAX_SECONDS:g}")
    return seconds


def _seed(text: str) -> int:
    from twixt.rules.numbers import whole_number

    number = whole_number(text)
    if number is None or number > MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed from 0 to {MAX_SEED}")
    return number


def _limit(args: argparse.Namespace, game: Game) -> Limit:
    from twixt.engine import Limit, level_limit
    from twixt.engine.analysis import default_limit

    if args.seconds is not None:
        return Limit(seconds=args.seconds)
    level = args.level or args.default_level
    return default_limit(game) if level is None else level_limit(level)


def run_think(args: argparse.Namespace) -> int:
    """Print the engine's action for the side to move as one line of the move language (G6,
    G6 link E5, swap, G6; privilege), or with --json its whole answer. A finished game: why it
    is over, exit 1; a bad record: `line N: why`, exit 1."""
    from twixt.engine import CORE, Limit, think

    game = read_record(args)
    if game is None:
        return 1
    if game.outcome is not None:
        _say_over(game)
        return 1
    limit = _limit(args, game)
    if args.seconds is not None:  # Python's start and the imports are part of --seconds
        limit = Limit(seconds=clock.left_of(args.seconds, args.started))
    result = think(game, limit, seed=args.seed)
    if args.json:
        import json

        print(json.dumps({"move": result.move, "win": result.win, "pv": list(result.pv),
                          "nodes": result.nodes, "seconds": result.seconds, "core": CORE}))
    else:
        print(result.move)
    return 0


def _say_over(game: Game) -> None:
    """Say on stderr why a game has no move to think about."""
    from twixt.language import translation, unmarked
    from twixt.service import result_sentence

    assert game.outcome is not None
    said = result_sentence(game.outcome, game, translation("en"))
    print(f"the game is over: {unmarked(said)}", file=sys.stderr)


def run_analyze(args: argparse.Namespace) -> int:
    """Let the engine look at every position of a record: draw Red's chance move by move to a
    PNG, the three biggest swings marked with the move played and the engine's choice, and
    print those swings, or with --json print the analysis (exit 1, and why, for a bad record
    or path; --out must end in .png, and is needed without --json)."""
    from twixt.engine import Limit
    from twixt.engine.analysis import analyze_game
    from twixt.language import translation, unmarked

    tr = translation(args.locale)
    if args.out is None and not args.json:
        print("twixt: analyze needs --out PATH.png, --json or both", file=sys.stderr)
        return 1
    wrong_ending = None if args.out is None else picture_ending(args.out, "png")
    if wrong_ending is not None:  # said before the engine's minutes, not after
        print("twixt: " + unmarked(tr.say(wrong_ending)), file=sys.stderr)
        return 1
    game = read_record(args)
    if game is None:
        return 1
    progress = _progress_on_stderr()
    if args.seconds is not None:  # the whole analysis's bound from the process's start
        left = clock.left_of(args.seconds, args.started)
        analysis = analyze_game(game, Limit(seconds=args.seconds), seed=args.seed,
                                total_seconds=left, progress=progress)
    else:
        analysis = analyze_game(game, _limit(args, game), seed=args.seed, progress=progress)
    return _write_analysis(args, analysis, game)


def _progress_on_stderr() -> Progress:
    """A progress report for an analysis: `analysing: move n of N` on standard error, once the
    analysis has taken `PROGRESS_AFTER` seconds, at most every `PROGRESS_EVERY` and at the end
    (on a terminal the line is rewritten in place)."""
    started = time.monotonic()
    said = [0.0]
    rewrite = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        now = time.monotonic() - started
        if now < PROGRESS_AFTER or (now - said[0] < PROGRESS_EVERY and done < total):
            return
        said[0] = now
        start = "\r" if rewrite else ""
        end = "\n" if done == total or not rewrite else ""
        print(f"{start}analysing: move {done} of {total}", end=end, file=sys.stderr,
              flush=True)
    return progress


def _write_analysis(args: argparse.Namespace, analysis: GameAnalysis, game: Game) -> int:
    """The picture (with --out), then the JSON (--json) or the swings."""
    from twixt.language import translation, unmarked
    from twixt.rendering import ThemeName, render_wincurve
    from twixt.service import curve_of, swing_lines

    tr = translation(args.locale)
    if args.out is not None:
        data = render_wincurve(curve_of(analysis, game, tr), ThemeName(args.theme))
        try:
            args.out.write_bytes(data)
        except OSError as error:
            print("twixt: " + unmarked(tr("cannot write {path}: {reason}", path=str(args.out),
                                          reason=error.strerror or str(error))),
                  file=sys.stderr)
            return 1
    if args.json:
        import json

        print(json.dumps(analysis.as_json()))
        return 0
    # a terminal reads no markup: what a value holds prints as it is
    for line in swing_lines(analysis, tr):
        print(unmarked(line))
    if args.out is not None:
        print(unmarked(tr("wrote {path} ({size} KB)", path=str(args.out),
                          size=args.out.stat().st_size // 1024)))
    return 0
