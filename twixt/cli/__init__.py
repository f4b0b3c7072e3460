"""The `twixt` command line: one entry point, a subcommand per job.

Each subcommand lives beside the code it drives and registers itself here with
`add_parser(subparsers)`; the parser's `handler` returns the exit code. What a subcommand
needs is imported when it runs (or when its arguments are built: `arguments.Subcommand`), not
here, so that `twixt --help` and a quick subcommand do not wait for the engine, the fonts,
the service or asyncio.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from twixt.cli import clock, engine_commands, render_commands
from twixt.cli.arguments import (
    Subcommand,
    Subcommands,
    add_command,
    add_locale_argument,
    add_record_arguments,
    add_shard_arguments,
    read_record,
    shard_overrides,
)

#: `typing.TYPE_CHECKING` without importing typing, a tenth of Python's start that a help
#: text need not wait for (type checkers read any `TYPE_CHECKING` as true)
TYPE_CHECKING = False

if TYPE_CHECKING:
    from datetime import datetime

    from twixt.rules import Game

#: the years `--clock` may name
MIN_YEAR, MAX_YEAR = 2000, 2100
#: the channel `play` and `export` mean when none is named
TABLE_CHANNEL = "table"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the subcommand `argv` names (None: the process's arguments, and then `--seconds`
    count from the process's start; given arguments count from this call)."""
    started = clock.process_start() if argv is None else time.perf_counter()
    parser = command_line()
    parser.set_defaults(started=started)
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader stopped early (`twixt export … | head`): no traceback, and none again
        # when Python flushes stdout at exit (the recipe of Python's signal documentation)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


def command_line() -> argparse.ArgumentParser:
    """The `twixt` parser: every subcommand listed, none of their arguments built yet."""
    parser = argparse.ArgumentParser(prog="twixt", description="TwixT by correspondence.")
    subparsers = parser.add_subparsers(dest="subcommand", required=True,
                                       parser_class=Subcommand)
    _add_replay(subparsers)
    render_commands.add_parser(subparsers)
    engine_commands.add_parsers(subparsers)
    _add_play(subparsers)
    _add_export(subparsers)
    _add_check(subparsers)
    _add_run(subparsers)
    _add_web(subparsers)
    _add_link(subparsers)
    _add_migrate(subparsers)
    return parser


def subcommands() -> list[str]:
    """The subcommands' names, as `twixt --help` lists them."""
    found = [action.choices for action in command_line()._actions
             if isinstance(action, argparse._SubParsersAction)]
    return list(found[0])


def _add_replay(subparsers: Subcommands) -> None:
    add_command(subparsers, _run_replay, "replay",
                "check a game record and print its result as JSON", add_record_arguments)


def replay_summary(game: Game) -> dict[str, object]:
    """The JSON object of `twixt replay`, as docs/records.md specifies it."""
    outcome = game.outcome
    return {
        "result": outcome.result if outcome else None,
        "reason": outcome.reason.value if outcome else None,
        "winners": list(outcome.winners) if outcome else [],
        "to_move": game.player_to_move,
        "turns": game.pegs_placed,
    }


def _run_replay(args: argparse.Namespace) -> int:
    """Replay a record; print one JSON object, or `line N: why` at the first illegal line
    (exit 1)."""
    import json

    game = read_record(args)
    if game is None:
        return 1
    print(json.dumps(replay_summary(game)))
    return 0


def _add_play(subparsers: Subcommands) -> None:
    add_command(subparsers, _run_play, "play",
                "the terminal table: play through the bot's service without Discord",
                _play_arguments)


def _play_arguments(play: argparse.ArgumentParser) -> None:
    play.add_argument("script", nargs="?", help="a file of lines (default: standard input)")
    _add_db_argument(play)
    play.add_argument("--channel", default=TABLE_CHANNEL,
                      help=f"the channel's name (default: {TABLE_CHANNEL})")
    play.add_argument("--out", default="boards", type=Path,
                      help="folder for board pictures (default: ./boards)")
    play.add_argument("--clock", type=_moment, default=None,
                      help="the time to play at, e.g. 2026-01-01T12:00 (UTC; default: now)")
    play.add_argument("--manager", action="append", default=[], metavar="NAME",
                      help="a player who manages the channel (may be given more than once)")
    add_locale_argument(play, "the language the table answers in")


def _add_export(subparsers: Subcommands) -> None:
    add_command(subparsers, _run_export, "export",
                "print the record of a channel's current or last game", _export_arguments)


def _export_arguments(export: argparse.ArgumentParser) -> None:
    from twixt.rules.formats import FORMATS

    _add_db_argument(export)
    export.add_argument("--channel", default=TABLE_CHANNEL,
                        help=f"the channel's name (default: {TABLE_CHANNEL}, as for play)")
    export.add_argument("--format", choices=FORMATS, default="transcript")


def _add_check(subparsers: Subcommands) -> None:
    add_command(subparsers, _run_check, "check",
                "check every page of a SQLite database (the start checks only quickly)",
                lambda check: _add_db_argument(check, "the SQLite file to check"))


def _run_check(args: argparse.Namespace) -> int:
    """Run SQLite's full integrity check, the foreign-key check and a recount of the stats'
    running totals over a SQLite database, changing nothing: exit 0 when healthy, 1 with the
    problems, 2 when the file cannot be used. A PostgreSQL database is refused: PostgreSQL
    checks its own pages (see its amcheck module)."""
    from twixt.app.database import check

    return check(args.db)


def _add_run(subparsers: Subcommands) -> None:
    add_command(subparsers, _run_bot, "run", "start the Discord bot (needs DISCORD_TOKEN)",
                add_shard_arguments)


def _add_web(subparsers: Subcommands) -> None:
    add_command(subparsers, _run_web, "web",
                "serve the board as a web page (links from `twixt link`, `/twixt board`)",
                _web_arguments)


def _web_arguments(web: argparse.ArgumentParser) -> None:
    _add_db_argument(web)
    web.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default: 127.0.0.1, this machine only)")
    web.add_argument("--port", type=_port, default=8080, help="the port (default: 8080)")


def _add_link(subparsers: Subcommands) -> None:
    add_command(subparsers, _run_link, "link",
                "print a signed link to a player's seat in a channel's game", _link_arguments)


def _link_arguments(link: argparse.ArgumentParser) -> None:
    _add_db_argument(link)
    link.add_argument("--channel", required=True, help="the channel's name")
    link.add_argument("--player", required=True,
                      help="the player's name (someone not seated gets a link to watch)")
    link.add_argument("--base-url", default="http://127.0.0.1:8080",
                      help="where the web board is served (default: http://127.0.0.1:8080)")
    link.add_argument("--hours", type=_hours, default=24 * 7,
                      help="how long the link works (default: 168, a week)")


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port from 0 to 65535")
    return int(text)


def _hours(text: str) -> float:
    from twixt.app.web import MAX_HOURS

    try:
        hours = float(text)
    except ValueError:
        hours = -1.0
    if not 0 < hours <= MAX_HOURS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours from 1 to "
                                         f"{MAX_HOURS}")
    return hours


def _moment(text: str) -> datetime:
    """An ISO time; without a zone it is taken as UTC."""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time like 2026-01-01T12:00") from None
    if not MIN_YEAR <= moment.year <= MAX_YEAR:  # a far date would overflow every deadline
        raise argparse.ArgumentTypeError(f"{text!r} is not between {MIN_YEAR} and {MAX_YEAR}")
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _add_db_argument(parser: argparse.ArgumentParser,
                     what: str = "a SQLite file or a postgresql:// URL") -> None:
    """`--db`, whose help names what the command accepts: `check` reads SQLite files only,
    while still taking a URL here so that it can refuse one in a line of its own."""
    parser.add_argument("--db", type=_database, default=None,
                        help=f"{what} (default: $TWIXT_DB or ./twixt.db)")


def _add_migrate(subparsers: Subcommands) -> None:
    add_command(subparsers, _run_migrate, "migrate",
                "copy a whole SQLite database into an empty PostgreSQL one", _migrate_arguments)


def _migrate_arguments(migrate: argparse.ArgumentParser) -> None:
    migrate.add_argument("--from", dest="source", required=True, type=_sqlite_source,
                         metavar="sqlite:PATH", help="the SQLite database, e.g. sqlite:twixt.db")
    migrate.add_argument("--to", dest="target", required=True, type=_postgres_target,
                         metavar="postgresql://…", help="the empty PostgreSQL database")


def _database(text: str) -> Path | str:
    from twixt.app.database import database

    return database(text)


def _sqlite_source(text: str) -> Path:
    from twixt.app.database import sqlite_source

    return sqlite_source(text)


def _postgres_target(text: str) -> str:
    from twixt.app.database import postgres_url

    return postgres_url(text)


def _run_migrate(args: argparse.Namespace) -> int:
    """Copy every row of a SQLite database into a new, empty PostgreSQL database, then check
    that every game reads and replays the same on both sides. The SQLite file is only read
    (after the usual upgrade of its schema); a target that holds any row is refused."""
    from twixt.app.database import migrate

    return migrate(args.source, args.target)


def _run_play(args: argparse.Namespace) -> int:
    """Read `name: command` lines (from SCRIPT, a pipe, or typed in) and print the replies;
    board pictures are saved into --out. Every line is played, a refused one too (said as
    `! name: why`); the exit code is 0 when every line was taken, 1 when any was refused, 2
    when the database or --out cannot be used (at the start, or under a line)."""
    import asyncio

    from twixt.app.table import play

    return asyncio.run(play(args.db, args.channel, args.out, args.script, args.clock,
                            args.manager, args.locale))


def _run_export(args: argparse.Namespace) -> int:
    """Print the record of the channel's current or last game (the channel `play` uses
    when neither names one): exit 1 when the channel has no game."""
    import asyncio

    from twixt.app.table import export

    return asyncio.run(export(args.db, args.channel, args.format))


def _run_web(args: argparse.Namespace) -> int:
    """Serve the web board over the bot's database until stopped (SIGTERM, Ctrl-C). Links
    are signed with TWIXT_WEB_SECRET; without it, with a random secret of this process, so
    its links stop working when it stops. With DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and
    DISCORD_TOKEN it serves the Discord Activity too."""
    import asyncio

    from twixt.app import hold_collection

    hold_collection()  # until the board serves: `freeze_start_up`
    from twixt.app.web import serve_web

    return asyncio.run(serve_web(args.db or _configured_database(), args.host, args.port))


def _configured_database() -> Path | str:
    """The database the environment (or `.env`) names, for a subcommand given no `--db`."""
    from twixt.config import Settings

    return Settings.from_environment().database


def _run_link(args: argparse.Namespace) -> int:
    """Print a signed link to the player's seat in the channel's game in progress (else its
    last one), valid --hours; signed with TWIXT_WEB_SECRET, which the web server must share."""
    import asyncio

    from twixt.app.web import print_seat_link

    return asyncio.run(print_seat_link(args.db or _configured_database(), args.channel,
                                       args.player, args.base_url, args.hours))


def _run_bot(args: argparse.Namespace) -> int:
    from twixt.app.bot import run

    return run(shard_overrides(args))

