"""Opening the storage that `TWIXT_DB` names: a PostgreSQL URL, or else a SQLite file.

SQLite is the default (one file, nothing to run); `postgresql://…` or `postgres://…` selects
`PostgresStorage`, whose driver is only imported when it is used.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from twixt.storage.sqlite import SqliteStorage

if TYPE_CHECKING:
    from twixt.storage.postgres import PostgresStorage

#: what a database setting starts with to choose PostgreSQL
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

#: a database as the settings hold it: a SQLite file, or a PostgreSQL URL (a str)
Database = Path | str


def is_postgres_url(target: object) -> bool:
    """Whether a database setting names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def database_setting(text: str) -> Database:
    """A `TWIXT_DB` or `--db` value: a URL stays text (a Path would fold its `//`)."""
    return text if is_postgres_url(text) else Path(text)


async def open_storage(target: str | os.PathLike[str]) -> SqliteStorage | PostgresStorage:
    """Open (and upgrade) the database `target` names; `DatabaseError` in one line if it
    cannot be used."""
    if is_postgres_url(target):
        from twixt.storage.postgres import PostgresStorage

        return await PostgresStorage.open(str(target))
    return await SqliteStorage.open(target)
