"""`twixt render FILE`: draw a record's final position, its position after turn N, or its
replay, to a file. `rendering` itself only makes bytes; this writes them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from twixt.cli.arguments import Subcommands, add_command, add_record_arguments, picture_ending

#: `typing.TYPE_CHECKING` without importing typing, a tenth of Python's start that a help
#: text need not wait for (type checkers read any `TYPE_CHECKING` as true)
TYPE_CHECKING = False

if TYPE_CHECKING:
    from twixt.rules import Game


def add_parser(subparsers: Subcommands) -> None:
    """Register `render` with the `twixt` command line."""
    add_command(subparsers, run_render, "render",
                "draw a game record as a PNG picture or an animated GIF replay", _arguments)


def _arguments(render: argparse.ArgumentParser) -> None:
    # what the help shows comes from a module that loads nothing of Pillow or the themes
    from twixt.rendering.about import DEFAULT_WIDTH, REPLAY_WIDTH, SIDES, THEMES

    add_record_arguments(render)
    render.add_argument("-o", "--output",
                        help="where to write (default: board.png, or replay.gif with --gif)")
    render.add_argument("--turn", type=_count, metavar="N",
                        help="draw the position after N turns, counted as `twixt replay` "
                             "counts them: pegs placed (default: the end)")
    render.add_argument("--gif", action="store_true", help="an animated replay, a frame a turn")
    render.add_argument("--theme", choices=THEMES, default=THEMES[0])
    render.add_argument("--side", choices=SIDES, default=SIDES[0],
                        help="whose borders face the viewer (black turns the board)")
    render.add_argument("--colour-blind", action="store_true",
                        help="orange for Red and square pegs for Black")
    render.add_argument("--width", type=_width,
                        help=f"the picture's width in pixels (default {DEFAULT_WIDTH}, "
                             f"{REPLAY_WIDTH} for --gif)")


def _count(text: str) -> int:
    from twixt.rules.numbers import whole_number

    number = whole_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of turns (0 or more)")
    return number


def _width(text: str) -> int:
    from twixt.rendering.about import MAX_WIDTH, MIN_WIDTH
    from twixt.rules.numbers import whole_number

    number = whole_number(text)
    if number is None or not MIN_WIDTH <= number <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(f"{text!r} is not a width from {MIN_WIDTH} to "
                                         f"{MAX_WIDTH} pixels")
    return number


def _entries_until(game: Game, turns: int) -> int:
    """How many entries of the game's history come before its turn `turns` + 1 (turns are
    pegs placed, as `twixt replay` counts them)."""
    if turns > game.pegs_placed:
        raise ValueError(f"the game has turns 0 to {game.pegs_placed}, not {turns}")
    placed = 0
    for entries, turn in enumerate(game.history):
        if turn.placed is not None:
            if placed == turns:
                return entries
            placed += 1
    return len(game.history)


def run_render(args: argparse.Namespace) -> int:
    """Draw a record's final position (or its position after turn N) as PNG, or its whole
    game as an animated GIF with --gif (exit 1, and why, for a bad record or option)."""
    from twixt.language import translation, unmarked
    from twixt.rendering import (
        DEFAULT_WIDTH,
        REPLAY_WIDTH,
        PaletteName,
        RenderOptions,
        ThemeName,
        render_png,
        render_replay,
    )
    from twixt.rules import Colour
    from twixt.rules.errors import RecordError
    from twixt.rules.records import load

    if args.gif and args.turn is not None:
        print("--turn and --gif do not go together: a replay shows every turn", file=sys.stderr)
        return 1
    kind = "gif" if args.gif else "png"
    output = Path(args.output or f"{'replay' if args.gif else 'board'}.{kind}")
    wrong_ending = picture_ending(output, kind)
    if wrong_ending is not None:
        print(unmarked(translation("en").say(wrong_ending)), file=sys.stderr)
        return 1
    try:
        game = load(args.file, args.format)
        options = RenderOptions(
            theme=ThemeName(args.theme), side=Colour(args.side),
            palette=PaletteName.COLOUR_BLIND if args.colour_blind else PaletteName.NORMAL,
            width=args.width or (REPLAY_WIDTH if args.gif else DEFAULT_WIDTH))
        entries = None if args.turn is None else _entries_until(game, args.turn)
        data = render_replay(game, options) if args.gif else render_png(game, options, entries)
    except (RecordError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    try:
        output.write_bytes(data)
    except OSError as error:
        print(f"cannot write {output}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"wrote {output} ({len(data) // 1024} KB)")
    return 0
