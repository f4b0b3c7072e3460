"""What PostgreSQL read to answer a storage call, counted from its plan: the same under any
load, where a time is not. The test that a history page reads only its games and the
benchmark that prints it at 1k, 10k and 100k games both use this."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from twixt.storage.backends.postgres import PostgresStorage


async def statements_of(store: PostgresStorage, call: Callable[[], Awaitable[object]]
                        ) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements `call` sends, with their arguments; `store` has one connection."""
    sent: list[tuple[str, tuple[Any, ...]]] = []

    def note(logged: Any) -> None:
        sent.append((logged.query, tuple(logged.args)))

    async with store._pooled() as conn:
        conn.add_query_logger(note)
    try:
        await call()
    finally:
        async with store._pooled() as conn:
            conn.remove_query_logger(note)
    return sent


async def rows_read(store: PostgresStorage, query: str, args: tuple[Any, ...],
                    table: str) -> int:
    """The rows of `table` that running `query` reads, in every loop of every plan node."""
    async with store._pooled() as conn:
        plan = await conn.fetchval(f"EXPLAIN (ANALYZE, FORMAT JSON) {query}", *args)
    return _read_in(json.loads(plan)[0]["Plan"], table)


def _read_in(node: dict[str, Any], table: str) -> int:
    own = node["Actual Rows"] * node["Actual Loops"] if node.get("Relation Name") == table else 0
    return own + sum(_read_in(child, table) for child in node.get("Plans", ()))


async def history_page_reads(store: PostgresStorage, page: Callable[[], Awaitable[object]]
                             ) -> int:
    """The games rows one history page (`page`, a `list_games` call) reads."""
    sent = await statements_of(store, page)
    query, args = next((query, args) for query, args in sent if " LIMIT " in query)
    return await rows_read(store, query, args, "games")
