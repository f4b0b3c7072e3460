"""The PostgreSQL server the benchmarks' PostgreSQL sections measure on: a throw-away one
started here (its data beside the repository, like SQLite's files, since /tmp may be a RAM
disk where fsync is free) with PostgreSQL's defaults for durability, or a server of your own
(`--postgres URL`); and a new database on it for each round, dropped after."""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.pg_server import PgServer, PostgresMissing  # shared with the tests, found above


@asynccontextmanager
async def postgres_server(url: str | None) -> AsyncIterator[str | None]:
    """`url`, or a throw-away server's (stopped after); None, said why, when there is none."""
    if url is not None:
        yield url
        return
    try:
        server = await asyncio.to_thread(PgServer.create, Path(__file__).parent)
    except PostgresMissing as missing:
        print(f"PostgreSQL: not measured: {missing}")
        yield None
        return
    try:
        yield server.dsn()
    finally:
        await asyncio.to_thread(server.stop)


@asynccontextmanager
async def new_database(admin_url: str) -> AsyncIterator[str]:
    """The URL of a new database on the server of `admin_url`, dropped after."""
    name = f"bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f"CREATE DATABASE {name}")
    await admin.close()
    base, _, query = admin_url.partition("?")
    try:
        yield f"{base.rsplit('/', 1)[0]}/{name}{'?' + query if query else ''}"
    finally:
        conn = await asyncpg.connect(admin_url)
        await conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
        await conn.close()
