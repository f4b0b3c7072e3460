"""SQLite's group commit itself: writes that wait together share one commit, never more than
the limit, and none is acknowledged before its commit has returned."""

import asyncio
import random
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from datetime import UTC, datetime, timedelta, timezone

import pytest

from tests.storage.storage_helpers import T0, clocked, random_turn, start_game, start_games
from twixt.storage import SqliteStorage, StaleVersionError, rebuild, rows
from twixt.storage.backends.sqlite_group_commit import Alike, GroupCommit, connect_inline
from twixt.storage.waiting import Waiting

pytestmark = pytest.mark.sqlite_only


@pytest.fixture
async def writes(tmp_path):
    """A GroupCommit on a small table; `parent` rows must exist by COMMIT (deferred check)."""
    path = tmp_path / "group.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES "
                   "parent (id) DEFERRABLE INITIALLY DEFERRED)")
        db.execute("INSERT INTO parent VALUES (1)")
    db = await connect_inline(path)
    await db.execute("PRAGMA foreign_keys = ON")
    await db.execute("PRAGMA synchronous = FULL")
    group = GroupCommit(db, max_batch=4)
    yield group, path
    await group.close()
    await db.close()


def stored(path):
    """The items as another connection sees them: what is committed."""
    with closing(sqlite3.connect(path)) as db:
        return {row[0] for row in db.execute("SELECT id FROM item")}


async def insert(group, item, parent=1, fail=False):
    async with group.transaction() as db:
        await db.execute("INSERT INTO item VALUES (?, ?)", (item, parent))
        if fail:
            raise LookupError(item)
    return item


async def test_writes_sent_together_share_commits_of_at_most_the_limit(writes):
    group, path = writes
    assert await asyncio.gather(*(insert(group, i) for i in range(10))) == list(range(10))
    assert stored(path) == set(range(10))
    assert (group.batches, group.writes) == (3, 10)  # 4 + 4 + 2


async def test_an_acknowledged_write_is_committed(writes):
    group, path = writes
    seen = []

    async def insert_and_look(item):
        await insert(group, item)
        seen.append(item in stored(path))  # at once, from another connection

    await asyncio.gather(*(insert_and_look(i) for i in range(20)))
    assert seen == [True] * 20


async def test_the_commit_runs_on_its_thread_while_the_loop_goes_on(writes):
    """The statements run on the loop's thread, the COMMIT on the writer's own; while the
    COMMIT is under way (held here inside it), the loop runs other tasks, and the write is
    acknowledged only once it has returned."""
    group, path = writes
    in_commit, go_on = threading.Event(), threading.Event()
    traced: list[tuple[str, str]] = []

    def trace(sql: str) -> None:
        traced.append((sql.split()[0], threading.current_thread().name))
        if sql == "COMMIT":
            in_commit.set()
            go_on.wait(60)

    group._db.raw.set_trace_callback(trace)
    write = asyncio.ensure_future(insert(group, 1))
    while not in_commit.is_set():
        await asyncio.sleep(0)  # the loop's other tasks run meanwhile
    assert not write.done() and stored(path) == set()
    go_on.set()
    assert await write == 1
    group._db.raw.set_trace_callback(None)
    assert stored(path) == {1}
    loop_thread = threading.current_thread().name
    assert [name for sql, name in traced if sql == "INSERT"] == [loop_thread]
    assert [name for sql, name in traced if sql == "COMMIT"] == ["sqlite-writer_0"]


async def test_a_write_that_raises_is_undone_alone(writes):
    group, path = writes
    outcomes = await asyncio.gather(*(insert(group, i, fail=i % 3 == 1) for i in range(9)),
                                    return_exceptions=True)
    assert [isinstance(o, LookupError) for o in outcomes] == [i % 3 == 1 for i in range(9)]
    assert stored(path) == {0, 2, 3, 5, 6, 8}


async def test_a_failed_commit_acknowledges_none_of_its_batch(writes):
    group, path = writes
    outcomes = await asyncio.gather(insert(group, 1), insert(group, 2, parent=99),
                                    insert(group, 3), return_exceptions=True)
    assert all(isinstance(o, sqlite3.IntegrityError) for o in outcomes)
    assert stored(path) == set()
    assert await insert(group, 4) == 4  # the writer goes on
    assert stored(path) == {4}


async def test_a_write_given_up_while_queued_is_skipped(writes):
    group, path = writes
    tasks = [asyncio.create_task(insert(group, i)) for i in range(6)]
    await asyncio.sleep(0)  # every one is queued, none has its turn yet
    tasks[2].cancel()
    tasks[4].cancel()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert [isinstance(o, asyncio.CancelledError) for o in outcomes] == [
        False, False, True, False, True, False]
    assert stored(path) == {0, 1, 3, 5}


async def test_close_commits_what_is_queued_and_refuses_more(writes):
    group, path = writes
    queued = [asyncio.create_task(insert(group, i)) for i in range(6)]
    await asyncio.sleep(0)
    await group.close()
    assert stored(path) == set(range(6))
    assert await asyncio.gather(*queued) == list(range(6))
    with pytest.raises(ValueError, match="closed"):
        await insert(group, 7)


async def test_turns_sent_together_are_committed_together(db_path):
    async with await SqliteStorage.open(db_path) as store:
        games = await start_games(store, 100)
        turns = [random_turn(rebuild(await store.load_game(g.id)), random.Random(1))
                 for g in games]
        before = store._writes.batches
        landed = await asyncio.gather(*(store.append_turn(g.id, 0, actor, text, now=T0)
                                        for g, (actor, text) in zip(games, turns, strict=True)))
        assert landed == [1] * 100
        assert store._writes.batches - before == 1  # 100 turns, one transaction, one fsync
    with closing(sqlite3.connect(db_path)) as db:  # each moment as every statement writes it
        assert set(db.execute("SELECT played_at FROM turns UNION "
                              "SELECT updated_at FROM games")) == {(rows.stamp(T0),)}


async def test_a_write_waits_off_the_loop_for_another_process_lock(db_path):
    async with await SqliteStorage.open(db_path) as store:
        game = await start_game(store, channel_id=1)
        actor, text = random_turn(rebuild(await store.load_game(game.id)), random.Random(2))
        with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # another process writing, for a while
            turn = asyncio.create_task(store.append_turn(game.id, 0, actor, text))
            for _ in range(20):
                await asyncio.sleep(0.005)
                # the loop is free meanwhile: reads are answered
                assert (await store.get_game(game.id)).version == 0
            assert not turn.done()
            other.execute("COMMIT")
            assert await turn == 1
        assert (await store.get_game(game.id)).version == 1


async def cancelled_in_flight(write, group, path, round_: int, rng: random.Random,
                              every: int) -> tuple[range, set[int]]:
    """Round `round_`: six writes (`write(group, item)`) started together, every `every`th
    cancelled after a random number of the loop's turns; then one more write, which must
    change nothing of what the six left (landed or not). Their items and what was stored."""
    items = range(100 * round_, 100 * round_ + 6)
    tasks = [asyncio.create_task(write(group, i)) for i in items]
    for _ in range(rng.randint(0, 12)):
        await asyncio.sleep(0)
    for task in tasks[::every]:
        task.cancel()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    seen = stored(path)  # landed or not: no later commit may change it
    await write(group, 100 * round_ + 99)
    assert stored(path) - {100 * round_ + 99} == seen
    assert {o for o in outcomes if not isinstance(o, BaseException)} <= seen
    return items, seen


async def test_a_cancelled_write_is_settled_when_the_cancel_returns(writes):
    group, path = writes
    rng = random.Random(4)
    for round_ in range(40):
        await cancelled_in_flight(insert, group, path, round_, rng, every=1)


async def insert_job(group, item, parent=1, fail=False):
    """The same write as `insert`, given to the writer to run (`GroupCommit.run`)."""
    db = group._db

    async def work():
        await db.execute("INSERT INTO item VALUES (?, ?)", (item, parent))
        if fail:
            raise LookupError(item)
        return item

    return await group.run(work)


async def test_jobs_and_blocks_share_commits_each_undone_alone(writes):
    group, path = writes
    outcomes = await asyncio.gather(
        *((insert_job if i % 2 else insert)(group, i, fail=i % 3 == 1) for i in range(12)),
        return_exceptions=True)
    assert [isinstance(o, LookupError) for o in outcomes] == [i % 3 == 1 for i in range(12)]
    assert [o for o in outcomes if isinstance(o, int)] == [i for i in range(12) if i % 3 != 1]
    assert stored(path) == {i for i in range(12) if i % 3 != 1}
    assert (group.batches, group.writes) == (3, 12)  # 4 + 4 + 4


async def test_a_failed_commit_tells_each_job_why(writes):
    group, path = writes
    outcomes = await asyncio.gather(insert_job(group, 1), insert_job(group, 2, parent=99),
                                    insert_job(group, 3, fail=True), return_exceptions=True)
    assert [type(o) for o in outcomes] == [sqlite3.IntegrityError, sqlite3.IntegrityError,
                                           LookupError]
    assert stored(path) == set()
    assert await insert_job(group, 4) == 4


async def test_a_job_given_up_while_queued_is_skipped_and_one_taken_is_settled(writes):
    group, path = writes
    rng = random.Random(5)
    for round_ in range(40):
        items, seen = await cancelled_in_flight(insert_job, group, path, round_, rng, every=2)
        assert set(items[1::2]) <= seen  # the ones not cancelled all landed


def alike_items(group):
    """A kind of job whose items are item ids: `together` inserts them all in one statement,
    and says that not all can land when one is negative; `alone` inserts one, and refuses a
    negative one. Each call is recorded."""
    raw, calls = group._db.raw, []

    def together(items):
        calls.append(("together", items))
        if any(item < 0 for item in items):
            return None
        raw.executemany("INSERT INTO item VALUES (?, 1)", [(item,) for item in items])
        return items

    async def alone(item):
        calls.append(("alone", item))
        if item < 0:
            raise LookupError(item)
        raw.execute("INSERT INTO item VALUES (?, 1)", (item,))
        return item

    return Alike(together, alone), calls


async def alike(group, kind, item):
    """A job of a kind, queued when its task first runs, as a turn is (`append_turn`)."""
    try:
        return await group.run_alike(kind, item)
    except asyncio.CancelledError:
        await group.settled()
        raise


async def test_jobs_of_a_kind_queued_together_run_together_in_order(writes):
    group, path = writes
    kind, calls = alike_items(group)
    tasks = [asyncio.create_task(alike(group, kind, i)) for i in (1, 2)]
    tasks.append(asyncio.create_task(insert_job(group, 3)))  # another kind ends the run
    tasks += [asyncio.create_task(alike(group, kind, i)) for i in (4, 5, 6, 7, 8)]
    assert await asyncio.gather(*tasks) == [1, 2, 3, 4, 5, 6, 7, 8]
    # the limit (4 a batch) cuts a run too; every item is written once, in arrival order
    assert calls == [("together", [1, 2]), ("together", [4]), ("together", [5, 6, 7, 8])]
    assert stored(path) == set(range(1, 9))
    assert (group.batches, group.writes) == (2, 8)


async def test_a_kind_that_cannot_land_together_runs_each_alone_undone_alone(writes):
    group, path = writes
    kind, calls = alike_items(group)
    outcomes = await asyncio.gather(*(group.run_alike(kind, i) for i in (1, -2, 3)),
                                    return_exceptions=True)
    assert outcomes[0::2] == [1, 3]
    assert isinstance(outcomes[1], LookupError)
    assert calls == [("together", [1, -2, 3]), ("alone", 1), ("alone", -2), ("alone", 3)]
    assert stored(path) == {1, 3}


async def test_a_kind_whose_together_raises_is_undone_and_run_alone(writes):
    group, path = writes
    kind, calls = alike_items(group)
    await group.run_alike(kind, 1)
    calls.clear()
    # 5 twice: the one statement breaks the key part-way, after writing 4
    outcomes = await asyncio.gather(*(group.run_alike(kind, i) for i in (4, 5, 5)),
                                    return_exceptions=True)
    assert outcomes[:2] == [4, 5]
    assert isinstance(outcomes[2], sqlite3.IntegrityError)
    assert calls == [("together", [4, 5, 5]), ("alone", 4), ("alone", 5), ("alone", 5)]
    assert stored(path) == {1, 4, 5}


async def test_a_job_of_a_kind_given_up_while_queued_is_skipped(writes):
    group, path = writes
    kind, calls = alike_items(group)
    tasks = [asyncio.create_task(alike(group, kind, i)) for i in range(1, 5)]
    await asyncio.sleep(0)  # every one is queued, none has its turn yet
    tasks[1].cancel()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(outcomes[1], asyncio.CancelledError)
    assert calls == [("together", [1, 3, 4])]
    assert stored(path) == {1, 3, 4}


async def test_a_failed_commit_tells_each_job_of_a_kind_why(writes):
    group, path = writes
    kind, _calls = alike_items(group)
    outcomes = await asyncio.gather(alike(group, kind, 1), insert_job(group, 2, parent=99),
                                    alike(group, kind, 3), return_exceptions=True)
    assert all(isinstance(o, sqlite3.IntegrityError) for o in outcomes)
    assert stored(path) == set()
    assert await group.run_alike(kind, 4) == 4


async def test_turns_together_one_stale_are_each_written_or_refused_alone(db_path):
    async with await SqliteStorage.open(db_path) as store:
        games = await start_games(store, 6)
        rng = random.Random(3)
        turns = [random_turn(rebuild(await store.load_game(g.id)), rng) for g in games]
        played = [store.append_turn(g.id, 0, actor, text)
                  for g, (actor, text) in zip(games, turns, strict=True)]
        # the third game's turn twice, as two players racing: one lands, one is refused
        played.insert(3, store.append_turn(games[2].id, 0, *turns[2]))
        before = store._writes.batches
        outcomes = await asyncio.gather(*played, return_exceptions=True)
        assert store._writes.batches - before == 1
        assert outcomes[:3] + outcomes[4:] == [1] * 6
        assert isinstance(outcomes[3], StaleVersionError)
        for game, (actor, text) in zip(games, turns, strict=True):
            loaded = await store.load_game(game.id)
            assert loaded.game.version == 1
            assert [(t.actor_id, t.command) for t in loaded.turns] == [(actor, text)]


async def test_a_kind_behind_other_writes_that_cannot_land_together_is_undone_alone(writes):
    group, path = writes
    kind, calls = alike_items(group)
    # a job first, so the kind's run does not open the transaction: it runs in a savepoint,
    # whose undoing must keep the job before it
    outcomes = await asyncio.gather(insert_job(group, 10),
                                    *(alike(group, kind, i) for i in (11, -12, 13)),
                                    return_exceptions=True)
    assert [outcomes[0], outcomes[1], outcomes[3]] == [10, 11, 13]
    assert isinstance(outcomes[2], LookupError)
    assert calls == [("together", [11, -12, 13]), ("alone", 11), ("alone", -12), ("alone", 13)]
    assert stored(path) == {10, 11, 13}
    assert (group.batches, group.writes) == (1, 4)


async def test_turns_written_together_and_alone_store_the_same_rows(db_path):
    """The rows of turns written together (`_turns_together`: a turn's values made for all at
    once) are those of the same turns written one by one (`write_turns`, the way back when
    one of them cannot land): moments, wake-ups and whose move each game waits for."""
    later = T0 + timedelta(hours=1)
    due = datetime(2026, 1, 2, 12, 0, tzinfo=timezone(timedelta(hours=2)))  # not in UTC
    waits = [None, Waiting(7, None, T0), Waiting(8, due, later), Waiting(None, None, T0)]

    async def written(alone: bool) -> list[tuple[object, ...]]:
        path = db_path.with_name(f"{'alone' if alone else 'together'}.db")
        async with await SqliteStorage.open(path) as store:
            games = [await clocked(store, channel, now=T0) for channel in range(4)]
            played = [store.append_turn(game.id, 0, 1, "A1", now=T0, waiting=waiting,
                                        wake_at=None if i % 2 else later)
                      for i, (game, waiting) in enumerate(zip(games, waits, strict=True))]
            if alone:  # a stale turn among them: each is written alone
                played.append(store.append_turn(games[0].id, 0, 1, "B2", now=T0))
            before = store._writes.batches
            outcomes = await asyncio.gather(*played, return_exceptions=True)
            assert store._writes.batches - before == 1
            assert outcomes[:4] == [1] * 4
            assert [type(outcome) for outcome in outcomes[4:]] == [StaleVersionError] * alone
        with closing(sqlite3.connect(path)) as db:
            return db.execute(
                "SELECT g.version, g.updated_at, g.wake_at, g.to_move_id, g.due_at, "
                "g.waiting_since, t.number, t.actor_id, t.command, t.played_at "
                "FROM games AS g JOIN turns AS t ON t.game_id = g.id ORDER BY g.id").fetchall()

    together = await written(alone=False)
    assert together == await written(alone=True)
    assert [row[3:6] for row in together] == [
        (None, None, None), (7, None, rows.stamp(T0)), (8, rows.stamp(due), rows.stamp(later)),
        (None, None, rows.stamp(T0))]


def test_a_moment_is_the_text_isoformat_gives_in_any_thread():
    """`rows.utc_text` makes a moment's text from its second's, remembered: the text is
    isoformat's at every microsecond (none too) and second, and in threads formatting
    different seconds at once."""
    rng = random.Random(6)
    start = datetime(1969, 12, 31, 23, 59, 58, tzinfo=UTC)
    moments = [start + timedelta(microseconds=rng.choice([0, rng.randrange(4_000_000)]))
               for _ in range(20_000)]
    moments += [datetime(rng.randrange(1, 10_000), rng.randrange(1, 13), rng.randrange(1, 29),
                         rng.randrange(24), rng.randrange(60), rng.randrange(60),
                         rng.choice([0, rng.randrange(1_000_000)]), tzinfo=UTC)
                for _ in range(2_000)]

    def wrong(part: list[datetime]) -> list[datetime]:
        return [m for m in part if rows.utc_text(m) != m.isoformat(timespec="microseconds")]

    assert wrong(moments) == []
    with ThreadPoolExecutor(4) as threads:
        assert list(threads.map(wrong, [moments[i::4] for i in range(4)])) == [[]] * 4


async def test_a_job_of_a_kind_cancelled_in_flight_is_settled_when_the_cancel_returns(writes):
    """A kind's job is the future its caller awaits: cancelled once taken, the caller waits
    for its batch (`settled`) before it goes on, and finds it landed or not."""
    group, path = writes
    kind, _calls = alike_items(group)
    rng = random.Random(6)
    for round_ in range(40):
        await cancelled_in_flight(lambda group, item: alike(group, kind, item), group, path,
                                  round_, rng, every=1)
