"""The back ends, one module each, and the one place a database setting chooses among them
(after encode/databases: the URL's scheme names the back end).

- `sqlite:///twixt.db` (a path after the third slash; `sqlite:////srv/twixt.db` is absolute),
  `sqlite:twixt.db`, or a plain path such as `twixt.db`: one SQLite file
  (`backends.sqlite`), the default;
- `postgresql://…` or `postgres://…`: a PostgreSQL database (`backends.postgres`), whose
  driver is only imported when it is used.

Every other `scheme://` is refused in one line when it is opened. Both back ends inherit what
their SQL shares (`backends.shared.SqlStorage`) and keep what really differs.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from twixt.storage.backends.sqlite import SqliteStorage
from twixt.storage.errors import DatabaseError
from twixt.storage.interface import Storage

SQLITE = "sqlite"
POSTGRESQL = "postgresql"
#: each scheme a setting may name, and the back end it chooses
SCHEMES = {"sqlite": SQLITE, "postgresql": POSTGRESQL, "postgres": POSTGRESQL}

#: a database as the settings hold it: a SQLite file (a Path), or a server's URL (a str)
Database = Path | str

#: the scheme of a URL (`scheme://…`); a path has none (a Windows drive has no `//`)
_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def database_setting(text: str) -> Database:
    """A `TWIXT_DB` or `--db` value: a SQLite URL or a plain path as the file's Path, any other
    URL as text (a Path would fold its `//`)."""
    if text.startswith("sqlite:"):
        rest = text.removeprefix("sqlite:")
        # sqlite:///relative and sqlite:////absolute, as SQLAlchemy and encode/databases write
        return Path(rest.removeprefix("//").removeprefix("/") if rest.startswith("///")
                    else rest)
    return text if _URL.match(text) else Path(text)


def backend_of(target: str | os.PathLike[str]) -> str | None:
    """Which back end a database setting chooses: `SQLITE` or `POSTGRESQL`; None for a URL
    whose scheme names none (`open_storage` refuses it)."""
    if not isinstance(target, str) or target.startswith("sqlite:"):
        return SQLITE
    found = _URL.match(target)
    return SQLITE if found is None else SCHEMES.get(found.group(1).lower())


def missing_file(target: str | os.PathLike[str]) -> Path | None:
    """The SQLite file a setting names when there is none, which opening would create empty
    (a command that only reads refuses it: a mistyped path would look like a database
    without games); None for a file that is there, or a server."""
    path = database_setting(target) if isinstance(target, str) else Path(target)
    return path if isinstance(path, Path) and not path.is_file() else None


async def open_storage(target: str | os.PathLike[str]) -> Storage:
    """Open (and upgrade) the database `target` names (see the module's docstring);
    `DatabaseError` in one line if it cannot be used."""
    backend = backend_of(target)
    if backend == POSTGRESQL:
        from twixt.storage.backends.postgres import PostgresStorage

        return await PostgresStorage.open(str(target))
    if backend is None:
        raise DatabaseError(f"{str(target).partition(':')[0]}:// names no database this bot "
                            "can use: give a file (sqlite:///twixt.db, or a path) or a "
                            "postgresql:// URL")
    return await SqliteStorage.open(
        database_setting(target) if isinstance(target, str) else target)
