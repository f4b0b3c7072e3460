"""`twixt check` and `twixt migrate`: the database itself, and how the command line names
one (`--db`, `--from`, `--to`)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from twixt.storage import (
    POSTGRESQL,
    Database,
    DatabaseError,
    StorageError,
    backend_of,
    database_setting,
    full_check,
)


def database(text: str) -> Database:
    """`--db`: a SQLite file or a PostgreSQL URL."""
    return database_setting(text)


def postgres_url(text: str) -> str:
    """`--to`: a PostgreSQL URL, or an argument error."""
    if backend_of(text) != POSTGRESQL:
        raise argparse.ArgumentTypeError(f"{text!r} is not a postgresql:// URL")
    return text


def sqlite_source(text: str) -> Path:
    """`--from`: a `sqlite:` setting (read as `TWIXT_DB` reads one), or an argument error."""
    if not text.startswith("sqlite:") or not text.removeprefix("sqlite:").strip("/"):
        raise argparse.ArgumentTypeError(f"{text!r} is not sqlite:PATH, e.g. sqlite:twixt.db")
    return Path(database_setting(text))  # a sqlite: setting is a file's Path


def check(db: Database | None) -> int:
    """Run SQLite's full integrity check, the foreign-key check and a recount of the stats'
    running totals over a SQLite database, changing nothing: exit 0 when healthy, 1 with the
    problems, 2 when the file cannot be used. A PostgreSQL database is refused: PostgreSQL
    checks its own pages (see its amcheck module)."""
    from twixt.config import Settings  # the environment, only when no --db is given

    path = db or Settings.from_environment().database
    if isinstance(path, str):
        print("twixt: check reads a SQLite file; PostgreSQL checks its own pages (see its "
              "amcheck module)", file=sys.stderr)
        return 2
    try:
        problems = full_check(path)
    except DatabaseError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    if not problems:
        print(f"{path}: ok")
    return 1 if problems else 0


def migrate(source: Path, target: str) -> int:
    """Copy every row of a SQLite database into a new, empty PostgreSQL database, then check
    that every game reads and replays the same on both sides. The SQLite file is only read
    (after the usual upgrade of its schema); a target that holds any row is refused."""
    # PostgreSQL's driver is loaded here, not where `--db` is read: `twixt web` over SQLite
    # starts without it
    from twixt.storage.backends.postgres import safe_url
    from twixt.storage.transfer import TransferError, copy_sqlite_to_postgres

    try:
        report = asyncio.run(copy_sqlite_to_postgres(source, target))
    except StorageError as error:
        print(f"twixt: {error}", file=sys.stderr)
        return 2 if not isinstance(error, TransferError) else 1
    for table, count in report.rows.items():
        print(f"{table}: {count} rows")
    print(f"{source} → {safe_url(target)}: {sum(report.rows.values())} rows copied, "
          f"{report.games} games replay the same on both sides")
    return 0
