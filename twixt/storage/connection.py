"""The seam between the SQL both back ends share and the driver that runs it (after
encode/databases: the seam is the connection).

Each subject's module writes its statements once, with `?` placeholders, and runs them through a
`Connection`: `execute` (the rows changed), `execute_many`, `fetch_all`, `fetch_one` and
`fetch_value`. An adapter per back end (`SqliteConnection` over aiosqlite,
`PostgresConnection` over asyncpg) turns that into its driver's calls and holds what its
dialect says differently:
- a moment: a timezone-aware `datetime` on the way in; SQLite stores sortable UTC text, which
  `rows.moment` reads back;
- a list of ids: `among` gives `column IN (?, ?, …)` to SQLite and `column = ANY(?)` (one
  array) to PostgreSQL;
- the locks a transaction takes, which SQLite, with one writer, needs none of: `for_update`
  and `for_share` (suffixes of a SELECT) and `lock_user` (an advisory lock);
- rows of values to read FROM (`table_of`: a batch of turns), and whether a WITH may hold a
  write (`writes_in_with`), which lets PostgreSQL write a batch of turns in one statement;
- a broken unique key, raised as `DuplicateKeyError` whatever the driver.
Transactions are the back end's own (a group-commit savepoint, a pooled connection in READ
COMMITTED): `sql.SqlBase` asks for one by what it needs, a snapshot to read or a write.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

#: a row as either driver returns it (a tuple-like sqlite3.Row or asyncpg.Record)
Row = Sequence[Any]


class DuplicateKeyError(Exception):
    """A write broke a unique key: `constraint` names it (PostgreSQL names the index or
    constraint, SQLite the columns, such as `games.channel_id`)."""

    def __init__(self, constraint: str) -> None:
        super().__init__(constraint)
        self.constraint = constraint


class Connection(Protocol):
    """One connection inside a transaction of its back end, taking SQL with `?` placeholders."""

    #: appended to a SELECT whose rows the transaction changes next: they stay locked
    for_update: str
    #: appended to a SELECT whose rows must not change until the transaction ends
    for_share: str

    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; the number of rows it changed."""

    async def execute_many(self, sql: str, args: Sequence[Sequence[Any]]) -> None:
        """Run a statement once for each row of values."""

    async def fetch_all(self, sql: str, *args: Any) -> list[Row]:
        """Every row of a query."""

    async def fetch_one(self, sql: str, *args: Any) -> Row | None:
        """The first row of a query, None without one."""

    async def fetch_value(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, None without one."""

    def among(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        """A condition that `column` is one of `values` (integers), with its values."""

    #: whether a WITH may hold a write whose RETURNING the rest of the statement reads
    #: (PostgreSQL; SQLite's WITH holds reads only)
    writes_in_with: bool

    def table_of(self, name: str, columns: Sequence[tuple[str, str]],
                 values: Sequence[Sequence[Any]]) -> tuple[str, tuple[Any, ...]]:
        """Rows of values as a table `name` with `columns` (each a name and its PostgreSQL
        type) to read FROM, with its values: how several turns go in one statement."""

    async def lock_user(self, owner_id: int, user_id: int) -> None:
        """Hold one user's rows of an owner (their vacations in a guild, their notes or waiting
        move in a game) until the transaction ends, where writers run at once."""
