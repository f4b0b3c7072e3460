"""`twixt migrate`: a whole SQLite database copied into an empty PostgreSQL one, then checked.

The copy: the SQLite file is opened as the bot opens it (checked, its schema brought up to
date), the PostgreSQL database likewise (its own migrations), which must hold no rows at all.
Both schemas must have the same tables with the same columns (generated ones aside), or
nothing is copied. Every table is then copied row by row in one transaction, parents before
children (ids kept, identity sequences moved past them and past any id SQLite ever gave),
times read as UTC and 0/1 as booleans.

The check, after the commit: every table has as many rows on both sides, every table but the
turn log holds the same rows, and every game, read through each side's `Storage`, has the
same record and log and replays to the same moves, result and player to move.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twixt.storage import rows
from twixt.storage.backends.postgres import PostgresStorage, safe_url
from twixt.storage.backends.sqlite import SqliteStorage
from twixt.storage.errors import DatabaseError, StorageError
from twixt.storage.model import LoadedGame
from twixt.storage.rebuild import rebuild

#: rows read from SQLite and written to PostgreSQL at a time
CHUNK = 5000
#: games compared at a time
PAGE = 500
_OWN = "schema_migrations"


class TransferError(StorageError):
    """The copy was refused (a target with rows, schemas that differ) or did not check out."""


@dataclass(frozen=True)
class TransferReport:
    """What was copied: rows per table, and how many games were replayed on both sides."""

    rows: dict[str, int]
    games: int


Convert = Callable[[Any], Any]


def _as_bool(value: Any) -> Any:
    return None if value is None else bool(value)


_CONVERSIONS: dict[str, Convert] = {"timestamp with time zone": rows.maybe_moment,
                                    "boolean": _as_bool}


async def copy_sqlite_to_postgres(source: Path, target: str) -> TransferReport:
    """Copy every row of the SQLite database `source` into the empty PostgreSQL `target`,
    then check that both hold the same games. `TransferError` says what went wrong."""
    if not source.is_file():
        raise TransferError(f"{source} does not exist")
    async with await SqliteStorage.open(source):
        pass  # checked and brought up to date, as the bot would
    async with await PostgresStorage.open(target) as into:
        with closing(sqlite3.connect(source, check_same_thread=False)) as sqlite:
            async with into._pool.acquire() as conn:
                tables = await _matching_tables(sqlite, conn, safe_url(target))
                await _refuse_rows(conn, tables, safe_url(target))
                async with conn.transaction():
                    copied = {table: await _copy_table(sqlite, conn, table, columns)
                              for table, columns in tables.items()}
                    await _move_identities(sqlite, conn)
            for table, columns in tables.items():
                if table != "turns":
                    await _same_rows(sqlite, conn_pool=into, table=table, columns=columns)
        await _same_counts(into, copied)
        async with await SqliteStorage.open(source) as origin:
            games = await _same_games(origin, into)
    return TransferReport(copied, games)


async def _matching_tables(sqlite: sqlite3.Connection, conn: Any,
                           where: str) -> dict[str, list[tuple[str, str]]]:
    """PostgreSQL's tables in an order parents come first, each with its (column, type)s,
    after checking that SQLite has the same tables and columns."""
    found = await conn.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND is_generated = 'NEVER' "
        "AND table_name <> $1 ORDER BY table_name, ordinal_position", _OWN)
    columns: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in found:
        columns.setdefault(table, []).append((column, kind))
    theirs = {name: [row[1] for row in sqlite.execute(f"PRAGMA table_xinfo({name})")
                     if row[6] == 0]  # hidden 0: neither generated nor virtual
              for (name,) in sqlite.execute(
                  "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> ? "
                  "AND name NOT LIKE 'sqlite_%'", (_OWN,))}
    problems = [f"table {t} is only in SQLite" for t in sorted(set(theirs) - set(columns))]
    problems += [f"table {t} is only in PostgreSQL" for t in sorted(set(columns) - set(theirs))]
    for table in sorted(set(columns) & set(theirs)):
        ours = {name for name, _kind in columns[table]}
        if ours != set(theirs[table]):
            problems.append(f"table {table} has columns {sorted(theirs[table])} in SQLite but "
                            f"{sorted(ours)} in PostgreSQL")
    if problems:
        raise TransferError(f"the two schemas differ, nothing was copied to {where}: "
                            + "; ".join(problems))
    parents = await conn.fetch(
        "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c "
        "WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace")
    return {table: columns[table] for table in _parents_first(sorted(columns), parents)}


def _parents_first(tables: Sequence[str], links: Sequence[tuple[str, str]]) -> list[str]:
    """The tables ordered so that each comes after every table it refers to."""
    needs = {table: {parent for child, parent in links if child == table and parent != table}
             for table in tables}
    ordered: list[str] = []
    while needs:
        ready = sorted(table for table, parents in needs.items() if parents <= set(ordered))
        if not ready:
            raise TransferError(f"the tables {sorted(needs)} refer to each other in a circle")
        ordered += ready
        for table in ready:
            del needs[table]
    return ordered


async def _refuse_rows(conn: Any, tables: dict[str, list[tuple[str, str]]],
                       where: str) -> None:
    full = [table for table in tables
            if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})")]
    if full:
        raise TransferError(f"{where} is not empty (rows in {', '.join(full)}): migrate into "
                            "a new database; nothing was copied")


def _converters(columns: Sequence[tuple[str, str]]) -> list[Convert | None]:
    return [_CONVERSIONS.get(kind) for _name, kind in columns]


def _converted(row: Sequence[Any], converters: Sequence[Convert | None]) -> tuple[Any, ...]:
    return tuple(value if convert is None else convert(value)
                 for value, convert in zip(row, converters, strict=True))


async def _copy_table(sqlite: sqlite3.Connection, conn: Any, table: str,
                      columns: Sequence[tuple[str, str]]) -> int:
    names = [name for name, _kind in columns]
    converters = _converters(columns)
    cursor = sqlite.execute(f"SELECT {', '.join(names)} FROM {table}")
    copied = 0
    while chunk := await asyncio.to_thread(cursor.fetchmany, CHUNK):
        await conn.copy_records_to_table(table, columns=names,
                                         records=[_converted(r, converters) for r in chunk])
        copied += len(chunk)
    return copied


async def _move_identities(sqlite: sqlite3.Connection, conn: Any) -> None:
    """Identity sequences past the copied ids, so that the next game gets a new one; and past
    every id an AUTOINCREMENT table of SQLite ever gave (its `sqlite_sequence`), so that an id
    whose row is gone is not given again either (a waiting move's, which a Confirm button
    still showing carries)."""
    given = dict(sqlite.execute("SELECT name, seq FROM sqlite_sequence").fetchall()
                 if sqlite.execute("SELECT 1 FROM sqlite_schema "
                                   "WHERE name = 'sqlite_sequence'").fetchone() else [])
    for table, column in await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND is_identity = 'YES'"):
        await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                           f"greatest((SELECT max({column}) FROM {table}), $1, 0) + 1, false)",
                           given.get(table, 0))


async def _same_rows(sqlite: sqlite3.Connection, *, conn_pool: PostgresStorage, table: str,
                     columns: Sequence[tuple[str, str]]) -> None:
    names = ", ".join(name for name, _kind in columns)
    converters = _converters(columns)
    theirs = Counter(_converted(row, converters) for row in await asyncio.to_thread(
        lambda: sqlite.execute(f"SELECT {names} FROM {table}").fetchall()))
    async with conn_pool._pool.acquire() as conn:
        ours = Counter(tuple(row) for row in await conn.fetch(f"SELECT {names} FROM {table}"))
    if ours != theirs:
        raise TransferError(f"table {table} differs after the copy: "
                            f"{sum((theirs - ours).values())} rows missing, "
                            f"{sum((ours - theirs).values())} rows that were not in SQLite")


async def _same_counts(into: PostgresStorage, copied: dict[str, int]) -> None:
    async with into._pool.acquire() as conn:
        for table, count in copied.items():
            now = await conn.fetchval(f"SELECT count(*) FROM {table}")
            if now != count:
                raise TransferError(f"table {table} has {now} rows after the copy, not {count}")


async def _same_games(origin: SqliteStorage, into: PostgresStorage) -> int:
    """Every game compared through both `Storage`s: record, log and replay. How many."""
    checked, before = 0, None
    while page := await origin.list_games(limit=PAGE, before_id=before):
        for record in page:
            theirs = await origin.load_game(record.id)
            ours = await into.load_game(record.id)
            if ours != theirs:
                raise TransferError(f"game {record.id} reads differently after the copy")
            if _replayed(ours) != _replayed(theirs):
                raise TransferError(f"game {record.id} replays differently after the copy")
            checked += 1
        before = page[-1].id
    return checked


def _replayed(loaded: LoadedGame) -> tuple[Any, ...]:
    """What a replay gives: the moves, the outcome and who is to move (or why it fails)."""
    try:
        game = rebuild(loaded)
    except (DatabaseError, ValueError) as error:
        return ("does not replay", str(error))
    return ([move.text for move in game.history], game.outcome, game.player_to_move)
