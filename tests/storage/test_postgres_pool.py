"""PostgreSQL's pool, as the storage uses it: connections in line, first come first served;
turns that wait in line together written in one statement; connections handed back without a
reset query, which is safe because nothing is left to reset.

Each test opens the storage on a database of its own on the real throw-away server, with as
few connections as the point needs, and races real asyncio tasks through it.
"""

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import pytest

from support.pg_plans import history_page_reads, statements_of
from tests.storage.conftest import fresh_database
from tests.storage.storage_helpers import T0, play_turns, result_of, start_game
from twixt.storage import GameFinishedError, GameResult, StaleVersionError
from twixt.storage.backends.postgres import PostgresStorage
from twixt.storage.backends.postgres_line import PendingTurn

#: what a session holds that would outlive a hand-back (asyncpg's reset query undoes these)
SESSION_LEFTOVERS = {
    # asyncpg's type introspection turns jit off and back on, as it found it: what counts is
    # a value other than what RESET would give
    "settings": "SELECT count(*) FROM pg_settings WHERE source = 'session' "
                "AND setting IS DISTINCT FROM reset_val",
    "channels listened to": "SELECT count(*) FROM pg_listening_channels()",
    "advisory locks": "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                      "AND pid = pg_backend_pid()",
    "cursors": "SELECT count(*) FROM pg_cursors WHERE name <> ''",  # but this query's
}


class RecordedStorage(PostgresStorage):
    """The storage, noting whose operation got a connection when: a read by the task that
    asked, a turn by its game and version when its batch is written."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.served: list[tuple[int, int]] = []
        self.asker: dict[asyncio.Task[Any], tuple[int, int]] = {}
        self.turn_asker: dict[tuple[int, int], tuple[int, int]] = {}
        self.batches: list[int] = []

    @asynccontextmanager
    async def _pooled(self) -> AsyncIterator[Any]:
        async with super()._pooled() as conn:
            asker = self.asker.get(asyncio.current_task())  # type: ignore[arg-type]
            if asker is not None:
                self.served.append(asker)
            yield conn

    async def _write_turns(self, turns: list[PendingTurn]) -> None:
        self.batches.append(len(turns))
        self.served.extend(self.turn_asker[turn.game_id, turn.expected_version]
                           for turn in turns if self.turn_asker)
        await super()._write_turns(turns)


async def test_every_operation_gets_a_connection_in_the_order_it_asked(pg_server):
    """Tasks that turned around and asked again while woken waiters had not yet run would,
    through asyncpg's queue alone, take the connection from them: the line is kept here."""
    url = await fresh_database(pg_server)
    async with await RecordedStorage.open(url, min_connections=3,
                                          max_connections=3) as store:
        games = [await start_game(store, channel_id=c) for c in range(40)]
        asked: list[tuple[int, int]] = []

        async def player(number: int) -> None:
            game = games[number]
            for turn in range(4):
                # asked and queued with no await between: the order of asking is the line's
                asked.append((number, turn))
                if turn % 2:
                    store.asker[asyncio.current_task()] = (number, turn)  # type: ignore[index]
                    await store.get_game(game.id)
                else:
                    version = turn // 2
                    store.turn_asker[game.id, version] = (number, turn)
                    await store.append_turn(game.id, version, 1 + version, ("C3", "D5")[version])

        await asyncio.gather(*(player(number) for number in range(len(games))))
    assert len(asked) == 160
    assert store.served == asked
    assert max(store.batches) > 1  # turns asked one after another went through together


async def test_turns_waiting_together_are_written_in_one_statement(pg_server):
    """Fifty games' turns asked at once: one statement writes them all, each under its own
    version check. A stale one among them is refused alone, and of two turns of one game
    racing, the second waits for the first's batch and is then refused."""
    url = await fresh_database(pg_server)
    async with await RecordedStorage.open(url, max_connections=1) as store:
        games = [await start_game(store, channel_id=c) for c in range(50)]
        await store.append_turn(games[0].id, 0, 1, "C3")
        outcomes: list[Any] = []

        async def fifty_turns() -> None:
            outcomes.extend(await asyncio.gather(
                *(store.append_turn(game.id, 0, 1, "C3") for game in games),  # games[0]: stale
                store.append_turn(games[1].id, 0, 1, "D4"),  # races the other turn of games[1]
                return_exceptions=True))

        sent = [query for query, _ in await statements_of(store, fifty_turns)]
        assert store.batches[-2:] == [50, 1]
        assert len([query for query in sent if query.startswith("WITH moved AS")]) == 2
        assert isinstance(outcomes[0], StaleVersionError)
        assert outcomes[1:50] == [1] * 49
        assert isinstance(outcomes[50], StaleVersionError)
        for game in games:
            loaded = await store.load_game(game.id)
            assert [turn.command for turn in loaded.turns] == ["C3"]


async def test_a_turn_cancelled_before_its_batch_is_written_is_not(pg_server):
    """A caller cancelled while its turn waits in line takes it out; the turns beside it land."""
    url = await fresh_database(pg_server)
    async with await PostgresStorage.open(url, max_connections=1) as store:
        first, second = [await start_game(store, channel_id=c) for c in range(2)]
        async with store._single():  # the one connection is busy: both turns wait in line
            dropped = asyncio.create_task(store.append_turn(first.id, 0, 1, "C3"))
            kept = asyncio.create_task(store.append_turn(second.id, 0, 1, "C3"))
            await asyncio.sleep(0)
            dropped.cancel()
        assert await kept == 1
        with pytest.raises(asyncio.CancelledError):
            await dropped
        assert (await store.load_game(first.id)).game.version == 0
        assert (await store.load_game(second.id)).game.version == 1


async def test_a_turn_costs_one_round_trip(pg_server):
    """Nothing is sent when a connection goes back to the pool: the turn's statement is all."""
    url = await fresh_database(pg_server)
    async with await PostgresStorage.open(url, max_connections=1) as store:
        game = await start_game(store, channel_id=1)
        sent = [query for query, _ in await statements_of(
            store, lambda: play_turns(store, game, 3, random.Random(1)))]
    turns = [query for query in sent if query.startswith("WITH moved AS")]
    assert len(turns) == 3
    # play_turns reads the game back (BEGIN, its SELECTs, COMMIT); no reset query anywhere
    assert not [query for query in sent if "RESET ALL" in query or "UNLISTEN" in query]


async def test_every_connection_is_ready_for_turns_when_the_pool_makes_it(pg_server):
    """The turns' statement is prepared as the pool makes each connection, so the first batch
    of turns sends its statement alone: no look-up of its array types first (tens of
    milliseconds on a new connection, which every batch in line behind it waited out too)."""
    url = await fresh_database(pg_server)
    async with await PostgresStorage.open(url, min_connections=2, max_connections=2) as store:
        game = await start_game(store, channel_id=1)
        async with store._single() as first, store._single() as second:
            for db in (first, second):
                prepared = await db.fetch_all("SELECT statement FROM pg_prepared_statements")
                assert [text for (text,) in prepared if text.startswith("WITH moved AS")]
    async with await PostgresStorage.open(url, max_connections=1) as store:
        sent = await statements_of(store, lambda: store.append_turn(game.id, 0, 1, "C3"))
    assert [query.split(" (")[0] for query, _ in sent] == ["WITH moved AS"]


async def _leftovers(store: PostgresStorage) -> dict[str, int]:
    async with store._single() as db:
        return {name: await db.fetch_value(query) for name, query in SESSION_LEFTOVERS.items()}


async def test_every_kind_of_write_leaves_the_session_as_it_found_it(pg_server):
    """Why skipping the reset is safe: after turns, a result with ratings, a vacation, notes
    and a held move (the writes that take locks), nothing is left in the session."""
    url = await fresh_database(pg_server)
    async with await PostgresStorage.open(url, max_connections=1) as store:
        clean = await _leftovers(store)
        game = await start_game(store, channel_id=1)
        played = await play_turns(store, game, 4, random.Random(2))
        await store.add_note(game.id, 1, "watch the left edge", most=5)
        await store.hold_move(game.id, 2, "C3", at_version=4)
        await store.add_vacation(100, 1, T0, T0 + timedelta(days=3), 3, allowed=30)
        result = result_of(played) or GameResult("red", "resign", (1,))
        await store.finish_game(game.id, len(played.history), result)
        with pytest.raises(GameFinishedError):  # a refused turn: its block raised
            await store.append_turn(game.id, 0, 1, "C4")
        assert await _leftovers(store) == clean == dict.fromkeys(SESSION_LEFTOVERS, 0)


async def _timeout(store: PostgresStorage) -> str:
    async with store._single() as db:
        return str(await db.fetch_value("SHOW statement_timeout"))


async def test_a_connection_whose_block_failed_goes_back_reset(pg_server):
    """The safety net: a block that raised or was cancelled may have left anything, so its
    connection is reset in full; a block that ended well is not (the setting it made stays,
    which is why the storage makes none)."""
    url = await fresh_database(pg_server)
    async with await PostgresStorage.open(url, max_connections=1) as store:
        async with store._single() as db:
            await db.execute("SET statement_timeout = 5000")
        assert await _timeout(store) == "5s"

        with pytest.raises(ZeroDivisionError):
            async with store._single() as db:
                await db.execute("SET statement_timeout = 6000")
                1 / 0  # noqa: B018 - the block fails after changing the session
        assert await _timeout(store) == "0"

        inside = asyncio.Event()

        async def cancelled() -> None:
            async with store._single() as db:
                await db.execute("SET statement_timeout = 7000")
                inside.set()
                await asyncio.sleep(3600)

        task = asyncio.create_task(cancelled())
        await inside.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await _timeout(store) == "0"


async def test_a_deep_history_page_reads_only_the_games_it_passes(pg_server):
    """Page 6 of a player who sat in one game of ten reads their 61 newest games, not the
    guild's, and every page of every player is planned once: the page costs the same however
    many games there are."""
    url = await fresh_database(pg_server)
    async with await PostgresStorage.open(url, max_connections=1) as store:
        async with store._single() as db:
            await db.execute(
                "INSERT INTO games (id, guild_id, channel_id, status, size, rules, created_at, "
                "updated_at, result, reason, finished_at) SELECT g, 1, g, 'finished', '24x24', "
                "'classic', now(), now(), 'red', 'test', now() FROM generate_series(1, 20000) g")
            await db.execute(
                "INSERT INTO game_seats (game_id, seat, user_id, name) SELECT g, s, CASE WHEN "
                "s = 0 AND g % 10 = 0 THEN 1 ELSE 2 + (g + s) % 100 END, 'p' "
                "FROM generate_series(1, 20000) g, generate_series(0, 1) s")
            await db.execute("ANALYZE")
        page = await store.list_games(user_id=1, guild_id=1, limit=11, offset=50)
        assert [game.id for game in page] == list(range(19500, 19390, -10))
        assert await history_page_reads(store, lambda: store.list_games(
            user_id=1, guild_id=1, limit=11, offset=50)) == 61
        for page_number in range(8):  # planned for the first calls, then once for all
            await store.list_games(user_id=1, guild_id=1, limit=11, offset=10 * page_number)
        async with store._single() as db:
            plans = await db.fetch_one(  # the page's statement (not the EXPLAIN, nor this)
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                "WHERE statement LIKE 'SELECT id, %LATERAL%'")
    assert plans is not None and plans[0] >= 3 and plans[1] <= 5
