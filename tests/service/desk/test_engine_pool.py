"""The engine pool: calls run in worker processes, at most `workers` at once, the waiting
ones served round robin over their owners, and a full queue refused at once."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from support.processes import alive, searching
from tests.service import engines as engines
from twixt.config import ConfigError, Settings
from twixt.service.desk.engine_pool import EngineBusyError, EnginePool, default_workers


async def test_a_call_runs_in_a_worker_process_and_returns_its_result():
    pool = EnginePool(1)
    try:
        assert await pool.run("alice", pow, 2, 10) == 1024
        assert await pool.run("alice", engines.worker_pid) != engines.worker_pid()
    finally:
        await pool.close()


async def test_waiting_calls_are_served_round_robin_over_their_owners(tmp_path, monkeypatch):
    latch = tmp_path / "latch"
    monkeypatch.setenv(engines.LATCH, str(latch))
    pool = EnginePool(1)
    finished: list[str] = []

    async def call(owner: str, name: str) -> None:
        await pool.run(owner, engines.wait_for_latch)
        finished.append(name)

    try:
        first = asyncio.create_task(call("alice", "alice 1"))
        while pool.running == 0:
            await asyncio.sleep(0.01)
        calls = [asyncio.create_task(call(owner, name)) for owner, name in
                 [("alice", "alice 2"), ("alice", "alice 3"), ("bob", "bob 1")]]
        while pool.waiting < 3:
            await asyncio.sleep(0.01)
        latch.touch()
        await asyncio.gather(first, *calls)
        assert finished == ["alice 1", "alice 2", "bob 1", "alice 3"]
    finally:
        await pool.close()


@pytest.fixture
def latch(tmp_path, monkeypatch) -> Path:
    """The file whose existence lets `wait_for_latch` return (set before workers start)."""
    path = tmp_path / "latch"
    monkeypatch.setenv(engines.LATCH, str(path))
    return path


@pytest.fixture
async def pool_of_one() -> AsyncIterator[EnginePool]:
    """One worker, and room for one call to wait."""
    pool = EnginePool(1, queue_limit=1)
    yield pool
    await pool.close()


async def test_a_call_that_finds_the_queue_full_is_refused_at_once(latch, pool_of_one):
    running, queued = await _one_running_one_queued(pool_of_one)
    with pytest.raises(EngineBusyError):
        await pool_of_one.run("c", pow, 2, 2)
    latch.touch()
    assert (await running, await queued) == (None, 8)


async def test_a_caller_that_stops_waiting_leaves_the_queue(latch, pool_of_one):
    running, queued = await _one_running_one_queued(pool_of_one)
    queued.cancel()
    with pytest.raises(asyncio.CancelledError):
        await queued
    assert pool_of_one.waiting == 0
    latch.touch()
    await running
    assert await pool_of_one.run("b", pow, 3, 2) == 9


async def test_a_failing_call_raises_in_the_caller_and_the_pool_goes_on():
    pool = EnginePool(1)
    try:
        with pytest.raises(RuntimeError, match="the search broke"):
            await pool.run("a", engines.broken, None, None)
        assert await pool.run("a", pow, 2, 2) == 4
    finally:
        await pool.close()


async def test_a_worker_that_dies_fails_its_calls_and_a_fresh_pool_takes_the_next():
    # BrokenProcessPool: the calls in the broken pool fail (the bot looks again at its next
    # tick), those still waiting run in a fresh one, and so does every later call
    pool = EnginePool(1)
    try:
        dying = asyncio.create_task(pool.run("a", os._exit, 1))
        while pool.running == 0:
            await asyncio.sleep(0.01)
        waiting = asyncio.create_task(pool.run("b", pow, 2, 3))
        with pytest.raises(BrokenProcessPool):
            await dying
        assert await waiting == 8
        assert await pool.run("a", pow, 2, 2) == 4
    finally:
        await pool.close()


async def test_a_call_tells_its_progress_back_from_its_worker_in_order_before_its_result():
    pool = EnginePool(2)
    heard: dict[str, list[tuple[int, int]]] = {"a": [], "b": []}

    def listener(owner: str) -> Callable[[int, int], None]:
        return lambda done, total: heard[owner].append((done, total))

    try:
        pids = await asyncio.gather(
            pool.run("a", engines.counting, 300, progress=listener("a")),
            pool.run("b", engines.counting, 200, progress=listener("b")))
        assert os.getpid() not in pids
        assert heard == {"a": [(n, 300) for n in range(1, 301)],
                         "b": [(n, 200) for n in range(1, 201)]}
        # a call asked without progress is called without it; a fresh pool after a broken
        # one still tells
        assert await pool.run("a", pow, 2, 3) == 8
        with pytest.raises(BrokenProcessPool):
            await pool.run("a", os._exit, 1)
        heard["a"].clear()
        await pool.run("a", engines.counting, 3, progress=listener("a"))
        assert heard["a"] == [(1, 3), (2, 3), (3, 3)]
    finally:
        await pool.close()


async def test_a_free_worker_goes_to_the_owner_with_fewest_searches_running(tmp_path):
    # alice holds both workers and has two more calls waiting; bob's call, queued after
    # hers, takes the first worker that frees up
    pool = EnginePool(2)
    finished: list[str] = []

    async def call(owner: str, name: str) -> None:
        await pool.run(owner, engines.wait_for_latch, str(tmp_path / name))
        finished.append(name)

    try:
        running = [asyncio.create_task(call("alice", f"alice {n}")) for n in (1, 2)]
        while pool.running < 2:
            await asyncio.sleep(0.01)
        queued = [asyncio.create_task(call(owner, name)) for owner, name in
                  [("alice", "alice 3"), ("alice", "alice 4"), ("bob", "bob 1")]]
        while pool.waiting < 3:
            await asyncio.sleep(0.01)
        (tmp_path / "alice 1").touch()
        await running[0]
        # only bob's latch: his call ends only if it took the freed worker (a hang guard)
        (tmp_path / "bob 1").touch()
        await asyncio.wait_for(queued[2], timeout=60)
        assert finished == ["alice 1", "bob 1"]
        for name in ("alice 2", "alice 3", "alice 4"):
            (tmp_path / name).touch()
        await asyncio.gather(*running, *queued)
    finally:
        await pool.close()


async def test_closing_abandons_a_running_search_and_ends_its_worker(tmp_path):
    # a search that would never end by itself: closing does not wait for it
    pool = EnginePool(1)
    search = asyncio.create_task(pool.run("a", engines.wait_for_latch,
                                          str(tmp_path / "never")))
    while not searching(os.getpid()):
        await asyncio.sleep(0.01)
    workers = searching(os.getpid())
    await asyncio.wait_for(pool.close(), timeout=60)  # a hang guard, not a measure
    with pytest.raises(EngineBusyError):
        await search
    assert not alive(workers)


async def test_a_closed_pool_refuses_calls():
    pool = EnginePool(2)
    await pool.close()
    with pytest.raises(EngineBusyError):
        await pool.run("a", pow, 2, 2)


def test_the_workers_default_to_the_cores_and_come_from_the_setting():
    assert EnginePool().workers == default_workers() >= 1
    assert Settings.from_environment({}).engine_workers is None
    assert Settings.from_environment({"TWIXT_ENGINE_WORKERS": "3"}).engine_workers == 3
    for wrong in ("0", "two", "-1"):
        with pytest.raises(ConfigError, match="TWIXT_ENGINE_WORKERS"):
            Settings.from_environment({"TWIXT_ENGINE_WORKERS": wrong})
    with pytest.raises(ValueError, match="at least one worker"):
        EnginePool(0)


async def _one_running_one_queued(pool: EnginePool) -> tuple[asyncio.Task, asyncio.Task]:
    """The pool's one worker taken until the latch file exists, and a call waiting."""
    running = asyncio.create_task(pool.run("a", engines.wait_for_latch))
    while pool.running == 0:
        await asyncio.sleep(0.01)
    queued = asyncio.create_task(pool.run("b", pow, 2, 3))
    while pool.waiting == 0:
        await asyncio.sleep(0.01)
    return running, queued
