"""`twixt play` and `twixt export`: the terminal table and records, over the database this
process opens (the composition root's part of the terminal front end)."""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from twixt.config import ConfigError, Settings
from twixt.language import translation, unmarked
from twixt.rules.records import encode, write
from twixt.service import EnginePool, ServiceError, TwixtService, utc_now
from twixt.storage import Database, DatabaseError, Storage, missing_file, open_storage
from twixt.terminal.lines import lines_of
from twixt.terminal.table import TerminalTable, exit_code, name_id


async def play(db: Database | None, channel: str, out_dir: Path, script: str | None,
               clock: datetime | None = None, managers: Sequence[str] = (),
               locale: str = "en") -> int:
    """Play lines from `script` (or standard input); exit 1 if any line was refused, 2 if the
    table failed one through no fault of the line (`table.exit_code`).

    `clock` fixes the time the table lives at (default: the system clock), so that clocks
    and reminders can be tried: a later run with a later clock finds what is due.
    `managers` may manage the channel (abort any game, change the server's settings).
    `locale` is the table's language (`language.LOCALES`).
    """
    tr = translation(locale)
    if out_dir.exists() and not out_dir.is_dir():  # said before a single line is played
        print("twixt: " + unmarked(tr("--out {folder} is not a folder", folder=str(out_dir))),
              file=sys.stderr)
        return 2
    try:
        workers = Settings.from_environment().engine_workers
    except ConfigError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2
    storage = await _open(db)
    if storage is None:
        return 2
    async with storage:
        table = open_table(storage, channel, out_dir, managers=managers, locale=locale,
                           clock=(lambda: clock) if clock else utc_now,
                           engine_pool=EnginePool(workers))
        try:
            if script:
                try:
                    # opened apart from the `with`: only a script that cannot be opened
                    # is refused here, not an error of the lines it holds
                    file = Path(script).open("rb")  # noqa: SIM115
                except OSError as error:
                    print("twixt: " + unmarked(tr("cannot read {path}: {reason}", path=script,
                                                  reason=error.strerror)), file=sys.stderr)
                    return 2
                with file:
                    await table.run(lines_of(file))
                    return exit_code(table.refusals)
            if sys.stdin.isatty():
                print(tr("TwixT table — type lines like `alice: challenge bob`, then "
                         "`bob: accept`, `alice: K12`. Ctrl-D ends."))
            await table.run(lines_of(sys.stdin.buffer))
            return exit_code(table.refusals)
        finally:
            await table.close()


def open_table(storage: Storage, channel: str, out_dir: Path, *,
               clock: Callable[[], datetime] = utc_now, engine_pool: EnginePool | None = None,
               rng: random.Random | None = None, **table: Any) -> TerminalTable:
    """The terminal table of `channel` over `storage`, its service keeping time by `clock`
    (a fixed time to try clocks with) and thinking in `engine_pool`; `table` holds the
    table's own options (`out`, `managers`, `locale`, `patience`)."""
    return TerminalTable(functools.partial(TwixtService, storage, clock=clock,
                                           engine_pool=engine_pool, rng=rng),
                         channel, out_dir, **table)


async def export(db: Database | None, channel: str, fmt: str) -> int:
    """Print the record of the channel's current or last game."""
    storage = await _open(db, reading="export")
    if storage is None:
        return 2
    async with storage:
        try:
            game = await TwixtService(storage).channel_game(name_id(channel))
            text = write(game, fmt)
        except (ServiceError, ValueError) as error:
            print(f"twixt: {error}", file=sys.stderr)
            return 1
    sys.stdout.flush()
    sys.stdout.buffer.write(encode(text, fmt))  # Little Golem's are bytes, not UTF-8
    return 0


async def _open(db: Database | None,
                reading: str | None = None) -> Storage | None:
    """The database (given, or from the settings); None after saying why it cannot be used.
    A command that only reads (`reading`, its name) refuses a SQLite file that is not there,
    which opening would create empty (a mistyped `--db` would look like a database without
    games)."""
    target = db or Settings.from_environment().database
    missing = missing_file(target)
    if reading and missing is not None:
        print(f"twixt: {missing} does not exist ({reading} only reads a database)",
              file=sys.stderr)
        return None
    try:
        return await open_storage(target)
    except DatabaseError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return None
