"""Opening the database file safely and bringing its schema up to date, before any async work.

Order matters for "leave a bad file as it was": the header is read as plain bytes, then the
file is opened read-only and checked; only a healthy TwixT database of a version we know is
ever opened for writing (which is when WAL mode and the migrations touch it).
"""

from __future__ import annotations

import importlib.resources
import os
import re
import shutil
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from twixt.storage.errors import DatabaseError, DatabaseFault, UnsupportedSchemaError

SQLITE_HEADER = b"SQLite format 3\x00"
_MIGRATION_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations(package: str = "twixt.storage.migrations") -> tuple[Migration, ...]:
    """The numbered SQL files shipped in `twixt/storage/migrations` (or another package:
    PostgreSQL's are in `twixt/storage/migrations_pg`), in order, numbered 1, 2, 3, ...

    The two back ends' migrations are written twice on purpose: a column's type follows what
    it means in each (in PostgreSQL ids are `bigint`, flags `boolean`, times `timestamptz`;
    in SQLite `INTEGER` and `TEXT`), PostgreSQL's first migration is SQLite's first four in
    one, and a migration once applied never changes, so neither is made from the other."""
    found = []
    for entry in importlib.resources.files(package).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        folder = package.replace(".", "/")
        raise RuntimeError(f"{folder} must be numbered 0001, 0002, ... without gaps")
    return tuple(found)


def read_only_uri(path: Path) -> str:
    """How to open a database only to read it, writing nothing beside it either.

    A reader of a WAL database makes a `-shm` index (and a `-wal` journal) beside it and,
    unable to fold the journal in, leaves them there; on a read-only folder it cannot open
    the file at all. With no `-wal` beside the file no process has it open (every writer
    keeps one while it runs) and every change is in the file itself, so it is read as
    immutable: no lock, no file made. With a `-wal` there, its changes count: it is read
    through SQLite's locks (a running bot's database, checked as it stands)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    journal = path.with_name(path.name + "-wal")
    return uri if journal.exists() else uri + "&immutable=1"


def check_file(path: Path, known_version: int) -> None:
    """Refuse, without writing a byte, a file that is not a healthy TwixT database we can run.

    A missing or empty file is fine: it becomes a new database.
    """
    try:
        if not path.exists() or path.stat().st_size == 0:
            return
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise DatabaseError(f"cannot read {path}: {error.strerror or error}",
                            DatabaseFault.UNREACHABLE) from error
    if header != SQLITE_HEADER:
        raise DatabaseError(f"{path} is not a SQLite database; it was left untouched")
    try:
        # a second of patience: a lock held longer is another program at work, said so
        reader = sqlite3.connect(read_only_uri(path), uri=True, timeout=1.0)
        try:
            _check_readable(reader, path, known_version)
        finally:
            reader.close()
    except sqlite3.DatabaseError as error:
        raise unusable(path, error) from error


#: SQLite's primary result codes that name a fault (https://sqlite.org/rescode.html)
_FAULTS = {5: DatabaseFault.LOCKED, 6: DatabaseFault.LOCKED, 8: DatabaseFault.READ_ONLY,
           13: DatabaseFault.FULL, 14: DatabaseFault.UNREACHABLE}
_IOERR = 10
#: free bytes below which a disk I/O error is taken for a full disk: where growing a file
#: fails on a full disk, SQLite says "disk I/O error" as often as "disk is full"
NEARLY_FULL = 1 << 20
_CAUSES = {
    DatabaseFault.LOCKED: "is locked by another program: stop it, or choose another file",
    DatabaseFault.READ_ONLY: "may not be written: check its permissions",
    DatabaseFault.FULL: "cannot grow: the disk is full",
    DatabaseFault.UNREACHABLE: "cannot be opened: check that its folder exists and may be "
                               "written",
}


def unusable(path: Path, error: sqlite3.Error) -> DatabaseError:
    """Why SQLite cannot use a file, in one line naming the real cause; nothing was changed."""
    fault, cause = _cause(path, error)
    return DatabaseError(f"{path} {cause}; it was left untouched", fault)


def failed(path: Path, error: sqlite3.Error) -> DatabaseError:
    """A statement of the running bot that SQLite refused, in one line naming the cause (the
    statement's transaction is undone)."""
    fault, cause = _cause(path, error)
    return DatabaseError(f"{path} {cause}", fault)


def _cause(path: Path, error: sqlite3.Error) -> tuple[DatabaseFault, str]:
    code = (error.sqlite_errorcode or 0) & 0xFF
    fault = _FAULTS.get(code)
    if fault is None and code == _IOERR:  # what the system refused, if it can be told
        if _free_bytes(path) < NEARLY_FULL:
            fault = DatabaseFault.FULL
        elif path.exists() and not os.access(path, os.W_OK):  # made read-only while open
            fault = DatabaseFault.READ_ONLY
    if fault is not None:
        return fault, _CAUSES[fault]
    if code == _IOERR:
        return DatabaseFault.BROKEN, f"cannot be read or written ({error})"
    return DatabaseFault.BROKEN, f"is corrupt ({error})"


def _free_bytes(path: Path) -> int:
    """The free space where the file lives (a lot, when that cannot be told)."""
    try:
        return shutil.disk_usage(path.parent).free
    except OSError:
        return NEARLY_FULL


#: how many problems a full check reports at most
MAX_PROBLEMS = 20


def full_check(path: Path) -> list[str]:
    """Every page and index of the file checked (`integrity_check`, and the foreign keys):
    the problems found, none for a healthy file. It reads the whole file, so it is a command
    of its own (`twixt check`) rather than part of every start, which runs `quick_check`."""
    if not path.is_file():
        raise DatabaseError(f"{path} does not exist")
    check_file(path, len(migrations()))
    try:
        with closing(sqlite3.connect(read_only_uri(path), uri=True, timeout=1.0)) as reader:
            problems = [row[0] for row in reader.execute(
                f"PRAGMA integrity_check({MAX_PROBLEMS})") if row[0] != "ok"]
            problems += [f"a row of {table} points to a missing row of {parent}"
                         for table, _rowid, parent, _key in
                         reader.execute("PRAGMA foreign_key_check")]
            problems += _totals_problems(reader)
    except sqlite3.DatabaseError as error:
        raise unusable(path, error) from error
    return problems[:MAX_PROBLEMS]


#: the running totals of stats (migration 0006): each table, the view that counts the same
#: from every game, and the columns that name a row
_TOTALS = (("player_totals", "counted_player_totals", ("guild_id", "user_id")),
           ("pair_totals", "counted_pair_totals", ("guild_id", "user_id", "other_id")))


def _totals_problems(reader: sqlite3.Connection) -> list[str]:
    """The rows of running totals that differ from counting every game again (`stats` would
    show wrong numbers for them): each row that is missing, extra or different."""
    problems = []
    for table, view, key in _TOTALS:
        if not reader.execute("SELECT 1 FROM sqlite_schema WHERE type = 'view' AND name = ?",
                              (view,)).fetchone():
            continue  # a file from before the totals
        names = ", ".join(key)
        for row in reader.execute(
                f"SELECT {names} FROM (SELECT * FROM {table} EXCEPT SELECT * FROM {view}) "
                f"UNION SELECT {names} FROM (SELECT * FROM {view} EXCEPT SELECT * FROM {table}) "
                "LIMIT ?", (MAX_PROBLEMS,)):
            which = ", ".join(f"{name} {value}" for name, value in zip(key, row, strict=True))
            problems.append(f"{table} ({which}) differs from counting the games again")
    return problems


def _check_readable(reader: sqlite3.Connection, path: Path, known_version: int) -> None:
    problems = [row[0] for row in reader.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise DatabaseError(f"{path} is corrupt ({problems[0]}); it was left untouched")
    version = applied_version(reader)
    if version is None and reader.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]:
        raise DatabaseError(f"{path} is a SQLite database of another program; it was left "
                            "untouched")
    _refuse_newer(path, version or 0, known_version)


def _refuse_newer(path: Path, version: int, known_version: int) -> None:
    if version > known_version:
        raise UnsupportedSchemaError(f"{path} has schema version {version} but this bot knows only "
                                f"up to {known_version}: upgrade the bot; the file was left "
                                "untouched")


#: the highest migration recorded (0 for none), and a migration's record: the same on both
#: back ends
APPLIED_VERSION = "SELECT coalesce(max(version), 0) FROM schema_migrations"
RECORD_MIGRATION = "INSERT INTO schema_migrations (version, name) VALUES (?, ?)"


def applied_version(conn: sqlite3.Connection) -> int | None:
    """The highest migration recorded, 0 for none yet, None if the table is not there."""
    exists = conn.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND "
                          "name = 'schema_migrations'").fetchone()
    if not exists:
        return None
    version: int = conn.execute(APPLIED_VERSION).fetchone()[0]
    return version


def apply_migrations(path: Path, available: tuple[Migration, ...]) -> int:
    """Switch to WAL and apply the pending migrations in one transaction; return the version.

    The version is read again inside the write lock, so two processes starting at once cannot
    both apply a migration.
    """
    if not path.parent.is_dir():
        raise DatabaseError(f"the folder {path.parent} does not exist: create it, or choose "
                            "another database file", DatabaseFault.UNREACHABLE)
    try:
        conn = sqlite3.connect(path, isolation_level=None)
    except sqlite3.DatabaseError as error:
        raise unusable(path, error) from error
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA busy_timeout = 10000")
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = _apply_pending(conn, path, available)
            # a write that changes nothing: SQLite opens a file it may not write read-only
            # without a word, and would refuse only the first move
            conn.execute("DELETE FROM schema_migrations WHERE 0")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a failed COMMIT (a full disk) has undone it already
                conn.execute("ROLLBACK")
            raise
        return version
    except sqlite3.DatabaseError as error:
        raise unusable(path, error) from error
    finally:
        conn.close()


def _apply_pending(conn: sqlite3.Connection, path: Path,
                   available: tuple[Migration, ...]) -> int:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                 "name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT "
                 "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))")
    current = applied_version(conn) or 0
    _refuse_newer(path, current, len(available))
    for migration in available[current:]:
        for statement in _statements(migration.sql):
            conn.execute(statement)
        conn.execute(RECORD_MIGRATION, (migration.version, migration.name))
    return len(available)


def _statements(sql: str) -> list[str]:
    """Split a script into statements; `executescript` would commit the open transaction."""
    statements, pending = [], ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending)
            pending = ""
    if pending.strip():
        statements.append(pending)
    return statements
