"""Arguments that several `twixt` subcommands share, and the subcommands' parsers.

A subcommand's arguments are added only when it is the one run (`Subcommand`), and this
module and the commands' own import at their top only what their help needs: `twixt --help`
and `twixt NAME --help` then start about as fast as Python itself, and a subcommand loads the
engine, the fonts or the service only when it runs.

A new subcommand is registered with `add_command` beside the code it drives: its handler's
docstring is what `twixt NAME --help` prints, and what it needs is imported inside the
handler and its arguments' function, not at the module's top, or `twixt --help` and every
other subcommand would load it too. What a help shows of the layers (choices, defaults)
comes from their small modules that load nothing else: `rules.formats`, `engine.about`,
`rendering.about`, and the catalogues' folders for the languages (`languages`);
`tests/cli/test_startup.py` lists what each help may import, `tests/cli/test_shown.py` holds
those modules to what the big ones decide, and `benchmarks/startup_bench.py` measures the
helps against Python's own start.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

#: `typing.TYPE_CHECKING` without importing typing, a tenth of Python's start that a help
#: text need not wait for (type checkers read any `TYPE_CHECKING` as true)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    from twixt.language import Message
    from twixt.rules import Game

#: what adds a subcommand's arguments to its parser
Arguments = Callable[[argparse.ArgumentParser], None]


class Subcommand(argparse.ArgumentParser):
    """A subcommand's parser, whose arguments are added when it first parses: only the
    subcommand named on the command line is built, so that neither `twixt --help` nor
    another subcommand imports what these arguments need (their choices, the engine's
    levels)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._arguments: Arguments | None = None

    def defer(self, arguments: Arguments) -> None:
        """Add the arguments with `arguments` when this parser first parses."""
        self._arguments = arguments

    # typeshed overloads this by the namespace's type; argparse calls it with none
    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        if self._arguments is not None:
            arguments, self._arguments = self._arguments, None
            arguments(self)
        return super().parse_known_args(args, namespace)


#: the `twixt` command line's subcommands, each a `Subcommand`
Subcommands: TypeAlias = "argparse._SubParsersAction[Subcommand]"


def add_command(subparsers: Subcommands, handler: Callable[[argparse.Namespace], int],
                name: str, summary: str, arguments: Arguments) -> None:
    """The subcommand `twixt NAME`, run by `handler`, its arguments added by `arguments` when
    it runs: `summary` is its line in `twixt --help`, and the handler's docstring its
    description in `twixt NAME --help` (which rewraps it), so that the reader of the code and
    the user read one text."""
    parser = subparsers.add_parser(name, help=summary, description=handler.__doc__)
    parser.set_defaults(handler=handler)
    parser.defer(arguments)


def add_record_arguments(parser: argparse.ArgumentParser, *, stdin: bool = False,
                         optional: bool = False) -> None:
    """A record file and its format, as `replay` and `render` read them; with `stdin`, `-`
    (and with `optional`, no file at all) reads the record from standard input."""
    from twixt.rules.formats import FORMATS

    if not stdin:
        parser.add_argument("file", help="a transcript, Little Golem .tsgf or T1 file")
        parser.add_argument("--format", choices=FORMATS,
                            help="the record's format (default: guessed from the file's "
                                 "ending)")
        return
    parser.add_argument("file", nargs="?" if optional else None, default="-",
                        help="a transcript, Little Golem .tsgf or T1 file; - reads standard "
                             "input" + (" (the default)" if optional else ""))
    parser.add_argument("--format", choices=FORMATS,
                        help="the record's format (default: guessed from the file's ending; "
                             "a transcript on standard input)")
    parser.set_defaults(record_stdin=True)


def add_locale_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """`--locale`: the language `what` is said in, English by default."""
    choices = languages()
    parser.add_argument("--locale", choices=choices, default=choices[0],
                        help=f"{what} (default: {choices[0]})")


def languages() -> tuple[str, ...]:
    """The languages the project speaks (`language.LOCALES`, as tests/cli/test_shown.py
    holds): English, in which every text is written, then each language with a folder of
    catalogues (`twixt/language/locales/<code>/`). Read from the folders' names, so that a
    help that lists them loads no catalogue and no message class."""
    from importlib.util import find_spec

    spec = find_spec("twixt.language")  # found, not imported
    assert spec is not None and spec.submodule_search_locations is not None
    folder = Path(spec.submodule_search_locations[0], "locales")
    return ("en", *sorted(entry.name for entry in folder.iterdir() if entry.is_dir()))


def read_record(args: argparse.Namespace) -> Game | None:
    """The game of the record the arguments name; None after saying on stderr why it cannot
    be read (`line N: why`, or why the file cannot be opened)."""
    from twixt.rules.errors import RecordError
    from twixt.rules.records import decode, load, read, take

    try:
        if args.file == "-" and getattr(args, "record_stdin", False):
            fmt = args.format or "transcript"
            return read(decode(take(sys.stdin.buffer, "standard input"), fmt), fmt)
        return load(args.file, args.format)
    except RecordError as error:
        print(error, file=sys.stderr)
        return None


def add_shard_arguments(parser: argparse.ArgumentParser) -> None:
    """Which shards a `twixt run` process runs (several processes share one PostgreSQL)."""
    parser.add_argument("--shard-count", metavar="N",
                        help="how many shards the bot has in all (default: "
                             "$TWIXT_SHARD_COUNT, else as many as Discord recommends)")
    parser.add_argument("--shard-ids", metavar="0,1",
                        help="the shards this process runs, 0 to N-1 (default: "
                             "$TWIXT_SHARD_IDS, else all N)")


def shard_overrides(args: argparse.Namespace) -> dict[str, str]:
    """The shard options given on the command line, as the settings' variables."""
    given = {"TWIXT_SHARD_COUNT": args.shard_count, "TWIXT_SHARD_IDS": args.shard_ids}
    return {name: value for name, value in given.items() if value is not None}


def picture_ending(path: Path, kind: str) -> Message | None:
    """Why `path` cannot take a `.{kind}` picture, said before any work is done: the bytes
    are that format, and a viewer goes by the ending (None: it ends so)."""
    from twixt.language import message

    if path.suffix.lower() == f".{kind}":
        return None
    return message("{path}: the picture is a {kind}: name it {name}", path=str(path),
                   kind=kind.upper(), name=str(path.with_suffix(f".{kind}")))
